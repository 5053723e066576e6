package table

import (
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/eval"
)

// The messages a table sends, as docs/protocol.md describes them. They are built
// for one recipient: every card that recipient may not see is "??" already.

// Info is a table's lobby listing.
type Info struct {
	Name          string   `json:"name"`
	Variant       string   `json:"variant"`
	Seats         int      `json:"seats"`
	Taken         int      `json:"taken"`
	Players       []string `json:"players"`
	SmallBlind    int64    `json:"small_blind"`
	BigBlind      int64    `json:"big_blind"`
	Ante          int64    `json:"ante"`
	MinBuyIn      int64    `json:"min_buy_in"`
	MaxBuyIn      int64    `json:"max_buy_in"`
	Level         int      `json:"level"`
	Schedule      Schedule `json:"schedule"`
	ActionSeconds int      `json:"action_seconds"`
	Showcase      bool     `json:"showcase"`
	HeadsUp       bool     `json:"heads_up"`
	Spectators    int      `json:"spectators"`
	// Waiting is how many players are on the waiting list.
	Waiting int `json:"waiting,omitempty"`
	// Straddle and RunItTwice are the table's settings (Config).
	Straddle   bool `json:"straddle,omitempty"`
	RunItTwice bool `json:"run_it_twice,omitempty"`
	// Private tables are left out of the lobby's list.
	Private bool `json:"-"`
	// Tournament is the id of the tournament the table belongs to (0: none).
	Tournament int64 `json:"tournament,omitempty"`
	// Locked is the kind of the table's lock (LockPassword; an invitation's
	// table is not listed), or "".
	Locked string `json:"locked,omitempty"`
}

// StateMsg is the {"type":"state"} message.
type StateMsg struct {
	Type  string `json:"type"`
	State *State `json:"state"`
}

// NoticeMsg is the {"type":"notice"} message: something that happened to the
// recipient at a table.
type NoticeMsg struct {
	Type    string `json:"type"`
	Table   string `json:"table"`
	Code    string `json:"code"`
	Text    string `json:"text"`
	Amount  *int64 `json:"amount,omitempty"`
	Credits *int64 `json:"credits,omitempty"`
}

// State is the whole table as one recipient may see it.
type State struct {
	Table      string     `json:"table"`
	Info       Info       `json:"info"`
	You        *You       `json:"you"`
	Seats      []SeatInfo `json:"seats"`
	Hand       *HandState `json:"hand"`
	Spectators int        `json:"spectators"`
	// Waitlist names the players waiting for a seat, first in line first;
	// Offer is the seat held for the first of them, if any.
	Waitlist []string `json:"waitlist,omitempty"`
	Offer    *Offer   `json:"offer,omitempty"`
}

// Offer is a seat held for the first player on the waiting list.
type Offer struct {
	Seat        int    `json:"seat"`
	Name        string `json:"name"`
	RemainingMS int64  `json:"remaining_ms"`
}

// You is the recipient's own seat.
type You struct {
	Seat       int    `json:"seat"`
	Status     string `json:"status"`
	TimeBankMS int64  `json:"time_bank_ms"`
	SittingOut bool   `json:"sitting_out"`
	Leaving    bool   `json:"leaving"`
	// Straddle and RunTwice are the player's choices (Options), where the
	// table allows them.
	Straddle bool `json:"straddle,omitempty"`
	RunTwice bool `json:"run_twice,omitempty"`
}

// Seat statuses.
const (
	StatusEmpty      = "empty"
	StatusWaiting    = "waiting"
	StatusPlaying    = "playing"
	StatusSittingOut = "sitting_out"
	StatusAway       = "away"
	StatusLeaving    = "leaving"
)

// SeatInfo is one seat.
type SeatInfo struct {
	Seat      int      `json:"seat"`
	Name      string   `json:"name,omitempty"`
	Bot       bool     `json:"bot,omitempty"`
	Status    string   `json:"status"`
	Connected bool     `json:"connected,omitempty"`
	Stack     int64    `json:"stack"`
	InHand    bool     `json:"in_hand,omitempty"`
	Folded    bool     `json:"folded,omitempty"`
	AllIn     bool     `json:"all_in,omitempty"`
	Bet       int64    `json:"bet,omitempty"`
	Total     int64    `json:"total,omitempty"`
	Cards     []string `json:"cards,omitempty"`
	Button    bool     `json:"button,omitempty"`
}

