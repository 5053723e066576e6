package engine

import (
	"fmt"
	"math/bits"

	"github.com/felt-poker/felt/internal/cards"
)

// seatStatus says whether a seat is in the hand.
type seatStatus uint8

const (
	statusOut    seatStatus = iota // not dealt in (no chips, or cannot ante in stud)
	statusLive                     // holds cards (possibly all-in)
	statusFolded                   // folded, forced to fold, or left
)

// seat is one seat's state in a hand.
type seat struct {
	start   int64 // chips at the start of the hand
	stack   int64 // chips not yet put in
	bet     int64 // put in during this betting round
	total   int64 // put in during this hand (antes, blinds, bets)
	facedAt int64 // the bet to match just after this seat last acted (no-limit reopening)
	won     int64 // chips won from pots
	cards   [3]cards.Card
	ncards  uint8
	status  seatStatus
	allIn   bool
	acted   bool // has acted in this betting round
	shown   bool
	mucked  bool
	left    bool
	seen    int8   // the fixed-limit bet count just after this seat last acted
	rank    uint16 // hand value at showdown
}

// pot is a main or side pot.
type pot struct {
	amount   int64
	eligible SeatSet
}

// Hand is the state of one hand. Create it with New, reuse it with Reset; it holds
// everything in fixed-size arrays so that playing a hand does not allocate. A Hand is
// not safe for concurrent use; give each goroutine its own (see Clone).
type Hand struct {
	s     settings
	deck  *cards.Deck
	stub  [cards.NumCards]cards.Card // the cards this hand may deal, in deck order
	nstub int
	next  int // stub[:next] have been dealt

	seats  [MaxSeats]seat
	board  [5]cards.Card
	nBoard int
	street Street
	toAct  int
	sbSeat int
	bbSeat int
	// strSeat is the seat that straddled, or NoSeat.
	strSeat int
	// twice: the board is run twice (Config.RunTwice); runFrom is how many board
	// cards were out when the betting closed, board2 the second run's board.
	twice   bool
	runFrom int
	board2  [5]cards.Card
	nBoard2 int

	currentBet int64   // the bet to match in this round
	lastRaise  int64   // largest full bet or raise in this round (no limit, pot limit)
	fullLevel  int64   // the bet as of the last counted bet or raise (fixed limit)
	count      int     // counted bets in this round (fixed limit; the big blind counts)
	aggressor  int     // last seat to bet or raise in this round, or NoSeat
	nLive      int     // live seats (holding cards, all-in or not)
	live       SeatSet // the live seats
	nCanAct    int     // live seats that are not all-in
	active     SeatSet // the live seats that are not all-in
	actedSet   SeatSet // the seats that have acted in this betting round
	owe        SeatSet // the seats whose bet is below currentBet
	pot        int64   // every chip put in, this round's bets included
	legal      Legal   // what the seat to act may do
	runOut     bool    // the board was dealt with no more betting possible
	over       bool

	pots    [MaxSeats]pot
	nPots   int
	events  []Event
	actions []Action
}

// New returns a hand dealt from cfg, ready for the first action (or already over when
// nobody can act). The error wraps ErrBadConfig.
func New(cfg Config) (*Hand, error) {
	h := &Hand{events: make([]Event, 0, 128), actions: make([]Action, 0, 64)} // room for long hands
	if err := h.Reset(cfg); err != nil {
		return nil, err
	}
	return h, nil
}

