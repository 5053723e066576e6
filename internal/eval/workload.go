package eval

import (
	"math/bits"
	"math/rand/v2"

	"github.com/felt-poker/felt/internal/cards"
)

// The workloads below are the ones felt's benchmarks measure, shared by the Go
// benchmarks and "felt bench eval" so that both report the same thing.

// Seven is a 7-card hand as stored for the random-hand workload.
type Seven [7]cards.Card

// RandomSevens returns n random 7-card hands (no card twice in a hand) from a seeded
// stream.
func RandomSevens(n int, seed uint64) []Seven {
	rng := rand.New(rand.NewChaCha8(cards.SeedFromUint64(seed)))
	out := make([]Seven, n)
	for i := range out {
		var used cards.Set
		for k := 0; k < 7; {
			c := cards.Card(rng.IntN(cards.NumCards))
			if !used.Has(c) {
				used = used.Add(c)
				out[i][k] = c
				k++
			}
		}
	}
	return out
}

// RankSevens evaluates every hand from its seven cards and returns the sum of the
// ranks, so that no work can be optimised away. On amd64 the loop is written in
// assembly (kernel_amd64.s, the same steps as rankSevensGo); elsewhere, or built with
// the purego tag, it is rankSevensGo.
func RankSevens(hands []Seven) uint64 { return rankSevens(hands) }

// rankSevensGo is RankSevens in Go. It adds up the seven cards' keys and builds the
// card mask only when the suit counters show a flush (about 3% of random hands): the
// mask is most of what Hand.Add does, and a hand without a flush never reads it. The
// loop body is written out here, as no call of it would be inlined, and takes two hands
// a step, with one flush test for both.
func rankSevensGo(hands []Seven) uint64 {
	var sum uint64
	for ; len(hands) >= 2; hands = hands[2:] {
		s, t := &hands[0], &hands[1]
		ks := emptyKey + cardKey[s[0]] + cardKey[s[1]] + cardKey[s[2]] + cardKey[s[3]] + cardKey[s[4]] + cardKey[s[5]] + cardKey[s[6]]
		kt := emptyKey + cardKey[t[0]] + cardKey[t[1]] + cardKey[t[2]] + cardKey[t[3]] + cardKey[t[4]] + cardKey[t[5]] + cardKey[t[6]]
		if (ks|kt)&flushCheck != 0 {
			sum += uint64(s.rank(ks)) + uint64(t.rank(kt))
			continue
		}
		sum += uint64(rankOfKey(ks)) + uint64(rankOfKey(kt))
	}
	for i := range hands {
		s := &hands[i]
		k := emptyKey + cardKey[s[0]] + cardKey[s[1]] + cardKey[s[2]] + cardKey[s[3]] + cardKey[s[4]] + cardKey[s[5]] + cardKey[s[6]]
		sum += uint64(s.rank(k))
	}
	return sum
}

// rank returns the rank of the seven cards, whose key is key.
func (s *Seven) rank(key uint64) Rank {
	if f := key & flushCheck; f != 0 {
		return s.flushRank(f)
	}
	return rankOfKey(key)
}

// flushRank returns the rank of the seven cards, which hold a flush; f is their suit
// counters' flush bits.
func (s *Seven) flushRank(f uint64) Rank {
	mask := uint64(1)<<(s[0]&63) | 1<<(s[1]&63) | 1<<(s[2]&63) | 1<<(s[3]&63) | 1<<(s[4]&63) | 1<<(s[5]&63) | 1<<(s[6]&63)
	return flushRankOf(mask, f)
}

// EnumerateSevens ranks all 133,784,560 seven-card hands, adding one card per level of
// nested loops, and returns the sum of the ranks. For each pair of first cards it
// lists the 5-card hands that follow (with their last card) and then adds the last two
// cards to each: nested seven deep in one loop, Go's register allocator reloaded the
// outer levels' hands from the stack on every hand.
func EnumerateSevens() uint64 {
	var sum uint64
	fives := make([]five, 0, 19_600) // C(50, 3)
	for a := cards.Card(0); a < 52; a++ {
		h1 := Empty.Add(a)
		for b := a + 1; b < 52; b++ {
			fives = listFives(fives[:0], h1.Add(b), b)
			sum += rankLastTwo(fives)
		}
	}
	return sum
}

// five is a 5-card hand and its highest card.
type five struct {
	h    Hand
	last cards.Card
}

// listFives appends to out every h2 plus three cards above b.
func listFives(out []five, h2 Hand, b cards.Card) []five {
	for c := b + 1; c < 52; c++ {
		h3 := h2.Add(c)
		for d := c + 1; d < 52; d++ {
			h4 := h3.Add(d)
			for e := d + 1; e < 52; e++ {
				out = append(out, five{h4.Add(e), e})
			}
		}
	}
	return out
}

