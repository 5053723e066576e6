package eval

import (
	"fmt"

	"github.com/felt-poker/felt/internal/cards"
)

// StudRank is the value of a three card stud hand (RULES.md): three of a kind beats a
// pair beats high card; no straights or flushes. Higher wins; equal values split.
// Bits 12..13 hold the category (1 high card, 2 pair, 3 three of a kind), then four
// bits per rank: the trips rank; or the pair rank and the odd card; or the three ranks
// high to low.
type StudRank uint16

// Stud returns the value of a three card stud hand.
func Stud(a, b, c cards.Card) StudRank {
	x, y, z := a.Rank(), b.Rank(), c.Rank()
	// sort descending
	if x < y {
		x, y = y, x
	}
	if y < z {
		y, z = z, y
	}
	if x < y {
		x, y = y, x
	}
	switch {
	case x == y && y == z:
		return StudRank(3<<12 | uint16(x)<<8)
	case x == y:
		return StudRank(2<<12 | uint16(x)<<8 | uint16(z)<<4)
	case y == z:
		return StudRank(2<<12 | uint16(y)<<8 | uint16(x)<<4)
	}
	return StudRank(1<<12 | uint16(x)<<8 | uint16(y)<<4 | uint16(z))
}

// Category returns HighCard, OnePair or ThreeOfAKind.
func (r StudRank) Category() Category {
	switch r >> 12 {
	case 3:
		return ThreeOfAKind
	case 2:
		return OnePair
	}
	return HighCard
}

// String names the hand, such as "One pair, kings, ace kicker".
func (r StudRank) String() string {
	a, b, c := cards.Rank(r>>8&15), cards.Rank(r>>4&15), cards.Rank(r&15)
	switch r.Category() {
	case ThreeOfAKind:
		return "Three of a kind, " + a.Plural()
	case OnePair:
		return fmt.Sprintf("One pair, %s, %s kicker", a.Plural(), b.Name())
	}
	return fmt.Sprintf("High card, %s, %s, %s", a.Name(), b.Name(), c.Name())
}
