package solver

import (
	"math"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
)

// smallFlop is a flop spot small enough for tests: narrow ranges, one bet size and
// no raise.
func smallFlop() Spot {
	var t Tree
	for p := range 2 {
		for st := range 3 {
			t.Sizes[p][st] = Sizes{Bet: []float64{75}, Raise: []float64{100}}
		}
	}
	t.AllInThreshold, t.RaiseCap = 1, 1
	return Spot{Pot: 10, Stack: 40, Board: cards.MustParseList("Qs Jh 2h"),
		Range: [2]equity.Range{equity.MustParseRange("AA,QJs,T9s,AhKh"), equity.MustParseRange("KK,QQ,AQs,87s")}, Tree: t}
}

// sameStrategies fails unless a and b give every hand at each path the same strategy
// within tol.
func sameStrategies(t *testing.T, a, b *Solver, paths [][]string, tol float64) {
	t.Helper()
	worst := [2]float64{}
	defer func() { t.Logf("largest differences: strategy %.3g, EV %.3g chips", worst[0], worst[1]) }()
	for _, path := range paths {
		x, err := a.Node(path)
		if err != nil {
			t.Fatal(err)
		}
		y, err := b.Node(path)
		if err != nil {
			t.Fatal(err)
		}
		if x.Board != y.Board || len(x.Hands) != len(y.Hands) || len(x.Hands) == 0 {
			t.Fatalf("%v: board %s with %d hands, board %s with %d", path, x.Board, len(x.Hands), y.Board, len(y.Hands))
		}
		for i := range x.Hands {
			hx, hy := x.Hands[i], y.Hands[i]
			worst[1] = max(worst[1], math.Abs(hx.EV-hy.EV))
			if hx.Hand != hy.Hand || math.Abs(hx.Reach-hy.Reach) > tol || math.Abs(hx.EV-hy.EV) > tol*a.spot.Pot {
				t.Fatalf("%v: %s reach %v EV %v, %s reach %v EV %v", path, hx.Hand, hx.Reach, hx.EV, hy.Hand, hy.Reach, hy.EV)
			}
			for k := range hx.Strategy {
				worst[0] = max(worst[0], math.Abs(hx.Strategy[k]-hy.Strategy[k]))
				if d := math.Abs(hx.Strategy[k] - hy.Strategy[k]); d > tol {
					t.Fatalf("%v %s action %d: %v and %v", path, hx.Hand, k, hx.Strategy[k], hy.Strategy[k])
				}
			}
		}
	}
}

// sameTotals fails unless a and b play each action as often over the range at each
// path, within tol.
func sameTotals(t *testing.T, a, b *Solver, paths [][]string, tol float64) {
	t.Helper()
	for _, path := range paths {
		x, err := a.Node(path)
		if err != nil {
			t.Fatal(err)
		}
		y, err := b.Node(path)
		if err != nil {
			t.Fatal(err)
		}
		for k := range x.Totals {
			if d := math.Abs(x.Totals[k] - y.Totals[k]); d > tol {
				t.Errorf("%v action %s: %.4f of the range and %.4f", path, x.Actions[k], x.Totals[k], y.Totals[k])
			}
		}
	}
}

// TestIsomorphismAgrees: solving one card of each suit class and reading the others
// through the suit permutation gives the strategies of solving every card, on a turn
// (clubs and diamonds alike on the river) and on a flop (the same on the turn and
// river), at representative cards and at the cards mapped onto them; the tree shrinks.
// The first iterations agree to rounding; later ones drift apart as rounding does in
// any CFR (the solver without isomorphism drifts from its own suit symmetry too: 4e-5
// after 20 iterations on the turn; one weight changed by 1e-7 moves a strategy by 0.03
// after 62), so later on each action's share of the range agrees within 0.02 and the
// exploitabilities within 3%.
func TestIsomorphismAgrees(t *testing.T) {
	turn := benchSpot("QsJh2h8h")
	flop := smallFlop()
	cases := []struct {
		name  string
		spot  Spot
		iters int
		paths [][]string
	}{
		{"turn", turn, 60, [][]string{nil, {"x"}, {"x", "b10", "c", "3c"}, {"x", "b10", "c", "3d"}, {"b10", "c", "Ad", "x"}}},
		{"flop", flop, 30, [][]string{nil, {"x"}, {"x", "x", "4c"}, {"x", "x", "4d", "x"}, {"b7.5", "c", "9d", "x", "x", "Tc"}, {"b7.5", "c", "9c", "x", "x", "Td"}}},
	}
	for _, tc := range cases {
		if tc.name == "flop" && testing.Short() {
			continue
		}
		iso, err := New(tc.spot, Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		full, err := New(tc.spot, Options{Workers: 1, NoIsomorphism: true})
		if err != nil {
			t.Fatal(err)
		}
		ni, _ := iso.Nodes()
		nf, _ := full.Nodes()
		if ni >= nf {
			t.Errorf("%s: %d nodes with isomorphism, %d without", tc.name, ni, nf)
		}
		e0 := iso.Exploitability()
		for range 2 {
			iso.Iterate()
			full.Iterate()
		}
		sameStrategies(t, iso, full, tc.paths, 1e-9)
		for range tc.iters {
			iso.Iterate()
			full.Iterate()
		}
		sameTotals(t, iso, full, tc.paths, 0.02)
		ei, ef := iso.Exploitability(), full.Exploitability()
		if math.Abs(ei-ef) > 0.03*ef || ei >= e0 {
			t.Errorf("%s: exploitability %v with isomorphism, %v without, %v before solving", tc.name, ei, ef, e0)
		}
		t.Logf("%s: %d nodes with isomorphism, %d without; exploitability %.4f%% (%.4f%% before)", tc.name, ni, nf, ei, e0)
	}
}
