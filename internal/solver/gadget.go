package solver

import (
	"context"
	"fmt"
	"math"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
)

// Safe re-solving (docs/solver.md, "Safe re-solving"). A Bound on a spot adds the
// re-solving gadget of Burch, Johanson and Bowling (2014) at the root: the bounded
// player chooses with each hand between entering the subgame and terminating with
// the hand's bound, the value it had in the earlier solve; the other player, the one
// re-solving, minimizes the sum over hands of max(bound, value in the subgame). When
// the bounds can be met at once (they are what the earlier strategy gave), a
// solution meets every one. Bound.Belief adds the believed range beside the gadget,
// as unsafe re-solving plays it: the re-solver then minimizes the believed range's
// value plus the gadget's, a penalty on every chip a hand gains over its bound.

// Bound is a safe re-solve's constraint: the most each hand of Player may win in the
// subgame, as the earlier solve's Values (best response) gave it.
type Bound struct {
	Player int // OOP or IP: the player whose values are bounded
	// Values, one per hand in equity.ComboIndex order (equity.NumCombos), are chips
	// as Values reports them; NaN leaves a hand unbounded (it always enters).
	Values []float64
	// Belief is how much the spot's range of Player counts beside the gadget: a
	// bounded hand enters the subgame with Belief times its weight in the range plus
	// how often the gadget, of weight 1, chooses to enter with it. 0 is the
	// re-solving gadget alone (safe: no hand gains more than its bound, once solved);
	// above 0 the re-solver also plays for the range it believes in, and the hands'
	// total gain over their bounds is at most what it gains on that range over the
	// earlier strategy (docs/solver.md).
	Belief float64
}

// check reports what is wrong with the bound.
func (b *Bound) check() error {
	if b.Player != OOP && b.Player != IP {
		return fmt.Errorf("the bounded player must be %d (OOP) or %d (IP), not %d", OOP, IP, b.Player)
	}
	if len(b.Values) != equity.NumCombos {
		return fmt.Errorf("the bound has %d values: want one per hand, %d", len(b.Values), equity.NumCombos)
	}
	if !(b.Belief >= 0 && b.Belief <= 1000) {
		return fmt.Errorf("the belief's weight must be from 0 to 1000, not %v", b.Belief)
	}
	for i, v := range b.Values {
		if math.IsInf(v, 0) {
			return fmt.Errorf("the bound of hand %d is infinite: give a number, or NaN for none", i+1)
		}
	}
	return nil
}

// gadget holds the bounded player's choice at the root, per hand: regrets and
// strategy sums of following (entering) and terminating, and the bound in the
// traversal's units (the bound times the other player's reach the hand can meet).
// The gadget's chance weighs every hand alike (1), not by the belief: a hand the
// belief wrongly makes rare is guarded as much as any.
type gadget struct {
	player int
	mix    float64
	bound  []float64 // per hand of player: chips, NaN when unbounded
	alt    []float64 // per hand: the terminate value, bound × compatible reach
	regret []float64 // [follow hands..., terminate hands...]
	sum    []float64 // same layout: discounted strategy sums
	reach  []float64 // the root reach of player this iteration: prior × follow
}

// newGadget sets up the gadget of bound b for the solver's hands.
func (s *Solver) newGadget(b *Bound) {
	c := b.Player
	nh := len(s.hands[c])
	g := &gadget{player: c, mix: b.Belief, bound: make([]float64, nh), alt: make([]float64, nh),
		regret: make([]float64, 2*nh), sum: make([]float64, 2*nh), reach: make([]float64, nh)}
	for h, hd := range s.hands[c] {
		g.bound[h] = b.Values[equity.ComboIndex(hd.c[0], hd.c[1])]
	}
	var cs [cards.NumCards + 1]float64
	s.compatible(c, s.weights[1-c], g.alt, &cs)
	for h := range g.alt {
		g.alt[h] *= g.bound[h] // NaN stays NaN: unbounded
	}
	s.gadget = g
}

// follow returns the probability that hand h enters: regret matching over follow and
// terminate (1 for an unbounded hand).
func (g *gadget) follow(h int) float64 {
	if math.IsNaN(g.alt[h]) {
		return 1
	}
	nh := len(g.alt)
	f, t := max(g.regret[h], 0), max(g.regret[nh+h], 0)
	if f+t == 0 {
		return 0.5
	}
	return f / (f + t)
}

// enter returns the bounded player's reach into the subgame this iteration: its
// range's weights times its current chance of entering with each hand.
func (g *gadget) enter(prior []float64) []float64 {
	for h, w := range prior {
		g.reach[h] = g.entering(h, w, g.follow(h))
	}
	return g.reach
}

// entering is the reach of hand h, of weight w in the range, that follows with
// probability f: w·mix + f when bounded, w when not.
func (g *gadget) entering(h int, w, f float64) float64 {
	if math.IsNaN(g.alt[h]) {
		return w
	}
	return w*g.mix + f
}

