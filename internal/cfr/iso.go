package cfr

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/felt-poker/felt/internal/cards"
)

// maxIsoRounds bounds the rounds of a HandIndexer; each round's per-suit card count
// takes four bits of a suit's key, so four rounds fill 16 bits.
const maxIsoRounds = 4

// HandIndexer numbers poker hands dealt in rounds up to suit isomorphism, as in
// Waugh's "A fast and optimal hand isomorphism algorithm" (2013): two hands get the
// same index exactly when a permutation of the suits maps one onto the other, with
// the cards of each round kept apart (the order of cards within a round does not
// matter), and the indices of a round are 0..Size()−1 with none unused.
//
// Hold'em's usual indexers are NewHandIndexer(2) (169 starting hands),
// NewHandIndexer(2, 3) (1,286,792 hole-and-flop classes), NewHandIndexer(2, 3, 1)
// (55,190,538) and NewHandIndexer(2, 3, 1, 1) (2,428,287,420). A HandIndexer is
// immutable once made and safe for concurrent use.
//
// How: a suit's cards form one rank set per round; the suit's configuration is its
// card count per round and its index the colex rank of those sets (each round's set
// taken among the ranks the suit's earlier rounds left). Suits are put in a
// canonical order (configuration, then index); the hand's configuration — the
// sorted list of its suits' configurations — picks a block of indices, and within
// it suits with the same configuration form a multiset of suit indices, ranked as
// combinations with repetition, the groups joined in mixed radix.
type HandIndexer struct {
	rounds  []int
	total   int
	configs map[uint64]int // hand configuration key → index into offset
	offset  []uint64       // first index of each configuration, sorted by key
	size    uint64
}

// NewHandIndexer returns the indexer of hands dealt in rounds of the given sizes
// (1 to 4 rounds, at most 7 cards in all).
func NewHandIndexer(rounds ...int) (*HandIndexer, error) {
	total := 0
	for _, n := range rounds {
		if n < 1 {
			return nil, fmt.Errorf("hand indexer: round of %d cards", n)
		}
		total += n
	}
	if len(rounds) < 1 || len(rounds) > maxIsoRounds || total > 7 {
		return nil, fmt.Errorf("hand indexer: rounds %v: want 1 to %d rounds of at most 7 cards in all", rounds, maxIsoRounds)
	}
	ix := &HandIndexer{rounds: slices.Clone(rounds), total: total, configs: map[uint64]int{}}
	// Every split of each round's cards among the four suits, canonicalised.
	sizes := map[uint64]uint64{}
	var counts [cards.NumSuits][maxIsoRounds]int
	var rec func(r, s, left int)
	rec = func(r, s, left int) {
		if r == len(rounds) {
			var keys [cards.NumSuits]uint16
			for su := range cards.NumSuits {
				keys[su] = suitKey(counts[su][:len(rounds)])
			}
			key, n := ix.configOf(keys, counts)
			sizes[key] = n
			return
		}
		if s == cards.NumSuits-1 {
			counts[s][r] = left
			rec(r+1, 0, rounds[min(r+1, len(rounds)-1)])
			return
		}
		for k := 0; k <= left; k++ {
			counts[s][r] = k
			rec(r, s+1, left-k)
		}
	}
	rec(0, 0, rounds[0])
	keys := make([]uint64, 0, len(sizes))
	for k := range sizes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		ix.configs[k] = i
		ix.offset = append(ix.offset, ix.size)
		ix.size += sizes[k]
	}
	return ix, nil
}

// suitKey packs one suit's card count per round, four bits each, first round highest.
func suitKey(counts []int) uint16 {
	var k uint16
	for _, c := range counts {
		k = k<<4 | uint16(c)
	}
	return k
}

// suitSize is the number of ways one suit can hold counts[r] cards in each round.
func suitSize(counts []int) uint64 {
	n := uint64(1)
	free := cards.NumRanks
	for _, c := range counts {
		n *= choose(uint64(free), uint64(c))
		free -= c
	}
	return n
}

