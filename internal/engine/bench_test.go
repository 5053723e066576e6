package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

func sixMaxNL() Config {
	return Config{Variant: Holdem, Structure: NoLimit, Stacks: []int64{200, 200, 200, 200, 200, 200}, SmallBlind: 1, BigBlind: 2}
}

// BenchmarkRandomHands6MaxNL plays complete 6-max no-limit hands with random legal
// actions: deal, betting, showdown and pots. One op is one hand.
func BenchmarkRandomHands6MaxNL(b *testing.B) {
	cfg := sixMaxNL()
	h, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cfg.Seed = cards.SeedFromUint64(uint64(i))
		cfg.Button = i % 6
		if err := h.Reset(cfg); err != nil {
			b.Fatal(err)
		}
		if err := PlayOut(h, r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
}

// BenchmarkSimulateRandom measures the exported helper the arena uses.
func BenchmarkSimulateRandom(b *testing.B) {
	b.ReportAllocs()
	if _, err := SimulateRandom(sixMaxNL(), b.N, 7); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
}
