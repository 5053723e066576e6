package cards

import (
	"math"
	"testing"
)

// The deck order for seed 1 is pinned: changing the shuffle breaks every recorded hand.
func TestDeckGolden(t *testing.T) {
	got := Format(Shuffled(SeedFromUint64(1)))
	const want = "3d5s5cKdQdJh3s4hQsKh2s7h6d6c4sAs2d9c9d2cQh5hKc5dTc4c9hKsAdTd3h4d3cAc8d8c7s6h8hTsJc9sJs7d2h6sAhJdTh7c8sQc"
	if got != want {
		t.Fatalf("deck order for seed 1 changed:\n got %s\nwant %s", got, want)
	}
}

func TestDeckDealsEveryCardOnce(t *testing.T) {
	d := NewDeck(SeedFromUint64(7))
	for hand := 0; hand < 1000; hand++ {
		d.Reset(SeedFromUint64(uint64(hand)))
		var seen Set
		for d.Left() > 0 {
			c := d.Deal()
			if seen.Has(c) || !c.Valid() {
				t.Fatalf("hand %d: %s dealt twice or invalid", hand, c)
			}
			seen = seen.Add(c)
		}
		if seen != FullSet {
			t.Fatalf("hand %d: dealt %d cards", hand, seen.Len())
		}
	}
}

func TestDeckResetKeepSkipsDead(t *testing.T) {
	d := NewDeck(SeedFromUint64(3))
	dead := SetOf(MustParseList("AsKs")...)
	d.ResetKeep(dead)
	if d.Left() != 50 {
		t.Fatalf("left %d, want 50", d.Left())
	}
	for d.Left() > 0 {
		if c := d.Deal(); dead.Has(c) {
			t.Fatalf("dealt dead card %s", c)
		}
	}
}

func TestDeckSameSeedSameOrder(t *testing.T) {
	s := RandomSeed()
	a, b := Shuffled(s), Shuffled(s)
	if Format(a) != Format(b) {
		t.Fatal("same seed gave different orders")
	}
	if Format(a) == Format(Shuffled(RandomSeed())) {
		t.Fatal("two random seeds gave the same order")
	}
}

func TestParseSeed(t *testing.T) {
	s := RandomSeed()
	p, err := ParseSeed(s.String())
	if err != nil || p != s {
		t.Fatalf("hex round trip: %v", err)
	}
	p, err = ParseSeed("42")
	if err != nil || p != SeedFromUint64(42) {
		t.Fatalf("decimal seed: %v", err)
	}
	for _, bad := range []string{"", "-1", "x", "1.5", "0x10"} {
		if _, err := ParseSeed(bad); err == nil {
			t.Errorf("ParseSeed(%q) accepted", bad)
		}
	}
}

// TestDeckChiSquare checks that every card reaches every position evenly: for each
// position, the counts of the 52 cards over many shuffles fit the uniform
// distribution (chi-square, 51 degrees of freedom). The test fails only if some
// position's statistic is beyond the 1e-6 tail, so it is not flaky, yet a biased
// shuffle (such as the classic "swap with any card" error) fails it at once.
func TestDeckChiSquare(t *testing.T) {
	const shuffles = 52 * 400
	var counts [NumCards][NumCards]int // [position][card]
	d := NewDeck(SeedFromUint64(11))
	for i := 0; i < shuffles; i++ {
		d.Reset(SeedFromUint64(uint64(i) + 1000))
		for pos := 0; pos < NumCards; pos++ {
			counts[pos][d.Deal()]++
		}
	}
	if worst := chiSquareWorst(counts, shuffles); worst > chi51Critical {
		t.Fatalf("chi-square %.1f exceeds %.1f: the shuffle is biased", worst, chi51Critical)
	}

	// The same statistic catches a biased shuffle, so the test can fail.
	var biased [NumCards][NumCards]int
	d = NewDeck(SeedFromUint64(12))
	for i := 0; i < shuffles; i++ {
		var deck [NumCards]Card
		for c := range deck {
			deck[c] = Card(c)
		}
		for k := range deck { // naive: swap with any position
			j := d.rng.IntN(NumCards)
			deck[k], deck[j] = deck[j], deck[k]
		}
		for pos, c := range deck {
			biased[pos][c]++
		}
	}
	if worst := chiSquareWorst(biased, shuffles); worst <= chi51Critical {
		t.Fatalf("biased shuffle not detected: chi-square %.1f", worst)
	}
}

// chi51Critical is the chi-square value with 51 degrees of freedom exceeded with
// probability about 1e-6.
const chi51Critical = 118.0

func chiSquareWorst(counts [NumCards][NumCards]int, n int) float64 {
	expected := float64(n) / NumCards
	worst := 0.0
	for pos := range counts {
		x := 0.0
		for _, o := range counts[pos] {
			d := float64(o) - expected
			x += d * d / expected
		}
		worst = math.Max(worst, x)
	}
	return worst
}

func BenchmarkDealHoldem6(b *testing.B) {
	d := NewDeck(SeedFromUint64(1))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		d.Reset(SeedFromUint64(uint64(i)))
		for k := 0; k < 6*2+5+3; k++ {
			d.Deal()
		}
	}
}

func TestDeckDealToMatchesDeal(t *testing.T) {
	a, b := NewDeck(SeedFromUint64(5)), NewDeck(SeedFromUint64(5))
	for _, n := range []int{0, 1, 20, 31} {
		dst := make([]Card, n)
		if !a.DealTo(dst) {
			t.Fatalf("DealTo(%d) refused with %d left", n, a.Left())
		}
		for k, c := range dst {
			if want := b.Deal(); c != want {
				t.Fatalf("DealTo(%d)[%d] = %s, Deal gave %s", n, k, c, want)
			}
		}
	}
	if a.DealTo(make([]Card, 1)) || a.Left() != 0 {
		t.Fatalf("DealTo past the end dealt, or %d cards left", a.Left())
	}
}
