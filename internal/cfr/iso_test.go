package cfr

import (
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

// TestHandIndexerSizes checks the class counts of Waugh's paper.
func TestHandIndexerSizes(t *testing.T) {
	for _, c := range []struct {
		rounds []int
		want   uint64
	}{
		{[]int{2}, 169},
		{[]int{2, 3}, 1_286_792},
		{[]int{2, 3, 1}, 55_190_538},
		{[]int{2, 3, 1, 1}, 2_428_287_420},
		{[]int{3}, 1_755},
		{[]int{1}, 13},
		{[]int{4}, 16_432},
		{[]int{2, 4}, 13_960_050},
	} {
		ix, err := NewHandIndexer(c.rounds...)
		if err != nil {
			t.Fatal(err)
		}
		if got := ix.Size(); got != c.want {
			t.Errorf("rounds %v: %d classes, want %d", c.rounds, got, c.want)
		}
	}
	for _, bad := range [][]int{{}, {0}, {2, 3, 1, 1, 1}, {5, 3}} {
		if _, err := NewHandIndexer(bad...); err == nil {
			t.Errorf("rounds %v: no error", bad)
		}
	}
}

// enumerate calls f with every hand of the rounds' sizes (cards of a round in
// increasing order).
func enumerate(rounds []int, f func(cs []cards.Card)) {
	cs := make([]cards.Card, 0, 7)
	var used uint64
	var rec func(r, k, from int)
	rec = func(r, k, from int) {
		if r == len(rounds) {
			f(cs)
			return
		}
		if k == rounds[r] {
			rec(r+1, 0, 0)
			return
		}
		for c := from; c < cards.NumCards; c++ {
			if used&(1<<c) != 0 {
				continue
			}
			used |= 1 << c
			cs = append(cs, cards.Card(c))
			rec(r, k+1, c+1)
			cs = cs[:len(cs)-1]
			used &^= 1 << c
		}
	}
	rec(0, 0, 0)
}

// TestHandIndexerOnto indexes every preflop and flop-board hand (and, with
// FELT_CFR_SLOW=1, every hole-and-flop hand: 26 million, ten seconds): each index
// is in range and each is used.
func TestHandIndexerOnto(t *testing.T) {
	rounds := [][]int{{2}, {3}, {4}}
	if os.Getenv("FELT_CFR_SLOW") != "" {
		rounds = append(rounds, []int{2, 3})
	}
	for _, r := range rounds {
		ix, _ := NewHandIndexer(r...)
		seen := make([]bool, ix.Size())
		used := 0
		enumerate(r, func(cs []cards.Card) {
			i := ix.Index(cs)
			if i >= ix.Size() {
				t.Fatalf("%v: index %d of %d", cs, i, ix.Size())
			}
			if !seen[i] {
				seen[i] = true
				used++
			}
		})
		if used != len(seen) {
			t.Errorf("rounds %v: %d of %d indices used", r, used, len(seen))
		}
	}
}

// canonical is a brute-force canonical form: the smallest, over the 24 suit
// permutations, of the rounds' sorted cards.
func canonical(rounds []int, cs []cards.Card) string {
	best := ""
	perm := []int{0, 1, 2, 3}
	var permute func(k int)
	permute = func(k int) {
		if k == len(perm) {
			out := make([]byte, 0, len(cs)+len(rounds))
			i := 0
			for _, n := range rounds {
				round := make([]byte, 0, n)
				for _, c := range cs[i : i+n] {
					round = append(round, byte(cards.New(c.Rank(), cards.Suit(perm[c.Suit()]))))
				}
				slices.Sort(round)
				out = append(append(out, round...), 255)
				i += n
			}
			if best == "" || string(out) < best {
				best = string(out)
			}
			return
		}
		for i := k; i < len(perm); i++ {
			perm[k], perm[i] = perm[i], perm[k]
			permute(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	permute(0)
	return best
}

// TestHandIndexerIsomorphism checks on random hands that two hands share an index
// exactly when they share the brute-force canonical form, and that a suit
// permutation or the order of cards within a round does not change the index.
func TestHandIndexerIsomorphism(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, rounds := range [][]int{{2, 3, 1, 1}, {2, 4}, {2, 3, 1}, {4}} {
		ix, _ := NewHandIndexer(rounds...)
		total := 0
		for _, n := range rounds {
			total += n
		}
		byIndex := map[uint64]string{}
		byForm := map[string]uint64{}
		for range 20000 {
			// Half the hands from the twenty lowest cards, so that isomorphic hands meet.
			n := cards.NumCards
			if r.IntN(2) == 0 {
				n = 20
			}
			deck := r.Perm(n)
			cs := make([]cards.Card, total)
			for i := range cs {
				cs[i] = cards.Card(deck[i])
			}
			i := ix.Index(cs)
			if i >= ix.Size() {
				t.Fatalf("%v: index %d of %d", cs, i, ix.Size())
			}
			f := canonical(rounds, cs)
			if g, ok := byIndex[i]; ok && g != f {
				t.Fatalf("rounds %v: index %d for two forms (%v)", rounds, i, cs)
			}
			if j, ok := byForm[f]; ok && j != i {
				t.Fatalf("rounds %v: the form of %v has indices %d and %d", rounds, cs, i, j)
			}
			byIndex[i], byForm[f] = f, i
			perm := r.Perm(cards.NumSuits)
			moved := make([]cards.Card, total)
			for k, c := range cs {
				moved[k] = cards.New(c.Rank(), cards.Suit(perm[c.Suit()]))
			}
			k := 0
			for _, n := range rounds {
				r.Shuffle(n, func(a, b int) { moved[k+a], moved[k+b] = moved[k+b], moved[k+a] })
				k += n
			}
			if j := ix.Index(moved); j != i {
				t.Fatalf("rounds %v: %v has index %d, its isomorph %v %d", rounds, cs, i, moved, j)
			}
		}
	}
}

func BenchmarkHandIndexerRiver(b *testing.B) {
	ix, _ := NewHandIndexer(2, 3, 1, 1)
	cs := cards.MustParseList("AhKd2c7h9sTd3c")
	for b.Loop() {
		_ = ix.Index(cs)
	}
}
