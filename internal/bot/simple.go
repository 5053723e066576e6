package bot

import (
	"math/rand/v2"

	"github.com/felt-poker/felt/internal/engine"
)

// foldBot checks when it may and folds otherwise.
type foldBot struct{}

// Act checks or folds.
func (foldBot) Act(v *engine.View) engine.Action { return checkOrFold(v.Legal) }

// callBot checks or calls.
type callBot struct{}

// Act checks or calls.
func (callBot) Act(v *engine.View) engine.Action { return checkOrCall(v.Legal) }

// raiseBot bets or raises the most it may.
type raiseBot struct{}

// Act raises to the maximum (all-in in no-limit, the pot in pot-limit).
func (raiseBot) Act(v *engine.View) engine.Action { return raiseTo(v.Legal, v.Legal.MaxTo) }

// randomBot plays engine.RandomAction with its own stream.
type randomBot struct{ r *rand.Rand }

// Act returns a random legal action.
func (b *randomBot) Act(v *engine.View) engine.Action { return engine.RandomAction(b.r, v.Legal) }

// checkOrFold checks when nothing is to call, otherwise folds.
func checkOrFold(l engine.Legal) engine.Action {
	if l.Can(engine.Check) {
		return engine.Action{Seat: l.Seat, Kind: engine.Check}
	}
	return engine.Action{Seat: l.Seat, Kind: engine.Fold}
}

// checkOrCall checks when nothing is to call, otherwise calls.
func checkOrCall(l engine.Legal) engine.Action {
	switch {
	case l.Can(engine.Check):
		return engine.Action{Seat: l.Seat, Kind: engine.Check}
	case l.Can(engine.Call):
		return engine.Action{Seat: l.Seat, Kind: engine.Call, Amount: l.CallAmount}
	}
	return engine.Action{Seat: l.Seat, Kind: engine.Fold}
}

// raiseTo bets or raises to `to`, brought within Legal's bounds; when no bet or raise
// is allowed it checks or calls instead.
func raiseTo(l engine.Legal, to int64) engine.Action {
	kind := engine.Raise
	if l.Can(engine.Bet) {
		kind = engine.Bet
	}
	if !l.Can(kind) {
		return checkOrCall(l)
	}
	return engine.Action{Seat: l.Seat, Kind: kind, Amount: min(max(to, l.MinTo), l.MaxTo)}
}