// Reset starts a new hand from cfg in h, reusing its memory: it does not allocate once
// h's event log has grown to the size a hand needs. On error h is unchanged.
func (h *Hand) Reset(cfg Config) error {
	var s settings
	var stacks [MaxSeats]int64
	if err := cfg.settle(&s, &stacks); err != nil {
		return err
	}
	var live SeatSet // the seats dealt in
	for i := 0; i < s.n; i++ {
		if stacks[i] > 0 && (s.variant != StudThree || stacks[i] >= s.ante) {
			live |= 1 << i
		}
	}
	players := live.Len()
	need := 2*players + 8 // hole cards, three burns, five board cards
	if s.variant == StudThree {
		need = 3 * players
	} else if s.runTwice != 0 {
		need += 8 // a second run: up to three burns and five board cards
	}
	if s.deck != nil {
		if len(s.deck) < need {
			return fmt.Errorf("%w: deck of %d cards; this hand may deal %d", ErrBadConfig, len(s.deck), need)
		}
		copy(h.stub[:], s.deck[:need])
		s.deck = nil // do not keep the caller's slice
	} else {
		if h.deck == nil {
			h.deck = cards.NewDeck(s.seed)
		} else {
			h.deck.Reset(s.seed)
		}
		h.deck.DealTo(h.stub[:need]) // need <= 52: it always deals
	}
	h.nstub = need
	h.next = 0
	h.nLive = players
	h.nCanAct = players
	h.pot = 0
	used := max(h.s.n, s.n) // seats beyond both the old and new tables are already zero
	h.s = s
	h.live = live
	for i := 0; i < used; i++ {
		st := &h.seats[i]
		*st = seat{} // zeroed in place; a literal with fields would be built and copied
		st.start = stacks[i]
		st.stack = stacks[i]
		st.cards = noCards
		if live.Has(i) {
			st.status = statusLive
		}
	}
	h.active = h.live
	h.actedSet = 0
	h.owe = 0
	h.board = [5]cards.Card{cards.NoCard, cards.NoCard, cards.NoCard, cards.NoCard, cards.NoCard}
	h.nBoard = 0
	h.toAct = NoSeat
	h.sbSeat = NoSeat
	h.bbSeat = NoSeat
	h.strSeat = NoSeat
	h.twice = false
	h.runFrom = 0
	h.nBoard2 = 0
	h.aggressor = NoSeat
	h.currentBet = 0
	h.lastRaise = 0
	h.fullLevel = 0
	h.count = 0
	h.runOut = false
	h.over = false
	h.nPots = 0
	h.street = Preflop
	if s.variant == StudThree {
		h.street = StudOne
	}
	h.events = h.events[:0]
	h.actions = h.actions[:0]
	h.emit(EvHandStart, s.button).Amount = int64(s.n)
	if s.variant == StudThree {
		h.startStud()
	} else {
		h.startHoldem()
	}
	return nil
}

// Clone returns a deep copy of h that shares no memory with it.
func (h *Hand) Clone() *Hand {
	c := *h
	c.deck = nil // made again on the clone's next Reset
	c.events = append(make([]Event, 0, cap(h.events)), h.events...)
	c.actions = append(make([]Action, 0, cap(h.actions)), h.actions...)
	return &c
}

// draw deals the next card of the hand's deck.
func (h *Hand) draw() cards.Card {
	c := h.stub[h.next]
	h.next++
	return c
}

// emit appends an event of the given kind and seat (NoSeat for none), numbered and
// stamped with the street, and returns it for the caller to fill in.
//
// It writes the event in place, one field per statement: `*p = Event{...}` with
// fields set would be built on the stack and copied, and the CPU stalls when wide loads
// read back narrower stores just made (store forwarding fails); and a tuple assignment
// to fields through a pointer compiles to spilled addresses. The same holds for the
// other hot writes through pointers in this package.
func (h *Hand) emit(kind EventKind, seat int) *Event {
	n := len(h.events)
	if n < cap(h.events) {
		h.events = h.events[:n+1]
	} else {
		h.events = append(h.events, Event{})
	}
	p := &h.events[n]
	*p = Event{}
	p.Index = n
	p.Kind = kind
	p.Street = h.street
	p.Seat = int8(seat)
	p.Cards = noCards
	return p
}

// emitChips logs chips that seat put in or got back: Amount, the seat's bet To
// afterwards (0 where the kind does not use it) and whether it is now all-in.
func (h *Hand) emitChips(kind EventKind, seat int, amount, to int64, allIn bool) {
	p := h.emit(kind, seat)
	p.Amount = amount
	p.To = to
	p.AllIn = allIn
}

// emitCards logs n cards dealt or shown: c0, c1 and c2, of which those past the
// first n are cards.NoCard. (Cards come one by one: an array argument just written
// card by card would be read back whole, which stalls; see emit.)
func (h *Hand) emitCards(kind EventKind, seat int, n int, c0, c1, c2 cards.Card) *Event {
	p := h.emit(kind, seat)
	p.NCards = uint8(n)
	p.Cards[0] = c0
	p.Cards[1] = c1
	p.Cards[2] = c2
	return p
}

// emitCard logs one card dealt or burned.
func (h *Hand) emitCard(kind EventKind, seat int, c cards.Card) {
	p := h.emit(kind, seat)
	p.NCards = 1
	p.Cards[0] = c
}

var noCards = [3]cards.Card{cards.NoCard, cards.NoCard, cards.NoCard}

// fold takes seat i out of the hand.
func (h *Hand) fold(i int) {
	s := &h.seats[i]
	s.status = statusFolded
	h.live &^= 1 << i
	h.nLive--
	if !s.allIn {
		h.nCanAct--
		h.active &^= 1 << i
	}
}