// HandState is the hand in play, or the last one until the next starts.
type HandState struct {
	Number         int64       `json:"number"`
	Street         string      `json:"street"`
	Button         int         `json:"button"`
	SmallBlindSeat int         `json:"small_blind_seat"`
	BigBlindSeat   int         `json:"big_blind_seat"`
	SmallBlind     int64       `json:"small_blind"`
	BigBlind       int64       `json:"big_blind"`
	Ante           int64       `json:"ante"`
	Board          []string    `json:"board"`
	SecondBoard    []string    `json:"second_board,omitempty"` // a board run twice: the second run's
	Pot            int64       `json:"pot"`
	Pots           []PotInfo   `json:"pots"`
	ToAct          int         `json:"to_act"`
	Legal          *LegalInfo  `json:"legal,omitempty"`
	Clock          *Clock      `json:"clock,omitempty"`
	HandKey        string      `json:"hand_key"`    // the table's reference and the hand's number
	SeedSHA256     string      `json:"seed_sha256"` // history.SeedCommitment(HandKey, seed), before any card
	Events         []EventInfo `json:"events"`
	Over           bool        `json:"over"`
	Result         *ResultInfo `json:"result"`
	ID             int64       `json:"id,omitempty"` // the stored hand's id, once recorded
}

// PotInfo is one pot and the seats contesting it.
type PotInfo struct {
	Amount int64 `json:"amount"`
	Seats  []int `json:"seats"`
}

// LegalInfo is what the recipient, to act, may do.
type LegalInfo struct {
	Actions    []string `json:"actions"`
	Call       int64    `json:"call"`
	MinTo      int64    `json:"min_to"`
	MaxTo      int64    `json:"max_to"`
	Committed  int64    `json:"committed"`
	CurrentBet int64    `json:"current_bet"`
	Stack      int64    `json:"stack"`
}

// Clock is the action clock of the seat to act: RemainingMS until it times out,
// of which BankMS is its time bank.
type Clock struct {
	Seat        int   `json:"seat"`
	RemainingMS int64 `json:"remaining_ms"`
	BankMS      int64 `json:"bank_ms"`
}

// EventInfo is one event of the hand.
type EventInfo struct {
	I      int      `json:"i"`
	Kind   string   `json:"kind"`
	Street string   `json:"street,omitempty"`
	Seat   *int     `json:"seat,omitempty"`
	Pot    *int     `json:"pot,omitempty"`
	Amount int64    `json:"amount,omitempty"`
	To     int64    `json:"to,omitempty"`
	AllIn  bool     `json:"all_in,omitempty"`
	Forced bool     `json:"forced,omitempty"`
	Share  string   `json:"share,omitempty"`
	Cards  []string `json:"cards,omitempty"`
	Seats  []int    `json:"seats,omitempty"`
	Name   string   `json:"name,omitempty"`
}

// ResultInfo is a finished hand's outcome.
type ResultInfo struct {
	Net    []int64     `json:"net"`
	Stacks []int64     `json:"stacks"`
	Board  []string    `json:"board"`
	Pots   []PotResult `json:"pots"`
	Shown  []Shown     `json:"shown"`
}

// PotResult is one pot and its awards.
type PotResult struct {
	Amount int64   `json:"amount"`
	Seats  []int   `json:"seats"`
	Awards []Award `json:"awards"`
}

// Award is chips won from a pot.
type Award struct {
	Seat   int    `json:"seat"`
	Amount int64  `json:"amount"`
	Share  string `json:"share"`
}

// Shown is a hand shown at showdown.
type Shown struct {
	Seat  int      `json:"seat"`
	Cards []string `json:"cards"`
	Name  string   `json:"name"`
	// Best is the cards that make the hand: the best five of the hole cards
	// and the board in Hold'em, the three cards in three card stud.
	Best []string `json:"best"`
}

// Hidden is how a card the recipient may not see is written.
const Hidden = "??"

func cardText(c cards.Card) string {
	if c == cards.NoCard {
		return Hidden
	}
	return c.String()
}

func cardsText(cs []cards.Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = cardText(c)
	}
	return out
}

var eventKinds = [...]string{
	engine.EvHandStart: "hand_start", engine.EvAnte: "ante", engine.EvSmallBlind: "small_blind",
	engine.EvBigBlind: "big_blind", engine.EvHoleCards: "hole_cards", engine.EvUpCard: "up_card",
	engine.EvBurn: "burn", engine.EvStreet: "street", engine.EvBoard: "board", engine.EvFold: "fold",
	engine.EvCheck: "check", engine.EvCall: "call", engine.EvBet: "bet", engine.EvRaise: "raise",
	engine.EvLeave: "leave", engine.EvUncalled: "uncalled", engine.EvPot: "pot", engine.EvShow: "show",
	engine.EvMuck: "muck", engine.EvAward: "award", engine.EvHandEnd: "hand_end",
	engine.EvStraddle: "straddle", engine.EvSecondRun: "second_run",
}

