package lbr

import (
	"bytes"
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/engine"
)

// TestBreakdownAddsUp: the breakdown of a run (Config.Hand into a Breakdown)
// counts every hand once, its rows add up to the run's chips and to its control
// variate's estimate, and each row names a real way a hand ends: against a bot
// that only calls, LBR never sees a fold but its own, and a hand LBR folds is
// one it lost.
func TestBreakdownAddsUp(t *testing.T) {
	var b Breakdown
	c := Config{Bot: "call", Hands: 2 * 20, Seed: 3, Preflop: true, Runouts: 20, Workers: 2, Hand: b.Add}
	r, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	rows, n := b.Rows()
	if n != r.Hands {
		t.Fatalf("%d hands in the breakdown, %d in the run", n, r.Hands)
	}
	var net int64
	var cv float64
	hands := 0
	for _, row := range rows {
		net += row.Net
		cv += row.CV
		hands += row.Hands
		switch {
		case !slices.Contains([]string{"bot folds", "LBR folds", "showdown"}, row.End),
			!slices.Contains([]string{"checks, calls", "bets", "all-in"}, row.Line),
			row.Street < engine.Preflop || row.Street > engine.River:
			t.Errorf("row %+v names no way a hand ends", row)
		case row.End == "bot folds":
			t.Errorf("the calling station folded: %+v", row)
		case row.End == "LBR folds" && row.Net >= 0:
			t.Errorf("LBR folded and won: %+v", row)
		}
	}
	if net != r.Chips || hands != n {
		t.Errorf("rows add up to %d chips over %d hands; the run won %d over %d", net, hands, r.Chips, n)
	}
	if r.CV != nil {
		if want := r.CV.MBBPerGame; math.Abs(cv/float64(n)/100*1000-want) > 0.5 {
			t.Errorf("rows' control variate %.1f mbb/g, the run's %.1f", cv/float64(n)/100*1000, want)
		}
	}
	var out bytes.Buffer
	b.Write(&out, 100)
	if !strings.Contains(out.String(), "Where LBR won") || strings.Count(out.String(), "\n") != len(rows)+2 {
		t.Errorf("breakdown printed as:\n%s", out.String())
	}
}
