package arena

import "github.com/felt-poker/felt/internal/engine"

// PairStats accumulates the results of duplicate deal pairs (one player's net
// chips over both hands of a deal), for tools that play their own duplicate
// matches (internal/lbr). Integer sums make the total independent of the order
// deals finish in.
type PairStats struct {
	N, Sum, SumSq int64
}

// Add adds o's pairs to s.
func (s *PairStats) Add(o PairStats) { s.N += o.N; s.Sum += o.Sum; s.SumSq += o.SumSq }

// Rate returns the mean result per hand in units of unit chips times scale
// (bb/100: scale 100, mbb/g: 1000) and the half-width of its 95% interval.
func (s PairStats) Rate(unit int64, scale float64) (mean, ci float64) {
	return sums{s.N, s.Sum, s.SumSq}.rate(unit, scale)
}

// Mix derives a well-spread seed from two numbers, as the arena seeds its deals.
func Mix(a, b uint64) uint64 { return mix(a, b) }

// HandConfig returns g's configuration for a heads-up hand, stacks included (the
// arena's, reset every hand); the caller fills in Seed and Button.
func (g Game) HandConfig() engine.Config { return g.handConfig() }
