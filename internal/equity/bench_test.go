package equity

import (
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

// BenchmarkExactPreflop is AhAs vs KdKc preflop, every one of the 1,712,304 boards,
// with the suit reduction (reduced) and board by board (plain), on one goroutine, and
// with the suit reduction on all cores (reduced-allcores).
func BenchmarkExactPreflop(b *testing.B) {
	players := ranges("AhAs", "KdKc")
	for _, bc := range []struct {
		name    string
		plain   bool
		workers int
	}{{"reduced", false, 1}, {"plain", true, 1}, {"reduced-allcores", false, 0}} {
		b.Run(bc.name, func(b *testing.B) {
			var res Result
			for b.Loop() {
				var err error
				res, err = Calculate(players, nil, nil, Options{Method: Exact, NoSuitReduction: bc.plain, Workers: bc.workers})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(res.Showdowns), "showdowns/op")
		})
	}
}

// BenchmarkMonteCarlo6Random samples 6 players holding random hands preflop on all cores.
func BenchmarkMonteCarlo6Random(b *testing.B) {
	players := ranges("random", "random", "random", "random", "random", "random")
	var total int64
	for b.Loop() {
		res, err := Calculate(players, nil, nil, Options{Method: MonteCarlo, Samples: 200_000, Seed: cards.SeedFromUint64(1)})
		if err != nil {
			b.Fatal(err)
		}
		total += res.Showdowns
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "showdowns/s")
}

// BenchmarkExactRanges is AA vs KK pre-flop (36 assignments, every board) on one
// goroutine: the range-against-range exact walk.
func BenchmarkExactRanges(b *testing.B) {
	players := ranges("AA", "KK")
	for b.Loop() {
		if _, err := Calculate(players, nil, nil, Options{Method: Exact, Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMonteCarlo6RandomOneWorker is BenchmarkMonteCarlo6Random on one worker.
func BenchmarkMonteCarlo6RandomOneWorker(b *testing.B) {
	players := ranges("random", "random", "random", "random", "random", "random")
	for b.Loop() {
		if _, err := Calculate(players, nil, nil, Options{Method: MonteCarlo, Samples: 200_000, Seed: cards.SeedFromUint64(1), Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*200_000/b.Elapsed().Seconds(), "showdowns/s")
}
