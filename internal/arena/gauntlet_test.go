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

// TestSurvivesJudgesEveryMatch: the lowest rate may have the widest interval; a
// bot that loses clearly to another exploiter does not survive, and with the
// control variate the verdict goes by its narrower interval.
func TestSurvivesJudgesEveryMatch(t *testing.T) {
	g := Gauntlet{Matches: []Result{{BBPer100: -100, CI95: 300}, {BBPer100: -50, CI95: 20}}, Worst: 0}
	if g.Survives() {
		t.Error("survives a loss of 50 ± 20 bb/100 because a worse mean had a wide interval")
	}
	g = Gauntlet{Matches: []Result{{BBPer100: -50, CI95: 80, CV: &CVRate{BBPer100: -45, CI95: 30}}}}
	if g.Survives() {
		t.Error("survives a loss of 45 ± 30 bb/100 with the control variate")
	}
	if rate, ci := Judged(g.Matches[0]); rate != -45 || ci != 30 {
		t.Errorf("judged by %v ± %v, want the control variate's -45 ± 30", rate, ci)
	}
}

// In fixed-limit the pot-size maniac plays exactly as always-raise (every bet
// is cut to the one size allowed), so the limit gauntlet leaves it out and
// plays the other five; the no-limit one keeps all six.
func TestLimitGauntletLeavesOutTheManiac(t *testing.T) {
	limit, err := ParseGame("limit")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var chips [2]int64
	for k, b := range []string{"maniac", "raise"} {
		r, err := Match(ctx, MatchConfig{A: b, B: "chart", Game: limit, Hands: 200, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		chips[k] = r.Chips
	}
	if chips[0] != chips[1] {
		t.Fatalf("in limit maniac won %d chips from chart and raise %d: not the same player", chips[0], chips[1])
	}
	g, err := PlayGauntlet(ctx, GauntletConfig{Bot: "call", Game: limit, Hands: 40, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Matches) != len(Exploiters)-1 || len(g.Exploiters) != len(g.Matches) {
		t.Fatalf("limit gauntlet: %d matches against %v", len(g.Matches), g.Exploiters)
	}
	for k, e := range g.Exploiters {
		if e.Bot == "maniac" || g.Matches[k].B != e.Bot {
			t.Errorf("limit gauntlet match %d: %s against %s", k, g.Matches[k].B, e.Bot)
		}
	}
	if g.Exploiters[0].Name != "always-raise" || Exploiters[0].Name != "always all-in" {
		t.Errorf("always-raise is called %q in limit, %q in no-limit", g.Exploiters[0].Name, Exploiters[0].Name)
	}
	if n := len(ExploitersFor(games[0])); n != len(Exploiters) {
		t.Errorf("the no-limit gauntlet has %d exploiters, want %d", n, len(Exploiters))
	}
}
