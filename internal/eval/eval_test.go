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
	forEachCombo(5, func(c []cards.Card) {
		r := Evaluate(c...)
		hands[r.Category()]++
		if !seen[r] {
			seen[r] = true
			ranksPer[r.Category()]++
		}
		total++
	})
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
	var sum uint64
	forEachCombo(7, func(c []cards.Card) {
		r := Empty.Add(c[0]).Add(c[1]).Add(c[2]).Add(c[3]).Add(c[4]).Add(c[5]).Add(c[6]).Rank()
		hands[r.Category()]++
		seen[r] = true
		sum += uint64(r)
	})
	if e := EnumerateSevens(); e != sum {
		t.Errorf("EnumerateSevens sums the ranks to %d, the walk over combinations to %d", e, sum)
	}
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

// forEachCombo calls f with every k-card combination, walked in lexicographic order
// (unlike the nested incremental loops of EnumerateSevens, so the two check each other).
func forEachCombo(k int, f func([]cards.Card)) {
	c := make([]cards.Card, k)
	for i := range c {
		c[i] = cards.Card(i)
	}
	for {
		f(c)
		i := k - 1
		for i >= 0 && c[i] == cards.Card(cards.NumCards-k+i) {
			i--
		}
		if i < 0 {
			return
		}
		c[i]++
		for j := i + 1; j < k; j++ {
			c[j] = c[j-1] + 1
		}
	}
}
