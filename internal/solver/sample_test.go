package solver

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// TestSampleDeals: a sampled flop deals Turns cards, then Rivers after each turn,
// the same cards for the same seed and others for another; the game stays zero-sum;
// a sample as large as the deck is every card, the same game as no sample.
func TestSampleDeals(t *testing.T) {
	sp := smallFlop()
	sp.Sample = Sample{Turns: 5, Rivers: 4, Seed: 3}
	s := mustSolver(t, sp, 1)
	turn, err := s.Node([]string{"x", "x"})
	if err != nil || len(turn.Deals) != 5 {
		t.Fatalf("after check, check: %d deals (%v), want 5", len(turn.Deals), err)
	}
	river, err := s.Node([]string{"x", "x", turn.Deals[0], "x", "x"})
	if err != nil || len(river.Deals) != 4 || slices.Contains(river.Deals, turn.Deals[0]) {
		t.Fatalf("after the turn %s: deals %v (%v), want 4 others", turn.Deals[0], river.Deals, err)
	}
	again := mustSolver(t, sp, 1)
	if d, _ := again.Node([]string{"x", "x"}); !slices.Equal(d.Deals, turn.Deals) {
		t.Errorf("same seed: %v, then %v", turn.Deals, d.Deals)
	}
	sp.Sample.Seed = 4
	if d, _ := mustSolver(t, sp, 1).Node([]string{"x", "x"}); slices.Equal(d.Deals, turn.Deals) {
		t.Errorf("seeds 3 and 4 deal the same turns %v", d.Deals)
	}
	for range 20 {
		s.Iterate()
	}
	if ev := s.EV(); math.Abs(ev[0]+ev[1]) > 1e-9 {
		t.Errorf("a sampled game is not zero-sum: %v", ev)
	}
	sp = smallFlop()
	sp.Stack = 0 // all-in: the values are the equities, over the sample's runouts
	exact := mustSolver(t, sp, 1).EV()
	// Nearly every card: a weight of 1/K per outcome instead of 1 over the K(n−4)/n
	// a pair meets on would be 9% off.
	sp.Sample = Sample{Turns: 45, Rivers: 44, Seed: 1}
	got := mustSolver(t, sp, 1).EV()
	if math.Abs(exact[0]-got[0]) > 0.005*sp.Pot || math.Abs(got[0]+got[1]) > 1e-9 {
		t.Errorf("all-in over 45 turns and 44 rivers: EV %v, over every card %v", got, exact)
	}
	t.Logf("all-in: EV %.4f over the sample, %.4f over every card", got[0], exact[0])
}

// TestSampleBounds: a sample is checked.
func TestSampleBounds(t *testing.T) {
	for _, z := range []Sample{{Turns: -1}, {Rivers: maxSample + 1}} {
		sp := smallFlop()
		sp.Sample = z
		if _, err := New(sp, Options{}); !errors.Is(err, ErrBadSpot) {
			t.Errorf("sample %+v: %v, want ErrBadSpot", z, err)
		}
	}
}

// TestCheckedDownStreet: a street with no bet in the tree for either player is
// dealt and checked down with no decision: after the turn's last action the river
// card leads straight to a showdown. A bet size for one player brings the
// decisions back.
func TestCheckedDownStreet(t *testing.T) {
	sp := smallFlop()
	sp.Sample = Sample{Turns: 3, Rivers: 2, Seed: 1}
	sp.Tree.Sizes[OOP][River], sp.Tree.Sizes[IP][River] = Sizes{}, Sizes{}
	s := mustSolver(t, sp, 1)
	turn, err := s.Node([]string{"x", "x"})
	if err != nil {
		t.Fatal(err)
	}
	river, err := s.Node([]string{"x", "x", turn.Deals[0], "x", "x"})
	if err != nil || river.Kind != "chance" {
		t.Fatalf("after the turn's checks: %+v, %v", river, err)
	}
	end, err := s.Node([]string{"x", "x", turn.Deals[0], "x", "x", river.Deals[0]})
	if err != nil || end.Kind != "showdown" {
		t.Errorf("the river dealt: %q, %v; want a showdown", end.Kind, err)
	}
	sp.Tree.Sizes[IP][River].AllIn = true
	s = mustSolver(t, sp, 1)
	if end, err := s.Node([]string{"x", "x", turn.Deals[0], "x", "x", river.Deals[0]}); err != nil || end.Kind != "decision" {
		t.Errorf("with IP's all-in on the river: %q, %v; want a decision", end.Kind, err)
	}
}
