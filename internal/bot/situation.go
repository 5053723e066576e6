package bot

import (
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// situation is what the thinking bots read from a view before deciding.
type situation struct {
	me       int
	mine     [3]cards.Card // the viewer's cards (Hold'em: two; stud: hole, then up cards)
	nMine    int
	opps     int       // opponents still in the hand (not folded)
	toCall   int64     // chips a call adds (0 when the bot may check)
	pot      int64     // every chip in the pot, this round's bets included
	potOdds  float64   // toCall / (pot + toCall): the equity a call needs to break even
	known    cards.Set // every card the viewer can see
	holdem   bool
	preflop  bool
	position int // preflop position class (see positionOf), Hold'em only
}

// read fills s from v, which must be the viewer's turn.
func (s *situation) read(v *engine.View) {
	me := v.Viewer
	*s = situation{me: me, holdem: v.Variant == engine.Holdem, pot: v.Pot}
	sv := &v.Seats[me]
	s.nMine = min(sv.NCards, len(s.mine))
	copy(s.mine[:], sv.Cards[:s.nMine])
	for i := range v.Seats {
		o := &v.Seats[i]
		for k := 0; k < o.NCards && k < len(o.Cards); k++ {
			if o.Cards[k].Valid() {
				s.known = s.known.Add(o.Cards[k])
			}
		}
		if i != me && o.InHand && !o.Folded {
			s.opps++
		}
	}
	for _, c := range v.Board {
		s.known = s.known.Add(c)
	}
	if v.Legal.Can(engine.Call) {
		s.toCall = v.Legal.CallAmount
	}
	if s.toCall > 0 {
		s.potOdds = float64(s.toCall) / float64(s.pot+s.toCall)
	}
	s.preflop = s.holdem && v.Street == engine.Preflop
	if s.holdem {
		s.position = positionOf(v)
	}
}

// Position classes before the flop.
const (
	posEarly = iota
	posMiddle
	posLate
	posSmallBlind
	posBigBlind
)

// positionOf says where the viewer sits for the pre-flop chart: the blinds by
// name, otherwise by how many seats dealt in act after it up to the button (the
// button and the seat before it are late, the one before those middle, the rest
// early). Heads-up the button is the small blind and plays as late.
func positionOf(v *engine.View) int {
	me, n := v.Viewer, len(v.Seats)
	switch {
	case me == v.BigBlind:
		return posBigBlind
	case me == v.SmallBlind && me != v.Button:
		return posSmallBlind
	}
	after := 0
	for i := (me + 1) % n; me != v.Button; i = (i + 1) % n {
		if v.Seats[i].InHand {
			after++
		}
		if i == v.Button {
			break
		}
	}
	switch {
	case after <= 1:
		return posLate
	case after == 2:
		return posMiddle
	}
	return posEarly
}

// share returns the fraction of the pot a hand takes: 1 when it beats every other,
// 1/(k+1) when it ties k others for best, 0 when it loses.
func share(best bool, ties int) float64 {
	if !best {
		return 0
	}
	return 1 / float64(ties+1)
}
