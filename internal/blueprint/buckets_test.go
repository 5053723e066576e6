package blueprint

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

// TestBucketsUpToSuits: a board with its suits renamed (and its cards in another
// order) takes its buckets from the board first asked, computing nothing more,
// and they are the ones BoardBuckets computes for it: every hand's, on flops of
// every suit pattern, a turn, a river and before the flop. Before, each board as
// dealt was computed again (about 30 ms of CPU a flop: 22,100 flops where 1,755
// are distinct).
func TestBucketsUpToSuits(t *testing.T) {
	bp, err := Read(bytes.NewReader(embedded))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i, board := range []string{"AsKd7h", "Ts9s2d", "8c8d3h", "QhJhTh", "5c4d3h", "KdKhKs", "Jc7c2d9h", "AsKd7h2c2h", ""} {
		b := cards.MustParseList(board)
		if _, err := bp.Buckets(b); err != nil {
			t.Fatal(err)
		}
		if bp.computed != i+1 {
			t.Fatalf("%s: %d boards computed, want %d", board, bp.computed, i+1)
		}
		for range 3 {
			p := &suitPerms[r.IntN(len(suitPerms))]
			renamed := make([]cards.Card, len(b))
			for k, c := range b {
				renamed[k] = rename(c, p)
			}
			r.Shuffle(len(renamed), func(x, y int) { renamed[x], renamed[y] = renamed[y], renamed[x] })
			got, err := bp.Buckets(renamed)
			if err != nil {
				t.Fatal(err)
			}
			want, err := bp.abs.BoardBuckets(renamed)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s renamed %s: not BoardBuckets' buckets", board, cards.Format(renamed))
			}
			if bp.computed != i+1 {
				t.Fatalf("%s renamed %s: computed again", board, cards.Format(renamed))
			}
		}
	}
}

// BenchmarkBucketsRenamedFlop: the buckets of a flop asked for the first time as
// dealt, another renaming of its suits having been asked before (As Kd 7h: 24
// renamings), as in a long match where most flops were seen with other suits.
func BenchmarkBucketsRenamedFlop(b *testing.B) {
	bp, err := Read(bytes.NewReader(embedded))
	if err != nil {
		b.Fatal(err)
	}
	flop := cards.MustParseList("AsKd7h")
	var boards [][]cards.Card
	for s := range 24 {
		p := &suitPerms[s]
		boards = append(boards, []cards.Card{rename(flop[0], p), rename(flop[1], p), rename(flop[2], p)})
	}
	if _, err := bp.Buckets(flop); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		bp.mu.Lock()
		bp.buckets = nil // each renaming as if first asked
		bp.mu.Unlock()
		if _, err := bp.Buckets(boards[i%len(boards)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
