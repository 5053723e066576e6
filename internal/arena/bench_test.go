package arena

import (
	"context"
	"testing"
)

// BenchmarkMatchRandom plays random against random heads-up in duplicate on one
// worker; one op is one hand. It measures the arena's own cost per hand (views,
// bots' calls, results) on top of the engine's.
func BenchmarkMatchRandom(b *testing.B) {
	g, err := ParseGame("nl")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	hands := max(MinHands, b.N)
	if _, err := Match(context.Background(), MatchConfig{A: "random", B: "random", Game: g, Hands: hands, Seed: 1, Workers: 1}); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(hands)/b.Elapsed().Seconds(), "hands/s")
}
