package bot

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/cfr"
	"github.com/felt-poker/felt/internal/cfr/blueprint"
	"github.com/felt-poker/felt/internal/engine"
)

// cfrBot plays heads-up limit Hold'em from a strategy trained by counterfactual
// regret minimisation: felt's built-in blueprint (internal/cfr/blueprint), or a
// strategy file (felt train hulhe --out FILE, or --pack FILE; see docs/cfr.md).
// It follows the hand's betting down the strategy's betting tree, computes its
// bucket in the strategy's card abstraction (cfrBuckets) and samples an action
// from the strategy's probabilities there, which Strategy states exactly. It is
// made for heads-up fixed-limit Hold'em only (cfrPlays): asked for another game,
// or a strategy file for another game, New refuses. Off the tree within its game
// — a player leaving, a raise cap other than felt's four bets, cards no deal
// holds — it checks or calls.
type cfrBot struct {
	p       *cfr.HoldemProfile
	buckets cfrBuckets
	r       *rand.Rand
}

var _ Strategist = (*cfrBot)(nil)

func newCFRBot(p *cfr.HoldemProfile, a *cfr.Abstraction, r *rand.Rand) *cfrBot {
	return &cfrBot{p: p, buckets: cfrBuckets{a: a}, r: r}
}

// cfrPlays accepts heads-up fixed-limit Hold'em only, the game of every strategy
// felt trains for the cfr bot.
func cfrPlays(g *Game) error {
	if g == nil {
		return fmt.Errorf("cfr plays heads-up fixed-limit holdem only, and the game was not given: %w", ErrWrongGame)
	}
	if g.Variant != engine.Holdem || g.Structure != engine.FixedLimit || g.Seats != 2 {
		return fmt.Errorf("cfr plays heads-up fixed-limit holdem only, not %s: %w", g, ErrWrongGame)
	}
	return nil
}

// newCFR loads the strategy file named by the option strategy=FILE (a JSON
// strategy file or a packed one), or takes the built-in blueprint.
func newCFR(o Options) (Bot, error) {
	if o.Strategy == "" {
		s, err := blueprint.Hulhe()
		if err != nil {
			return nil, fmt.Errorf("cfr's built-in strategy: %w", err)
		}
		return newCFRBot(s.Profile, s.Abstraction, o.Rand), nil
	}
	f, err := openRegular(o.Strategy)
	if err != nil {
		return nil, fmt.Errorf("strategy=%q: %w: %w", o.Strategy, ErrBadOption, err)
	}
	defer f.Close()
	p, a, err := readHoldemStrategy(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("strategy=%q: %w", o.Strategy, err)
	}
	return newCFRBot(p, a, o.Rand), nil
}

// readHoldemStrategy reads a packed strategy (a gzip stream) or a JSON strategy
// file, refusing with ErrWrongGame one for a game other than Hold'em.
func readHoldemStrategy(r *bufio.Reader) (*cfr.HoldemProfile, *cfr.Abstraction, error) {
	if magic, _ := r.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		p, a, _, err := cfr.ReadPacked(r)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %w", ErrBadOption, err)
		}
		return p, a, nil
	}
	sf, err := cfr.ReadStrategyFile(r)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrBadOption, err)
	}
	if sf.Game != "hulhe" {
		return nil, nil, fmt.Errorf("a strategy for %q, not heads-up limit holdem: %w", sf.Game, ErrWrongGame)
	}
	p, a, err := sf.HoldemProfile()
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrBadOption, err)
	}
	return p, a, nil
}

// Act plays the strategy's action, or checks or calls off the tree.
func (b *cfrBot) Act(v *engine.View) engine.Action {
	acts, probs, ok := b.lookup(v)
	if !ok {
		return checkOrCall(v.Legal)
	}
	x := b.r.Float64()
	pick := len(acts) - 1
	for i, pr := range probs {
		if x < pr {
			pick = i
			break
		}
		x -= pr
	}
	return cfrAction(acts[pick], v.Legal)
}

// Strategy states the probabilities with which Act plays each action at v: the
// strategy's entry for the hand's bucket and betting, as Act draws from it, or
// the check or call, with certainty, off the tree. Asked about every hand of a
// range at one decision (felt lbr), it rates the board once (cfrBuckets).
func (b *cfrBot) Strategy(v *engine.View, out []ActionProb) ([]ActionProb, bool) {
	acts, probs, ok := b.lookup(v)
	if !ok {
		return certain(out, checkOrCall(v.Legal))
	}
	out = out[:0]
	// Act's draw in [0, 1) picks action i when it is below probs[i] after the
	// earlier ones are taken off, and the last action when none took it: that
	// one gets what is left, unless it is only rounding.
	left := 1.0
	for i := range acts {
		p := max(0, min(probs[i], left))
		if i == len(acts)-1 && left > 1e-12 {
			p = left
		}
		left -= p
		out = addProb(out, cfrAction(acts[i], v.Legal), p)
	}
	return out, true
}

// lookup returns the strategy's actions (its letters) and their probabilities
// for the viewer's hand at v, or false off the tree.
func (b *cfrBot) lookup(v *engine.View) (acts string, probs []float64, ok bool) {
	hist, ok := cfrHistory(v)
	if !ok || v.Viewer < 0 || v.Viewer >= len(v.Seats) || v.Seats[v.Viewer].NCards < 2 {
		return "", nil, false
	}
	s := &v.Seats[v.Viewer]
	bucket, ok := b.buckets.bucket([2]cards.Card{s.Cards[0], s.Cards[1]}, v.Board)
	if !ok {
		return "", nil, false
	}
	return b.p.Lookup(hist, bucket)
}

// cfrAction is the action strategy letter c stands for under l: f folds (a check
// when nothing is to call), r bets or raises the fixed amount, c (or a letter the
// rules do not allow) checks or calls.
func cfrAction(c byte, l engine.Legal) engine.Action {
	switch c {
	case 'f':
		if l.Can(engine.Fold) && !l.Can(engine.Check) {
			return engine.Action{Seat: l.Seat, Kind: engine.Fold}
		}
	case 'r':
		if l.Can(engine.Bet) || l.Can(engine.Raise) {
			return raiseTo(l, l.MinTo)
		}
	}
	return checkOrCall(l)
}

// addProb puts action a with probability p among out, merged with an equal one
// (a fold when a check is free is the check).
func addProb(out []ActionProb, a engine.Action, p float64) []ActionProb {
	if p <= 0 {
		return out
	}
	for i := range out {
		if out[i].Action == a {
			out[i].Prob += p
			return out
		}
	}
	return append(out, ActionProb{a, p})
}

// cfrHistory writes the hand's betting in the strategy's letters (c check or call,
// r bet or raise, f fold, "/" between rounds), or reports false when the hand is
// not one the strategy plays: heads-up fixed-limit Hold'em with nobody leaving.
func cfrHistory(v *engine.View) (string, bool) {
	if v.Variant != engine.Holdem || v.Structure != engine.FixedLimit {
		return "", false
	}
	in := 0
	for _, s := range v.Seats {
		if s.InHand {
			in++
		}
	}
	if in != 2 {
		return "", false
	}
	var h strings.Builder
	for _, e := range v.Events {
		switch e.Kind {
		case engine.EvStreet:
			if e.Street > engine.Preflop {
				h.WriteByte('/')
			}
		case engine.EvCheck, engine.EvCall:
			h.WriteByte('c')
		case engine.EvBet, engine.EvRaise:
			h.WriteByte('r')
		case engine.EvFold, engine.EvLeave:
			return "", false
		}
	}
	return h.String(), true
}
