package equity

import (
	"math"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

// A Monte Carlo worker allocates nothing per showdown, whatever its players hold:
// random hands dealt from the deck, a fixed hand, ranges picked by combo, weighted or
// not, with a board and a dead card.
func TestMonteCarloAllocatesNothingPerTrial(t *testing.T) {
	for _, tc := range []struct {
		players     []string
		board, dead string
	}{
		{[]string{"random", "random", "random", "random", "random", "random"}, "", ""},
		{[]string{"AhAs", "random", "random"}, "", ""},
		{[]string{"QQ+,AKs", "JJ,AQs:0.5", "random"}, "2c7d9h", "Ks"},
	} {
		p, err := newProblem(ranges(tc.players...), cards.MustParseList(tc.board), cards.MustParseList(tc.dead))
		if err != nil {
			t.Fatal(err)
		}
		s := p.newSamplers(cards.SeedFromUint64(1), 1)[0]
		if allocs := testing.AllocsPerRun(5, func() {
			if err := s.run(10_000); err != nil {
				t.Fatal(err)
			}
		}); allocs != 0 {
			t.Errorf("%v on %q: %v allocations per 10,000 showdowns", tc.players, tc.board, allocs)
		}
	}
}

// draws.cards deals distinct cards, never one of used, each card as often as another.
func TestDrawsCardsUniform(t *testing.T) {
	d := newDraws(cards.SeedFromUint64(5))
	used := cards.SetOf(cards.MustParseList("AsKd2c")...)
	var count [cards.NumCards]int
	out := make([]cards.Card, 17)
	const deals = 20_000
	for range deals {
		d.cards(out, used)
		var seen cards.Set
		for _, c := range out {
			if c >= cards.NumCards || used.Has(c) || seen.Has(c) {
				t.Fatalf("dealt %v (used %v)", out, used)
			}
			seen = seen.Add(c)
			count[c]++
		}
	}
	mean := float64(deals*len(out)) / 49
	sd := math.Sqrt(mean * (1 - float64(len(out))/49))
	for c, n := range count {
		if used.Has(cards.Card(c)) {
			continue
		}
		if math.Abs(float64(n)-mean) > 5*sd {
			t.Errorf("card %v dealt %d times, expected %.0f ± %.0f", cards.Card(c), n, mean, sd)
		}
	}
}

// draws.deal deals distinct cards of the deck, each card as often as another, and as
// often first as another: whatever order the deck was left in by the deal before.
func TestDrawsDealUniform(t *testing.T) {
	d := newDraws(cards.SeedFromUint64(6))
	used := cards.SetOf(cards.MustParseList("AsKd2c")...)
	var deck [64]cards.Card
	n := 0
	for _, c := range (cards.FullSet &^ used).Cards() {
		deck[n] = c
		n++
	}
	var count, first [cards.NumCards]int
	const deals, k = 40_000, 17
	for range deals {
		d.deal(&deck, n, k)
		var seen cards.Set
		for _, c := range deck[:k] {
			if c >= cards.NumCards || used.Has(c) || seen.Has(c) {
				t.Fatalf("dealt %v (used %v)", deck[:k], used)
			}
			seen = seen.Add(c)
			count[c]++
		}
		first[deck[0]]++
	}
	for _, tc := range []struct {
		what   string
		counts *[cards.NumCards]int
		p      float64
	}{{"dealt", &count, float64(k) / float64(n)}, {"dealt first", &first, 1 / float64(n)}} {
		mean := deals * tc.p
		sd := math.Sqrt(mean * (1 - tc.p))
		for c, x := range tc.counts {
			if !used.Has(cards.Card(c)) && math.Abs(float64(x)-mean) > 5*sd {
				t.Errorf("card %v %s %d times, expected %.0f ± %.0f", cards.Card(c), tc.what, x, mean, sd)
			}
		}
	}
}

// The seed and the sample limit fix the result whatever the number of workers: each
// chunk of showdowns has its own stream, whichever worker takes it, and a deck dealt
// from starts each chunk in card order.
func TestMonteCarloSameForAnyWorkers(t *testing.T) {
	for _, players := range [][]Range{ranges("AhAs", "QQ+,AKs:0.5", "random"), ranges("AhAs", "random", "random", "random")} {
		opts := Options{Method: MonteCarlo, Samples: 3*roundSize + 1234, Seed: cards.SeedFromUint64(9), Workers: 1}
		one, err := Calculate(players, cards.MustParseList("2c7d9h"), nil, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{2, 3, 7} {
			opts.Workers = w
			res, err := Calculate(players, cards.MustParseList("2c7d9h"), nil, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Showdowns != one.Showdowns {
				t.Fatalf("%v, %d workers: %d showdowns, one worker %d", players, w, res.Showdowns, one.Showdowns)
			}
			for i := range res.Players {
				if res.Players[i] != one.Players[i] {
					t.Errorf("%v, %d workers, player %d: %+v; one worker %+v", players, w, i+1, res.Players[i], one.Players[i])
				}
			}
		}
	}
}