var streetNames = [...]string{
	engine.Preflop: "preflop", engine.Flop: "flop", engine.Turn: "turn", engine.River: "river",
	engine.StudOne: "stud_one", engine.StudTwo: "stud_two", engine.Showdown: "showdown",
}

func streetText(s engine.Street) string {
	if int(s) < len(streetNames) {
		return streetNames[s]
	}
	return s.String()
}

func shareText(s engine.Share) string {
	switch s {
	case engine.PokerHalf:
		return "poker_half"
	case engine.SpadeHalf:
		return "spade_half"
	case engine.FirstRun:
		return "first_run"
	case engine.SecondRun:
		return "second_run"
	}
	return "whole"
}

var actionNames = [...]string{
	engine.Fold: "fold", engine.Check: "check", engine.Call: "call", engine.Bet: "bet", engine.Raise: "raise",
}

// ParseAction reads an action kind as clients write it.
func ParseAction(s string) (engine.ActionKind, bool) {
	for k, n := range actionNames {
		if n == s {
			return engine.ActionKind(k), true
		}
	}
	return 0, false
}

func legalInfo(l engine.Legal) *LegalInfo {
	li := &LegalInfo{Call: l.CallAmount, MinTo: l.MinTo, MaxTo: l.MaxTo, Committed: l.Committed, CurrentBet: l.CurrentBet, Stack: l.Stack}
	for k, n := range actionNames {
		if l.Can(engine.ActionKind(k)) {
			li.Actions = append(li.Actions, n)
		}
	}
	return li
}

// eventInfo converts e; burns are never sent (ok is false).
func eventInfo(e engine.Event, names map[int]string) (EventInfo, bool) {
	if e.Kind == engine.EvBurn {
		return EventInfo{}, false
	}
	ei := EventInfo{I: e.Index, Amount: e.Amount, To: e.To, AllIn: e.AllIn, Forced: e.Forced}
	if int(e.Kind) < len(eventKinds) {
		ei.Kind = eventKinds[e.Kind]
	} else {
		ei.Kind = e.Kind.String()
	}
	if e.Seat >= 0 {
		s := int(e.Seat)
		ei.Seat = &s
	}
	switch e.Kind {
	case engine.EvStreet:
		ei.Street = streetText(e.Street)
	case engine.EvPot:
		p := int(e.Pot)
		ei.Pot = &p
		ei.Seats = e.Seats.Seats()
	case engine.EvAward:
		p := int(e.Pot)
		ei.Pot = &p
		ei.Share = shareText(e.Share)
	case engine.EvShow:
		ei.Name = names[int(e.Seat)]
	}
	if e.NCards > 0 {
		ei.Cards = cardsText(e.Cards[:e.NCards])
	}
	return ei, true
}

func resultInfo(r engine.Result, variant engine.Variant) *ResultInfo {
	ri := &ResultInfo{Net: r.Net, Stacks: r.Stacks, Board: cardsText(r.Board), Pots: []PotResult{}, Shown: []Shown{}}
	for _, p := range r.Pots {
		pr := PotResult{Amount: p.Amount, Seats: p.Eligible.Seats(), Awards: []Award{}}
		for _, a := range p.Awards {
			pr.Awards = append(pr.Awards, Award{Seat: a.Seat, Amount: a.Amount, Share: shareText(a.Share)})
		}
		ri.Pots = append(ri.Pots, pr)
	}
	for _, s := range r.Shown {
		ri.Shown = append(ri.Shown, Shown{Seat: s.Seat, Cards: cardsText(s.Cards), Name: s.Name, Best: bestCards(s.Cards, r.Board, variant)})
	}
	return ri
}

// bestCards returns the cards that make a shown hand: in Hold'em the best five
// of its hole cards and the board (eval.Best, as the engine ranks them), in
// three card stud its three cards.
func bestCards(hole, board []cards.Card, variant engine.Variant) []string {
	all := append(append(make([]cards.Card, 0, len(hole)+len(board)), hole...), board...)
	if variant == engine.StudThree || len(all) < 5 || len(all) > 7 {
		return cardsText(hole)
	}
	_, five := eval.Best(all)
	return cardsText(five[:])
}
