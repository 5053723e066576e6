package equity

import (
	"context"
	"math/bits"
	"sync"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/eval"
)

// Exact enumeration walks every assignment of combos to players (weight: the product
// of the combos' weights) and, for each, every way to complete the board.
//
// The suit reduction. A showdown on a complete 5-card board can only involve a flush
// in a suit holding at least 3 board cards, and at most one suit can. So every board
// completion falls in one class:
//   - no suit with 3+ board cards: the showdown depends only on the board's ranks;
//   - suit s with 3+ board cards: it depends only on the board's ranks and on which
//     ranks the board holds in suit s.
//
// The enumeration walks multisets of ranks for the cards to come (at most 6,188 for a
// preflop board), counts how many boards realise each class (products of binomials over
// the available cards), and evaluates one real board per class. On top of that, suits
// that a suit permutation fixing every player's hand, the board and the dead cards
// exchanges give the same counts, so only one suit of each such orbit is walked and its
// counts are multiplied by the orbit's size. AhAs vs KdKc preflop: 1,712,304 boards
// take 60,049 showdowns (TestKnownAcesVersusKings checks the count).

// exact enumerates every assignment and board. Jobs are the combos of the player with the
// largest range; job i goes to worker i mod Workers, so that sums are done in a fixed
// order.
func (p *problem) exact(ctx context.Context, opts Options) (tally, error) {
	split := 0
	for i, r := range p.ranges {
		if len(r) > len(p.ranges[split]) {
			split = i
		}
	}
	jobs := len(p.ranges[split])
	workers := min(opts.Workers, jobs)
	tallies := make([]tally, workers)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int64
	)
	for wk := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := newEnumerator(p, !opts.NoSuitReduction)
			for j := wk; j < jobs; j += workers {
				if ctx.Err() != nil {
					break
				}
				c := p.ranges[split][j]
				e.holes[split] = handOf(c)
				e.holeSets[split] = c.Set()
				e.assign(0, split, c.Set(), c.Weight)
				if opts.Progress != nil {
					mu.Lock()
					done++
					opts.Progress(done, int64(jobs))
					mu.Unlock()
				}
			}
			tallies[wk] = e.t
		}()
	}
	wg.Wait()
	t := newTally(p.n)
	for _, o := range tallies {
		t.add(o)
	}
	return t, ctx.Err()
}

func handOf(c Combo) eval.Hand { return eval.Empty.Add(c.Cards[0]).Add(c.Cards[1]) }

// binom[n][k] is n choose k for n ≤ 4.
var binom = [5][5]int64{{1}, {1, 1}, {1, 2, 1}, {1, 3, 3, 1}, {1, 4, 6, 4, 1}}

// enumerator is one worker's state for exact enumeration; it allocates only when made.
type enumerator struct {
	p        *problem
	reduce   bool
	t        tally
	holes    []eval.Hand
	holeSets []cards.Set
	w        float64 // weight of the current assignment

	// For the current assignment:
	avail     cards.Set
	availList []cards.Card
	a         [cards.NumRanks]int    // available cards per rank
	inSuit    [cards.NumSuits]uint16 // ranks available per suit
	given     [cards.NumSuits]int    // board cards already out per suit
	mult      [cards.NumSuits]int64  // orbit size for the suit walked for its orbit, else 0
	m         [cards.NumRanks]int    // the rank multiset being walked
}

func newEnumerator(p *problem, reduce bool) *enumerator {
	e := &enumerator{p: p, reduce: reduce, t: newTally(p.n), holes: make([]eval.Hand, p.n), holeSets: make([]cards.Set, p.n)}
	e.availList = make([]cards.Card, 0, cards.NumCards)
	for _, c := range p.board {
		e.given[c.Suit()]++
	}
	return e
}

