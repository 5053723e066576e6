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
	// rg is the range opponents' hands are drawn from (see equityVsRange); the
	// zero value is any hand.
	rg oppRange
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
		if sm.rg != (oppRange{}) {
			sm.redeal(r, s.opps, missing, need, board)
		}
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

// redeal deals again, up to maxRedeals times each, the hole cards of the
// opponents (at deck[missing+2o]) that fall outside sm.rg, from the cards not
// dealt (deck[need:]).
func (sm *simulator) redeal(r *rand.Rand, opps, missing, need int, board []cards.Card) {
	rest := sm.n - need
	if rest < 2 {
		return
	}
	for o := range opps {
		c := missing + 2*o
		for try := 0; try < maxRedeals && !sm.inRange(sm.deck[c], sm.deck[c+1], board); try++ {
			j := need + r.IntN(rest)
			k := need + r.IntN(rest-1)
			if k >= j {
				k++
			}
			sm.deck[c], sm.deck[j] = sm.deck[j], sm.deck[c]
			sm.deck[c+1], sm.deck[k] = sm.deck[k], sm.deck[c+1]
		}
	}
}

// stud simulates three card stud showdowns: each opponent still in gets a random
// hole card, everyone still in who lacks a second up card gets one, and the pot is
// split as RULES.md says (see studShare).
func (sm *simulator) stud(r *rand.Rand, v *engine.View, s *situation, samples int) float64 {
	var d studDeal
	d.read(v, s)
	if d.need > sm.n {
		return 1 / float64(d.no+1)
	}
	var total float64
	for range samples {
		sm.draw(r, d.need)
		total += d.share(sm.deck[:d.need])
	}
	return total / float64(samples)
}

// studDeal is a three card stud deal seen by one seat, with the cards it cannot
// see yet to be filled in.
type studDeal struct {
	mine   [3]cards.Card
	nMine  int
	others [engine.MaxSeats][3]cards.Card // the opponents still in; NoCard where unseen
	no     int
	need   int // cards missing: the viewer's, then each opponent's in order
}

// read sets d from v and s.
func (d *studDeal) read(v *engine.View, s *situation) {
	*d = studDeal{mine: s.mine, nMine: s.nMine}
	for i := range v.Seats {
		o := &v.Seats[i]
		if i == s.me || !o.InHand || o.Folded {
			continue
		}
		d.others[d.no] = o.Cards
		for k := o.NCards; k < 3; k++ {
			d.others[d.no][k] = cards.NoCard
		}
		for _, c := range d.others[d.no] {
			if !c.Valid() {
				d.need++
			}
		}
		d.no++
	}
	if d.nMine < 3 {
		d.need += 3 - d.nMine
	}
}

// share returns the viewer's share of the pot once the missing cards are fill (in
// the order of studDeal.need): half to the best hand and half to the highest spade
// in the hole, all of it to the best hand when no hole card is a spade.
func (d *studDeal) share(fill []cards.Card) float64 {
	k := 0
	mine := d.mine
	for i := d.nMine; i < 3; i++ {
		mine[i] = fill[k]
		k++
	}
	myRank := eval.Stud(mine[0], mine[1], mine[2])
	best, ties := true, 0
	spade := -1 // highest hole spade among the others
	for o := 0; o < d.no; o++ {
		h := d.others[o]
		for i := range h {
			if !h[i].Valid() {
				h[i] = fill[k]
				k++
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
		return poker/2 + 0.5
	case spade >= 0:
		return poker / 2
	}
	return poker
}
