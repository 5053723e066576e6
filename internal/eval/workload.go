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
// ranks, so that no work can be optimised away. It adds up the seven cards' keys and
// builds the card mask only when the suit counters show a flush (about 3% of random
// hands): the mask is most of what Hand.Add does, and a hand without a flush never
// reads it. The loop body is written out here, as no call of it would be inlined.
func RankSevens(hands []Seven) uint64 {
	var sum uint64
	for ; len(hands) >= 2; hands = hands[2:] {
		s, t := &hands[0], &hands[1]
		ks := suitBias + cardKey[s[0]] + cardKey[s[1]] + cardKey[s[2]] + cardKey[s[3]] + cardKey[s[4]] + cardKey[s[5]] + cardKey[s[6]]
		kt := suitBias + cardKey[t[0]] + cardKey[t[1]] + cardKey[t[2]] + cardKey[t[3]] + cardKey[t[4]] + cardKey[t[5]] + cardKey[t[6]]
		if (ks|kt)&flushCheck != 0 {
			sum += uint64(s.rank(ks)) + uint64(t.rank(kt))
			continue
		}
		sum += uint64(rankOfKey(ks)) + uint64(rankOfKey(kt))
	}
	for i := range hands {
		s := &hands[i]
		k := suitBias + cardKey[s[0]] + cardKey[s[1]] + cardKey[s[2]] + cardKey[s[3]] + cardKey[s[4]] + cardKey[s[5]] + cardKey[s[6]]
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
// above its last. Two cards make a flush only of a suit the five cards already hold three
// times (then six cards only of a suit they hold four times); everywhere else the rank
// sum alone decides, and the inner loops add keys and look them up without the card
// mask or the flush test (most 5-card and 6-card hands here, as OMPEval's evaluator
// skips the test when it knows no flush can come).
func rankLastTwo(fives []five) uint64 {
	var sum uint64
	for _, f := range fives {
		if (f.h.key+2*suitOne)&flushCheck == 0 {
			sum += lastTwoNoFlush(f.h.key, f.last)
			continue
		}
		for g := f.last + 1; g < 52; g++ {
			h6 := f.h.Add(g)
			if (h6.key+suitOne)&flushCheck == 0 {
				sum += lastOneNoFlush(h6.key, g)
				continue
			}
			sum += lastOneMayFlush(h6, g)
		}
	}
	return sum
}

// lastTwoNoFlush returns the sum of the ranks of a hand with key key plus every two
// cards above last, none of which can make a flush: one flat loop over the two cards'
// rank sums, listed once (pairKeys).
func lastTwoNoFlush(key uint64, last cards.Card) uint64 {
	var sum uint64
	for _, p := range pairKeys[pairStart[last]:] {
		sum += uint64(rankOfKey(key + p))
	}
	return sum
}

// lastOneMayFlush returns the sum of the ranks of h6, which holds some suit four times
// or more, plus each card above last. Whether a card makes the flush is what the
// processor could not predict (about one card in five does), so each hand's rank is
// read from both tables and the right one chosen without a branch: the flush suit's
// ranks are gathered once for h6, and a card of that suit adds its rank bit to them.
func lastOneMayFlush(h6 Hand, last cards.Card) uint64 {
	s := uint(bits.TrailingZeros64((h6.key+suitOne)&flushCheck)) >> 2 // the one suit held 4+ times
	fm := suitRanks(h6.mask, s)
	var sum uint64
	for k := last + 1; k < cards.NumCards; k++ {
		key := h6.key + cardKey[k]
		var in uint64
		if uint(k.Suit()) == s {
			in = 1
		}
		r, fr := rankOfKey(key), flushRank[(fm|in<<k.Rank())&uint64(len(flushRank)-1)]
		if key&flushCheck != 0 {
			r = fr
		}
		sum += uint64(r)
	}
	return sum
}

// lastOneNoFlush returns the sum of the ranks of a hand with key key plus each card
// above last, none of which can make a flush.
func lastOneNoFlush(key uint64, last cards.Card) uint64 {
	var sum uint64
	for _, k := range cardKey[last+1 : cards.NumCards] {
		sum += uint64(rankOfKey(key + k))
	}
	return sum
}

// pairKeys lists, for every two cards g < k ordered by g, the rank sum they add to a
// key (without their suits, which lastTwoNoFlush does not read); pairStart[c] is where
// the pairs with g above c begin.
var (
	pairKeys  [cards.NumCards * (cards.NumCards - 1) / 2]uint64
	pairStart [256]int
)

func init() {
	i := 0
	for g := cards.Card(0); g < cards.NumCards; g++ {
		for k := g + 1; k < cards.NumCards; k++ {
			pairKeys[i] = (rankMul[g.Rank()] + rankMul[k.Rank()]) << sumShift
			i++
		}
		pairStart[g] = i // the pairs of g's successors begin here
	}
	for c := int(cards.NumCards); c < len(pairStart); c++ {
		pairStart[c] = len(pairKeys)
	}
}

// NumSevens is the number of 7-card hands, C(52,7).
const NumSevens = 133_784_560
