package arena

import (
	"context"
	"testing"

	"github.com/felt-poker/felt/internal/bot"
)

// tinyEvolution is the evolution the tests run: small and fast.
func tinyEvolution(workers int) EvolveConfig {
	g, _ := ParseGame("nl")
	return EvolveConfig{Population: 8, Generations: 5, Hidden: 4, Hands: 100, Game: g, Seed: 3,
		Benchmarks: []string{"call"}, BenchHands: 200, Workers: workers}
}

// TestEvolveImproves: on a tiny run the hall of fame's best beats always-call by a
// safe margin more than the first generation's random network does, measured on
// deals the evolution never saw; and the run is the same whatever the workers.
func TestEvolveImproves(t *testing.T) {
	ev, err := Evolve(context.Background(), tinyEvolution(0), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Generations) != 5 || len(ev.HallOfFame) != 5 || ev.Champion == nil {
		t.Fatalf("%d generations, %d in the hall of fame", len(ev.Generations), len(ev.HallOfFame))
	}
	for _, gen := range ev.Generations {
		t.Logf("generation %d: best %+.0f, mean %+.0f, against call %+.0f ± %.0f", gen.Index, gen.BestFitness, gen.MeanFitness, gen.Bench[0].BBPer100, gen.Bench[0].CI95)
	}
	g, _ := ParseGame("nl")
	vsCall := func(n *bot.Net) Result {
		r, err := Match(context.Background(), MatchConfig{A: "@0", B: "call", Game: g, Hands: 1000, Seed: 99,
			NewBot: func(name string, o bot.Options) (bot.Bot, error) {
				if name == "@0" {
					o.Net = n
					name = "neural"
				}
				return bot.New(name, o)
			}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	champ, first := vsCall(ev.Champion), vsCall(ev.First[0])
	t.Logf("against call: champion %+.0f ± %.0f, first random network %+.0f ± %.0f bb/100", champ.BBPer100, champ.CI95, first.BBPer100, first.CI95)
	if champ.BBPer100-champ.CI95 <= first.BBPer100+first.CI95 {
		t.Errorf("champion %+.0f ± %.0f does not clearly beat the first network's %+.0f ± %.0f against call",
			champ.BBPer100, champ.CI95, first.BBPer100, first.CI95)
	}
	again, err := Evolve(context.Background(), tinyEvolution(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, gen := range again.Generations {
		if gen.BestFitness != ev.Generations[i].BestFitness || gen.Bench[0].Chips != ev.Generations[i].Bench[0].Chips {
			t.Fatalf("generation %d differs with one worker: %+v against %+v", i, gen, ev.Generations[i])
		}
	}
}
