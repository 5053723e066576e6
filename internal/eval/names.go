package eval

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/felt-poker/felt/internal/cards"
)

// classOf maps each of the 7,462 ranks back to its class, for names.
var classOf = map[Rank]class{}

func init() {
	for c, r := range buildNumbering() {
		classOf[r] = c
	}
}

// String names the hand as a person reads it, such as "Full house, kings full of fours".
func (r Rank) String() string {
	c, ok := classOf[r]
	if !ok {
		return "no hand"
	}
	t := c.tb
	switch c.cat {
	case StraightFlush:
		if t[0] == cards.Ace {
			return "Royal flush"
		}
		return fmt.Sprintf("Straight flush, %s high", t[0].Name())
	case FourOfAKind:
		return "Four of a kind, " + t[0].Plural()
	case FullHouse:
		return fmt.Sprintf("Full house, %s full of %s", t[0].Plural(), t[1].Plural())
	case Flush:
		return fmt.Sprintf("Flush, %s high", t[0].Name())
	case Straight:
		return fmt.Sprintf("Straight, %s high", t[0].Name())
	case ThreeOfAKind:
		return "Three of a kind, " + t[0].Plural()
	case TwoPair:
		return fmt.Sprintf("Two pair, %s and %s", t[0].Plural(), t[1].Plural())
	case OnePair:
		return "One pair, " + t[0].Plural()
	}
	return "High card, " + t[0].Name()
}

// Best returns the rank of 5, 6 or 7 cards and the five cards that make it, ordered
// as a person reads them: the largest group first ("KKK44"), a straight from its top
// card down (the wheel ends with its ace).
func Best(cs []cards.Card) (Rank, [5]cards.Card) {
	var best [5]cards.Card
	want := Evaluate(cs...)
	for m := uint(0); m < 1<<len(cs); m++ {
		if bits.OnesCount(m) != 5 {
			continue
		}
		var five [5]cards.Card
		k := 0
		for i, c := range cs {
			if m&(1<<i) != 0 {
				five[k] = c
				k++
			}
		}
		if Evaluate(five[:]...) == want {
			best = five
			break
		}
	}
	orderForReading(&best, want.Category())
	return want, best
}

func orderForReading(five *[5]cards.Card, cat Category) {
	var count [cards.NumRanks]int
	for _, c := range five {
		count[c.Rank()]++
	}
	wheel := (cat == Straight || cat == StraightFlush) && count[cards.Ace] == 1 && count[cards.Five] == 1 && count[cards.King] == 0
	key := func(c cards.Card) int {
		r := int(c.Rank())
		if wheel && c.Rank() == cards.Ace {
			r = -1
		}
		return count[c.Rank()]*100 + r*4 + int(c.Suit())
	}
	slices.SortFunc(five[:], func(x, y cards.Card) int { return key(y) - key(x) })
}