// update adds the gadget's regrets given the subgame's values of every hand (vals,
// in the traversal's units), discounted as the tree's decisions are (DCFR), and the
// strategy to its sums.
func (g *gadget) update(vals []float64, iter int) {
	nh := len(g.alt)
	t := float64(iter)
	ta := math.Pow(t, 1.5)
	pos, neg := ta/(ta+1), 0.5
	disc := t / (t + 1) * t / (t + 1)
	for h, vf := range vals {
		vt := g.alt[h]
		if math.IsNaN(vt) {
			continue
		}
		f := g.follow(h)
		v := f*vf + (1-f)*vt
		for k, d := range [2]float64{vf - v, vt - v} {
			r := &g.regret[k*nh+h]
			if *r > 0 {
				*r *= pos
			} else {
				*r *= neg
			}
			*r += d
		}
		g.sum[h] = g.sum[h]*disc + f
		g.sum[nh+h] = g.sum[nh+h]*disc + (1 - f)
	}
}

// averageFollow returns how often hand h enters on average (1 for an unbounded hand
// or before any iteration).
func (g *gadget) averageFollow(h int) float64 {
	nh := len(g.alt)
	f, t := g.sum[h], g.sum[nh+h]
	if math.IsNaN(g.alt[h]) || f+t == 0 {
		return 1
	}
	return f / (f + t)
}

// rootReach returns player p's reach at the root for walks and values: its range's
// weights, times the average chance of entering for the bounded player.
func (s *Solver) rootReach(p int) []float64 {
	r := append([]float64(nil), s.weights[p]...)
	if g := s.gadget; g != nil && g.player == p {
		for h, w := range r {
			r[h] = g.entering(h, w, g.averageFollow(h))
		}
	}
	return r
}

// Following returns, for a safe re-solve, how often each hand of the bounded player
// enters the subgame on average (equity.ComboIndex order; NaN for a hand not in the
// range); nil without a bound.
func (s *Solver) Following() []float64 {
	g := s.gadget
	if g == nil {
		return nil
	}
	out := nanCombos()
	for h, hd := range s.hands[g.player] {
		out[equity.ComboIndex(hd.c[0], hd.c[1])] = g.averageFollow(h)
	}
	return out
}

func nanCombos() []float64 {
	out := make([]float64, equity.NumCombos)
	for i := range out {
		out[i] = math.NaN()
	}
	return out
}

// NodeValues are both players' counterfactual values at a node, per hand in
// equity.ComboIndex order: chips the hand ends with less the chips it put in, counting
// half the subgame's starting pot as its own (so at the start of a street, the same
// quantity a solve of that street from its start reports at its root). A hand's value
// is an average over the other player's hands it can meet, weighted by their reach at
// the node (their range times their average strategy on the way); it does not depend
// on the hand's own reach. NaN: not in the player's range, or no hand of the other's
// reach to meet.
type NodeValues struct {
	EV [2][]float64 // both players play the average strategy from the node on
	BR [2][]float64 // the player best-responds to the other's average strategy
}

// Values returns both players' values at the end of path: what the next safe
// re-solve from that node takes as its Bound (the opponent's BR values).
func (s *Solver) Values(path []string) (NodeValues, error) {
	var nv NodeValues
	for p := range 2 {
		for k, best := range [2]bool{false, true} {
			v, err := s.HandValues(path, p, best)
			if err != nil {
				return nv, err
			}
			if k == 0 {
				nv.EV[p] = v
			} else {
				nv.BR[p] = v
			}
		}
	}
	return nv, nil
}

// HandValues returns player p's values at the end of path (see NodeValues): its best
// response's when best is set, else the average strategy's.
func (s *Solver) HandValues(path []string, p int, best bool) ([]float64, error) {
	return s.HandValuesContext(context.Background(), path, p, best)
}

// HandValuesContext is HandValues that gives up soon after ctx is done or its
// deadline has passed (at the next node its traversal enters), returning ctx's
// error (context.DeadlineExceeded when only the deadline has passed) and no values.
func (s *Solver) HandValuesContext(ctx context.Context, path []string, p int, best bool) ([]float64, error) {
	if err := s.watch(ctx); err != nil {
		return nil, err
	}
	defer s.unwatch()
	if p != OOP && p != IP {
		return nil, fmt.Errorf("no player %d", p)
	}
	wk, err := s.follow(path)
	if err != nil {
		return nil, err
	}
	m := modeEV
	if best {
		m = modeBR
	}
	nh := len(s.hands[p])
	vals, compat := make([]float64, nh), make([]float64, nh)
	s.visit(s.main, wk.ni, wk.depth, m, p, nil, wk.reach[1-p], vals, true)
	if s.stopped() {
		return nil, ctxErr(ctx)
	}
	s.compatible(p, wk.reach[1-p], compat, &s.main.cs2)
	out := nanCombos()
	toTree := s.handMap[permIndex(wk.perm.inverse())][p] // each dealt hand's index in the tree's suits
	var dealt cards.Set
	for _, c := range wk.board {
		dealt = dealt.Add(c)
	}
	for real, hd := range s.hands[p] {
		h := toTree[real]
		if compat[h] > 0 && cards.SetOf(hd.c[0], hd.c[1])&dealt == 0 {
			out[equity.ComboIndex(hd.c[0], hd.c[1])] = vals[h] / compat[h]
		}
	}
	return out, nil
}
