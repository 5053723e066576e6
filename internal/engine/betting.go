package engine

import "fmt"

// ToAct returns the seat to act, or NoSeat when nobody is (the hand is over).
func (h *Hand) ToAct() int { return h.toAct }

// Over reports whether the hand has ended.
func (h *Hand) Over() bool { return h.over }

// Legal returns what the seat to act may do. When nobody is to act it returns a
// Legal with Seat NoSeat and no kinds.
func (h *Hand) Legal() Legal { return h.legal }

// setLegal works out h.legal for the seat to act; advance calls it once per turn.
// It fills h.legal field by field, in place (see emit for why).
func (h *Hand) setLegal() {
	l := &h.legal
	*l = Legal{}
	i := h.toAct
	l.Seat = i
	if i == NoSeat {
		return
	}
	s := &h.seats[i]
	l.Committed = s.bet
	l.CurrentBet = h.currentBet
	l.Stack = s.stack
	toCall := h.currentBet - s.bet
	if toCall <= 0 {
		l.Kinds = KindSet(0).with(Fold).with(Check)
	} else {
		l.Kinds = KindSet(0).with(Fold).with(Call)
		l.CallAmount = min(toCall, s.stack)
	}
	allInTo := s.bet + s.stack
	raise := Raise
	if h.currentBet == 0 {
		raise = Bet
	}
	if h.s.variant == StudThree {
		lo, hi := h.currentBet+1, min(h.currentBet+h.s.studMax, allInTo)
		if hi >= lo {
			l.Kinds = l.Kinds.with(raise)
			l.MinTo = lo
			l.MaxTo = hi
		}
		return
	}
	if allInTo <= h.currentBet || !h.canBeAnswered(i) {
		return
	}
	var lo, hi int64
	if h.s.structure == FixedLimit {
		if s.acted && h.count <= int(s.seen) {
			return // nothing counted has happened since this seat acted
		}
		if h.s.raiseCap > 0 && h.count >= h.s.raiseCap {
			return
		}
		lo = min(h.fullLevel+h.betSize(), allInTo)
		hi = lo
	} else {
		inc := max(h.lastRaise, h.s.bb)
		if s.acted && h.currentBet-s.facedAt < inc {
			return // facing only a short all-in: no reopening
		}
		lo, hi = h.currentBet+inc, allInTo
		if h.s.structure == PotLimit {
			limit := h.currentBet + h.potTotal() + toCall
			hi = min(max(limit, lo), allInTo)
		}
		lo = min(lo, allInTo)
	}
	l.Kinds = l.Kinds.with(raise)
	l.MinTo = lo
	l.MaxTo = hi
}

// betSize is the fixed-limit bet of the current street.
func (h *Hand) betSize() int64 {
	if h.street >= Turn {
		return h.s.bigBet
	}
	return h.s.smallBet
}

// potTotal is every chip put in so far, this round's bets included.
func (h *Hand) potTotal() int64 { return h.pot }

// Apply plays one action. An illegal action returns an error wrapping ErrHandOver,
// ErrNotYourTurn, ErrIllegalAction, ErrBadAmount or ErrBadSeat and changes nothing.
func (h *Hand) Apply(a Action) error {
	// Fast path: a legal betting action by the seat to act (never true once the hand
	// is over: nobody is to act and no kind is legal). Leaving and every error go
	// through applyChecked, which keeps the error formatting out of this frame.
	l := &h.legal
	if a.Seat == h.toAct && a.Kind <= Raise && l.Kinds.Has(a.Kind) {
		ok := false
		switch a.Kind {
		case Fold, Check:
			ok = a.Amount == 0
		case Call:
			ok = a.Amount == 0 || a.Amount == l.CallAmount
		default: // Bet, Raise
			ok = a.Amount >= l.MinTo && a.Amount <= l.MaxTo
		}
		if ok {
			if a.Kind == Call {
				a.Amount = 0 // as recorded: the call, whatever amount it named
			}
			h.actions = append(h.actions, a)
			h.play(a)
			h.advance(a.Seat + 1)
			return nil
		}
	}
	return h.applyChecked(a)
}

