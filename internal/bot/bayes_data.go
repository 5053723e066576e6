package bot

import (
	_ "embed"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/eval"
)

// The Bayesian bot's data, as seed 001 described it: 25 hand-type buckets whose
// beliefs are measured on random deals, the 169 starting hands ranked by their
// expected value, and a default opponent model counted from felt's own league
// hands (bayes_default.json).

// NumBuckets is the number of hand-type buckets of the Bayesian bot.
const NumBuckets = 25

// The buckets, weakest first. A hand the board makes alone (the best five cards
// are the board's, or the board's pairs and trips are as good as the hand's) is
// a high-card bucket, by how many hole cards beat the board's top card.
const (
	bkHighNone      = iota // high card, no hole card above the board's top card
	bkHighOne              // one overcard
	bkHighTwo              // two overcards
	bkUnderPair            // a pocket pair below the board's lowest card
	bkBottomPair           // a hole card pairs the lowest board card (or a pocket pair under the second)
	bkMiddlePair           // a hole card pairs a middle card (or a pocket pair under the top)
	bkTopPairWeak          // top pair, kicker below ten
	bkTopPairGood          // top pair, kicker ten to king
	bkTopPairTop           // top pair, the best kicker (an ace, or a king beside an ace on the board)
	bkOverPair             // a pocket pair above the board, below queens
	bkOverPairBig          // queens, kings or aces above the board
	bkTwoPairOne           // two pair with one hole card playing
	bkTwoPairBoth          // two pair with both hole cards, not the top card
	bkTwoPairTop           // two pair with both hole cards, one pairing the top card
	bkTrips                // three of a kind with one hole card (the board paired)
	bkSet                  // three of a kind with a pocket pair
	bkStraightOne          // a straight with one hole card
	bkStraightBoth         // a straight with both hole cards
	bkFlushLow             // a flush, the best hole card of its suit below a jack
	bkFlushHigh            // a flush with a jack, queen or king of its suit
	bkFlushNut             // a flush with the ace of its suit
	bkBoatOne              // a full house with one hole card
	bkBoatBoth             // a full house with both hole cards
	bkQuads                // four of a kind
	bkStraightFlush        // a straight flush
)

// handBucketOf returns the bucket (0..NumBuckets−1) of hole cards a, c on a board
// of 3 to 5 cards.
func handBucketOf(a, c cards.Card, board []cards.Card) int {
	bh := eval.Empty
	var ranks [cards.NumRanks]int
	top, low := cards.Two, cards.Ace
	for _, x := range board {
		bh = bh.Add(x)
		ranks[x.Rank()]++
		top, low = max(top, x.Rank()), min(low, x.Rank())
	}
	rank := bh.Add(a).Add(c).Rank()
	cat := rank.Category()
	hiA, hiC := a.Rank() > top, c.Rank() > top
	high := bkHighNone
	if hiA != hiC {
		high = bkHighOne
	} else if hiA {
		high = bkHighTwo
	}
	if len(board) == 5 && bh.Rank() == rank || boardCategory(ranks) >= cat && cat <= eval.FullHouse {
		return high // the board plays
	}
	both := holePlays(bh, c, rank) && holePlays(bh, a, rank)
	switch cat {
	case eval.HighCard:
		return high
	case eval.OnePair:
		return pairBucket(a, c, ranks, top, low)
	case eval.TwoPair:
		switch {
		case a.Rank() == c.Rank() || ranks[a.Rank()] == 0 || ranks[c.Rank()] == 0:
			return bkTwoPairOne // a board pair or a pocket pair makes one of the pairs
		case a.Rank() == top || c.Rank() == top:
			return bkTwoPairTop
		}
		return bkTwoPairBoth
	case eval.ThreeOfAKind:
		if a.Rank() == c.Rank() {
			return bkSet
		}
		return bkTrips
	case eval.Straight:
		if both {
			return bkStraightBoth
		}
		return bkStraightOne
	case eval.Flush:
		return flushBucket(a, c, board)
	case eval.FullHouse:
		if both {
			return bkBoatBoth
		}
		return bkBoatOne
	case eval.FourOfAKind:
		return bkQuads
	}
	return bkStraightFlush
}

