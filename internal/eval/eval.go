// Package eval ranks poker hands: 5, 6 and 7 Hold'em cards (fast, without
// allocating, incrementally if wanted) and three card stud hands.
//
// A Hand is a 16-byte value built by adding cards: one addition for the rank sum and
// suit counters, one bit set in the card mask. Rank looks at the suit counters for a
// flush (then an 8,192-entry table indexed by that suit's ranks) and otherwise finds the
// rank sum's slot in a table of non-flush ranks by one small offset lookup. Both tables
// are built when the package loads.
package eval

import (
	"math/bits"

	"github.com/felt-poker/felt/internal/cards"
)

// Rank is the value of a Hold'em hand: higher wins, equal ranks split. The top four
// bits hold the Category, the low twelve the hand's order within the category
// (1 is the weakest), so that 5-card hands take exactly 7,462 distinct values.
type Rank uint16

// Category is the kind of a hand, from HighCard up to StraightFlush.
type Category uint8

// The hand categories, weakest first. A royal flush is the best StraightFlush.
const (
	NoHand Category = iota
	HighCard
	OnePair
	TwoPair
	ThreeOfAKind
	Straight
	Flush
	FullHouse
	FourOfAKind
	StraightFlush
)

var categoryNames = [...]string{"no hand", "High card", "One pair", "Two pair", "Three of a kind", "Straight", "Flush", "Full house", "Four of a kind", "Straight flush"}

// String returns the category's name, such as "Full house".
func (c Category) String() string {
	if int(c) >= len(categoryNames) {
		return "?"
	}
	return categoryNames[c]
}

// Category returns the hand's category.
func (r Rank) Category() Category { return Category(r >> 12) }

// Hand is a set of up to 7 cards kept in the form the evaluator reads. The zero Hand
// is not empty: start from Empty. Add a card at most once.
type Hand struct {
	key  uint64 // bits 0..15: per-suit counters starting at 3; bits 39..61: the rank sum; 62..63: the card count
	mask uint64 // bit c for each card c, as in cards.Set
}

// Empty is the hand with no cards.
var Empty = Hand{key: emptyKey}

const (
	suitBias   = 0x3333 // each suit counter starts at 3, so 5 cards set its bit 3
	flushCheck = 0x8888
	suitOne    = 0x1111 // one card of each suit, added to the counters
	sumShift   = 39     // the rank sum, under 2^23, sits in bits 39..61 of the key
	countShift = 62     // the card count plus 3, modulo 4, in the top two bits
	sumBits    = countShift - sumShift
	// emptyKey is the key of no cards: every suit counter at 3 and the count field at
	// 3, so that 5, 6 and 7 cards read 0, 1 and 2 there (the carry out of bit 63 is lost).
	emptyKey = suitBias | 3<<countShift
)

// rankMul[r] is what a card of rank r adds to the rank sum. The numbers were found by
// a greedy search (TestSearchRankMul: for each rank in turn, the smallest number above
// the last one that keeps apart the sums of any two multisets of ranks, none more than
// four times, of the same size that higher ranks could still make into 5, 6 or 7 cards),
// so the rank sum of n cards names their ranks among all n-card hands, n from 5 to 7;
// the card count beside it (Hand.key's top two bits) tells the sizes apart. The
// largest sum is 7,825,766 (four aces, three kings). TestRankSumsDistinct checks it.
var rankMul = [cards.NumRanks]uint64{1, 2, 6, 23, 99, 454, 2032, 8699, 22855, 83662, 262350, 636346, 1479182}

// cardKey[c] is what adding card c adds to Hand.key (zero past the 52 cards). It is
// indexed by any byte, so that Add needs no bounds check.
var cardKey [256]uint64

func init() {
	for c := cards.Card(0); c < cards.NumCards; c++ {
		cardKey[c] = 1<<countShift | rankMul[c.Rank()]<<sumShift | 1<<(4*uint(c.Suit()))
	}
}

// Add returns the hand with card c added. c must be valid and not already in h.
func (h Hand) Add(c cards.Card) Hand {
	return Hand{key: h.key + cardKey[c], mask: h.mask | 1<<(c&63)}
}

// Combine returns the hand holding the cards of both h and o, which must not share a card.
func (h Hand) Combine(o Hand) Hand {
	return Hand{key: h.key + o.key - emptyKey, mask: h.mask | o.mask}
}

// HandOf returns the hand of the given cards.
func HandOf(cs ...cards.Card) Hand {
	h := Empty
	for _, c := range cs {
		h = h.Add(c)
	}
	return h
}

// Len returns the number of cards in the hand.
func (h Hand) Len() int { return bits.OnesCount64(h.mask) }

// Has reports whether the hand holds card c.
func (h Hand) Has(c cards.Card) bool { return cards.Set(h.mask).Has(c) }

// Rank returns the value of the best five cards in the hand. The hand must hold
// 5, 6 or 7 cards; for fewer the result means nothing.
func (h Hand) Rank() Rank {
	if f := h.key & flushCheck; f != 0 {
		return flushRankOf(h.mask, f)
	}
	return rankOfKey(h.key)
}

// flushRankOf returns the rank of a flush from the hand's card mask and its flush
// bits (its key's suit counters masked by flushCheck).
func flushRankOf(mask, f uint64) Rank {
	return flushRank[suitRanks(mask, uint(bits.TrailingZeros64(f))>>2)]
}

// MayFlushWith reports whether n more cards (0 to 4) could give the hand five cards of
// one suit: whether it holds some suit at least 5-n times. When it reports false, Rank
// and RankNoFlush agree on the hand with any n more cards.
func (h Hand) MayFlushWith(n int) bool { return (h.key+uint64(n)*suitOne)&flushCheck != 0 }

// RankNoFlush returns the value of the hand's best five cards with suits ignored: what
// Rank returns for a hand of the same ranks with no five cards of one suit. Like Rank it
// needs 5, 6 or 7 cards. Exact equity uses it on boards where no one can make a flush.
func (h Hand) RankNoFlush() Rank { return rankOfKey(h.key) }

// suitRanks returns the 13-bit rank mask of the cards of suit s in a card mask (bit
// 4*rank+suit). The suit's bits, one per nibble, are folded into four bits per 16-bit
// lane, and one multiply moves the four lanes side by side into the top 16 bits (the
// other products land on distinct lower nibbles, so nothing carries into them).
func suitRanks(mask uint64, s uint) uint64 {
	x := mask >> s & 0x1111111111111
	x = (x | x>>3) & 0x0303030303030303
	x = (x | x>>6) & 0x000f000f000f000f
	return x * (1<<48 | 1<<36 | 1<<24 | 1<<12) >> 48 & 0x1fff
}

// rankOfKey looks up a hand with no flush by its rank sum and card count (the key's
// top 25 bits): their row (the top bits of those) gives an offset, and the two plus the
// offset is the hand's slot in rankTable.
func rankOfKey(key uint64) Rank {
	return rankTable[(uint32(key>>sumShift)+rowOffset[key>>(sumShift+rowShift)])&(tableSize-1)]
}

// Evaluate returns the rank of 5, 6 or 7 cards.
func Evaluate(cs ...cards.Card) Rank {
	h := Empty
	for _, c := range cs {
		h = h.Add(c)
	}
	return h.Rank()
}
