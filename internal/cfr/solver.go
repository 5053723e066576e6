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
// strategy, or both players' when upd is −1.
func (s *Solver) pass(upd int) {
	g := s.g
	H := g.hands
	t := float64(s.iter)
	// Average strategy weight and, for DCFR, the discount owed from the previous
	// iteration, applied lazily before this one's regrets are added (regret
	// matching sees the same strategy as when the discount is applied eagerly).
	avgW := 1.0
	posD, negD := 1.0, 1.0
	switch s.algo {
	case CFRPlus:
		avgW = t
	case DCFR:
		avgW = t * t // t^γ, γ = 2
		if s.iter > 1 {
			ta := math.Pow(t-1, DCFRAlpha)
			posD = ta / (ta + 1)
			negD = 0.5 // (t-1)^0 / ((t-1)^0 + 1)
		}
	}
	r0, r1 := s.reach[0], s.reach[1]
	for h := range H {
		r0[h], r1[h] = 1, 1
	}
	// Forward: strategies and reach probabilities, parents before children.
	for i := range g.nodes {
		nd := &g.nodes[i]
		base := i * H
		switch nd.kind {
		case decision:
			na := len(nd.acts)
			sl := int(nd.slot)
			for h := range H {
				regretMatch(s.regret[sl+h*na:sl+h*na+na], s.cur[sl+h*na:sl+h*na+na])
			}
			act, opp := s.reach[nd.player], s.reach[1-nd.player]
			for a, k := range nd.kids {
				kb := int(k) * H
				for h := range H {
					act[kb+h] = act[base+h] * s.cur[sl+h*na+a]
					opp[kb+h] = opp[base+h]
				}
			}
		case chance:
			for _, k := range nd.kids {
				kb := int(k) * H
				copy(r0[kb:kb+H], r0[base:base+H])
				copy(r1[kb:kb+H], r1[base:base+H])
			}
		}
	}
	// Backward: counterfactual values, children before parents.
	v0, v1 := s.value[0], s.value[1]
	for i := len(g.nodes) - 1; i >= 0; i-- {
		nd := &g.nodes[i]
		base := i * H
		switch nd.kind {
		case terminal:
			m := g.pay[nd.term : int(nd.term)+H*H]
			for h := range H {
				v0[base+h], v1[base+h] = 0, 0
			}
			for h0 := range H {
				row := m[h0*H : h0*H+H]
				acc := 0.0
				p0 := r0[base+h0]
				for h1, x := range row {
					acc += x * r1[base+h1]
					v1[base+h1] -= x * p0
				}
				v0[base+h0] = acc
			}
		case chance:
			for h := range H {
				a0, a1 := 0.0, 0.0
				for _, k := range nd.kids {
					a0 += v0[int(k)*H+h]
					a1 += v1[int(k)*H+h]
				}
				v0[base+h], v1[base+h] = a0, a1
			}
		case decision:
			p := int(nd.player)
			act, opp := s.value[p], s.value[1-p]
			na := len(nd.acts)
			sl := int(nd.slot)
			update := upd < 0 || upd == p
			for h := range H {
				o, v := 0.0, 0.0
				cur := s.cur[sl+h*na : sl+h*na+na]
				for a, k := range nd.kids {
					kb := int(k)*H + h
					o += opp[kb]
					v += cur[a] * act[kb]
				}
				opp[base+h], act[base+h] = o, v
				if !update {
					continue
				}
				reg := s.regret[sl+h*na : sl+h*na+na]
				sum := s.sum[sl+h*na : sl+h*na+na]
				w := s.reach[p][base+h] * avgW
				for a, k := range nd.kids {
					d := act[int(k)*H+h] - v
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
			}
		}
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