// holePlays reports whether the hand of rank made with both hole cards needs the
// one that is not other: without it (the board and other alone) the hand is
// worse, or there are not five cards to make it.
func holePlays(board eval.Hand, other cards.Card, rank eval.Rank) bool {
	h := board.Add(other)
	return h.Len() < 5 || h.Rank() < rank
}

// pairBucket places one pair made with a hole card (or a pocket pair).
func pairBucket(a, c cards.Card, ranks [cards.NumRanks]int, top, low cards.Rank) int {
	if a.Rank() == c.Rank() {
		r := a.Rank()
		switch {
		case r > top && r >= cards.Queen:
			return bkOverPairBig
		case r > top:
			return bkOverPair
		case r < low:
			return bkUnderPair
		}
		second := cards.Two
		for x := top - 1; x > cards.Two; x-- {
			if ranks[x] > 0 {
				second = x
				break
			}
		}
		if r > second {
			return bkMiddlePair
		}
		return bkBottomPair
	}
	paired, kicker := a.Rank(), c.Rank()
	if ranks[paired] == 0 {
		paired, kicker = kicker, paired
	}
	switch {
	case paired == top && (kicker == cards.Ace || kicker == cards.King && ranks[cards.Ace] > 0):
		return bkTopPairTop
	case paired == top && kicker >= cards.Ten:
		return bkTopPairGood
	case paired == top:
		return bkTopPairWeak
	case paired == low:
		return bkBottomPair
	}
	return bkMiddlePair
}

// flushBucket places a flush by the best hole card of its suit.
func flushBucket(a, c cards.Card, board []cards.Card) int {
	var suits [cards.NumSuits]int
	for _, x := range append([]cards.Card{a, c}, board...) {
		suits[x.Suit()]++
	}
	best := cards.Two
	for _, x := range []cards.Card{a, c} {
		if suits[x.Suit()] >= 5 {
			best = max(best, x.Rank())
		}
	}
	switch {
	case best == cards.Ace:
		return bkFlushNut
	case best >= cards.Jack:
		return bkFlushHigh
	}
	return bkFlushLow
}

// bayesTables are the data the Bayesian bot measures once: each bucket's chance
// of winning a showdown now against one random hand, for boards of 3, 4 and 5
// cards (ties count half), and each starting hand's EV rank.
type bayesTables struct {
	win [3][NumBuckets]float64
	// rank[hi][lo] (suited: hi > lo; offsuit: hi < lo, as chartGroups) is the
	// share of the 1,326 starting hands whose equity against a random hand is
	// below this one's, plus half of the equal ones: 0 for 3-2 offsuit, about 1
	// for aces.
	rank [cards.NumRanks][cards.NumRanks]float64
}

// The sizes of the measurements: deals per board size, and the deals every
// starting hand is measured on.
const (
	bucketDeals = 150_000
	evDeals     = 6_000
)

var (
	tablesOnce sync.Once
	tables     bayesTables
)

// bayesData returns the measured tables, measuring them on first use (about a
// tenth of a second) from a fixed seed, so that every run plays the same bot.
func bayesData() *bayesTables {
	tablesOnce.Do(func() {
		r := rand.New(rand.NewPCG(1, 2001)) // seed 001
		tables.measureBuckets(r)
		tables.measureRanks(r)
	})
	return &tables
}

// deal draws n distinct cards into out.
func deal(r *rand.Rand, out []cards.Card, used cards.Set) cards.Set {
	for i := range out {
		for {
			c := cards.Card(r.IntN(cards.NumCards))
			if !used.Has(c) {
				out[i], used = c, used.Add(c)
				break
			}
		}
	}
	return used
}

// measureBuckets fills t.win from random deals; a bucket never dealt takes the
// belief of the bucket below it.
func (t *bayesTables) measureBuckets(r *rand.Rand) {
	var cs [9]cards.Card
	for k, n := range []int{3, 4, 5} {
		var won, seen [NumBuckets]float64
		for range bucketDeals {
			deal(r, cs[:4+n], 0)
			board := cs[4 : 4+n]
			b := handBucketOf(cs[0], cs[1], board)
			bh := eval.HandOf(board...)
			me, opp := bh.Add(cs[0]).Add(cs[1]).Rank(), bh.Add(cs[2]).Add(cs[3]).Rank()
			seen[b]++
			switch {
			case me > opp:
				won[b]++
			case me == opp:
				won[b] += 0.5
			}
		}
		for b := range NumBuckets {
			switch {
			case seen[b] >= 20:
				t.win[k][b] = won[b] / seen[b]
			case b > 0:
				t.win[k][b] = max(t.win[k][b-1], 0.99)
			}
		}
	}
}

