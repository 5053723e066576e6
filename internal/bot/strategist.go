package bot

import (
	"context"

	"github.com/felt-poker/felt/internal/engine"
)

// ActionProb is one action a bot may take and the probability it takes it.
type ActionProb struct {
	Action engine.Action
	Prob   float64
}

// Strategist is a Bot that can say, for a view, with what probability it takes
// each action, instead of only sampling one. Tools that reason about a bot's
// range (felt lbr) check for it with a type assertion; for bots without it they
// estimate the probabilities by calling Act several times.
//
// Strategy appends to out[:0] the actions Act may return for v, each with its
// probability (the probabilities sum to 1), and returns the slice with ok true.
// When the bot cannot say for this view (its decision rests on a simulation, say)
// it returns ok false and the caller samples Act. Like Act, it is called only on
// the viewer's turn and must not keep v.
type Strategist interface {
	Bot
	Strategy(v *engine.View, out []ActionProb) (probs []ActionProb, ok bool)
}

// ContextStrategist is a Strategist whose Strategy may think for long (a
// re-solve): StrategyContext answers as Strategy does, but soon after ctx is done
// (cancelled), from what it has; that answer need not be the one Strategy gives.
// Tools that may be stopped while they ask (felt lbr) call it when the bot has it.
type ContextStrategist interface {
	Strategist
	StrategyContext(ctx context.Context, v *engine.View, out []ActionProb) (probs []ActionProb, ok bool)
}

// The bots that answer exactly: the plain ones always, the chart players before
// the flop (where they read only the chart).
var (
	_ Strategist = foldBot{}
	_ Strategist = callBot{}
	_ Strategist = raiseBot{}
	_ Strategist = maniacBot{}
	_ Strategist = (*chartBot)(nil)
	_ Strategist = (*tagBot)(nil)
)

// certain returns out holding a alone, with probability 1.
func certain(out []ActionProb, a engine.Action) ([]ActionProb, bool) {
	return append(out[:0], ActionProb{a, 1}), true
}

// Strategy returns the check or fold, with certainty.
func (b foldBot) Strategy(v *engine.View, out []ActionProb) ([]ActionProb, bool) {
	return certain(out, b.Act(v))
}

// Strategy returns the check or call, with certainty.
func (b callBot) Strategy(v *engine.View, out []ActionProb) ([]ActionProb, bool) {
	return certain(out, b.Act(v))
}

// Strategy returns the biggest raise, with certainty.
func (b raiseBot) Strategy(v *engine.View, out []ActionProb) ([]ActionProb, bool) {
	return certain(out, b.Act(v))
}

// Strategy returns the pot-size bet or raise, with certainty.
func (b maniacBot) Strategy(v *engine.View, out []ActionProb) ([]ActionProb, bool) {
	return certain(out, b.Act(v))
}

// Strategy answers before the flop in Hold'em, where the chart decides alone (in
// fixed-limit with limitDefends's simulated floor under its folds).
func (b *chartBot) Strategy(v *engine.View, out []ActionProb) ([]ActionProb, bool) {
	if v.Variant != engine.Holdem || v.Street != engine.Preflop {
		return out[:0], false
	}
	return certain(out, b.Act(v))
}

// Strategy answers before the flop in Hold'em, where the chart decides alone.
func (b *tagBot) Strategy(v *engine.View, out []ActionProb) ([]ActionProb, bool) {
	if v.Variant != engine.Holdem || v.Street != engine.Preflop {
		return out[:0], false
	}
	return certain(out, b.Act(v))
}
