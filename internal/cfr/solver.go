package cfr

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// Algorithm is a CFR variant.
type Algorithm uint8

const (
	// Vanilla is Zinkevich et al.'s CFR: regret matching, the average strategy
	// weighted by each player's own reach, alternating updates (as OpenSpiel's C++
	// CFRSolver does; it reaches OpenSpiel's exploitability after 1,024 iterations
	// on Leduc, while simultaneous updates do not).
	Vanilla Algorithm = iota
	// CFRPlus is Tammelin's CFR+: regrets floored at zero after every update,
	// alternating updates, the average weighted by the iteration number.
	CFRPlus
	// DCFR is Brown and Sandholm's Discounted CFR with α = 1.5, β = 0, γ = 2:
	// alternating updates; after iteration t positive regrets are multiplied by
	// t^α/(t^α+1), negative ones by t^β/(t^β+1) = 1/2, and iteration t's
	// contribution to the average strategy is weighted by t^γ.
	DCFR
	// MCCFR is Lanctot et al.'s external-sampling Monte Carlo CFR: an iteration
	// samples a deal for each player in turn, who then explores all of his actions
	// while the opponent's and chance's are sampled.
	MCCFR
)

// DCFR's parameters.
const (
	DCFRAlpha = 1.5
	DCFRBeta  = 0
	DCFRGamma = 2
)

var algorithmNames = [...]string{"vanilla", "cfr+", "dcfr", "mccfr"}

// String returns the name ParseAlgorithm reads.
func (a Algorithm) String() string {
	if int(a) < len(algorithmNames) {
		return algorithmNames[a]
	}
	return fmt.Sprintf("Algorithm(%d)", a)
}

// ErrUnknownAlgorithm is wrapped by ParseAlgorithm for a name it does not know.
var ErrUnknownAlgorithm = errors.New("unknown algorithm")

// ParseAlgorithm reads "vanilla", "cfr+", "dcfr" or "mccfr".
func ParseAlgorithm(s string) (Algorithm, error) {
	for i, n := range algorithmNames {
		if s == n {
			return Algorithm(i), nil
		}
	}
	return 0, fmt.Errorf("%w %q (known: %s)", ErrUnknownAlgorithm, s, strings.Join(algorithmNames[:], ", "))
}

// Updates says whether an iteration updates both players against the same
// strategies (Simultaneous) or one after the other, the second against the first's
// new strategy (Alternating).
type Updates uint8

const (
	// DefaultUpdates is Alternating (MCCFR always alternates).
	DefaultUpdates Updates = iota
	Simultaneous
	Alternating
)

// Options configure a Solver.
type Options struct {
	Algorithm Algorithm
	Updates   Updates
	// Seed seeds MCCFR's sampling (a ChaCha8 stream); the other algorithms are
	// deterministic.
	Seed [32]byte
}

// Solver runs one CFR algorithm on one game. Its state (regrets, average strategy
// sums, iteration count, random stream) is a few flat arrays indexed by the game's
// slots; it can be saved as a checkpoint and resumed. A Solver is not safe for
// concurrent use.
type Solver struct {
	g    *Game
	algo Algorithm
	alt  bool
	iter int

	regret []float64 // cumulative regret per slot (information set × action)
	sum    []float64 // average strategy numerators per slot
	cur    []float64 // this iteration's strategy per slot (scratch)

	// Scratch for full-tree passes, node*H+h.
	reach [2][]float64
	value [2][]float64

	src *rand.ChaCha8
	rng *rand.Rand
}

// NewSolver returns a solver for g at iteration 0 (every strategy uniform).
func NewSolver(g *Game, o Options) (*Solver, error) {
	if int(o.Algorithm) >= len(algorithmNames) {
		return nil, fmt.Errorf("%w %d", ErrUnknownAlgorithm, o.Algorithm)
	}
	alt := true
	switch o.Updates {
	case DefaultUpdates:
	case Simultaneous:
		if o.Algorithm == MCCFR {
			return nil, errors.New("mccfr: updates always alternate")
		}
		alt = false
	case Alternating:
		alt = true
	default:
		return nil, fmt.Errorf("unknown updates %d", o.Updates)
	}
	s := &Solver{
		g: g, algo: o.Algorithm, alt: alt,
		regret: make([]float64, g.slots),
		sum:    make([]float64, g.slots),
		cur:    make([]float64, g.slots),
		src:    rand.NewChaCha8(o.Seed),
	}
	s.rng = rand.New(s.src)
	s.resetCurrent()
	nh := len(g.nodes) * g.hands
	for p := range 2 {
		s.reach[p] = make([]float64, nh)
		s.value[p] = make([]float64, nh)
	}
	return s, nil
}

// Game returns the game being solved.
func (s *Solver) Game() *Game { return s.g }

// Algorithm returns the algorithm the solver runs.
func (s *Solver) Algorithm() Algorithm { return s.algo }

// Iterations returns the number of iterations done.
func (s *Solver) Iterations() int { return s.iter }

// Iterate runs n iterations.
func (s *Solver) Iterate(n int) {
	for range n {
		s.iter++
		switch {
		case s.algo == MCCFR:
			s.sampleIteration()
		case s.alt:
			s.pass(0)
			s.pass(1)
		default:
			s.pass(-1)
		}
	}
}

// regretMatch writes the strategy that regret matching gives for the n actions
// whose regrets are r into out: proportional to the positive regrets, uniform if
// none is positive.
func regretMatch(r, out []float64) {
	total := 0.0
	for _, x := range r {
		if x > 0 {
			total += x
		}
	}
	if total <= 0 {
		u := 1 / float64(len(out))
		for i := range out {
			out[i] = u
		}
		return
	}
	for i, x := range r {
		if x > 0 {
			out[i] = x / total
		} else {
			out[i] = 0
		}
	}
}

