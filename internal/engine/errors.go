package engine

import "errors"

// Sentinel errors. Every error the engine returns wraps exactly one of them, with the
// details in its message; callers branch with errors.Is.
var (
	// ErrBadConfig: the Config cannot describe a hand.
	ErrBadConfig = errors.New("bad configuration")
	// ErrHandOver: the hand has ended; nothing more may be applied.
	ErrHandOver = errors.New("hand is over")
	// ErrNotYourTurn: the action's seat is not the seat to act.
	ErrNotYourTurn = errors.New("not your turn")
	// ErrIllegalAction: the kind of action is not allowed now (see Legal).
	ErrIllegalAction = errors.New("illegal action")
	// ErrBadAmount: a bet or raise amount outside Legal's bounds, or an amount given
	// with an action that takes none.
	ErrBadAmount = errors.New("bad amount")
	// ErrBadSeat: the seat does not exist or is not in the hand.
	ErrBadSeat = errors.New("bad seat")
)
