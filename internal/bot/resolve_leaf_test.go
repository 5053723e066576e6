package bot

import (
	"errors"
	"math"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
	"github.com/felt-poker/felt/internal/solver"
)

// leafSpot is a flop with the same range for both players and no flop bet: the
// flop is checked through to its leaves, so the root's values are the leaves'.
func leafSpot(stack float64, leaves FlopLeaves) solver.Spot {
	rg := equity.MustParseRange("22+,A2s+,K9s+,Q9s+,J9s+,T8s+,97s+,87s,76s,65s,ATo+,KTo+,QTo+,JTo")
	var t solver.Tree
	t.AllInThreshold, t.RaiseCap = 0.9, 3
	for p := range 2 {
		t.Sizes[p][solver.Turn].Bet = []float64{66}
	}
	sp := solver.Spot{Pot: 10, Stack: stack, Board: cards.MustParseList("Ks7d2c"), Range: [2]equity.Range{rg, rg}, Tree: t}
	leaves.limit(&sp)
	return sp
}

func leafEV(t *testing.T, sp solver.Spot, iters int) [2]float64 {
	t.Helper()
	s, err := solver.New(sp, solver.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for range iters {
		s.Iterate()
	}
	return s.EV()
}

// TestFlopLeavesKnowPosition: the same range on both sides, the flop checked
// through. Equity leaves give position nothing (both values 0); the turn
// continuation (leaf=turn) gives the player in position more than the one out of
// it, and the two values still sum to 0: the pot is conserved at the leaves.
func TestFlopLeavesKnowPosition(t *testing.T) {
	eq := leafEV(t, leafSpot(100, LeavesEquity), 1)
	if math.Abs(eq[0]) > 1e-9 || math.Abs(eq[1]) > 1e-9 {
		t.Errorf("equity leaves, same ranges: values %v, want 0 and 0", eq)
	}
	turn := leafEV(t, leafSpot(100, LeavesTurn), 200)
	t.Logf("leaf=turn, same ranges, pot 10: OOP %.4f, IP %.4f", turn[0], turn[1])
	if turn[solver.IP] < 0.01*10 || turn[solver.IP] <= turn[solver.OOP] {
		t.Errorf("leaf=turn: IP %.4f, OOP %.4f; want IP ahead by position", turn[solver.IP], turn[solver.OOP])
	}
	if math.Abs(turn[0]+turn[1]) > 1e-9 {
		t.Errorf("leaf=turn: values %v do not sum to 0", turn)
	}
}

// TestFlopLeavesAllIn: all-in on the flop, the turn continuation has no decision
// and each player's value is its equity over the sampled runouts, within 3% of the
// pot of the exact one (every turn and river), and zero-sum.
func TestFlopLeavesAllIn(t *testing.T) {
	sp := leafSpot(0, LeavesTurn)
	sp.Range[solver.IP] = equity.MustParseRange("QQ+,AK,KQs,76s")
	s, err := solver.New(sp, solver.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, dec := s.Nodes(); dec != 0 {
		t.Fatalf("all-in: %d decisions", dec)
	}
	got := s.EV()
	sp.Sample = solver.Sample{}
	exact := leafEV(t, sp, 0)
	t.Logf("all-in: OOP %.4f over the sample, %.4f over every runout", got[0], exact[0])
	if math.Abs(got[0]-exact[0]) > 0.03*sp.Pot || math.Abs(got[0]+got[1]) > 1e-9 {
		t.Errorf("all-in: values %v over the sample, %v exact", got, exact)
	}
}

// TestFlopLeavesOption: leaf=turn (the default) and leaf=equity choose the flop
// re-solve's leaves, and the flop's subgame ends as they say; another value is
// refused.
func TestFlopLeavesOption(t *testing.T) {
	for _, c := range []struct {
		opts string
		want string // what follows check, check on the re-solved flop
	}{{",flop=true", "chance"}, {",flop=true,leaf=turn", "chance"}, {",flop=true,leaf=equity", "leaf"}} {
		b := newFlopResolve(t, c.opts)
		h := deepFlop(t, 20000, 20000)
		play(t, h, "x")
		v := h.View(0)
		if _, ok := b.Strategy(&v, nil); !ok || b.kept.s == nil {
			t.Fatalf("%s: no flop re-solve", c.opts)
		}
		info, err := b.kept.s.Node([]string{"x", "x"})
		if err != nil || info.Kind != c.want {
			t.Errorf("%s: check, check leads to %q (%v), want %q", c.opts, info.Kind, err, c.want)
		}
		if c.want == "chance" && len(info.Deals) != flopTurns {
			t.Errorf("%s: %d turn cards, want %d", c.opts, len(info.Deals), flopTurns)
		}
	}
	if _, err := New("resolve:leaf=river", Options{}); !errors.Is(err, ErrBadOption) {
		t.Errorf("leaf=river: %v, want ErrBadOption", err)
	}
}
