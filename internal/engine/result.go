package engine

import (
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/eval"
)

// Award is chips won by one seat from one pot.
type Award struct {
	Seat   int
	Amount int64
	Share  Share
}

// PotResult is one pot and who won it.
type PotResult struct {
	Amount   int64
	Eligible SeatSet
	Awards   []Award
}

// ShownHand is a hand shown at showdown.
type ShownHand struct {
	Seat  int
	Cards []cards.Card
	// Rank is the hand's value (eval.Rank in Hold'em, eval.StudRank in stud); Name
	// says it in words, such as "Full house, kings full of fours".
	Rank uint16
	Name string
}

// Result is the outcome of a finished hand.
type Result struct {
	// Net is each seat's chips won minus chips put in; the entries sum to 0.
	Net []int64
	// Stacks is each seat's chips at the end of the hand.
	Stacks []int64
	// Pots lists the pots, main pot first, with their awards (in the order they
	// were awarded: the last-created pot first).
	Pots []PotResult
	// Shown lists the hands shown, in showdown order; mucked hands are absent.
	Shown []ShownHand
	Board []cards.Card
	// SecondBoard is the second run's board when the board was run twice.
	SecondBoard []cards.Card
}

// Result reports the hand's outcome. It is complete once Over reports true; before
// that the pots and awards are empty.
func (h *Hand) Result() Result {
	r := Result{Net: make([]int64, h.s.n), Stacks: make([]int64, h.s.n), Board: append([]cards.Card(nil), h.board[:h.nBoard]...)}
	r.SecondBoard = append([]cards.Card(nil), h.SecondBoard()...)
	if len(r.SecondBoard) == 0 {
		r.SecondBoard = nil
	}
	for i := range r.Net {
		r.Net[i] = h.Net(i)
		r.Stacks[i] = h.seats[i].stack
	}
	if !h.over {
		return r
	}
	for k := 0; k < h.nPots; k++ {
		r.Pots = append(r.Pots, PotResult{Amount: h.pots[k].amount, Eligible: h.pots[k].eligible})
	}
	for _, e := range h.events {
		switch e.Kind {
		case EvAward:
			if int(e.Pot) < len(r.Pots) {
				p := &r.Pots[e.Pot]
				p.Awards = append(p.Awards, Award{Seat: int(e.Seat), Amount: e.Amount, Share: e.Share})
			}
		case EvShow:
			sh := ShownHand{Seat: int(e.Seat), Cards: append([]cards.Card(nil), e.Cards[:e.NCards]...), Rank: e.Rank}
			if h.s.variant == StudThree {
				sh.Name = eval.StudRank(e.Rank).String()
			} else {
				sh.Name = eval.Rank(e.Rank).String()
			}
			r.Shown = append(r.Shown, sh)
		}
	}
	return r
}

// Net returns seat's chips won minus chips put in so far (0 for a seat outside the table).
func (h *Hand) Net(seat int) int64 {
	if seat < 0 || seat >= h.s.n {
		return 0
	}
	s := &h.seats[seat]
	return s.stack - s.start
}

// Stack returns seat's chips not in the pot (0 for a seat outside the table).
func (h *Hand) Stack(seat int) int64 {
	if seat < 0 || seat >= h.s.n {
		return 0
	}
	return h.seats[seat].stack
}

// Seats returns the number of seats at the table.
func (h *Hand) Seats() int { return h.s.n }

// Street returns the current betting round, or Showdown once the hand is over.
func (h *Hand) Street() Street { return h.street }

// SecondBoard returns the second run's board when the board was run twice
// (Config.RunTwice; the first run's is Board), or nil.
func (h *Hand) SecondBoard() []cards.Card {
	if h.nBoard2 == 0 {
		return nil
	}
	return h.board2[:h.nBoard2]
}

// Straddler returns the seat that straddled (Config.Straddlers), or NoSeat.
func (h *Hand) Straddler() int { return h.strSeat }

// Board returns the board cards dealt so far. The slice is h's own: do not change it.
func (h *Hand) Board() []cards.Card { return h.board[:h.nBoard] }

// Cards returns every card of seat, hidden or not: the omniscient view for the arena,
// history writers and tests. Never send it to a player; use View. The slice is h's own.
func (h *Hand) Cards(seat int) []cards.Card {
	if seat < 0 || seat >= h.s.n {
		return nil
	}
	return h.seats[seat].cards[:h.seats[seat].ncards]
}

// Events returns the whole event log, every card included (burns and all hole
// cards): for hand histories and storage, never for players (use View or EventsFor).
// The slice is h's own and is reused by Reset: copy it to keep it.
func (h *Hand) Events() []Event { return h.events }

// Actions returns a copy of the actions applied so far, the input Replay takes.
func (h *Hand) Actions() []Action { return append([]Action(nil), h.actions...) }

// NumActions returns how many actions have been applied, without copying them.
func (h *Hand) NumActions() int { return len(h.actions) }
