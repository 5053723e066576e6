package solver

import "testing"

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

func benchIterateOpts(b *testing.B, board string, opts Options) {
	s, err := New(benchSpot(board), opts)
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
	benchIterateOpts(b, "QsJh2h8d", Options{Workers: 1, Compress: true})
}