// measureRanks fills t.rank: each starting hand's equity against a random hand
// on random boards, turned into its share of the starting hands below it.
func (t *bayesTables) measureRanks(r *rand.Rand) {
	type start struct {
		hi, lo cards.Rank
		suited bool
		eq     float64
		combos float64
	}
	deals := make([][7]cards.Card, evDeals)
	for i := range deals {
		deal(r, deals[i][:], 0)
	}
	var all []start
	for hi := cards.Two; hi <= cards.Ace; hi++ {
		for lo := cards.Two; lo <= hi; lo++ {
			for _, suited := range []bool{false, true} {
				if suited && hi == lo {
					continue
				}
				s := start{hi: hi, lo: lo, suited: suited, combos: 12}
				switch {
				case hi == lo:
					s.combos = 6
				case suited:
					s.combos = 4
				}
				a, c := cards.New(hi, 0), cards.New(lo, 1)
				if suited {
					c = cards.New(lo, 0)
				}
				s.eq = sampleEquity(deals, a, c)
				all = append(all, s)
			}
		}
	}
	slices.SortStableFunc(all, func(x, y start) int { return cmpF(x.eq, y.eq) })
	var below float64
	for _, s := range all {
		p := (below + s.combos/2) / 1326
		below += s.combos
		if s.suited {
			t.rank[s.hi][s.lo] = p
		} else {
			t.rank[s.lo][s.hi] = p
		}
	}
}

func cmpF(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// sampleEquity is hole cards a, c's equity against the opponent's hand (the
// first two cards) on the board (the other five) of each deal holding neither.
// Every starting hand is measured on the same deals (common random numbers), so
// that their order is far surer than each one's equity.
func sampleEquity(deals [][7]cards.Card, a, c cards.Card) float64 {
	var won, n float64
	mine := cards.SetOf(a, c)
	for i := range deals {
		cs := &deals[i]
		if cards.SetOf(cs[:]...)&mine != 0 {
			continue
		}
		bh := eval.HandOf(cs[2:]...)
		me, opp := bh.Add(a).Add(c).Rank(), bh.Add(cs[0]).Add(cs[1]).Rank()
		n++
		switch {
		case me > opp:
			won++
		case me == opp:
			won += 0.5
		}
	}
	return won / n
}

// evRank returns the EV rank (0 worst .. 1 best) of hole cards a, c.
func evRank(a, c cards.Card) float64 {
	hi, lo := a.Rank(), c.Rank()
	if lo > hi {
		hi, lo = lo, hi
	}
	if a.Suit() != c.Suit() {
		hi, lo = lo, hi
	}
	return bayesData().rank[hi][lo]
}

// The default opponent model, counted from felt's league hands. Rebuild it (after
// a change to any of these bots) with:
//
//	felt league chart hsppot montecarlo adaptive --hands 4000 --seed 1 \
//	  --fold-model internal/bot/bayes_default.json
//
//go:embed bayes_default.json
var defaultModelJSON []byte

// defaultFold and defaultRaise are the fold and raise ratios per street the
// Bayesian bot assumes of an opponent it has not yet seen in ModelHands hands,
// and the priors its observations are mixed with: counted from felt's own league
// hands (bayes_default.json, made by felt league --fold-model; see docs/bots.md),
// the streets seen there in fewer than 50 decisions taking fallbackFold and
// fallbackRaise.
var defaultFold, defaultRaise = func() (fold, raise [numStreets]float64) {
	var m OpponentModel
	if err := json.Unmarshal(defaultModelJSON, &m); err != nil {
		panic("bot: bayes_default.json: " + err.Error())
	}
	fold, raise = fallbackFold, fallbackRaise
	for s := range fold {
		if m.Faced[s] >= 50 {
			fold[s] = float64(m.Folded[s]) / float64(m.Faced[s])
		}
		if m.Acted[s] >= 50 {
			raise[s] = float64(m.Raised[s]) / float64(m.Acted[s])
		}
	}
	return fold, raise
}()
