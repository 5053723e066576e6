package solver

import (
	"context"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/equity"
)

func benchIterate(b *testing.B, board string, workers int) {
	s := mustSolver(b, benchSpot(board), workers)
	s.Iterate()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.Iterate()
	}
}

func benchBR(b *testing.B, board string, workers int) {
	s := mustSolver(b, benchSpot(board), workers)
	for range 10 {
		s.Iterate()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.Exploitability()
	}
}

func BenchmarkIterateRiver(b *testing.B)         { benchIterate(b, "QsJh2h8d3c", 1) }
func BenchmarkIterateTurn(b *testing.B)          { benchIterate(b, "QsJh2h8d", 1) }
func BenchmarkIterateTurn2Workers(b *testing.B)  { benchIterate(b, "QsJh2h8d", 2) }
func BenchmarkExploitabilityRiver(b *testing.B)  { benchBR(b, "QsJh2h8d3c", 1) }
func BenchmarkExploitabilityTurn(b *testing.B)   { benchBR(b, "QsJh2h8d", 1) }
func BenchmarkExploitabilityTurn2W(b *testing.B) { benchBR(b, "QsJh2h8d", 2) }

// The benchmark flop (about 1.2 GB and 3 CPU-s an iteration): run it alone,
// e.g. go test -run XXX -bench Flop -benchtime 3x ./internal/solver.
func BenchmarkIterateFlop2Workers(b *testing.B)  { benchIterate(b, "QsJh2h", 2) }
func BenchmarkExploitabilityFlop2W(b *testing.B) { benchBR(b, "QsJh2h", 2) }

func benchIterateOpts(b *testing.B, sp Spot, opts Options) {
	s, err := New(sp, opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	s.Iterate()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.Iterate()
	}
}

func BenchmarkIterateTurnCompressed(b *testing.B) {
	benchIterateOpts(b, benchSpot("QsJh2h8d"), Options{Workers: 1, Compress: true})
}

// benchIterateSafe times an iteration of a safe re-solve: every hand of OOP bounded
// (by 0 chips), so that the gadget at the root works for every hand.
func benchIterateSafe(b *testing.B, board string) {
	sp := benchSpot(board)
	sp.Bound = &Bound{Player: OOP, Values: make([]float64, equity.NumCombos)}
	benchIterateOpts(b, sp, Options{Workers: 1})
}

func BenchmarkIterateRiverSafe(b *testing.B) { benchIterateSafe(b, "QsJh2h8d3c") }
func BenchmarkIterateTurnSafe(b *testing.B)  { benchIterateSafe(b, "QsJh2h8d") }

// benchIterateContext times an iteration under a context that could stop it (one
// with a deadline an hour away: the traversals poll it at every node), to compare
// with benchIterate's.
func benchIterateContext(b *testing.B, board string) {
	s := mustSolver(b, benchSpot(board), 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	s.Iterate()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if !s.IterateContext(ctx) {
			b.Fatal("an iteration was stopped")
		}
	}
}

func BenchmarkIterateRiverContext(b *testing.B) { benchIterateContext(b, "QsJh2h8d3c") }
func BenchmarkIterateTurnContext(b *testing.B)  { benchIterateContext(b, "QsJh2h8d") }
