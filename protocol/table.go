package protocol

// The messages of a table, as docs/protocol.md describes them. They are built
// for one recipient: every card that recipient may not see is "??" already.

// Schedule raises the blinds (and ante): they double at each level. A level
// passes every EveryHands hands dealt or every EveryMinutes minutes of play,
// whichever comes first; zero turns either off.
type Schedule struct {
	EveryHands   int `json:"every_hands"`
	EveryMinutes int `json:"every_minutes"`
}

// Info is a table's lobby listing (TableInfo in docs/protocol.md).
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
	// Straddle and RunItTwice are the table's settings.
	Straddle   bool `json:"straddle,omitempty"`
	RunItTwice bool `json:"run_it_twice,omitempty"`
	// Private tables are left out of the lobby's list; never sent.
	Private bool `json:"-"`
	// Tournament is the id of the tournament the table belongs to (0: none).
	Tournament int64 `json:"tournament,omitempty"`
	// Locked is the kind of the table's lock ("password"; an invitation's
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

// State is the whole table as one recipient may see it (TableState in
// docs/protocol.md).
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
	// Return, sent to a recipient without a seat who left one at this cash
	// table with more than its minimum buy-in less than its return window
	// ago, is the buy-in they may sit down with until then (docs/rules.md,
	// "Coming back with the stack you left with").
	Return *Return `json:"return,omitempty"`
}

// Return is the buy-in of a player back at a table within its return
// window: from MinBuyIn (the stack they left with) to MaxBuyIn (the
// table's maximum, or that stack if larger), for RemainingMS more.
type Return struct {
	MinBuyIn    int64 `json:"min_buy_in"`
	MaxBuyIn    int64 `json:"max_buy_in"`
	RemainingMS int64 `json:"remaining_ms"`
}

// MyTurn reports whether the recipient is to act in s.
func (s *State) MyTurn() bool {
	return s.You != nil && s.Hand != nil && !s.Hand.Over && s.Hand.Legal != nil && s.Hand.ToAct == s.You.Seat
}

// Mine returns the recipient's own seat in s, or nil.
func (s *State) Mine() *SeatInfo {
	if s.You == nil {
		return nil
	}
	for i := range s.Seats {
		if s.Seats[i].Seat == s.You.Seat {
			return &s.Seats[i]
		}
	}
	return nil
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
	// Straddle and RunTwice are the player's choices (the "options"
	// message), where the table allows them.
	Straddle bool `json:"straddle,omitempty"`
	RunTwice bool `json:"run_twice,omitempty"`
	// WaitBigBlind: the player is dealt in only when the big blind reaches
	// their seat (back from sitting out, or at the table again soon after
	// leaving it: docs/rules.md, "Live tables").
	WaitBigBlind bool `json:"wait_big_blind,omitempty"`
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
	Cards     []string `json:"cards,omitempty"` // Hidden for a card the recipient may not see
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
	SeedSHA256     string      `json:"seed_sha256"` // the commitment to the seed, before any card
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
	Actions    []string `json:"actions"` // of "fold", "check", "call", "bet", "raise"
	Call       int64    `json:"call"`    // chips a call adds
	MinTo      int64    `json:"min_to"`  // the least a bet or raise may bring the bet to
	MaxTo      int64    `json:"max_to"`  // the most (all in)
	Committed  int64    `json:"committed"`
	CurrentBet int64    `json:"current_bet"`
	Stack      int64    `json:"stack"`
}

// Can reports whether kind is among the legal actions.
func (l *LegalInfo) Can(kind string) bool {
	for _, a := range l.Actions {
		if a == kind {
			return true
		}
	}
	return false
}

// Clock is the action clock of the seat to act: RemainingMS until it times out,
// of which BankMS is its time bank.
type Clock struct {
	Seat        int   `json:"seat"`
	RemainingMS int64 `json:"remaining_ms"`
	BankMS      int64 `json:"bank_ms"`
}

// EventInfo is one event of the hand (docs/protocol.md, "Event kinds").
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