// pass is one full-tree CFR pass updating player upd's regrets and average
// strategy, or both players' when upd is −1. s.cur holds the current strategy on
// entry and is brought up to date, node by node, as regrets change.
func (s *Solver) pass(upd int) {
	avgW, posD, negD := s.weights()
	s.forward()
	for q := range 2 {
		if upd < 0 || q == upd {
			s.backward(q, avgW, posD, negD)
		}
	}
}

// weights returns this iteration's average strategy weight and, for DCFR, the
// discounts owed from the previous iteration on positive and negative regrets,
// applied lazily before this one's regrets are added (regret matching sees the
// same strategy as when the discount is applied eagerly).
func (s *Solver) weights() (avgW, posD, negD float64) {
	t := float64(s.iter)
	avgW, posD, negD = 1, 1, 1
	switch s.algo {
	case CFRPlus:
		avgW = t
	case DCFR:
		avgW = t * t // t^γ, γ = 2
		if s.iter > 1 {
			ta := math.Pow(t-1, DCFRAlpha)
			posD = ta / (ta + 1)
			negD = 0.5 // (t-1)^β / ((t-1)^β + 1), β = 0
		}
	}
	return avgW, posD, negD
}

// forward sets the reach probabilities, parents before children.
func (s *Solver) forward() {
	g := s.g
	H := g.hands
	r0, r1 := s.reach[0], s.reach[1]
	for h := range H {
		r0[h], r1[h] = 1, 1
	}
	for i := range g.nodes {
		nd := &g.nodes[i]
		base := i * H
		switch nd.kind {
		case decision:
			na := len(nd.acts)
			sl := int(nd.slot)
			act, opp := s.reach[nd.player], s.reach[1-nd.player]
			for a, k := range nd.kids {
				kb := int(k) * H
				for h := range H {
					act[kb+h] = act[base+h] * s.cur[sl+h*na+a]
				}
				copy(opp[kb:kb+H], opp[base:base+H])
			}
		case chance:
			for _, k := range nd.kids {
				kb := int(k) * H
				copy(r0[kb:kb+H], r0[base:base+H])
				copy(r1[kb:kb+H], r1[base:base+H])
			}
		}
	}
}

// backward sets player q's counterfactual values, children before parents, and
// updates q's regrets, average sums and strategies where q acts.
func (s *Solver) backward(q int, avgW, posD, negD float64) {
	g := s.g
	H := g.hands
	v := s.value[q]
	opp := s.reach[1-q]
	for i := len(g.nodes) - 1; i >= 0; i-- {
		nd := &g.nodes[i]
		base := i * H
		switch nd.kind {
		case terminal:
			terminalValues(v, g.pay[nd.term:int(nd.term)+H*H], opp, base, H, q)
		case chance:
			chanceValues(v, nd.kids, base, H)
		case decision:
			if int(nd.player) != q {
				for h := range H {
					acc := 0.0
					for _, k := range nd.kids {
						acc += v[int(k)*H+h]
					}
					v[base+h] = acc
				}
				continue
			}
			s.update(nd, q, base, avgW, posD, negD)
		}
	}
}

// update sets the values of q's decision nd (at base in the value arrays) and
// updates its regrets, average sums and next strategy.
func (s *Solver) update(nd *node, q, base int, avgW, posD, negD float64) {
	H := s.g.hands
	v := s.value[q]
	na := len(nd.acts)
	for h := range H {
		sl := int(nd.slot) + h*na
		cur := s.cur[sl : sl+na]
		val := 0.0
		for a, k := range nd.kids {
			val += cur[a] * v[int(k)*H+h]
		}
		v[base+h] = val
		reg := s.regret[sl : sl+na]
		sum := s.sum[sl : sl+na]
		w := s.reach[q][base+h] * avgW
		for a, k := range nd.kids {
			d := v[int(k)*H+h] - val
			x := reg[a]
			switch s.algo {
			case CFRPlus:
				x = max(x+d, 0)
			case DCFR:
				if x > 0 {
					x = x*posD + d
				} else {
					x = x*negD + d
				}
			default:
				x += d
			}
			reg[a] = x
			sum[a] += w * cur[a]
		}
		regretMatch(reg, cur) // next time's strategy here
	}
}

// Average returns the average strategy, the one that converges to an equilibrium.
func (s *Solver) Average() *Profile {
	p := &Profile{g: s.g, prob: make([]float64, s.g.slots)}
	for i := range s.g.infosets {
		sl, na := s.g.infosetSlot(i)
		normalize(s.sum[sl:sl+na], p.prob[sl:sl+na])
	}
	return p
}

// Current returns the strategy regret matching gives for the next iteration.
func (s *Solver) Current() *Profile {
	p := &Profile{g: s.g, prob: make([]float64, s.g.slots)}
	for i := range s.g.infosets {
		sl, na := s.g.infosetSlot(i)
		regretMatch(s.regret[sl:sl+na], p.prob[sl:sl+na])
	}
	return p
}

// normalize writes w scaled to sum to 1 into out, or the uniform vector if w sums to 0.
func normalize(w, out []float64) {
	total := 0.0
	for _, x := range w {
		total += x
	}
	for i, x := range w {
		if total > 0 {
			out[i] = x / total
		} else {
			out[i] = 1 / float64(len(w))
		}
	}
}

// resetCurrent sets the current strategy from the regrets.
func (s *Solver) resetCurrent() {
	for i := range s.g.infosets {
		sl, na := s.g.infosetSlot(i)
		regretMatch(s.regret[sl:sl+na], s.cur[sl:sl+na])
	}
}
