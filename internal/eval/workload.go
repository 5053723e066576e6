package eval

import (
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

// RankSevens evaluates every hand from its seven cards (seven Adds and a Rank each) and
// returns the sum of the ranks, so that no work can be optimised away.
func RankSevens(hands []Seven) uint64 {
	var sum uint64
	for i := range hands {
		sum += uint64(hands[i].hand().Rank())
	}
	return sum
}

// hand returns the Hand of the seven cards: what seven Adds to Empty make (the sum of
// their cardKeys, the union of their bits), written as one expression, which Go keeps in
// registers. Two hands interleaved card by card ran out of registers and spilled to the
// stack: 8% slower (docs/performance.md).
func (s *Seven) hand() Hand {
	return Hand{
		key:  suitBias + cardKey[s[0]] + cardKey[s[1]] + cardKey[s[2]] + cardKey[s[3]] + cardKey[s[4]] + cardKey[s[5]] + cardKey[s[6]],
		mask: 1<<(s[0]&63) | 1<<(s[1]&63) | 1<<(s[2]&63) | 1<<(s[3]&63) | 1<<(s[4]&63) | 1<<(s[5]&63) | 1<<(s[6]&63),
	}
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
// above its last.
func rankLastTwo(fives []five) uint64 {
	var sum uint64
	for _, f := range fives {
		for g := f.last + 1; g < 52; g++ {
			h6 := f.h.Add(g)
			for k := g + 1; k < 52; k++ {
				sum += uint64(h6.Add(k).Rank())
			}
		}
	}
	return sum
}

// NumSevens is the number of 7-card hands, C(52,7).
const NumSevens = 133_784_560
