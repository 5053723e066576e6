package eval

import (
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

// Standard counts of the 2,598,960 five-card hands by category, and of distinct ranks.
func TestAllFiveCardHands(t *testing.T) {
	wantHands := map[Category]int{
		StraightFlush: 40, FourOfAKind: 624, FullHouse: 3744, Flush: 5108, Straight: 10200,
		ThreeOfAKind: 54912, TwoPair: 123552, OnePair: 1098240, HighCard: 1302540,
	}
	wantRanks := map[Category]int{
		StraightFlush: 10, FourOfAKind: 156, FullHouse: 156, Flush: 1277, Straight: 10,
		ThreeOfAKind: 858, TwoPair: 858, OnePair: 2860, HighCard: 1277,
	}
	hands := map[Category]int{}
	seen := map[Rank]bool{}
	ranksPer := map[Category]int{}
	total := 0
	for a := cards.Card(0); a < 52; a++ {
		ha := Empty.Add(a)
		for b := a + 1; b < 52; b++ {
			hb := ha.Add(b)
			for c := b + 1; c < 52; c++ {
				hc := hb.Add(c)
				for d := c + 1; d < 52; d++ {
					hd := hc.Add(d)
					for e := d + 1; e < 52; e++ {
						r := hd.Add(e).Rank()
						hands[r.Category()]++
						if !seen[r] {
							seen[r] = true
							ranksPer[r.Category()]++
						}
						total++
					}
				}
			}
		}
	}
	if total != 2598960 || len(seen) != 7462 {
		t.Fatalf("%d hands, %d distinct ranks; want 2598960 and 7462", total, len(seen))
	}
	for cat, want := range wantHands {
		if hands[cat] != want || ranksPer[cat] != wantRanks[cat] {
			t.Errorf("%v: %d hands, %d ranks; want %d and %d", cat, hands[cat], ranksPer[cat], want, wantRanks[cat])
		}
	}
}
