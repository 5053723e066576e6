package arena

import (
	"context"
	"math/rand/v2"
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

// shover is a network whose output is always 1: it raises the pot at every turn,
// all-in before the flop with any two cards.
func shover() *bot.Net {
	n := bot.RandomNet(rand.New(rand.NewPCG(1, 1)), 2)
	n.W2 = []float64{0, 0}
	n.B2 = 50
	return n
}

// TestGauntletFitnessSinksTheShover: a population of networks that shove any two
// cards nets 0 against itself (every duplicate pair cancels), which the league's
// fitness would let win; with the gauntlet its fitness is half its loss to the
// exploiter that beats it, and the worst case is that loss exactly.
func TestGauntletFitnessSinksTheShover(t *testing.T) {
	g, _ := ParseGame("nl")
	ec, err := EvolveConfig{Population: 4, Generations: 1, Hands: 400, Game: g, Seed: 5, Rivals: 1, Gauntlet: true}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	pop := []*bot.Net{shover(), shover(), shover(), shover()}
	r := rand.New(rand.NewPCG(5, 1))
	fit, worst, err := ec.fitness(context.Background(), r, 0, pop, nil)
	if err != nil {
		t.Fatal(err)
	}
	ec.Gauntlet = false
	plain, _, err := ec.fitness(context.Background(), rand.New(rand.NewPCG(5, 1)), 0, pop, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("shover: fitness %+.0f with the gauntlet (worst %+.0f), %+.0f without", fit[0], worst[0], plain[0])
	if plain[0] != 0 || !(worst[0] < 0) || fit[0] != worst[0]/2 {
		t.Errorf("shover: fitness %+.0f with the gauntlet, worst %+.0f, %+.0f without; want 0 without, worst < 0 and half of it with",
			fit[0], worst[0], plain[0])
	}
}