// configOf returns the key of the hand configuration whose suits have the given
// keys and counts, and its number of hands.
func (ix *HandIndexer) configOf(keys [cards.NumSuits]uint16, counts [cards.NumSuits][maxIsoRounds]int) (uint64, uint64) {
	order := [cards.NumSuits]int{0, 1, 2, 3}
	slices.SortFunc(order[:], func(a, b int) int { return int(keys[b]) - int(keys[a]) })
	var key uint64
	n := uint64(1)
	for i := 0; i < cards.NumSuits; {
		j := i
		for j < cards.NumSuits && keys[order[j]] == keys[order[i]] {
			j++
		}
		size := suitSize(counts[order[i]][:len(ix.rounds)])
		n *= choose(size+uint64(j-i)-1, uint64(j-i))
		i = j
	}
	for _, s := range order {
		key = key<<16 | uint64(keys[s])
	}
	return key, n
}

// Rounds returns the number of cards in each round.
func (ix *HandIndexer) Rounds() []int { return slices.Clone(ix.rounds) }

// Size returns the number of classes: indices run from 0 to Size()−1.
func (ix *HandIndexer) Size() uint64 { return ix.size }

// Index returns the class of the hand cs, its rounds' cards one after another
// (Hold'em: the two hole cards, then the flop, the turn, the river). cs must hold
// exactly the indexer's number of distinct valid cards.
func (ix *HandIndexer) Index(cs []cards.Card) uint64 {
	if len(cs) != ix.total {
		panic(fmt.Sprintf("hand indexer: %d cards, want %d", len(cs), ix.total))
	}
	var sets [cards.NumSuits][maxIsoRounds]uint16
	k := 0
	for r, n := range ix.rounds {
		for _, c := range cs[k : k+n] {
			sets[c.Suit()][r] |= 1 << c.Rank()
		}
		k += n
	}
	var keys [cards.NumSuits]uint16
	var idx, size [cards.NumSuits]uint64
	for s := range cards.NumSuits {
		var used uint16
		mult := uint64(1)
		for r := range ix.rounds {
			m := sets[s][r]
			cnt := bits.OnesCount16(m)
			keys[s] = keys[s]<<4 | uint16(cnt)
			// The colex rank of m among the ranks still free in this suit.
			var colex uint64
			j := uint64(0)
			for x := m; x != 0; x &= x - 1 {
				b := bits.TrailingZeros16(x)
				pos := b - bits.OnesCount16(used&(1<<b-1))
				j++
				colex += choose(uint64(pos), j)
			}
			idx[s] += mult * colex
			mult *= choose(uint64(cards.NumRanks-bits.OnesCount16(used)), uint64(cnt))
			used |= m
		}
		size[s] = mult
	}
	order := [cards.NumSuits]int{0, 1, 2, 3}
	slices.SortFunc(order[:], func(a, b int) int {
		if keys[a] != keys[b] {
			return int(keys[b]) - int(keys[a])
		}
		switch {
		case idx[a] < idx[b]:
			return -1
		case idx[a] > idx[b]:
			return 1
		}
		return 0
	})
	var key uint64
	for _, s := range order {
		key = key<<16 | uint64(keys[s])
	}
	var within uint64
	mult := uint64(1)
	for i := 0; i < cards.NumSuits; {
		j := i
		var g uint64 // the multiset's rank: Σ C(a_t + t, t + 1), a sorted ascending
		for j < cards.NumSuits && keys[order[j]] == keys[order[i]] {
			t := uint64(j - i)
			g += choose(idx[order[j]]+t, t+1)
			j++
		}
		within += mult * g
		mult *= choose(size[order[i]]+uint64(j-i)-1, uint64(j-i))
		i = j
	}
	return ix.offset[ix.configs[key]] + within
}

// choose returns the binomial coefficient C(n, k) (0 when k > n).
func choose(n, k uint64) uint64 {
	if k > n {
		return 0
	}
	r := uint64(1)
	for i := range k {
		r = r * (n - i) / (i + 1)
	}
	return r
}
