// Package engine is felt's one rules engine: Texas Hold'em (fixed-limit, pot-limit and
// no-limit, 2 to 10 seats) and the Casino Day three card stud, played by the rules of
// ../shared/RULES.md (the decisions it leaves open are in docs/rules.md). A Hand is a
// pure, deterministic value built from a Config
// (which carries the shuffle seed) and the actions applied to it: it knows nothing of
// time, sockets or storage, and replaying the same configuration and actions gives the
// same hand event for event.
//
// The flow is: New (or Reset, which reuses a Hand without allocating), then while
// ToAct() != NoSeat ask Legal() and Apply an Action; Apply rejects an illegal action with
// an error wrapping ErrNotYourTurn, ErrIllegalAction, ErrBadAmount, ErrBadSeat or
// ErrHandOver and leaves the hand exactly as it was. Everything that happens is logged as
// an Event; View and SpectatorView build what one recipient may know, with every card
// they may not see removed. Result reports chips won and lost when the hand is over.
//
// Two optional Hold'em rules are part of the configuration, so that a hand stays
// fixed by its Config and actions: Straddlers (the seats that straddle when under
// the gun) and RunTwice (the seats that agree to run the board twice when the
// betting closes before the river); docs/rules.md gives their rules.
package engine
