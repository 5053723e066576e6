package engine

import (
	"math/bits"
	"strconv"

	"github.com/felt-poker/felt/internal/cards"
)

// Street is a betting round of a hand, or its end.
type Street uint8

// The streets. Hold'em uses Preflop to River; three card stud uses StudOne (after the
// hole and first up card) and StudTwo (after the second up card). Showdown marks the end.
const (
	Preflop Street = iota
	Flop
	Turn
	River
	StudOne
	StudTwo
	Showdown
)

var streetNames = [...]string{"preflop", "flop", "turn", "river", "round one", "round two", "showdown"}

// String names the street.
func (s Street) String() string {
	if int(s) < len(streetNames) {
		return streetNames[s]
	}
	return "street(" + strconv.Itoa(int(s)) + ")"
}

// SeatSet is a set of seats as a bit mask (bit i is seat i).
type SeatSet uint16

// Has reports whether seat i is in the set.
func (s SeatSet) Has(i int) bool { return i >= 0 && i < 16 && s&(1<<i) != 0 }

// Len returns the number of seats in the set.
func (s SeatSet) Len() int { return bits.OnesCount16(uint16(s)) }

// Seats lists the seats in ascending order.
func (s SeatSet) Seats() []int {
	out := make([]int, 0, s.Len())
	for i := 0; i < 16; i++ {
		if s.Has(i) {
			out = append(out, i)
		}
	}
	return out
}

// EventKind says what an Event records.
type EventKind uint8

// The events of a hand, in the order they may happen.
const (
	// EvHandStart: Seat is the button, Amount the number of seats.
	EvHandStart EventKind = iota
	// EvAnte, EvSmallBlind, EvBigBlind: Seat posted Amount (AllIn if that was all).
	EvAnte
	EvSmallBlind
	EvBigBlind
	// EvHoleCards: Seat was dealt face-down Cards[:NCards] (private to that seat).
	EvHoleCards
	// EvUpCard: Seat was dealt Cards[0] face up (stud).
	EvUpCard
	// EvBurn: Cards[0] was burned (never shown to anyone).
	EvBurn
	// EvStreet: a new betting round, Street, begins.
	EvStreet
	// EvBoard: Cards[:NCards] were dealt to the board.
	EvBoard
	// EvFold, EvCheck, EvCall, EvBet, EvRaise: Seat acted; Amount is the chips added,
	// To the seat's bet in this round afterwards. Forced marks a stud forced fold.
	EvFold
	EvCheck
	EvCall
	EvBet
	EvRaise
	// EvLeave: Seat left the hand (it is folded unless it was all-in).
	EvLeave
	// EvUncalled: Amount of Seat's bet was not called and went back to it.
	EvUncalled
	// EvPot: pot number Pot (0 is the main pot) holds Amount, contested by Seats.
	EvPot
	// EvShow: Seat showed Cards[:NCards], a hand of value Rank (eval.Rank in Hold'em,
	// eval.StudRank in stud).
	EvShow
	// EvMuck: Seat threw its hand away unseen.
	EvMuck
	// EvAward: Seat won Amount from pot Pot; Share says which part.
	EvAward
	// EvHandEnd: the hand is over.
	EvHandEnd
	// EvStraddle: Seat, under the gun, posted a straddle of Amount (twice the
	// big blind) before the cards (Config.Straddlers).
	EvStraddle
	// EvSecondRun: the board is dealt a second time (Config.RunTwice): the
	// EvBurn and EvBoard events after it are the second run's, whose board is
	// the cards dealt before the run-out and these.
	EvSecondRun
	numEventKinds
)

var eventNames = [...]string{"hand start", "ante", "small blind", "big blind", "hole cards", "up card", "burn",
	"street", "board", "fold", "check", "call", "bet", "raise", "leave", "uncalled bet returned", "pot",
	"show", "muck", "award", "hand end", "straddle", "second run"}

// String names the event kind.
func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return "event(" + strconv.Itoa(int(k)) + ")"
}

// Share says which part of a pot an award is.
type Share uint8

// The parts of a pot.
const (
	WholePot  Share = iota // the pot (or a split of it) for the best hand
	PokerHalf              // stud: the half for the best poker hand
	SpadeHalf              // stud: the half for the highest spade in the hole
	FirstRun               // run twice: the first run's half of the pot
	SecondRun              // run twice: the second run's half of the pot
)

// Event is one thing that happened in a hand. Index numbers the events of a hand from
// 0 so that a client can ask for everything after the last one it saw. Fields a kind
// does not use are zero (Seat is NoSeat, unused Cards are cards.NoCard).
type Event struct {
	Index  int
	Kind   EventKind
	Street Street
	Seat   int8
	Pot    int8
	AllIn  bool
	Forced bool
	Share  Share
	NCards uint8
	Cards  [3]cards.Card
	Rank   uint16
	Seats  SeatSet
	Amount int64
	To     int64
}

// String writes the event for logs and tests, such as "#12 raise seat 3 +100 to 120".
// It shows every card it holds: build it from a view's events for a player.
func (e Event) String() string {
	s := "#" + strconv.Itoa(e.Index) + " " + e.Kind.String()
	if e.Kind == EvStreet {
		s += " " + e.Street.String()
	}
	if e.Seat != NoSeat {
		s += " seat " + strconv.Itoa(int(e.Seat))
	}
	if e.Kind == EvPot || e.Kind == EvAward {
		s += " pot " + strconv.Itoa(int(e.Pot))
	}
	for i := 0; i < int(e.NCards); i++ {
		s += " " + e.Cards[i].String()
	}
	if e.Amount != 0 {
		s += " " + strconv.FormatInt(e.Amount, 10)
	}
	if e.To != 0 {
		s += " to " + strconv.FormatInt(e.To, 10)
	}
	if e.AllIn {
		s += " all-in"
	}
	return s
}