// rankLastTwo returns the sum of the ranks of each hand in fives with two more cards
// above its last, each hand looked up by one flat loop over the pairs of cards above
// (pairs, pairsBy): the pair's rank sum added to the five cards' key, or, where the
// pair makes a flush, the flush suit's ranks with the pair's cards of that suit. Five
// cards hold at most one suit three times or more, and two more cards make a flush
// only of that suit: of three, with both cards of it; of four, with either; of five,
// always. So no hand needs the card mask or a flush test (OMPEval's evaluator skips the
// test where it knows no flush can come; here every pair's class is known in advance).
func rankLastTwo(fives []five) uint64 {
	var sum uint64
	for _, f := range fives {
		f3 := (f.h.key + 2*suitOne) & flushCheck // the suit held three times or more
		if f3 == 0 {
			sum += pairsNoFlush(f.h.key, pairs.above(f.last))
			continue
		}
		s := uint(bits.TrailingZeros64(f3)) >> 2
		n := f.h.key>>(4*s)&15 - 3 // how many cards of suit s the five hold
		fm := suitRanks(f.h.mask, s)
		l := &pairsBy[s&3]
		switch n {
		case 3:
			sum += pairsNoFlush(f.h.key, l[0].above(f.last)) + pairsNoFlush(f.h.key, l[1].above(f.last)) +
				pairsFlush(fm, l[2].suited(f.last))
		case 4:
			sum += pairsNoFlush(f.h.key, l[0].above(f.last)) + pairsFlush(fm, l[1].suited(f.last)) +
				pairsFlush(fm, l[2].suited(f.last))
		default:
			sum += pairsFlush(fm, l[0].suited(f.last)) + pairsFlush(fm, l[1].suited(f.last)) +
				pairsFlush(fm, l[2].suited(f.last))
		}
	}
	return sum
}

// pairList lists pairs of cards g < k, ordered by g: the rank sum each adds to a key,
// and the rank bits of its cards of one suit.
type pairList struct {
	keys  []uint64
	ranks []uint16
	start [256]int // start[c]: the first pair whose cards are both above c
}

func (l *pairList) above(c cards.Card) []uint64  { return l.keys[l.start[c]:] }
func (l *pairList) suited(c cards.Card) []uint16 { return l.ranks[l.start[c]:] }

// pairsNoFlushGo returns the sum of the ranks of the hand with key key plus each pair
// whose rank sum is in ps, none of which makes a flush. pairsNoFlush is the same loop,
// in assembly on amd64 (kernel_amd64.s).
func pairsNoFlushGo(key uint64, ps []uint64) uint64 {
	var sum uint64
	for _, p := range ps {
		sum += uint64(rankOfKey(key + p))
	}
	return sum
}

// pairsFlush returns the sum of the ranks of flushes whose suit holds the ranks fm and
// each of rs.
func pairsFlush(fm uint64, rs []uint16) uint64 {
	var sum uint64
	for _, r := range rs {
		sum += uint64(flushRank[(fm|uint64(r))&uint64(len(flushRank)-1)])
	}
	return sum
}

// pairs lists every pair of cards, pairsBy[s][i] the pairs with i cards of suit s.
var (
	pairs   pairList
	pairsBy [cards.NumSuits][3]pairList
)

func init() {
	pairs.build(func(g, k cards.Card) (bool, uint16) { return true, 0 })
	for s := range pairsBy {
		for n := range pairsBy[s] {
			pairsBy[s][n].build(func(g, k cards.Card) (bool, uint16) {
				var in int
				var r uint16
				for _, c := range [2]cards.Card{g, k} {
					if int(c.Suit()) == s {
						in, r = in+1, r|1<<c.Rank()
					}
				}
				return in == n, r
			})
		}
	}
}

// build lists the pairs g < k for which keep reports true, with the rank bits it gives.
func (l *pairList) build(keep func(g, k cards.Card) (bool, uint16)) {
	for g := cards.Card(0); g < cards.NumCards; g++ {
		for k := g + 1; k < cards.NumCards; k++ {
			if ok, r := keep(g, k); ok {
				l.keys = append(l.keys, 2<<countShift|(rankMul[g.Rank()]+rankMul[k.Rank()])<<sumShift)
				l.ranks = append(l.ranks, r)
			}
		}
		l.start[g] = len(l.keys) // the pairs of g's successors begin here
	}
	for c := int(cards.NumCards); c < len(l.start); c++ {
		l.start[c] = len(l.keys)
	}
}

// NumSevens is the number of 7-card hands, C(52,7).
const NumSevens = 133_784_560
