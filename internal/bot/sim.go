package bot

import (
	"math/rand/v2"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/eval"
)

// simulator estimates a seat's equity (its expected share of the pot at showdown)
// by dealing the unseen cards at random: the opponents still in get random hidden
// cards, the rest of the board (Hold'em) or the missing up cards (stud) are dealt,
// and the hands are compared. It keeps its deck in a fixed array and does not
// allocate.
type simulator struct {
	deck [cards.NumCards]cards.Card
	n    int
}

// equity returns the viewer's estimated share of the pot over samples random deals
// (at least one), for Hold'em or stud as v says.
func (sm *simulator) equity(r *rand.Rand, v *engine.View, s *situation, samples int) float64 {
	sm.fill(s.known)
	if s.opps == 0 {
		return 1
	}
	samples = max(samples, 1)
	if s.holdem {
		return sm.holdem(r, s, v.Board, samples)
	}
	return sm.stud(r, v, s, samples)
}

// fill puts every card not in known into the deck.
func (sm *simulator) fill(known cards.Set) {
	sm.n = 0
	for c := cards.Card(0); c < cards.NumCards; c++ {
		if !known.Has(c) {
			sm.deck[sm.n] = c
			sm.n++
		}
	}
}

// draw moves k random cards of the deck to its front (a partial Fisher-Yates
// shuffle); the deck stays a permutation of the same cards.
func (sm *simulator) draw(r *rand.Rand, k int) {
	for i := 0; i < k; i++ {
		j := i + r.IntN(sm.n-i)
		sm.deck[i], sm.deck[j] = sm.deck[j], sm.deck[i]
	}
}

// holdem simulates Hold'em showdowns against s.opps random hands.
func (sm *simulator) holdem(r *rand.Rand, s *situation, board []cards.Card, samples int) float64 {
	base := eval.Empty
	for _, c := range board {
		base = base.Add(c)
	}
	missing := 5 - len(board)
	need := missing + 2*s.opps
	if need > sm.n {
		return 1 / float64(s.opps+1)
	}
	var total float64
	for range samples {
		sm.draw(r, need)
		b := base
		for k := 0; k < missing; k++ {
			b = b.Add(sm.deck[k])
		}
		mine := b.Add(s.mine[0]).Add(s.mine[1]).Rank()
		best, ties := true, 0
		for o := 0; o < s.opps && best; o++ {
			c := missing + 2*o
			switch theirs := b.Add(sm.deck[c]).Add(sm.deck[c+1]).Rank(); {
			case theirs > mine:
				best = false
			case theirs == mine:
				ties++
			}
		}
		total += share(best, ties)
	}
	return total / float64(samples)
}

// stud simulates three card stud showdowns: each opponent still in gets a random
// hole card, everyone still in who lacks a second up card gets one, and the pot is
// split as RULES.md says (half to the best hand, half to the highest spade in the
// hole; all of it to the best hand when no hole card is a spade).
func (sm *simulator) stud(r *rand.Rand, v *engine.View, s *situation, samples int) float64 {
	var others [engine.MaxSeats][3]cards.Card
	no := 0
	for i := range v.Seats {
		o := &v.Seats[i]
		if i == s.me || !o.InHand || o.Folded {
			continue
		}
		others[no] = o.Cards
		for k := o.NCards; k < 3; k++ {
			others[no][k] = cards.NoCard
		}
		no++
	}
	need := 0
	for o := 0; o < no; o++ {
		for _, c := range others[o] {
			if !c.Valid() {
				need++
			}
		}
	}
	if s.nMine < 3 {
		need += 3 - s.nMine
	}
	if need > sm.n {
		return 1 / float64(no+1)
	}
	var total float64
	for range samples {
		sm.draw(r, need)
		d := 0
		mine := s.mine
		for k := s.nMine; k < 3; k++ {
			mine[k] = sm.deck[d]
			d++
		}
		myRank := eval.Stud(mine[0], mine[1], mine[2])
		best, ties := true, 0
		spade := -1 // highest hole spade among the others
		for o := 0; o < no; o++ {
			h := others[o]
			for k := range h {
				if !h[k].Valid() {
					h[k] = sm.deck[d]
					d++
				}
			}
			switch rk := eval.Stud(h[0], h[1], h[2]); {
			case rk > myRank:
				best = false
			case rk == myRank:
				ties++
			}
			if h[0].Suit() == cards.Spades && int(h[0]) > spade {
				spade = int(h[0])
			}
		}
		poker := share(best, ties)
		switch {
		case mine[0].Suit() == cards.Spades && int(mine[0]) > spade:
			total += poker/2 + 0.5
		case spade >= 0:
			total += poker / 2
		default:
			total += poker
		}
	}
	return total / float64(samples)
}
