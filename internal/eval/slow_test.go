package eval

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

// slowFive values five cards the way the rules are written: find the groups of equal
// ranks, check for a flush and a straight, and encode category and tie-break ranks.
func slowFive(five []cards.Card) (Category, int) {
	var count [13]int
	flush := true
	for _, c := range five {
		count[c.Rank()]++
		if c.Suit() != five[0].Suit() {
			flush = false
		}
	}
	type group struct{ n, r int }
	var groups []group
	for r := 12; r >= 0; r-- {
		if count[r] > 0 {
			groups = append(groups, group{count[r], r})
		}
	}
	slices.SortStableFunc(groups, func(a, b group) int { return b.n - a.n })
	straight, top := false, 0
	if len(groups) == 5 {
		if groups[0].r-groups[4].r == 4 {
			straight, top = true, groups[0].r
		} else if groups[0].r == 12 && groups[1].r == 3 { // A5432
			straight, top = true, 3
		}
	}
	v := 0
	for _, g := range groups {
		v = v<<4 | g.r
	}
	var cat Category
	switch {
	case straight && flush:
		return StraightFlush, top
	case groups[0].n == 4:
		cat = FourOfAKind
	case groups[0].n == 3 && groups[1].n == 2:
		cat = FullHouse
	case flush:
		cat = Flush
	case straight:
		return Straight, top
	case groups[0].n == 3:
		cat = ThreeOfAKind
	case groups[0].n == 2 && groups[1].n == 2:
		cat = TwoPair
	case groups[0].n == 2:
		cat = OnePair
	default:
		cat = HighCard
	}
	return cat, v
}

// slowBest is the best slowFive value over every five of the cards.
func slowBest(cs []cards.Card) (Category, int) {
	bestCat, bestV := NoHand, -1
	for m := 0; m < 1<<len(cs); m++ {
		var five []cards.Card
		for i, c := range cs {
			if m&(1<<i) != 0 {
				five = append(five, c)
			}
		}
		if len(five) != 5 {
			continue
		}
		cat, v := slowFive(five)
		if cat > bestCat || (cat == bestCat && v > bestV) {
			bestCat, bestV = cat, v
		}
	}
	return bestCat, bestV
}

func randomHand(rng *rand.Rand, n int) []cards.Card {
	perm := rng.Perm(52)
	out := make([]cards.Card, n)
	for i := range out {
		out[i] = cards.Card(perm[i])
	}
	return out
}

// The fast evaluator orders 10^6 random hands of 5, 6 and 7 cards exactly as the
// slow one does: same category, and ranks equal exactly when slow values are equal.
func TestAgreesWithSlowEvaluator(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 50_000
	}
	type pair struct {
		cat  Category
		slow int
		fast Rank
	}
	rng := rand.New(rand.NewPCG(5, 6))
	all := make([]pair, 0, n)
	for i := 0; i < n; i++ {
		cs := randomHand(rng, 5+i%3)
		cat, v := slowBest(cs)
		r := Evaluate(cs...)
		if r.Category() != cat {
			t.Fatalf("%s: category %v, slow says %v", cards.Format(cs), r.Category(), cat)
		}
		all = append(all, pair{cat, v, r})
	}
	slices.SortFunc(all, func(a, b pair) int {
		if a.cat != b.cat {
			return int(a.cat) - int(b.cat)
		}
		return a.slow - b.slow
	})
	for i := 1; i < len(all); i++ {
		a, b := all[i-1], all[i]
		sameSlow := a.cat == b.cat && a.slow == b.slow
		if sameSlow != (a.fast == b.fast) || (!sameSlow && a.fast > b.fast) {
			t.Fatalf("order differs: slow (%v,%x)->%d, (%v,%x)->%d", a.cat, a.slow, a.fast, b.cat, b.slow, b.fast)
		}
	}
}

func TestIncrementalMatchesWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 100000; i++ {
		cs := randomHand(rng, 7)
		board := HandOf(cs[:5]...)
		hole := HandOf(cs[5:]...)
		if board.Combine(hole).Rank() != Evaluate(cs...) {
			t.Fatalf("%s: Combine differs from Evaluate", cards.Format(cs))
		}
		if board.Combine(hole).Len() != 7 || !board.Has(cs[0]) || board.Has(cs[6]) {
			t.Fatalf("%s: Len or Has wrong", cards.Format(cs))
		}
	}
}

