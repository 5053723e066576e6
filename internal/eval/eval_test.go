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

// All 133,784,560 seven-card hands, by the category of their best five cards.
func TestAllSevenCardHands(t *testing.T) {
	if testing.Short() {
		t.Skip("enumerates 133,784,560 hands")
	}
	var hands [StraightFlush + 1]int
	var seen [1 << 16]bool
	forEachSeven(func(r Rank) {
		hands[r.Category()]++
		seen[r] = true
	})
	want := [StraightFlush + 1]int{
		StraightFlush: 41584, FourOfAKind: 224848, FullHouse: 3473184, Flush: 4047644,
		Straight: 6180020, ThreeOfAKind: 6461620, TwoPair: 31433400, OnePair: 58627800,
		HighCard: 23294460,
	}
	if hands != want {
		t.Errorf("hands by category %v, want %v", hands, want)
	}
	distinct := 0
	for _, s := range seen {
		if s {
			distinct++
		}
	}
	if distinct != 4824 {
		t.Errorf("%d distinct ranks, want 4824", distinct)
	}
}

// forEachSeven calls f with the rank of every 7-card hand, adding one card at a time.
func forEachSeven(f func(Rank)) {
	for a := cards.Card(0); a < 52; a++ {
		h1 := Empty.Add(a)
		for b := a + 1; b < 52; b++ {
			h2 := h1.Add(b)
			for c := b + 1; c < 52; c++ {
				h3 := h2.Add(c)
				for d := c + 1; d < 52; d++ {
					h4 := h3.Add(d)
					for e := d + 1; e < 52; e++ {
						h5 := h4.Add(e)
						for g := e + 1; g < 52; g++ {
							h6 := h5.Add(g)
							for k := g + 1; k < 52; k++ {
								f(h6.Add(k).Rank())
							}
						}
					}
				}
			}
		}
	}
}
