package eval

import (
	"math/rand/v2"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

// rankSevens (assembly on amd64) gives rankSevensGo's sum on random hands, on every
// length from 0 to 40 (the Go loop takes two hands a step, the assembly one), and on
// hands of arbitrary bytes: cards past 51, repeated cards, flush bits from garbage.
// Every table index is masked, so no bytes can make it read outside its tables.
func TestRankSevensMatchesGo(t *testing.T) {
	hands := RandomSevens(20_000, 7)
	if got, want := rankSevens(hands), rankSevensGo(hands); got != want {
		t.Fatalf("random hands: %d, Go %d", got, want)
	}
	for n := 0; n <= 40; n++ {
		if got, want := rankSevens(hands[:n]), rankSevensGo(hands[:n]); got != want {
			t.Fatalf("%d hands: %d, Go %d", n, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	junk := make([]Seven, 20_000)
	for i := range junk {
		for j := range junk[i] {
			junk[i][j] = cards.Card(rng.Uint32())
		}
		if i%3 == 0 { // one suit over and over: the flush path on garbage
			for j := range junk[i] {
				junk[i][j] = cards.Card(rng.IntN(64)) &^ 3
			}
		}
	}
	for i := range junk {
		if got, want := rankSevens(junk[i:i+1]), rankSevensGo(junk[i:i+1]); got != want {
			t.Fatalf("bytes %v: %d, Go %d", junk[i], got, want)
		}
	}
}

// pairsNoFlush (assembly on amd64) gives pairsNoFlushGo's sum for the pair lists the
// enumeration uses and for arbitrary keys.
func TestPairsNoFlushMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for c := range cards.Card(53) {
		key := HandOf(0, 1, 2, 3, 4).key &^ 0xffff
		if got, want := pairsNoFlush(key, pairs.above(c)), pairsNoFlushGo(key, pairs.above(c)); got != want {
			t.Fatalf("pairs above %d: %d, Go %d", c, got, want)
		}
	}
	ps := make([]uint64, 1000)
	for i := range ps {
		ps[i] = rng.Uint64()
	}
	for range 100 {
		key, n := rng.Uint64(), rng.IntN(len(ps)+1)
		if got, want := pairsNoFlush(key, ps[:n]), pairsNoFlushGo(key, ps[:n]); got != want {
			t.Fatalf("key %#x, %d pairs: %d, Go %d", key, n, got, want)
		}
	}
}
