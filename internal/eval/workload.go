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
	var sum, sum2 uint64
	empty := Hand{key: suitBias} // Empty, kept in registers
	// Two hands at a time, card by card, so that each hand's work overlaps the other's.
	for len(hands) >= 2 {
		s, t := &hands[0], &hands[1]
		h, g := empty.Add(s[0]), empty.Add(t[0])
		h, g = h.Add(s[1]), g.Add(t[1])
		h, g = h.Add(s[2]), g.Add(t[2])
		h, g = h.Add(s[3]), g.Add(t[3])
		h, g = h.Add(s[4]), g.Add(t[4])
		h, g = h.Add(s[5]), g.Add(t[5])
		h, g = h.Add(s[6]), g.Add(t[6])
		sum += uint64(h.Rank())
		sum2 += uint64(g.Rank())
		hands = hands[2:]
	}
	for i := range hands {
		s := &hands[i]
		sum += uint64(empty.Add(s[0]).Add(s[1]).Add(s[2]).Add(s[3]).Add(s[4]).Add(s[5]).Add(s[6]).Rank())
	}
	return sum + sum2
}

// EnumerateSevens ranks all 133,784,560 seven-card hands, adding one card per level of
// nested loops, and returns the sum of the ranks.
func EnumerateSevens() uint64 {
	var sum uint64
	for a := cards.Card(0); a < 52; a++ {
		h1 := Empty.Add(a)
		for b := a + 1; b < 52; b++ {
			h2 := h1.Add(b)
			for c := b + 1; c < 52; c++ {
				h3 := h2.Add(c)
				for d := c + 1; d < 52; d++ {
					h4 := h3.Add(d)
					for e := d + 1; e < 52; e++ {
						h5 := h4.Add(e)
						for g := e + 1; g < 52; g++ {
							h6 := h5.Add(g)
							for k := g + 1; k < 52; k++ {
								sum += uint64(h6.Add(k).Rank())
							}
						}
					}
				}
			}
		}
	}
	return sum
}

// NumSevens is the number of 7-card hands, C(52,7).
const NumSevens = 133_784_560
