package solver

import (
	"errors"
	"io"
	"math"
	"slices"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
)

// meanValue averages player c's per-hand values (equity.ComboIndex order) over the
// hands of ref's range for c, each weighted by its weight times the other player's
// reach it can meet in ref: c's value of the game when it holds ref's range.
func meanValue(t *testing.T, ref *Solver, c int, vals []float64) float64 {
	t.Helper()
	compat := make([]float64, len(ref.hands[c]))
	var cs [cards.NumCards + 1]float64
	ref.compatible(c, ref.weights[1-c], compat, &cs)
	num, den := 0.0, 0.0
	for h, hd := range ref.hands[c] {
		w := ref.weights[c][h] * compat[h]
		if w == 0 {
			continue
		}
		v := vals[equity.ComboIndex(hd.c[0], hd.c[1])]
		if math.IsNaN(v) {
			t.Fatalf("no value for %s%s", hd.c[0], hd.c[1])
		}
		num += w * v
		den += w
	}
	return num / den
}

// brValues returns player p's best-response values at the root of s.
func brValues(t *testing.T, s *Solver, p int) []float64 {
	t.Helper()
	v, err := s.HandValues(nil, p, true)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func iterations(s *Solver, n int) *Solver {
	for range n {
		s.Iterate()
	}
	return s
}

// worstExcess returns the largest amount by which a hand's value in vals passes its
// bound, over the hands given a value in both, and the hand.
func worstExcess(vals, bound []float64) (float64, string) {
	worst, who := math.Inf(-1), ""
	for i := range vals {
		if math.IsNaN(vals[i]) || math.IsNaN(bound[i]) {
			continue
		}
		if d := vals[i] - bound[i]; d > worst {
			worst, who = d, comboName(i)
		}
	}
	return worst, who
}

func comboName(i int) string {
	for a := cards.Card(1); a < cards.NumCards; a++ {
		for b := cards.Card(0); b < a; b++ {
			if equity.ComboIndex(a, b) == i {
				return a.String() + b.String()
			}
		}
	}
	return "?"
}

// TestSafeResolveMeetsBounds: the bounds are the best-response values every hand of
// the bounded player had against a full solve of the benchmark river; a safe re-solve
// from beliefs that are wrong (every combo of that player's range at weight 1) gives
// no hand more than its bound, within a hundredth of the pot, with the gadget alone
// (Belief 0) and with the belief beside it (Belief 1, the resolve bot's).
func TestSafeResolveMeetsBounds(t *testing.T) {
	full := mustSolver(t, benchSpot("QsJh2h8d3c"), 1)
	solveTo(t, full, 0.1, 2000)
	for k := range 4 {
		c, belief := k%2, float64(k/2)
		bound := brValues(t, full, c)
		sp := benchSpot("QsJh2h8d3c")
		flat := slices.Clone(sp.Range[c].Combos())
		for i := range flat {
			flat[i].Weight = 1
		}
		var err error
		if sp.Range[c], err = equity.RangeOf(flat); err != nil {
			t.Fatal(err)
		}
		sp.Bound = &Bound{Player: c, Values: bound, Belief: belief}
		safe := iterations(mustSolver(t, sp, 1), 1000)
		excess, hand := worstExcess(brValues(t, safe, c), bound)
		t.Logf("player %d, belief %v: worst hand %s gains %.4f chips over its bound (pot 10)", c, belief, hand, excess)
		if excess > 0.1 {
			t.Errorf("player %d, belief %v: hand %s gains %.4f chips over its bound, want at most 0.1 (1%% of the pot)", c, belief, hand, excess)
		}
	}
}

// TestSafeResolveResistsWrongBeliefs: OOP holds the nuts and air against IP's
// bluff-catcher. IP re-solves believing OOP rarely holds air (76 at weight 0.02):
// unsafe, it folds to every bet and OOP's bluffs win the pot; with the bounds from
// the solve on OOP's true range, OOP's best response gains no more than it had.
func TestSafeResolveResistsWrongBeliefs(t *testing.T) {
	truth := iterations(mustSolver(t, polarSpot(100), 1), 2000)
	bound := brValues(t, truth, OOP)
	orig := meanValue(t, truth, OOP, bound)
	wrong := polarSpot(100)
	wrong.Range[OOP] = equity.MustParseRange("KK,76:0.02")
	unsafe := iterations(mustSolver(t, wrong, 1), 2000)
	u := meanValue(t, truth, OOP, brValues(t, unsafe, OOP))
	if u-orig < 2 {
		t.Errorf("the unsafe re-solve gives OOP %.4f chips more than the full solve: the test spot does not show the danger", u-orig)
	}
	for _, belief := range []float64{0, 1} {
		wrong.Bound = &Bound{Player: OOP, Values: bound, Belief: belief}
		safe := iterations(mustSolver(t, wrong, 1), 2000)
		v := meanValue(t, truth, OOP, brValues(t, safe, OOP))
		t.Logf("OOP's best response on its true range (pot 10): against the full solve %.4f, the unsafe re-solve %.4f, the safe one (belief %v) %.4f", orig, u, belief, v)
		if v-orig > 0.05 {
			t.Errorf("belief %v: the safe re-solve gives OOP %.4f chips more than the full solve, want at most 0.05", belief, v-orig)
		}
	}
}

// TestSafeResolveKeepsExploitability: bounded by its own full solve's values, a safe
// re-solve of the benchmark river on the same ranges is as hard to exploit as that
// solve: the bounded player's best response against the re-solver gains at most
// 0.05% of the pot more.
func TestSafeResolveKeepsExploitability(t *testing.T) {
	full := mustSolver(t, benchSpot("QsJh2h8d3c"), 1)
	e := solveTo(t, full, 0.1, 2000)
	for k := range 4 {
		c, belief := k%2, float64(k/2)
		bound := brValues(t, full, c)
		sp := benchSpot("QsJh2h8d3c")
		sp.Bound = &Bound{Player: c, Values: bound, Belief: belief}
		safe := iterations(mustSolver(t, sp, 1), 1000)
		orig := meanValue(t, full, c, bound)
		v := meanValue(t, full, c, brValues(t, safe, c))
		t.Logf("player %d, belief %v: full solve %.4f%% exploitable, best response %.5f chips; against the safe re-solve %.5f (its own exploitability %.4f%%)", c, belief, e, orig, v, safe.Exploitability())
		if d := (v - orig) / 10 * 100; d > 0.05 {
			t.Errorf("player %d, belief %v: the safe re-solve gives the best response %.4f%% of the pot more than the full solve", c, belief, d)
		}
	}
}

// TestBoundBreaksSymmetry: on Qs Jh 2h 8h clubs and diamonds are alike, unless a
// bound tells a club hand from its diamond twin: then their cards are solved apart.
func TestBoundBreaksSymmetry(t *testing.T) {
	sp := benchSpot("QsJh2h8h")
	plain := mustSolver(t, sp, 1)
	values := make([]float64, equity.NumCombos)
	values[equity.ComboIndex(cards.MustParse("Ac"), cards.MustParse("Kc"))] = 1
	sp.Bound = &Bound{Player: OOP, Values: values}
	bounded := mustSolver(t, sp, 1)
	if len(plain.symmetries) < 2 || len(bounded.symmetries) != 1 {
		t.Fatalf("symmetries: %d without the bound, %d with it; want 2 or more, then only the identity", len(plain.symmetries), len(bounded.symmetries))
	}
}

// TestBadBounds: a bound for no player, of the wrong length or infinite is refused
// with an error naming it; a safe re-solve is not saved.
func TestBadBounds(t *testing.T) {
	ok := make([]float64, equity.NumCombos)
	inf := make([]float64, equity.NumCombos)
	inf[3] = math.Inf(1)
	for _, b := range []Bound{{Player: 2, Values: ok}, {Player: OOP, Values: ok[:10]}, {Player: IP, Values: inf},
		{Player: IP, Values: ok, Belief: -1}, {Player: IP, Values: ok, Belief: math.NaN()}} {
		sp := polarSpot(100)
		sp.Bound = &b
		if _, err := New(sp, Options{Workers: 1}); !errors.Is(err, ErrBadSpot) {
			t.Errorf("bound for player %d, %d values: error %v, want ErrBadSpot", b.Player, len(b.Values), err)
		}
	}
	sp := polarSpot(100)
	sp.Bound = &Bound{Player: IP, Values: ok}
	s := iterations(mustSolver(t, sp, 1), 2)
	if err := s.Save(io.Discard); err == nil {
		t.Error("a safe re-solve was saved")
	}
}

// reachRange returns player p's range at the end of path in s: each hand's reach
// there (times its chance of act, when act names an action of p's at that node),
// scaled so that the heaviest is 1, hands under 1% of it left out (as the resolve
// bot's beliefs are).
func reachRange(t *testing.T, s *Solver, path []string, act string) equity.Range {
	t.Helper()
	info, err := s.Node(path)
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(info.Actions, act)
	w := make([]float64, len(info.Hands))
	top := 0.0
	for i, h := range info.Hands {
		w[i] = h.Reach
		if col >= 0 {
			w[i] *= h.Strategy[col]
		}
		top = max(top, w[i])
	}
	var combos []equity.Combo
	for i, h := range info.Hands {
		if w[i] >= 0.01*top {
			c := cards.MustParseList(h.Hand)
			combos = append(combos, equity.Combo{Cards: [2]cards.Card{c[0], c[1]}, Weight: w[i] / top})
		}
	}
	r, err := equity.RangeOf(combos)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSafeResolveRiverAfterTurn is the resolve bot's case: a turn solve (the bot's
// turn sizes, 60 iterations), then the river after check, check, 3c re-solved with
// the bot's river sizes (200 iterations), bounded by the turn solve's best-response
// values there. The truth is the turn solve's ranges at that node; the beliefs are
// either those or wrong: the bounded player's hands of more than 70% equity at 0.05
// of their weight. Measured: the bounded player's best response on its true range.
// Unsafe re-solving from the wrong beliefs is exploited (by 0.6 to 1.5 chips of a
// pot of 10 more); with the belief beside the gadget (Belief 1) the re-solve is
// within 0.1 chips of unsafe re-solving when the beliefs are right, and 0.3 chips
// or more better when they are wrong.
func TestSafeResolveRiverAfterTurn(t *testing.T) {
	if testing.Short() {
		t.Skip("a turn solve and twelve river solves: about 10 s")
	}
	var tree Tree
	for p := range 2 {
		tree.Sizes[p][Turn] = Sizes{Bet: []float64{66}, Raise: []float64{100}}
		tree.Sizes[p][River] = Sizes{Bet: []float64{75}}
	}
	tree.AllInThreshold, tree.RaiseCap = 0.9, 2
	turn := benchSpot("QsJh2h8d")
	turn.Tree = tree
	ts := iterations(mustSolver(t, turn, 2), 60)
	path := []string{"x", "x", "3c"}
	var rt Tree
	for p := range 2 {
		rt.Sizes[p][River] = Sizes{Bet: []float64{33, 75, 125}, Raise: []float64{100}}
	}
	rt.AllInThreshold, rt.RaiseCap = 0.9, 3
	river := Spot{Pot: 10, Stack: 95, Board: cards.MustParseList("QsJh2h8d3c"), Tree: rt,
		Range: [2]equity.Range{reachRange(t, ts, path, ""), reachRange(t, ts, []string{"x"}, "x")}}
	truth := mustSolver(t, river, 1)
	for c := range 2 {
		bound, err := ts.HandValues(path, c, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, wrong := range []bool{false, true} {
			sp := river
			if wrong {
				sp.Range[c] = hideStrong(t, ts, path, c, sp.Range[c])
			}
			var got [3]float64 // unsafe, belief 0, belief 1
			for k := range got {
				s2 := sp
				if k > 0 {
					s2.Bound = &Bound{Player: c, Values: bound, Belief: float64(k - 1)}
				}
				got[k] = meanValue(t, truth, c, brValues(t, iterations(mustSolver(t, s2, 1), 200), c))
			}
			t.Logf("player %d bounded, wrong beliefs %v: its best response gains %.3f against unsafe re-solving, %.3f against the gadget alone, %.3f with the belief (turn solve: %.3f)",
				c, wrong, got[0], got[1], got[2], meanValue(t, truth, c, bound))
			if !wrong && got[2] > got[0]+0.1 {
				t.Errorf("player %d, right beliefs: the safe re-solve gives %.3f chips, unsafe %.3f: want within 0.1", c, got[2], got[0])
			}
			if wrong && got[2] > got[0]-0.3 {
				t.Errorf("player %d, wrong beliefs: the safe re-solve gives %.3f chips, unsafe %.3f: want 0.3 less", c, got[2], got[0])
			}
		}
	}
}

// hideStrong returns r with player c's hands of more than 70% equity at the node
// after path (IP's after OOP checks) at 0.05 of their weight.
func hideStrong(t *testing.T, s *Solver, path []string, c int, r equity.Range) equity.Range {
	t.Helper()
	at := path
	if c == IP {
		at = append(slices.Clone(path), "x")
	}
	info, err := s.Node(at)
	if err != nil {
		t.Fatal(err)
	}
	strong := map[string]bool{}
	for _, h := range info.Hands {
		strong[h.Hand] = h.Equity > 0.7
	}
	combos := slices.Clone(r.Combos())
	for i := range combos {
		if strong[combos[i].String()] {
			combos[i].Weight *= 0.05
		}
	}
	out, err := equity.RangeOf(combos)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestValuesThroughIsomorphicCards: on Qs Jh 2h 8h, where clubs and diamonds are
// alike, the values after check, check, 3d (a card mapped onto 3c's subtree) are
// those of a solve without isomorphism, hand by hand, after two iterations.
func TestValuesThroughIsomorphicCards(t *testing.T) {
	sp := benchSpot("QsJh2h8h")
	iso := iterations(mustSolver(t, sp, 1), 2)
	plain, err := New(sp, Options{Workers: 1, NoIsomorphism: true})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	iterations(plain, 2)
	path := []string{"x", "x", "3d"}
	a, err := iso.Values(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := plain.Values(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for p := range 2 {
		for k, pair := range [][2][]float64{{a.EV[p], b.EV[p]}, {a.BR[p], b.BR[p]}} {
			for i := range pair[0] {
				x, y := pair[0][i], pair[1][i]
				if math.IsNaN(x) != math.IsNaN(y) || math.Abs(x-y) > 1e-9 {
					t.Fatalf("player %d, %s of %s: %v with isomorphism, %v without", p, [2]string{"EV", "BR"}[k], comboName(i), x, y)
				}
				if !math.IsNaN(x) {
					n++
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no values")
	}
	if _, err := iso.Values([]string{"x", "zz"}); !errors.Is(err, ErrBadNode) {
		t.Errorf("a wrong path: %v, want ErrBadNode", err)
	}
	if _, err := iso.HandValues(nil, 2, true); err == nil {
		t.Error("player 2 was accepted")
	}
}