// assign gives a combo to each player from i on (skipping the job's player) and then
// walks the boards.
func (e *enumerator) assign(i, skip int, used cards.Set, w float64) {
	if i == skip {
		i++
	}
	if i >= e.p.n {
		e.w = w
		e.boards(used)
		return
	}
	for _, c := range e.p.ranges[i] {
		if c.Set()&used != 0 {
			continue
		}
		e.holes[i] = handOf(c)
		e.holeSets[i] = c.Set()
		e.assign(i+1, skip, used|c.Set(), w*c.Weight)
	}
}

// boards adds every completion of the board for the current hole cards.
func (e *enumerator) boards(used cards.Set) {
	k := e.p.toDeal()
	e.avail = cards.FullSet &^ (used | e.p.known)
	switch {
	case k == 0:
		e.showdown(e.p.boardHand, 1)
	case !e.reduce:
		e.availList = e.availList[:0]
		for c := cards.Card(0); c < cards.NumCards; c++ {
			if e.avail.Has(c) {
				e.availList = append(e.availList, c)
			}
		}
		e.plain(0, k, e.p.boardHand)
	default:
		e.prepare()
		e.multisets(cards.NumRanks-1, k, 1)
	}
}

func (e *enumerator) showdown(board eval.Hand, ways float64) {
	e.t.w[winners(board, e.holes)] += e.w * ways
	e.t.showdowns++
}

// plain walks every k-subset of availList[from:] one board at a time.
func (e *enumerator) plain(from, k int, h eval.Hand) {
	if k == 0 {
		e.showdown(h, 1)
		return
	}
	for i := from; i <= len(e.availList)-k; i++ {
		e.plain(i+1, k-1, h.Add(e.availList[i]))
	}
}

// prepare counts the available cards by rank and suit and finds the suit orbits.
func (e *enumerator) prepare() {
	e.a = [cards.NumRanks]int{}
	e.inSuit = [cards.NumSuits]uint16{}
	for m := uint64(e.avail); m != 0; m &= m - 1 {
		c := cards.Card(bits.TrailingZeros64(m))
		e.a[c.Rank()]++
		e.inSuit[c.Suit()] |= 1 << c.Rank()
	}
	var orbit [cards.NumSuits]uint8 // bit mask of the suits each suit can be mapped to
	boardSet, deadSet := cards.SetOf(e.p.board...), e.p.known&^cards.SetOf(e.p.board...)
perms:
	for _, perm := range suitPerms {
		if permute(boardSet, perm) != boardSet || permute(deadSet, perm) != deadSet {
			continue
		}
		for _, h := range e.holeSets {
			if permute(h, perm) != h {
				continue perms
			}
		}
		for s := range orbit {
			orbit[s] |= 1 << perm[s]
		}
	}
	for s := range orbit {
		e.mult[s] = 0
		if bits.TrailingZeros8(orbit[s]) == s {
			e.mult[s] = int64(bits.OnesCount8(orbit[s]))
		}
	}
}

// multisets walks the multisets of ranks (from rank r down) of the left cards still to
// choose; ways is how many sets of available cards have the ranks chosen so far.
func (e *enumerator) multisets(r, left int, ways int64) {
	if left == 0 {
		e.class(ways)
		return
	}
	if r < 0 {
		return
	}
	for c := min(left, e.a[r]); c >= 0; c-- {
		e.m[r] = c
		e.multisets(r-1, left-c, ways*binom[e.a[r]][c])
	}
	e.m[r] = 0
}

// class evaluates the boards whose cards to come have the ranks in e.m: first those
// with a flush-capable suit (one showdown per suit orbit and set of ranks in that suit),
// then, if any boards are left, one showdown for all boards with no suit of 3 or more.
func (e *enumerator) class(total int64) {
	var ranks uint16
	for r, c := range e.m {
		if c > 0 {
			ranks |= 1 << r
		}
	}
	var flushWays int64
	for s := range cards.NumSuits {
		if e.mult[s] == 0 {
			continue
		}
		need := 3 - e.given[s]
		cand := ranks & e.inSuit[s]
		if bits.OnesCount16(cand) < need {
			continue
		}
		for sub := cand; ; sub = (sub - 1) & cand {
			if bits.OnesCount16(sub) >= need {
				if ways := e.restWays(ranks, sub, s); ways > 0 {
					e.showdown(e.flushBoard(ranks, sub, s), float64(e.mult[s]*ways))
					flushWays += e.mult[s] * ways
				}
			}
			if sub == 0 {
				break
			}
		}
	}
	if left := total - flushWays; left > 0 {
		b, ok := e.plainBoard()
		if !ok {
			panic("equity: no board without a flush suit for a class that should have one")
		}
		e.showdown(b, float64(left))
	}
}

