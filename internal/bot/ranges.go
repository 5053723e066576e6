package bot

import (
	"math/rand/v2"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/eval"
)

// Opponents who bet do not hold random hands. readRange reads from the betting so
// far how strong the opponents' hands must be (in Hold'em), and the simulator's
// equityVsRange deals them only such hands, as Poki weighted its opponents'
// hands by their actions: a bot that simulates against random hands calls a
// value bet far too often, and a tight opponent takes its stack.

// oppRange is the least an opponent still in is taken to hold.
type oppRange struct {
	// group is the worst starting-hand chart group (1..9) an opponent holds after
	// raising before the flop: 9 when no opponent raised.
	group int
	// post is what an opponent's hole cards make with the board after betting on
	// this street: postAny, postConnects (a pair or better with a hole card, or a
	// flush or open straight draw) or postStrong (two pair or better with a hole
	// card), after a raise or a second bet.
	post int
}

const (
	postAny = iota
	postConnects
	postStrong
)

// readRange returns the range the betting so far gives the opponents of v's viewer.
func readRange(v *engine.View) oppRange {
	rg := oppRange{group: 9}
	preRaises, nowBets := 0, 0
	for i := range v.Events {
		e := &v.Events[i]
		if int(e.Seat) == v.Viewer || e.Kind != engine.EvBet && e.Kind != engine.EvRaise {
			continue
		}
		if e.Street == engine.Preflop {
			preRaises++
		}
		if e.Street == v.Street && v.Street != engine.Preflop {
			nowBets++
		}
	}
	switch {
	case preRaises >= 3: // a raise war: what keeps raising is a premium pair or ace-king
		rg.group = 1
	case preRaises == 2:
		rg.group = 3
	case preRaises == 1:
		rg.group = 6
	}
	switch {
	case nowBets >= 2 || nowBets == 1 && raisedThisRound(v):
		rg.post = postStrong
	case nowBets == 1:
		rg.post = postConnects
	}
	return rg
}

// maxRedeals bounds the hands dealt to one opponent in one simulated deal before
// the simulator keeps one outside the range (a range that is nearly empty).
const maxRedeals = 30

// equityVsRange is equity for Hold'em with the opponents' hands drawn from the
// range the betting gives them (readRange); other games simulate as equity does.
func (sm *simulator) equityVsRange(r *rand.Rand, v *engine.View, s *situation, samples int) float64 {
	if !s.holdem || s.opps == 0 {
		return sm.equity(r, v, s, samples)
	}
	sm.rg = readRange(v)
	defer func() { sm.rg = oppRange{} }()
	return sm.equity(r, v, s, samples)
}

// inRange reports whether hole cards a, b fit sm.rg on board.
func (sm *simulator) inRange(a, b cards.Card, board []cards.Card) bool {
	if sm.rg.group < 9 && startingGroup(a, b) > sm.rg.group {
		return false
	}
	if sm.rg.post == postAny || len(board) < 3 {
		return true
	}
	if sm.rg.post == postStrong {
		h := eval.Empty
		for _, c := range board {
			h = h.Add(c)
		}
		return h.Add(a).Add(b).Rank().Category() >= eval.TwoPair && usesHole(a, b, board)
	}
	return usesHole(a, b, board) || drawing(a, b, board)
}

// usesHole reports whether a hole card pairs the board or the hole cards are a pair.
func usesHole(a, b cards.Card, board []cards.Card) bool {
	if a.Rank() == b.Rank() {
		return true
	}
	for _, c := range board {
		if c.Rank() == a.Rank() || c.Rank() == b.Rank() {
			return true
		}
	}
	return false
}

// drawing reports whether the hole cards make a flush draw (four of a suit) or an
// open-ended straight draw (four ranks in a row) with the board.
func drawing(a, b cards.Card, board []cards.Card) bool {
	var suits [4]int
	ranks := uint16(1)<<a.Rank() | uint16(1)<<b.Rank()
	suits[a.Suit()]++
	suits[b.Suit()]++
	for _, c := range board {
		suits[c.Suit()]++
		ranks |= 1 << c.Rank()
	}
	if suits[a.Suit()] >= 4 || suits[b.Suit()] >= 4 {
		return true
	}
	holeRanks := uint16(1)<<a.Rank() | uint16(1)<<b.Rank()
	for lo := 0; lo+4 <= cards.NumRanks; lo++ {
		run := uint16(0b1111) << lo
		if ranks&run == run && holeRanks&run != 0 {
			return true
		}
	}
	return false
}
