// Package eval ranks poker hands: 5, 6 and 7 Hold'em cards (fast, without
// allocating, incrementally if wanted) and three card stud hands.
//
// A Hand is a 16-byte value built by adding cards: one addition for the rank key and
// suit counters, one OR for the card mask. Rank looks at the suit counters for a flush
// (then a 8,192-entry table indexed by that suit's ranks) and otherwise hashes the rank
// key perfectly into a 128 K-entry table. Both tables are built when the package loads.
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
	key  uint64 // bits 0..38: 3-bit count per rank; bits 48..63: per-suit counters starting at 3
	mask uint64 // bit 16*suit + rank for each card
}

// Empty is the hand with no cards.
var Empty = Hand{key: suitBias}

const (
	suitShift  = 48
	suitBias   = 0x3333 << suitShift // each suit counter starts at 3, so 5 cards set its bit 3
	flushCheck = 0x8888 << suitShift
	rankMask   = 1<<39 - 1
)

// cardKey[c] is what adding card c adds to Hand.key (zero past the 52 cards).
// cardBit[c] is card c's bit in Hand.mask. Both tables are indexed by any byte, so
// that Add needs no bounds check.
var cardKey, cardBit [256]uint64

func init() {
	for c := cards.Card(0); c < cards.NumCards; c++ {
		cardKey[c] = 1<<(3*uint(c.Rank())) | 1<<(suitShift+4*uint(c.Suit()))
		cardBit[c] = 1 << (16*uint(c.Suit()) + uint(c.Rank()))
	}
}

// Add returns the hand with card c added. c must be valid and not already in h.
func (h Hand) Add(c cards.Card) Hand {
	return Hand{key: h.key + cardKey[c], mask: h.mask | cardBit[c]}
}

// Combine returns the hand holding the cards of both h and o, which must not share a card.
func (h Hand) Combine(o Hand) Hand {
	return Hand{key: h.key + o.key - suitBias, mask: h.mask | o.mask}
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
func (h Hand) Has(c cards.Card) bool {
	return h.mask&cardBit[c] != 0
}

// Rank returns the value of the best five cards in the hand. The hand must hold
// 5, 6 or 7 cards; for fewer the result means nothing.
func (h Hand) Rank() Rank {
	if f := h.key & flushCheck; f != 0 {
		suit := uint(bits.TrailingZeros64(f)-suitShift) &^ 3 // 4 * suit
		return flushRank[(h.mask>>(suit<<2&63))&0x1fff]
	}
	return rankOfKey(h.key)
}

// rankOfKey looks up a hand with no flush by its rank counts.
func rankOfKey(key uint64) Rank {
	q := (key & rankMask) * hashMul
	return rankTable[(uint32(q>>(64-bucketBits-slotBits))^uint32(disp[q>>(64-bucketBits)]))&(tableSize-1)]
}

// Evaluate returns the rank of 5, 6 or 7 cards.
func Evaluate(cs ...cards.Card) Rank {
	h := Empty
	for _, c := range cs {
		h = h.Add(c)
	}
	return h.Rank()
}
