package arena

import (
	"context"
	"testing"
)

// The gauntlet finds a leak: the fold bot plays every exploiter, the worst
// match is the lowest, and fold does not survive it.
func TestGauntlet(t *testing.T) {
	g, err := PlayGauntlet(context.Background(), GauntletConfig{Bot: "fold", Game: games[0], Hands: 400, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Matches) != len(Exploiters) {
		t.Fatalf("%d matches for %d exploiters", len(g.Matches), len(Exploiters))
	}
	for k, r := range g.Matches {
		if r.B != Exploiters[k].Bot || r.Hands != 400 {
			t.Errorf("match %d: %s vs %s, %d hands", k, r.A, r.B, r.Hands)
		}
		if r.BBPer100 > g.Matches[g.Worst].BBPer100 {
			continue
		}
		if k != g.Worst && r.BBPer100 < g.Matches[g.Worst].BBPer100 {
			t.Errorf("worst is %d but %d is lower", g.Worst, k)
		}
	}
	if g.Survives() {
		t.Errorf("fold survives the gauntlet: worst %+.1f ± %.1f bb/100", g.Matches[g.Worst].BBPer100, g.Matches[g.Worst].CI95)
	}
	// Folding every hand loses the blinds: 75 bb/100 against anyone who never folds first.
	if w := g.Matches[0]; w.BBPer100 > -50 {
		t.Errorf("fold against always all-in: %+.1f bb/100", w.BBPer100)
	}
}
