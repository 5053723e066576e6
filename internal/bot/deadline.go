package bot

import (
	"context"
	"time"

	"github.com/felt-poker/felt/internal/engine"
)

// ContextActor is a Bot that can be told when it must have answered. Whoever asks a
// bot to act (a table, the arena, a dealer) calls Decide, which uses ActContext when
// the bot has it and Act otherwise, so bots that think only briefly need nothing.
//
// ActContext follows Act's contract and must return a legal action soon after ctx
// is done (its deadline passed or it was cancelled), whatever it was doing: a bot
// that thinks for long checks ctx and answers from what it has.
type ContextActor interface {
	Bot
	ActContext(ctx context.Context, v *engine.View) engine.Action
}

// Decide asks b for its action at v, passing ctx when b is a ContextActor.
func Decide(ctx context.Context, b Bot, v *engine.View) engine.Action {
	if c, ok := b.(ContextActor); ok {
		return c.ActContext(ctx, v)
	}
	return b.Act(v)
}

// DeadlineMargin is what callers keep back from their own deadline when they pass
// it to a bot: the time to send the answer and apply it.
const DeadlineMargin = 250 * time.Millisecond

// WithBudget returns a context that ends budget from now, or ctx itself when budget
// is 0 or less (no deadline of its own). Call the cancel function when done.
func WithBudget(ctx context.Context, budget time.Duration) (context.Context, context.CancelFunc) {
	if budget <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, budget)
}

// WithDeadline returns a context that ends DeadlineMargin before deadline (at once
// when that has passed), or ctx itself when deadline is zero.
func WithDeadline(ctx context.Context, deadline time.Time) (context.Context, context.CancelFunc) {
	if deadline.IsZero() {
		return ctx, func() {}
	}
	return context.WithDeadline(ctx, deadline.Add(-DeadlineMargin))
}
