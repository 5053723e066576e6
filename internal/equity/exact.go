package equity

import (
	"context"
	"math/bits"
	"slices"
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
// the available cards), and settles each class with one showdown: every player's rank
// ignoring flushes (eval.Hand.RankNoFlush of any board with those ranks) is shared by the
// whole multiset, and a flush class only adds, for the players who make the flush, the
// rank of their cards of that suit; a flush class in which no one makes a flush is left
// with the boards without flushes. On top of that, suits
// that a suit permutation fixing every player's hand, the board and the dead cards
// exchanges give the same counts, so only one suit of each such orbit is walked and its
// counts are multiplied by the orbit's size. AhAs vs KdKc preflop: 1,712,304 boards
// take 20,449 showdowns (TestKnownAcesVersusKings checks the count).
//
// The same symmetry across assignments: when the ranges hold more than one combo, two
// assignments of hole cards that a suit permutation fixing the board and the dead cards
// maps onto each other win and tie on the same number of boards. Each worker walks the
// boards of one assignment per such class (keyed by the least image of the hole cards)
// and adds the cached counts, times the assignment's weight, for the others: AA vs KK
// pre-flop walks 3 classes for 36 assignments. The workers share the cache (classCache):
// the first to meet a class walks it and the others wait for its counts, so each class
// is walked once whatever the number of workers (each walking its own, two workers made
// twice the showdowns of one).

// exact enumerates every assignment and board. Jobs are the combos of the player with the
// largest range; job i goes to worker i mod Workers, so that sums are done in a fixed
// order. When there are fewer jobs than workers and the suit reduction walks the boards,
// every worker takes every job but only its share of the board walk instead: the
// branches of the rank multisets below splitRank, numbered in walk order, branch i to
// worker i mod Workers.
func (p *problem) exact(ctx context.Context, opts Options) (tally, error) {
	split := 0
	for i, r := range p.ranges {
		if len(r) > len(p.ranges[split]) {
			split = i
		}
	}
	jobs := len(p.ranges[split])
	workers := min(opts.Workers, jobs)
	splitBoards := !opts.NoSuitReduction && jobs < opts.Workers && p.toDeal() >= 3
	if splitBoards {
		workers = opts.Workers
	}
	tallies := make([]tally, workers)
	cache := newClassCache(p, !opts.NoSuitReduction)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int64
	)
	for wk := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := cache
			if splitBoards {
				// Workers sharing the board walk each count only their share of a
				// class's boards, so they cannot share the counts.
				c = newClassCache(p, !opts.NoSuitReduction)
			}
			e := newEnumerator(p, !opts.NoSuitReduction, c)
			first, step := wk, workers
			if splitBoards {
				e.branches, e.worker, e.workers = 0, wk, workers
				first, step = 0, 1
			}
			for j := first; j < jobs; j += step {
				if ctx.Err() != nil {
					break
				}
				c := p.ranges[split][j]
				e.holes[split] = handOf(c)
				e.holeSets[split] = c.Set()
				e.assign(0, split, c.Set(), c.Weight)
				if opts.Progress != nil && (!splitBoards || wk == 0) {
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
	a         [cards.NumRanks]int                        // available cards per rank
	byRank    [cards.NumRanks][cards.NumSuits]cards.Card // the available cards of each rank, a[r] of them
	inSuit    [cards.NumSuits]uint16                     // ranks available per suit
	given     [cards.NumSuits]int                        // board cards already out per suit
	mult      [cards.NumSuits]int64                      // orbit size for the suit walked for its orbit, else 0
	m         [cards.NumRanks]int                        // the rank multiset being walked
	suitHand  [][cards.NumSuits]eval.Hand                // per player and suit: hole and board cards of that suit
	suitCount [][cards.NumSuits]int                      // how many cards suitHand holds
	maxCount  [cards.NumSuits]int                        // the most cards of each suit any player's suitHand holds
	plainRank []eval.Rank                                // per player, the rank of the class ignoring flushes
	rank      []eval.Rank                                // per player, scratch for a flush class

	// When workers share the board walk: the branches at splitRank seen so far, and
	// this worker's number and the number of workers (workers is 0 when not sharing).
	branches, worker, workers int

	// Assignments that a suit permutation maps onto each other (the board and the dead
	// cards fixed) have the same counts: cache holds them, by the least image of the
	// hole cards under perms, for assignments of ranges with more than one combo.
	perms   [][cards.NumSuits]uint8
	cache   *classCache
	scratch tally
}

// splitRank is the rank at which workers sharing one board walk take turns: the
// multisets of the five ranks above it (ten to ace) are the branches they divide, 207
// of them for AhAs vs KdKc, split within 1% in showdowns between two workers.
const splitRank = cards.NumRanks - 6

// classCache holds the board counts of each suit class of assignments (keyed by the
// least image of the hole cards), shared by the workers of one calculation.
type classCache struct {
	mu sync.Mutex
	m  map[[MaxPlayers]cards.Set]*classCounts
}

// classCounts are one class's counts: filled by the worker that claimed the class,
// readable by the others once done is closed.
type classCounts struct {
	done   chan struct{}
	counts []float64
}

// newClassCache returns the cache for p, or nil when assignments are not grouped into
// classes: without the suit reduction, with fewer than two cards to deal or with only
// one assignment.
func newClassCache(p *problem, reduce bool) *classCache {
	if !reduce || p.toDeal() < 2 || p.assignments() <= 1 {
		return nil
	}
	return &classCache{m: make(map[[MaxPlayers]cards.Set]*classCounts)}
}

// claim returns the entry of class key and whether the caller is the first to meet the
// class, and so must fill counts and close done.
func (c *classCache) claim(key [MaxPlayers]cards.Set) (*classCounts, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cc, ok := c.m[key]; ok {
		return cc, false
	}
	cc := &classCounts{done: make(chan struct{})}
	c.m[key] = cc
	return cc, true
}

// newEnumerator returns a worker's enumerator. It and everything it writes while
// walking are allocated apart, so that it shares no cache line with another worker's.
func newEnumerator(p *problem, reduce bool, cache *classCache) *enumerator {
	e := &apart[enumerator](1)[0]
	e.p, e.reduce, e.t = p, reduce, newWorkerTally(p.n)
	e.holes, e.holeSets = apart[eval.Hand](p.n), apart[cards.Set](p.n)
	e.availList = apart[cards.Card](cards.NumCards)[:0]
	e.suitHand = apart[[cards.NumSuits]eval.Hand](p.n)
	e.suitCount = apart[[cards.NumSuits]int](p.n)
	e.plainRank = apart[eval.Rank](p.n)
	e.rank = apart[eval.Rank](p.n)
	for _, c := range p.board {
		e.given[c.Suit()]++
	}
	if cache != nil {
		perms := fixingPerms(cards.SetOf(p.board...), p.known&^cards.SetOf(p.board...))
		e.perms = apart[[cards.NumSuits]uint8](len(perms))
		copy(e.perms, perms)
		e.cache = cache
		e.scratch = newWorkerTally(p.n)
	}
	return e
}

// assignments returns the product of the range sizes, capped at 2^62.
func (p *problem) assignments() int64 {
	n := int64(1)
	for _, r := range p.ranges {
		n = min(n*int64(len(r)), 1<<62/int64(max(1, len(r))))
	}
	return n
}

// fixingPerms returns the suit permutations that map board and dead onto themselves.
func fixingPerms(board, dead cards.Set) [][cards.NumSuits]uint8 {
	var out [][cards.NumSuits]uint8
	for _, perm := range suitPerms {
		if permute(board, perm) == board && permute(dead, perm) == dead {
			out = append(out, perm)
		}
	}
	return out
}

// canonical returns the least image (player by player) of the hole cards under the
// permutations in e.perms: the same for every assignment of one suit class.
func (e *enumerator) canonical() (key [MaxPlayers]cards.Set) {
	copy(key[:], e.holeSets)
	for _, perm := range e.perms {
		var k [MaxPlayers]cards.Set
		less, decided := false, false
		for i, h := range e.holeSets {
			k[i] = permute(h, perm)
			if !decided && k[i] != key[i] {
				less, decided = k[i] < key[i], true
			}
		}
		if less {
			key = k
		}
	}
	return key
}

// cachedBoards adds, with weight w, the counts of every board for the current hole
// cards: walked once per suit class of assignments (by whichever worker meets the class
// first), then taken from the cache.
func (e *enumerator) cachedBoards(used cards.Set, w float64) {
	c, first := e.cache.claim(e.canonical())
	if first {
		t := e.t
		e.t, e.w = e.scratch, 1
		clear(e.t.w)
		e.t.showdowns = 0
		e.boards(used)
		c.counts = slices.Clone(e.t.w)
		t.showdowns += e.t.showdowns
		e.scratch, e.t = e.t, t
		close(c.done)
	}
	<-c.done
	for m, x := range c.counts {
		if x != 0 {
			e.t.w[m] += w * x
		}
	}
}

// assign gives a combo to each player from i on (skipping the job's player) and then
// walks the boards.
func (e *enumerator) assign(i, skip int, used cards.Set, w float64) {
	if i == skip {
		i++
	}
	if i >= e.p.n {
		if e.cache != nil {
			e.cachedBoards(used, w)
			return
		}
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
		e.multisets(cards.NumRanks-1, k, 1, e.p.boardHand, 0)
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

// prepare counts the available cards by rank and suit, sorts each player's cards (with
// the board's) by suit, and finds the suit orbits.
func (e *enumerator) prepare() {
	e.a = [cards.NumRanks]int{}
	e.inSuit = [cards.NumSuits]uint16{}
	for m := uint64(e.avail); m != 0; m &= m - 1 {
		c := cards.Card(bits.TrailingZeros64(m))
		e.byRank[c.Rank()][e.a[c.Rank()]] = c
		e.a[c.Rank()]++
		e.inSuit[c.Suit()] |= 1 << c.Rank()
	}
	e.maxCount = [cards.NumSuits]int{}
	for i, h := range e.holeSets {
		e.suitHand[i] = [cards.NumSuits]eval.Hand{eval.Empty, eval.Empty, eval.Empty, eval.Empty}
		e.suitCount[i] = [cards.NumSuits]int{}
		for m := uint64(h | cards.SetOf(e.p.board...)); m != 0; m &= m - 1 {
			c := cards.Card(bits.TrailingZeros64(m))
			e.suitHand[i][c.Suit()] = e.suitHand[i][c.Suit()].Add(c)
			e.suitCount[i][c.Suit()]++
			e.maxCount[c.Suit()] = max(e.maxCount[c.Suit()], e.suitCount[i][c.Suit()])
		}
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
// choose; ways is how many sets of available cards have the ranks chosen so far, board
// is the board with one such set added and ranks has the bits of the ranks chosen.
func (e *enumerator) multisets(r, left int, ways int64, board eval.Hand, ranks uint16) {
	// A branch is a multiset of the ranks above splitRank: reaching splitRank, or done
	// choosing before it.
	if e.workers > 0 && (r == splitRank || left == 0 && r > splitRank) {
		e.branches++
		if e.branches%e.workers != e.worker {
			return
		}
	}
	if left == 0 {
		e.class(ways, board, ranks)
		return
	}
	if r < 0 {
		return
	}
	e.m[r] = 0
	e.multisets(r-1, left, ways, board, ranks)
	for c := 1; c <= min(left, e.a[r]); c++ {
		board = board.Add(e.byRank[r][c-1])
		e.m[r] = c
		e.multisets(r-1, left-c, ways*binom[e.a[r]][c], board, ranks|1<<r)
	}
	e.m[r] = 0
}

// class settles the total boards whose cards to come have the ranks in e.m (board is
// one of them, ranks the bits of e.m). Ignoring flushes, every player's hand is the same
// on all of them. A flush needs three board cards of one suit, so the boards where one
// can happen are split by that suit's orbit and the ranks the board holds in it (one
// showdown for each such class in which some player makes a flush); all the other boards
// share the showdown without flushes.
func (e *enumerator) class(total int64, board eval.Hand, ranks uint16) {
	for i, h := range e.holes {
		e.plainRank[i] = h.Combine(board).RankNoFlush()
	}
	var flushWays int64
	for s := range cards.NumSuits {
		if e.mult[s] == 0 {
			continue
		}
		// Boards with fewer than need cards of suit s to come give no one a flush.
		need := max(3-e.given[s], 5-e.maxCount[s])
		cand := ranks & e.inSuit[s]
		if bits.OnesCount16(cand) < need {
			continue
		}
		// Ways to pick the other cards of each rank: f0 when the board's card of this
		// rank in suit s is not among them, f1 when it is.
		base := int64(1)
		var f0, f1 [cards.NumRanks]int64
		for m := ranks; m != 0; m &= m - 1 {
			r := bits.TrailingZeros16(m)
			other := e.a[r] - int(e.inSuit[s]>>r&1)
			if e.m[r] <= other {
				f0[r] = binom[other][e.m[r]]
			}
			if cand>>r&1 == 0 {
				base *= f0[r]
			} else {
				f1[r] = binom[other][e.m[r]-1]
			}
		}
		for sub := cand; ; sub = (sub - 1) & cand {
			if n := bits.OnesCount16(sub); n >= need {
				ways := base
				for m := cand; m != 0 && ways != 0; m &= m - 1 {
					if r := bits.TrailingZeros16(m); sub>>r&1 != 0 {
						ways *= f1[r]
					} else {
						ways *= f0[r]
					}
				}
				if ways > 0 && e.flushShowdown(sub, n, s, float64(e.mult[s]*ways)) {
					flushWays += e.mult[s] * ways
				}
			}
			if sub == 0 {
				break
			}
		}
	}
	if left := total - flushWays; left > 0 {
		e.t.w[best(e.plainRank)] += e.w * float64(left)
		e.t.showdowns++
	}
}

// flushShowdown settles the boards holding the n ranks in sub in suit s, if on them some
// player makes a flush, and reports whether one does (if not, those boards play as
// without flushes).
func (e *enumerator) flushShowdown(sub uint16, n, s int, ways float64) bool {
	subHand, any := eval.Empty, false
	for i := range e.rank {
		e.rank[i] = e.plainRank[i]
		if e.suitCount[i][s]+n < 5 {
			continue
		}
		if !any {
			for m := sub; m != 0; m &= m - 1 {
				subHand = subHand.Add(cards.New(cards.Rank(bits.TrailingZeros16(m)), cards.Suit(s)))
			}
			any = true
		}
		e.rank[i] = max(e.rank[i], e.suitHand[i][s].Combine(subHand).Rank())
	}
	if any {
		e.t.w[best(e.rank)] += e.w * ways
		e.t.showdowns++
	}
	return any
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
