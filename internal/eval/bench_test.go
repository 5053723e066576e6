package eval

import (
	"sync"
	"testing"
)

var (
	randomOnce  sync.Once
	randomHands []Seven
	sink        uint64
)

// benchHands are 10^7 random hands, generated once (about 70 MB).
func benchHands() []Seven {
	randomOnce.Do(func() { randomHands = RandomSevens(10_000_000, 1) })
	return randomHands
}

// BenchmarkRandom7 evaluates random 7-card hands from a pre-generated array; one op is
// one hand.
func BenchmarkRandom7(b *testing.B) {
	hands := benchHands()
	b.ReportAllocs()
	b.ResetTimer()
	done := 0
	for done < b.N {
		n := min(b.N-done, len(hands))
		sink += RankSevens(hands[:n])
		done += n
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "Mhands/s")
}

// BenchmarkEnum7 enumerates every 7-card hand; one op is the whole enumeration.
func BenchmarkEnum7(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sink += EnumerateSevens()
	}
	b.ReportMetric(float64(b.N)*NumSevens/b.Elapsed().Seconds()/1e6, "Mhands/s")
}

// BenchmarkRank7 adds seven fixed cards and ranks them: the latency of one evaluation.
func BenchmarkRank7(b *testing.B) {
	h := benchHands()[:1024]
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sink += RankSevens(h[i&1023 : i&1023+1])
	}
}
