package cfr

import (
	"math"
	"os"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/eval"
)

// tinyBucketer is a cheap abstraction with few bucket sequences, for tests: preflop
// a pair or not (2 buckets), then the made hand's category, capped at the round's
// bucket count.
type tinyBucketer struct{ sizes [4]int }

func (c tinyBucketer) Sizes() [4]int { return c.sizes }

func (c tinyBucketer) DealBuckets(holes *[2][2]cards.Card, board *[5]cards.Card) (b [2][4]uint8) {
	for p, h := range holes {
		if h[0].Rank() == h[1].Rank() {
			b[p][0] = uint8(min(1, c.sizes[0]-1))
		}
		hand := eval.Empty.Add(h[0]).Add(h[1])
		for i, bc := range board {
			hand = hand.Add(bc)
			if r := [5]int{0, 0, 1, 2, 3}[i]; i >= 2 {
				b[p][r] = uint8(min(int(hand.Rank().Category())-1, c.sizes[r]-1))
			}
		}
	}
	return b
}

// constantProfile plays, at every information set, probs(actions).
func constantProfile(g *HoldemGame, probs func(acts string) []float64) *HoldemProfile {
	p := &HoldemProfile{g: g, prob: make([]float64, g.slots)}
	for i := range g.infosets {
		sl, _ := g.infosetSlot(i)
		copy(p.prob[sl:], probs(g.Infoset(i).Actions))
	}
	return p
}

func uniform(acts string) []float64 {
	out := make([]float64, len(acts))
	for i := range out {
		out[i] = 1 / float64(len(acts))
	}
	return out
}

// randomProfile plays a random strategy, different at every information set.
func randomProfile(g *HoldemGame, seed uint64) *HoldemProfile {
	p := &HoldemProfile{g: g, prob: make([]float64, g.slots)}
	x := seed
	for i := range p.prob {
		x = x*6364136223846793005 + 1442695040888963407
		p.prob[i] = float64(x>>40) + 1
	}
	for i := range g.infosets {
		sl, na := g.infosetSlot(i)
		normalize(p.prob[sl:sl+na], p.prob[sl:sl+na])
	}
	return p
}

// bruteValue computes player q's value in ag deal by deal: every pair of bucket
// sequences is a deal, walked down the whole tree; with follow, q plays p,
// else at each of his information sets (node, his bucket sequence so far) the
// action whose deals, summed, win most. No tables are folded, nothing is shared
// between deals but the choice.
func bruteValue(ag *HoldemAbstractGame, p *HoldemProfile, q int, follow bool) float64 {
	S := ag.seqs
	type deal struct {
		s    [2]int
		prob float64
		win  float64 // q's showdown result × probability
	}
	var deals []deal
	for s0 := range S {
		for s1 := range S {
			if pr := ag.prob[s0*S+s1]; pr > 0 {
				w := ag.win[s0*S+s1]
				if q == 1 {
					w = -w
				}
				deals = append(deals, deal{[2]int{s0, s1}, pr, w})
			}
		}
	}
	bucket := func(s, r int) int { return s / ag.tail[r+1] % ag.sizes[r] }
	var rec func(n int32, reach []float64) []float64
	rec = func(n int32, reach []float64) []float64 {
		nd := &ag.g.nodes[n]
		out := make([]float64, len(deals))
		r := int(nd.round)
		if nd.player < 0 {
			for d, dl := range deals {
				switch {
				case nd.fold < 0:
					out[d] = reach[d] * dl.win * float64(nd.stake)
				case int(nd.fold) == q:
					out[d] = -reach[d] * dl.prob * float64(nd.stake)
				default:
					out[d] = reach[d] * dl.prob * float64(nd.stake)
				}
			}
			return out
		}
		na := len(nd.acts)
		sigma := func(s, a int) float64 { return p.prob[int(nd.slot)+bucket(s, r)*na+a] }
		if int(nd.player) != q {
			for a, kid := range nd.kids {
				r2 := make([]float64, len(deals))
				for d, dl := range deals {
					r2[d] = reach[d] * sigma(dl.s[nd.player], a)
				}
				for d, v := range rec(kid, r2) {
					out[d] += v
				}
			}
			return out
		}
		vals := make([][]float64, na)
		for a, kid := range nd.kids {
			vals[a] = rec(kid, reach)
		}
		sums := map[int][]float64{}
		for d, dl := range deals {
			pre := dl.s[q] / ag.tail[r+1]
			if sums[pre] == nil {
				sums[pre] = make([]float64, na)
			}
			for a := range na {
				sums[pre][a] += vals[a][d]
			}
		}
		for d, dl := range deals {
			if follow {
				for a := range na {
					out[d] += sigma(dl.s[q], a) * vals[a][d]
				}
				continue
			}
			sm, best := sums[dl.s[q]/ag.tail[r+1]], 0
			for a := range na {
				if sm[a] > sm[best] {
					best = a
				}
			}
			out[d] = vals[best][d]
		}
		return out
	}
	reach := make([]float64, len(deals))
	for d := range reach {
		reach[d] = 1
	}
	v := 0.0
	for _, x := range rec(0, reach) {
		v += x
	}
	return v
}

