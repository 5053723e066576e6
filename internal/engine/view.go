package engine

import "github.com/felt-poker/felt/internal/cards"

// Spectator is the viewer of SpectatorView: someone who holds no seat.
const Spectator = NoSeat

// SeatView is one seat as a viewer sees it.
type SeatView struct {
	// InHand reports whether the seat was dealt into this hand.
	InHand bool
	// Folded, AllIn and Left describe the seat's state; Shown that it showed its cards.
	Folded, AllIn, Left, Shown bool
	// Stack is the seat's chips not in the pot, Bet its bet in this round, Total
	// everything it has put in during the hand.
	Stack, Bet, Total int64
	// Cards holds the seat's first NCards cards (Hold'em: the two hole cards; stud:
	// the hole card and the up cards), cards.NoCard where the viewer may not see one.
	Cards  [3]cards.Card
	NCards int
}

// PotView is one pot: its chips and the seats that contest it.
type PotView struct {
	Amount   int64
	Eligible SeatSet
}

// View is what one viewer may know about a hand. It never holds a card the viewer
// may not see: another seat's hole cards stay hidden until shown at showdown, and
// burned and undealt cards never appear.
type View struct {
	// Viewer is the seat the view is for, or Spectator.
	Viewer    int
	Variant   Variant
	Structure Structure
	// Button, SmallBlind and BigBlind are seats (the blinds are NoSeat in stud).
	Button, SmallBlind, BigBlind int
	Street                       Street
	Board                        []cards.Card
	Seats                        []SeatView
	// Pot is every chip put in so far, this round's bets included; Pots the main
	// and side pots as of the end of the last betting round.
	Pot  int64
	Pots []PotView
	// ToAct is the seat to act or NoSeat; Legal is filled in when it is the viewer.
	ToAct int
	Legal Legal
	Over  bool
	// Events is the hand's event log as the viewer may see it.
	Events []Event
}

// View returns what seat may know. A seat number outside the table gives the
// spectator's view. It allocates the view's slices; ViewInto reuses them.
func (h *Hand) View(seat int) View {
	var v View
	h.ViewInto(seat, &v)
	return v
}

// ViewInto fills v with what seat may know, as View returns it, reusing v's slices
// (Board, Seats, Pots, Events) so that a caller who keeps one View for many
// decisions allocates nothing once they have grown. Every field of v is
// overwritten; the slices' old contents are not kept. A seat number outside the
// table gives the spectator's view.
func (h *Hand) ViewInto(seat int, v *View) {
	if seat < 0 || seat >= h.s.n {
		seat = Spectator
	}
	*v = View{
		Viewer: seat, Variant: h.s.variant, Structure: h.s.structure,
		Button: h.s.button, SmallBlind: h.sbSeat, BigBlind: h.bbSeat,
		Street: h.street, Board: append(v.Board[:0], h.board[:h.nBoard]...),
		Seats: v.Seats[:0], Pot: h.potTotal(), ToAct: h.toAct,
		Legal: Legal{Seat: NoSeat}, Over: h.over,
		Pots:   v.Pots[:0],
		Events: h.appendEventsFor(v.Events[:0], seat, 0),
	}
	if v.Seats == nil {
		v.Seats = make([]SeatView, 0, h.s.n)
	}
	for i := 0; i < h.s.n; i++ {
		s := &h.seats[i]
		sv := SeatView{InHand: s.status != statusOut, Folded: s.status == statusFolded, AllIn: s.allIn,
			Left: s.left, Shown: s.shown, Stack: s.stack, Bet: s.bet, Total: s.total, NCards: int(s.ncards)}
		for r := 0; r < 3; r++ {
			sv.Cards[r] = cards.NoCard
			if r < int(s.ncards) && h.visible(seat, i, r) {
				sv.Cards[r] = s.cards[r]
			}
		}
		v.Seats = append(v.Seats, sv)
	}
	for k := 0; k < h.nPots; k++ {
		v.Pots = append(v.Pots, PotView{Amount: h.pots[k].amount, Eligible: h.pots[k].eligible})
	}
	if seat != Spectator && seat == h.toAct {
		v.Legal = h.Legal()
	}
}

// SpectatorView returns what someone without a seat may know.
func (h *Hand) SpectatorView() View { return h.View(Spectator) }

// visible reports whether viewer may see card r of seat i.
func (h *Hand) visible(viewer, i, r int) bool {
	if viewer == i || h.seats[i].shown {
		return true
	}
	return h.s.variant == StudThree && r > 0 // stud up cards
}

// EventsFor returns the events from index `from` on as viewer (a seat, or Spectator)
// may see them: hole cards of other seats and burned cards are replaced by
// cards.NoCard. A client that saw events up to index k resumes with from = k+1.
func (h *Hand) EventsFor(viewer, from int) []Event {
	return h.appendEventsFor(nil, viewer, from)
}

// appendEventsFor appends EventsFor(viewer, from) to dst and returns the result
// (nil when dst is nil and there is nothing to append).
func (h *Hand) appendEventsFor(dst []Event, viewer, from int) []Event {
	if from < 0 {
		from = 0
	}
	if from >= len(h.events) {
		return dst
	}
	base := len(dst)
	dst = append(dst, h.events[from:]...)
	out := dst[base:]
	for k := range out {
		e := &out[k]
		switch e.Kind {
		case EvBurn:
			e.Cards = [3]cards.Card{cards.NoCard, cards.NoCard, cards.NoCard}
		case EvHoleCards:
			if int(e.Seat) != viewer {
				e.Cards = [3]cards.Card{cards.NoCard, cards.NoCard, cards.NoCard}
			}
		}
	}
	return dst
}
