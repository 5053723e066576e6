package solver

import (
	"fmt"
	"math/rand/v2"

	"github.com/felt-poker/felt/internal/cards"
)

// Sample limits what the chance nodes deal to a fixed sample of the cards (Go API
// only): a coarse game in which the turn is one of Turns cards and, after each turn,
// the river one of Rivers cards, each equally likely. Each chance node draws its
// cards from a seed made of Seed and its board, so a solve is deterministic and two
// spots with the same Seed deal alike. A pair of hands meets on the sampled cards
// that hold none of its four, K(n−4)/n of them in the mean (K sampled of the n that
// can come): each outcome weighs 1 over that, for both players alike, so the game
// stays zero-sum. No isomorphism is used at a sampled chance node. The leaf
// measurement (docs/solver.md, "Depth-limited solving") solves flops to the river
// this way, and a depth-limited flop can end in such a continuation
// (Spot.LeafRunouts left 0 and the later streets sampled).
type Sample struct {
	Turns  int // turn cards dealt after the flop (0: every card)
	Rivers int // river cards dealt after each turn (0: every card)
	Seed   uint64
}

// maxSample bounds a sample: there are at most 49 cards to deal.
const maxSample = cards.NumCards - 3

func (z Sample) check() error {
	for _, k := range [2]int{z.Turns, z.Rivers} {
		if k < 0 || k > maxSample {
			return fmt.Errorf("a sample of %d cards: want 0 (every card) to %d", k, maxSample)
		}
	}
	return nil
}

// sampled returns how many cards a chance node on board deals under the spot's
// sample, or 0 for every card.
func (s *Solver) sampled(board cards.Set) int {
	left := cards.NumCards - board.Len()
	k := s.spot.Sample.Turns
	if board.Len() == 4 {
		k = s.spot.Sample.Rivers
	}
	if k >= left {
		return 0
	}
	return k
}

// deals returns the cards a chance node on board deals, each one's permutation to
// its representative and the representative's position (dealClasses), or the
// sample's cards, each its own representative.
func (s *Solver) deals(board cards.Set) (deal []cards.Card, perm, from []uint8) {
	k := s.sampled(board)
	if k == 0 {
		return s.dealClasses(board)
	}
	seed := s.spot.Sample.Seed
	var left []cards.Card
	for c := cards.Card(0); c < cards.NumCards; c++ {
		if board.Has(c) {
			seed = seed*53 + uint64(c) + 1
		} else {
			left = append(left, c)
		}
	}
	r := rand.New(rand.NewPCG(seed, 13))
	r.Shuffle(len(left), func(i, j int) { left[i], left[j] = left[j], left[i] })
	deal = left[:k]
	perm, from = make([]uint8, k), make([]uint8, k)
	for i := range from {
		from[i] = uint8(i)
	}
	return deal, perm, from
}

// chanceScale is the weight of one outcome of a chance node on board: 1 over the
// cards a pair of hands meets on, n−4 of the n that can come, or in the mean
// K(n−4)/n of a sample of K.
func (s *Solver) chanceScale(board cards.Set) float64 {
	n := float64(cards.NumCards - board.Len())
	if k := s.sampled(board); k > 0 {
		return n / (float64(k) * (n - 4))
	}
	return 1 / (n - 4)
}