// applyChecked is Apply with every check spelled out and an error for each; it
// handles Leave.
func (h *Hand) applyChecked(a Action) error {
	if h.over {
		return fmt.Errorf("%w: %v", ErrHandOver, a)
	}
	if a.Kind == Leave {
		return h.leave(a)
	}
	if a.Seat != h.toAct {
		if a.Seat < 0 || a.Seat >= h.s.n {
			return fmt.Errorf("%w: seat %d in %v (seats are 0..%d)", ErrBadSeat, a.Seat, a, h.s.n-1)
		}
		return fmt.Errorf("%w: seat %d tried to %s; seat %d is to act", ErrNotYourTurn, a.Seat, a.Kind, h.toAct)
	}
	l := &h.legal
	switch a.Kind {
	case Fold, Check, Call, Bet, Raise:
	default:
		return fmt.Errorf("%w: unknown action kind %d", ErrIllegalAction, a.Kind)
	}
	if !l.Kinds.Has(a.Kind) {
		return fmt.Errorf("%w: seat %d cannot %s now (allowed: %s)", ErrIllegalAction, a.Seat, a.Kind, l.Kinds)
	}
	switch a.Kind {
	case Fold, Check:
		if a.Amount != 0 {
			return fmt.Errorf("%w: %s takes no amount, got %d", ErrBadAmount, a.Kind, a.Amount)
		}
	case Call:
		if a.Amount != 0 && a.Amount != l.CallAmount {
			return fmt.Errorf("%w: call of %d; the call is %d", ErrBadAmount, a.Amount, l.CallAmount)
		}
		a.Amount = 0
	case Bet, Raise:
		if a.Amount < l.MinTo || a.Amount > l.MaxTo {
			return fmt.Errorf("%w: %s to %d; allowed %d to %d", ErrBadAmount, a.Kind, a.Amount, l.MinTo, l.MaxTo)
		}
	}
	h.actions = append(h.actions, a)
	h.play(a)
	h.advance(a.Seat + 1)
	return nil
}

// play changes the state for a legal betting action.
func (h *Hand) play(a Action) {
	i := a.Seat
	s := &h.seats[i]
	var amount int64
	kind := EvFold
	switch a.Kind {
	case Fold:
		h.fold(i)
	case Check:
		kind = EvCheck
	case Call:
		kind = EvCall
		amount = h.post(i, h.currentBet-s.bet, true)
	case Bet, Raise:
		kind = EvBet
		if a.Kind == Raise {
			kind = EvRaise
		}
		amount = h.post(i, a.Amount-s.bet, true)
		h.raiseTo(a.Amount)
		h.aggressor = i
		// A legal bet or raise goes above the old bet to match, which no seat's bet
		// exceeds, and the bettor puts all of it in (MaxTo is its all-in): now every
		// other seat owes chips.
		h.owe = (SeatSet(1)<<h.s.n - 1) &^ (1 << i)
	}
	s.acted = true
	h.actedSet |= 1 << i
	s.facedAt = h.currentBet
	s.seen = int8(h.count)
	h.emitChips(kind, i, amount, s.bet, s.allIn)
}

// raiseTo records a bet or raise to `to` and whether it counts as a full one.
func (h *Hand) raiseTo(to int64) {
	switch {
	case h.s.variant == StudThree:
	case h.s.structure == FixedLimit:
		// TDA: an all-in of at least half a bet counts as a bet (toward the cap, and
		// reopening the betting); less than that does neither.
		if 2*(to-h.fullLevel) >= h.betSize() {
			h.count++
			h.fullLevel = to
		}
	default:
		if inc := to - h.currentBet; inc >= max(h.lastRaise, h.s.bb) {
			h.lastRaise = inc
		}
	}
	h.currentBet = to
}

// Leave removes seat i from the hand, as Apply(Action{Seat: i, Kind: Leave}) does.
func (h *Hand) Leave(i int) error { return h.Apply(Action{Seat: i, Kind: Leave}) }

// leave folds a seat that leaves mid-hand; its chips stay in the pot. A seat that is
// all-in has no decisions left, so its hand stays live. If the seat was to act, the
// action passes on.
func (h *Hand) leave(a Action) error {
	i := a.Seat
	if i < 0 || i >= h.s.n {
		return fmt.Errorf("%w: seat %d cannot leave (seats are 0..%d)", ErrBadSeat, i, h.s.n-1)
	}
	if a.Amount != 0 {
		return fmt.Errorf("%w: leave takes no amount, got %d", ErrBadAmount, a.Amount)
	}
	s := &h.seats[i]
	if s.status != statusLive || s.left {
		return fmt.Errorf("%w: seat %d is not in the hand", ErrBadSeat, i)
	}
	h.actions = append(h.actions, a)
	s.left = true
	if !s.allIn {
		h.fold(i)
	}
	h.emitChips(EvLeave, i, 0, 0, s.allIn)
	from := h.toAct
	if from == i {
		from = i + 1
	}
	h.toAct = NoSeat
	h.advance(from)
	return nil
}
