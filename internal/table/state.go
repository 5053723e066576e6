package table

import (
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/eval"
	"github.com/felt-poker/felt/protocol"
)

// The messages a table sends are package protocol's (docs/protocol.md); these
// aliases keep their old names here.
type (
	Info       = protocol.Info
	StateMsg   = protocol.StateMsg
	NoticeMsg  = protocol.NoticeMsg
	State      = protocol.State
	Offer      = protocol.Offer
	Return     = protocol.Return
	You        = protocol.You
	SeatInfo   = protocol.SeatInfo
	HandState  = protocol.HandState
	PotInfo    = protocol.PotInfo
	LegalInfo  = protocol.LegalInfo
	Clock      = protocol.Clock
	EventInfo  = protocol.EventInfo
	ResultInfo = protocol.ResultInfo
	PotResult  = protocol.PotResult
	Award      = protocol.Award
	Shown      = protocol.Shown
)

// Seat statuses.
const (
	StatusEmpty      = protocol.StatusEmpty
	StatusWaiting    = protocol.StatusWaiting
	StatusPlaying    = protocol.StatusPlaying
	StatusSittingOut = protocol.StatusSittingOut
	StatusAway       = protocol.StatusAway
	StatusLeaving    = protocol.StatusLeaving
)

// Hidden is how a card the recipient may not see is written.
const Hidden = protocol.Hidden

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
