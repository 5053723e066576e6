package eval

import (
	"flag"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

var searchRankMul = flag.Bool("searchrankmul", false, "search for the rank numbers again (seconds) and compare them with rankMul")

// searchRankMuls finds rank numbers as rankMul's comment says: rank by rank, the
// smallest number above the last one for which no two multisets of ranks of the same
// size, each rank at most four times, share a sum while higher ranks could still make
// both 5, 6 or 7 cards. seen[s] holds a bit per size for the sums s taken so far.
func searchRankMuls(limit uint64) (muls [cards.NumRanks]uint64, ok bool) {
	type entry struct {
		sum  uint64
		size int
	}
	seen := make([]uint8, limit)
	sums := []entry{{0, 0}}
	seen[0] = 1
	type undo struct {
		sum uint64
		was uint8
	}
	var marks []undo
	v := uint64(0)
	for r := range muls {
		room := 4 * (cards.NumRanks - 1 - r) // cards of higher ranks still to come
	next:
		for v++; ; v++ {
			for i := len(marks) - 1; i >= 0; i-- {
				seen[marks[i].sum] = marks[i].was
			}
			marks = marks[:0]
			for k := uint64(1); k <= 4; k++ {
				for _, e := range sums {
					size, s := e.size+int(k), e.sum+k*v
					if size > 7 {
						continue
					}
					if s >= limit {
						return muls, false
					}
					// the same size, and 5 to 7 cards within reach with more cards
					if seen[s]&(1<<size) != 0 && size+room >= 5 {
						continue next
					}
					marks = append(marks, undo{s, seen[s]})
					seen[s] |= 1 << size
				}
			}
			break
		}
		marks = marks[:0]
		n := len(sums)
		for k := uint64(1); k <= 4; k++ {
			for _, e := range sums[:n] {
				if e.size+int(k) <= 7 {
					sums = append(sums, entry{e.sum + k*v, e.size + int(k)})
				}
			}
		}
		muls[r] = v
	}
	return muls, true
}

// TestSearchRankMul (with -searchrankmul) finds rankMul's numbers again by the search
// its comment describes.
func TestSearchRankMul(t *testing.T) {
	if !*searchRankMul {
		t.Skip("the search takes seconds: go test -run TestSearchRankMul -searchrankmul ./internal/eval")
	}
	got, ok := searchRankMuls(1 << sumBits)
	if !ok || got != rankMul {
		t.Fatalf("search found %v (fits: %v), rankMul is %v", got, ok, rankMul)
	}
}
