package eval

import (
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

// rankDigests are digests of the rank of every 5-, 6- and 7-card hand, in the order
// forEachCombo walks them, taken from the evaluator of commit bae5e4b (before the rank
// sums were scrambled and the table repacked): TestEveryHandRanksAsBefore holds the
// evaluator to them, hand by hand, not only in sum.
var rankDigests = map[int]uint64{5: 0x60a1c0bc9d01d475, 6: 0x652ad38588c187b7, 7: 0x6f2403152d1a3fa7}

// rankDigest returns a digest of the ranks of every k-card hand: each rank in turn
// multiplied into a running FNV-1a-style hash, so that any one rank changed, or two
// swapped, changes it.
func rankDigest(k int) uint64 {
	h := uint64(14695981039346656037)
	forEachCombo(k, func(c []cards.Card) {
		x := Empty
		for _, card := range c {
			x = x.Add(card)
		}
		h = (h ^ uint64(x.Rank())) * 1099511628211
	})
	return h
}

// Every 5-, 6- and 7-card hand (2,598,960 + 20,358,520 + 133,784,560) ranks as it did
// before the evaluator's tables were rebuilt.
func TestEveryHandRanksAsBefore(t *testing.T) {
	if testing.Short() {
		t.Skip("ranks 156,742,040 hands")
	}
	for _, k := range []int{5, 6, 7} {
		if got := rankDigest(k); got != rankDigests[k] {
			t.Errorf("%d-card hands: digest %#x, before %#x", k, got, rankDigests[k])
		}
	}
}

// RankSevens (the assembly loop on amd64) ranks every 7-card hand, one at a time, as
// the evaluator of commit bae5e4b did: the same digest as TestEveryHandRanksAsBefore,
// through the other code path.
func TestRankSevensEveryHandAsBefore(t *testing.T) {
	if testing.Short() {
		t.Skip("ranks 133,784,560 hands")
	}
	h := uint64(14695981039346656037)
	var one [1]Seven
	forEachCombo(7, func(c []cards.Card) {
		copy(one[0][:], c)
		h = (h ^ RankSevens(one[:])) * 1099511628211
	})
	if h != rankDigests[7] {
		t.Errorf("digest %#x, before %#x", h, rankDigests[7])
	}
}