// RankNoFlush is Rank for hands without a flush, and for hands with one it is Rank of
// the same ranks dealt in suits that make no flush.
func TestRankNoFlush(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	checked := 0
	for i := 0; i < 200_000; i++ {
		cs := randomHand(rng, 5+i%3)
		h := HandOf(cs...)
		if c := h.Rank().Category(); c != Flush && c != StraightFlush {
			if h.RankNoFlush() != h.Rank() {
				t.Fatalf("%s: RankNoFlush %d, Rank %d", cards.Format(cs), h.RankNoFlush(), h.Rank())
			}
			continue
		}
		// Deal the same ranks, each card in the emptiest suit still free for its rank.
		var used cards.Set
		var perSuit [cards.NumSuits]int
		plain := Empty
		for _, c := range cs {
			best := -1
			for s := range cards.NumSuits {
				if !used.Has(cards.New(c.Rank(), cards.Suit(s))) && (best < 0 || perSuit[s] < perSuit[best]) {
					best = s
				}
			}
			d := cards.New(c.Rank(), cards.Suit(best))
			used, perSuit[best], plain = used.Add(d), perSuit[best]+1, plain.Add(d)
		}
		if c := plain.Rank().Category(); c == Flush || c == StraightFlush {
			t.Fatalf("%s: re-suited hand still has a flush", cards.Format(cs))
		}
		if h.RankNoFlush() != plain.Rank() {
			t.Fatalf("%s: RankNoFlush %d, Rank without the flush %d", cards.Format(cs), h.RankNoFlush(), plain.Rank())
		}
		checked++
	}
	if checked < 1000 {
		t.Fatalf("only %d flush hands checked", checked)
	}
}

// The rank sums of all multisets of n ranks are distinct for each n from 5 to 7 and
// fit their 23 bits, so that with the card count beside them they name every multiset
// of 5, 6 and 7 ranks apart; and a hand's key holds that index.
func TestRankSumsDistinct(t *testing.T) {
	seen := map[uint64]bool{}
	for n := 5; n <= 7; n++ {
		forEachMultiset(n, func(counts *[cards.NumRanks]int) {
			s, i := rankSumOf(counts), indexOf(counts)
			if seen[i] || s >= 1<<sumBits || i>>sumBits != uint64(n-5) {
				t.Fatalf("rank sum %d (index %d) of %v repeats or does not fit", s, i, *counts)
			}
			seen[i] = true
			h := Empty
			for r, k := range counts {
				for j := range k {
					h = h.Add(cards.New(cards.Rank(r), cards.Suit(j)))
				}
			}
			if h.key>>sumShift != i {
				t.Fatalf("%v: key index %d, want %d", *counts, h.key>>sumShift, i)
			}
		})
	}
	if len(seen) != 73_775 || tableEnd > tableSize {
		t.Fatalf("%d sums, table end %d", len(seen), tableEnd)
	}
	t.Logf("table end %d of %d", tableEnd, tableSize)
}

// MayFlushWith(n) says whether some suit is held at least 5-n times, for every hand of
// 0 to 7 cards and n from 0 to 4 up to the hand's room; when it says no, Rank and
// RankNoFlush agree on the hand with any n more cards.
func TestMayFlushWith(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 200_000; i++ {
		cs := randomHand(rng, 7)
		k := i % 8
		h := HandOf(cs[:k]...)
		var perSuit [cards.NumSuits]int
		for _, c := range cs[:k] {
			perSuit[c.Suit()]++
		}
		for n := 0; n <= 4 && k+n <= 7; n++ {
			want := slices.Max(perSuit[:]) >= 5-n
			if got := h.MayFlushWith(n); got != want {
				t.Fatalf("%s: MayFlushWith(%d) = %v", cards.Format(cs[:k]), n, got)
			}
			if full := HandOf(cs[:k+n]...); !want && k+n >= 5 && full.Rank() != full.RankNoFlush() {
				t.Fatalf("%s: no flush possible, yet Rank %d, RankNoFlush %d", cards.Format(cs[:k+n]), full.Rank(), full.RankNoFlush())
			}
		}
	}
}
