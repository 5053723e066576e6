package solver

import (
	"math"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
)

// TestRakeZeroChangesNothing: a rake of 0 (with or without a cap) gives the strategies
// and the exploitability of a spot without rake, to the bit.
func TestRakeZeroChangesNothing(t *testing.T) {
	plain := mustSolver(t, benchSpot("QsJh2h8d3c"), 1)
	sp := benchSpot("QsJh2h8d3c")
	sp.RakeCap = 3
	raked := mustSolver(t, sp, 1)
	for range 30 {
		plain.Iterate()
		raked.Iterate()
	}
	sameStrategies(t, plain, raked, [][]string{nil, {"x"}, {"b10"}}, 0)
	if a, b := plain.Exploitability(), raked.Exploitability(); a != b {
		t.Errorf("exploitability %v without rake, %v with a rake of 0", a, b)
	}
}

// TestRakeToys: spots whose value can be worked out by hand. Aces against kings on a
// board the aces win: all-in already, OOP wins the pot of 10 less the rake (5% capped at
// 0.3). With 10 behind and a pot-sized bet, IP folds its kings whether OOP bets or checks,
// and OOP takes 10 less 5% of the 10 called (the folded-to bet comes back unraked). A
// royal flush on board: both split what the rake leaves.
func TestRakeToys(t *testing.T) {
	cases := []struct {
		name          string
		board         string
		oop, ip       string
		stack         float64
		rake, cap     float64
		wantOOP, want float64 // EV beyond half the pot: OOP, IP
	}{
		{"showdown, capped", "2s3d7h9cTs", "AA", "KK", 0, 5, 0.3, 5 - 0.3, -5},
		{"fold", "2s3d7h9cTs", "AA", "KK", 10, 5, 0, 5 - 0.5, -5},
		{"split", "AsKsQsJsTs", "22", "33", 0, 10, 0, -0.5, -0.5},
	}
	for _, tc := range cases {
		sp := Spot{Pot: 10, Stack: tc.stack, Board: cards.MustParseList(tc.board),
			Range: [2]equity.Range{equity.MustParseRange(tc.oop), equity.MustParseRange(tc.ip)}, Tree: riverTree(100),
			Rake: tc.rake, RakeCap: tc.cap}
		s := mustSolver(t, sp, 1)
		for range 300 {
			s.Iterate()
		}
		ev := s.EV()
		if math.Abs(ev[0]-tc.wantOOP) > 1e-5 || math.Abs(ev[1]-tc.want) > 1e-5 { // the first iterations' calls fade from the average
			t.Errorf("%s: EV %v, want [%v %v]", tc.name, ev, tc.wantOOP, tc.want)
		}
		if e := s.Exploitability(); math.Abs(e) > 1e-3 {
			t.Errorf("%s: exploitability %v%%", tc.name, e)
		}
	}
}
