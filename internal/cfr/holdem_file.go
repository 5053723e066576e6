package cfr

import "fmt"

// StrategyFile returns p as a strategy file's document (game "hulhe") carrying a's
// spec, so that a bot can compute buckets; information set keys are the bucket's
// name, a colon and the public history ("AKs:r", "F12:rc/cr", "R3:cc/cc/rc/c").
// The caller fills in Algo, Iterations and Seconds.
func (p *HoldemProfile) StrategyFile(a *Abstraction) *StrategyFile {
	f := &StrategyFile{Format: StrategyFormat, Version: StrategyVersion, Game: holdemCheckpointGame,
		Abstraction: a.Spec(), Fingerprint: a.Fingerprint()}
	for i := range p.g.infosets {
		in := p.g.Infoset(i)
		f.Infosets = append(f.Infosets, InfosetProbs{Key: a.BucketName(in.Round, in.Bucket) + ":" + in.History,
			Player: in.Player, Actions: in.Actions, Probs: append([]float64(nil), p.Probs(i)...)})
	}
	return f
}

// HoldemProfile returns the Hold'em strategy in f and its abstraction (computing
// buckets on the fly), checking that f holds every information set once with the
// right actions.
func (f *StrategyFile) HoldemProfile() (*HoldemProfile, *Abstraction, error) {
	if f.Game != holdemCheckpointGame || f.Abstraction == nil {
		return nil, nil, fmt.Errorf("%w: not a Hold'em strategy (game %q)", ErrBadFile, f.Game)
	}
	a, err := f.Abstraction.Abstraction()
	if err != nil {
		return nil, nil, err
	}
	if f.Fingerprint != "" && f.Fingerprint != a.Fingerprint() {
		return nil, nil, fmt.Errorf("%w: the abstraction does not match its fingerprint", ErrBadFile)
	}
	g, err := NewHoldemGame(a.Sizes())
	if err != nil {
		return nil, nil, err
	}
	if len(f.Infosets) != g.infosets {
		return nil, nil, fmt.Errorf("%w: %d information sets, the game has %d", ErrBadFile, len(f.Infosets), g.infosets)
	}
	index := make(map[string]int, g.infosets)
	for i := range g.infosets {
		in := g.Infoset(i)
		index[a.BucketName(in.Round, in.Bucket)+":"+in.History] = i
	}
	p := &HoldemProfile{g: g, prob: make([]float64, g.slots)}
	seen := make([]bool, g.infosets)
	for _, in := range f.Infosets {
		i, ok := index[in.Key]
		if !ok || seen[i] {
			return nil, nil, fmt.Errorf("%w: unknown or repeated information set %q", ErrBadFile, in.Key)
		}
		seen[i] = true
		want := g.Infoset(i)
		if in.Actions != want.Actions || in.Player != want.Player || len(in.Probs) != len(want.Actions) {
			return nil, nil, fmt.Errorf("%w: information set %q: player %d actions %q, want %d %q",
				ErrBadFile, in.Key, in.Player, in.Actions, want.Player, want.Actions)
		}
		total := 0.0
		for _, x := range in.Probs {
			if x < 0 || x > 1 {
				return nil, nil, fmt.Errorf("%w: information set %q: probability %v", ErrBadFile, in.Key, x)
			}
			total += x
		}
		if total < 1-1e-6 || total > 1+1e-6 {
			return nil, nil, fmt.Errorf("%w: information set %q: probabilities sum to %v", ErrBadFile, in.Key, total)
		}
		sl, _ := g.infosetSlot(i)
		copy(p.prob[sl:], in.Probs)
	}
	return p, a, nil
}