func tinyAbstractGame(t *testing.T, sizes [4]int, boards int) *HoldemAbstractGame {
	t.Helper()
	ag, err := NewHoldemAbstractGame(tinyBucketer{sizes}, AbstractGameOptions{Boards: boards, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	return ag
}

// The tables are a probability distribution, and zero-sum: what player 0 wins at
// showdowns with the sequences swapped is what player 1 wins.
func TestAbstractGameTables(t *testing.T) {
	ag := tinyAbstractGame(t, [4]int{2, 2, 2, 2}, 20)
	S, total := ag.seqs, 0.0
	for a := range S {
		for b := range S {
			total += ag.prob[a*S+b]
			if d := ag.prob[a*S+b] - ag.prob[b*S+a]; math.Abs(d) > 1e-15 {
				t.Fatalf("prob not symmetric at %d,%d", a, b)
			}
			if d := ag.win[a*S+b] + ag.win[b*S+a]; math.Abs(d) > 1e-15 {
				t.Fatalf("win not antisymmetric at %d,%d", a, b)
			}
			if math.Abs(ag.win[a*S+b]) > ag.prob[a*S+b]+1e-15 {
				t.Fatalf("|win| > prob at %d,%d", a, b)
			}
		}
	}
	if math.Abs(total-1) > 1e-12 {
		t.Errorf("probabilities sum to %v", total)
	}
	if _, err := NewHoldemAbstractGame(tinyBucketer{[4]int{169, 8, 8, 8}}, AbstractGameOptions{Boards: 1}); err == nil {
		t.Error("169×8×8×8 sequences: no error")
	}
}

// On a tiny abstraction the best response and the profile's value equal a deal-by-
// deal computation, for both players and for several strategies.
func TestAbstractBestResponseBruteForce(t *testing.T) {
	ag := tinyAbstractGame(t, [4]int{2, 2, 2, 2}, 20)
	for _, p := range []*HoldemProfile{constantProfile(ag.g, uniform), randomProfile(ag.g, 1), randomProfile(ag.g, 2)} {
		for q := range 2 {
			got, want := ag.BestResponseValue(p, q), bruteValue(ag, p, q, false)
			if math.Abs(got-want) > 1e-9 {
				t.Errorf("best response of player %d: %v, brute force %v", q, got, want)
			}
			fv, fw := ag.pass(p, q, true), bruteValue(ag, p, q, true)
			if math.Abs(fv-fw) > 1e-9 {
				t.Errorf("player %d's value: %v, brute force %v", q, fv, fw)
			}
		}
		v := ag.Value(p)
		if v1 := ag.pass(p, 1, true); math.Abs(v+v1) > 1e-9 {
			t.Errorf("values %v and %v do not sum to zero", v, v1)
		}
		if br0, br1 := ag.BestResponseValue(p, 0), ag.BestResponseValue(p, 1); br0 < v-1e-9 || br1 < -v-1e-9 {
			t.Errorf("best responses %v, %v below the values %v, %v", br0, br1, v, -v)
		}
	}
}

// Values a hand computation gives.
func TestAbstractHandComputed(t *testing.T) {
	ag := tinyAbstractGame(t, [4]int{2, 2, 2, 2}, 5)
	// A strategy that folds to every bet and never bets: the button raises and wins
	// the big blind (2 chips); the big blind wins the small blind at once (1).
	folder := constantProfile(ag.g, func(acts string) []float64 {
		if acts[0] == 'f' {
			return []float64{1, 0, 0}[:len(acts)]
		}
		return []float64{1, 0}[:len(acts)]
	})
	if br0, br1, e := ag.BestResponseValue(folder, 0), ag.BestResponseValue(folder, 1), ag.Exploitability(folder); br0 != 2 || br1 != 1 || e != 1.5 {
		t.Errorf("folder: best responses %v, %v, exploitability %v; want 2, 1, 1.5", br0, br1, e)
	}
	// With one bucket a round nobody knows anything: against a player who always
	// checks or calls, every line ends at an even showdown or in a fold of one's own.
	one := tinyAbstractGame(t, [4]int{1, 1, 1, 1}, 5)
	caller := constantProfile(one.g, func(acts string) []float64 {
		out := make([]float64, len(acts))
		out[len(acts)-1-map[bool]int{true: 1}[acts[len(acts)-1] == 'r']] = 1
		return out
	})
	if e := one.Exploitability(caller); math.Abs(e) > 1e-12 {
		t.Errorf("calling station, no information: exploitability %v, want 0", e)
	}
	// Uniform random against itself with no information: showdowns are even, so
	// player 0's value is the fold terminals' stakes weighted by the betting's
	// probabilities (each action 1/len(acts)), summed over the tree.
	u := constantProfile(one.g, uniform)
	want := 0.0
	var walk func(n int32, pr float64)
	walk = func(n int32, pr float64) {
		nd := &one.g.nodes[n]
		if nd.player < 0 {
			if nd.fold >= 0 {
				want += pr * float64(nd.stake) * float64(2*int(nd.fold)-1)
			}
			return
		}
		for _, k := range nd.kids {
			walk(k, pr/float64(len(nd.kids)))
		}
	}
	walk(0, 1)
	if v := one.Value(u); math.Abs(v-want) > 1e-12 || math.Abs(want-0.0) < 1e-6 {
		t.Errorf("uniform: value %v, by hand %v", v, want)
	}
}

// Exploitability falls as MCCFR trains on the abstraction the game is built from.
func TestAbstractExploitabilityFalls(t *testing.T) {
	sizes := [4]int{2, 2, 2, 2}
	bk := tinyBucketer{sizes}
	ag := tinyAbstractGame(t, sizes, 200)
	s, err := NewHoldemSolver(bk, HoldemOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	uni := ag.Exploitability(constantProfile(ag.g, uniform))
	var es []float64
	for _, n := range []int{10000, 100000} {
		for s.Iterations() < n {
			s.Iterate(min(s.BatchSize(), n-s.Iterations()))
		}
		es = append(es, ag.Exploitability(s.Average()))
	}
	t.Logf("exploitability (chips): uniform %.4f, 10,000 iterations %.4f, 100,000 %.4f", uni, es[0], es[1])
	if !(es[1] < uni/2 && es[1] < es[0]/2) {
		t.Errorf("exploitability does not fall: uniform %v, then %v", uni, es)
	}
	if os.Getenv("FELT_CFR_SLOW") != "" {
		for s.Iterations() < 500000 {
			s.Iterate(s.BatchSize())
		}
		t.Logf("500,000 iterations: %.4f", ag.Exploitability(s.Average()))
	}
}