// nextLive returns the first seat after i, clockwise, that is live (i itself if it is
// the only one), or NoSeat.
func (h *Hand) nextLive(i int) int {
	m := uint32(h.live)
	if after := m >> uint(i+1) << uint(i+1); after != 0 {
		return bits.TrailingZeros32(after)
	}
	if m != 0 {
		return bits.TrailingZeros32(m)
	}
	return NoSeat
}

func (h *Hand) liveCount() int { return h.nLive }

// canBeAnswered reports whether a bet or raise by seat i is one somebody could
// answer: whether some other seat still in the hand has chips beyond the bet to match
// (bet plus stack above it). Seats all-in, folded or gone cannot; nor can a seat whose
// whole stack does not cover the current bet, which may only call all-in whatever i
// does. This is PokerKit's rule (State._verify_completion_betting_or_raising).
func (h *Hand) canBeAnswered(i int) bool {
	m := uint32(h.active &^ (1 << i)) // all-in seats have nothing beyond their bet
	for m != 0 {
		s := &h.seats[bits.TrailingZeros32(m)]
		if s.bet+s.stack > h.currentBet {
			return true
		}
		m &= m - 1
	}
	return false
}

// mustAct returns the seats that must still act in this betting round: those live
// and not all-in that owe chips (bet below the bet to match), or that have not acted
// yet while someone else may still act (in stud, even if nobody else may).
func (h *Hand) mustAct() SeatSet {
	m := h.owe & h.active
	if h.s.variant == StudThree || h.nCanAct > 1 {
		m |= h.active &^ h.actedSet
	}
	return m
}

// setOwe recomputes h.owe after the bet to match has changed.
func (h *Hand) setOwe() {
	var owe SeatSet
	for i := 0; i < h.s.n; i++ {
		// bet < currentBet as a bit, without a branch (chip counts are far from overflow)
		owe |= SeatSet(uint64(h.seats[i].bet-h.currentBet)>>63) << i
	}
	h.owe = owe
}

// findNext returns the first seat from `from` clockwise that must act, or NoSeat.
func (h *Hand) findNext(from int) int {
	n := h.s.n
	for from >= n {
		from -= n
	}
	m := uint32(h.mustAct())
	if after := m >> uint(from) << uint(from); after != 0 {
		return bits.TrailingZeros32(after)
	}
	if m != 0 {
		return bits.TrailingZeros32(m)
	}
	return NoSeat
}

// post moves amount chips (at most the stack) from seat i into the pot; asBet says
// whether they count toward the round's bet (blinds, bets) or not (antes).
func (h *Hand) post(i int, amount int64, asBet bool) int64 {
	s := &h.seats[i]
	if amount > s.stack {
		amount = s.stack
	}
	s.stack -= amount
	s.total += amount
	h.pot += amount
	if asBet {
		s.bet += amount
		if s.bet >= h.currentBet {
			h.owe &^= 1 << i
		}
	}
	if s.stack == 0 && h.s.variant == Holdem && !s.allIn {
		s.allIn = true
		h.nCanAct--
		h.active &^= 1 << i
	}
	return amount
}

// advance moves the hand on from seat `from`: to the next seat to act, through the
// end of betting rounds and streets, to the end of the hand.
func (h *Hand) advance(from int) {
	for {
		if h.liveCount() <= 1 {
			h.finishUncontested()
			return
		}
		if i := h.findNext(from); i != NoSeat {
			s := &h.seats[i]
			if h.s.variant == StudThree && h.currentBet-s.bet > s.stack {
				// A stud player who cannot call must fold: there are no side pots.
				h.fold(i)
				e := h.emit(EvFold, i)
				e.To = s.bet
				e.Forced = true
				from = i + 1
				continue
			}
			h.toAct = i
			h.setLegal()
			return
		}
		h.endRound()
		if h.street == River || h.street == StudTwo {
			h.showdown()
			return
		}
		if h.s.variant == StudThree {
			from = h.startStudTwo()
		} else {
			from = h.nextStreet()
		}
	}
}

// endRound closes a betting round: returns an uncalled bet, clears the round's bets
// and records the pots.
func (h *Hand) endRound() {
	h.returnUncalled()
	for i := 0; i < h.s.n; i++ {
		s := &h.seats[i]
		s.bet = 0
		s.acted = false
		s.facedAt = 0
		s.seen = 0
	}
	h.actedSet = 0
	h.owe = 0
	h.currentBet = 0
	h.lastRaise = 0
	h.fullLevel = 0
	h.count = 0
	h.formPots()
	h.emitPots()
}

// finish ends the hand.
func (h *Hand) finish() {
	h.over = true
	h.toAct = NoSeat
	h.setLegal() // nobody to act: Seat NoSeat, no kinds
	h.emit(EvHandEnd, NoSeat)
}