// restWays counts the ways to choose the cards of e.m outside suit s, given that the
// ranks in sub come in suit s.
func (e *enumerator) restWays(ranks, sub uint16, s int) int64 {
	ways := int64(1)
	for m := ranks; m != 0; m &= m - 1 {
		r := bits.TrailingZeros16(m)
		c := e.m[r] - int(sub>>r&1)
		other := e.a[r] - int(e.inSuit[s]>>r&1)
		if c > other {
			return 0
		}
		ways *= binom[other][c]
	}
	return ways
}

// flushBoard is one real board of the class: the ranks in sub in suit s, the rest of
// e.m in the first available other suits.
func (e *enumerator) flushBoard(ranks, sub uint16, s int) eval.Hand {
	h := e.p.boardHand
	for m := ranks; m != 0; m &= m - 1 {
		r := cards.Rank(bits.TrailingZeros16(m))
		c := e.m[r]
		if sub>>r&1 != 0 {
			h = h.Add(cards.New(r, cards.Suit(s)))
			c--
		}
		for su := cards.Suit(0); c > 0; su++ {
			if card := cards.New(r, su); int(su) != s && e.avail.Has(card) {
				h = h.Add(card)
				c--
			}
		}
	}
	return h
}

// plainBoard finds one real board of the class with no suit holding 3 or more board
// cards, by a small search over the suits of each rank.
func (e *enumerator) plainBoard() (eval.Hand, bool) {
	count := e.given
	return e.plainSearch(cards.NumRanks-1, e.p.boardHand, &count)
}

func (e *enumerator) plainSearch(r int, h eval.Hand, count *[cards.NumSuits]int) (eval.Hand, bool) {
	for r >= 0 && e.m[r] == 0 {
		r--
	}
	if r < 0 {
		return h, true
	}
	var suits uint8
	for s := range cards.NumSuits {
		if e.avail.Has(cards.New(cards.Rank(r), cards.Suit(s))) && count[s] < 2 {
			suits |= 1 << s
		}
	}
	for sub := suits; sub != 0; sub = (sub - 1) & suits {
		if bits.OnesCount8(sub) != e.m[r] {
			continue
		}
		hh := h
		for m := sub; m != 0; m &= m - 1 {
			s := bits.TrailingZeros8(m)
			count[s]++
			hh = hh.Add(cards.New(cards.Rank(r), cards.Suit(s)))
		}
		got, ok := e.plainSearch(r-1, hh, count)
		for m := sub; m != 0; m &= m - 1 {
			count[bits.TrailingZeros8(m)]--
		}
		if ok {
			return got, true
		}
	}
	return h, false
}

// suitPerms lists the 24 permutations of the four suits (perm[s] is where s goes).
var suitPerms = func() [][cards.NumSuits]uint8 {
	var out [][cards.NumSuits]uint8
	for a := range uint8(4) {
		for b := range uint8(4) {
			for c := range uint8(4) {
				d := 6 - a - b - c
				if a != b && a != c && b != c {
					out = append(out, [4]uint8{a, b, c, d})
				}
			}
		}
	}
	return out
}()

// oneSuit has the bit of every card of suit 0 (clubs).
const oneSuit = 0x1111111111111

// permute returns the set with each card's suit s replaced by perm[s].
func permute(set cards.Set, perm [cards.NumSuits]uint8) cards.Set {
	var out uint64
	for s := range uint(cards.NumSuits) {
		out |= (uint64(set) >> s & oneSuit) << perm[s]
	}
	return cards.Set(out)
}
