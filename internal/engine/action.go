package engine

import "strconv"

// ActionKind is what a player does.
type ActionKind uint8

// The kinds of action. Bet opens the betting in a round (there is nothing to call);
// Raise increases a bet, and before the flop the big blind counts as the bet, so every
// increase there is a Raise. Leave removes a seat from the hand at any moment, not
// only on its turn (see Hand.Leave).
const (
	Fold ActionKind = iota
	Check
	Call
	Bet
	Raise
	Leave
	numActionKinds
)

var actionNames = [...]string{"fold", "check", "call", "bet", "raise", "leave"}

// String names the kind: "fold", "check", "call", "bet", "raise" or "leave".
func (k ActionKind) String() string {
	if int(k) < len(actionNames) {
		return actionNames[k]
	}
	return "action(" + strconv.Itoa(int(k)) + ")"
}

// Action is one decision of one seat.
type Action struct {
	Seat int
	Kind ActionKind
	// Amount is, for Bet and Raise, the total the seat's bet in this round is brought
	// to ("raise to"), not the chips added. For Call it is 0 or Legal.CallAmount; for
	// the other kinds it must be 0.
	Amount int64
}

// String writes the action as "seat 3 raise 120".
func (a Action) String() string {
	s := "seat " + strconv.Itoa(a.Seat) + " " + a.Kind.String()
	if a.Kind == Bet || a.Kind == Raise {
		s += " " + strconv.FormatInt(a.Amount, 10)
	}
	return s
}

// KindSet is a set of action kinds.
type KindSet uint8

// Has reports whether k is in the set.
func (s KindSet) Has(k ActionKind) bool { return s&(1<<k) != 0 }

func (s KindSet) with(k ActionKind) KindSet { return s | 1<<k }

// String lists the kinds, such as "fold,call,raise".
func (s KindSet) String() string {
	out := ""
	for k := Fold; k < numActionKinds; k++ {
		if s.Has(k) {
			if out != "" {
				out += ","
			}
			out += k.String()
		}
	}
	return out
}

// Legal says what the seat to act may do now. Leave is not listed: it is always
// allowed for a seat still in the hand.
type Legal struct {
	// Seat is the seat to act, or NoSeat when nobody is (Kinds is then empty).
	Seat int
	// Kinds holds the allowed kinds among Fold, Check, Call, Bet and Raise.
	Kinds KindSet
	// CallAmount is the chips a Call adds: the amount to call, or the whole stack when
	// that is less (an all-in call).
	CallAmount int64
	// MinTo and MaxTo bound Action.Amount for a Bet or Raise (both inclusive). When
	// the seat cannot make a full bet or raise, both are its all-in amount.
	MinTo, MaxTo int64
	// Committed is what the seat has already bet in this round, CurrentBet the bet to
	// match, Stack the seat's chips not yet bet.
	Committed, CurrentBet, Stack int64
}

// Can reports whether kind k is allowed.
func (l Legal) Can(k ActionKind) bool { return l.Kinds.Has(k) }

// Put returns the action that puts n more chips in the pot now, as the Casino Day and
// ACPC protocols express a decision ("bet:n"): n equal to the amount to call is a check
// or call, more is a bet or raise to Committed+n. It reports false when no legal action
// puts exactly n chips in.
func (l Legal) Put(n int64) (Action, bool) {
	a := Action{Seat: l.Seat}
	toCall := l.CurrentBet - l.Committed
	switch {
	case n == 0 && l.Can(Check):
		a.Kind = Check
	case n == l.CallAmount && n > 0 && l.Can(Call):
		a.Kind = Call
	case n > toCall && l.Can(Bet) && l.Committed+n >= l.MinTo && l.Committed+n <= l.MaxTo:
		a.Kind, a.Amount = Bet, l.Committed+n
	case n > toCall && l.Can(Raise) && l.Committed+n >= l.MinTo && l.Committed+n <= l.MaxTo:
		a.Kind, a.Amount = Raise, l.Committed+n
	default:
		return a, false
	}
	return a, true
}
