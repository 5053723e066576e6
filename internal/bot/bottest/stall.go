// Package bottest holds bots for the tests of the packages that play bots
// (internal/arena, internal/lbr).
package bottest

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/engine"
)

// Stall checks or calls. Once Stall is set it blocks in ActContext and
// StrategyContext until their context ends (a re-solve that would take
// minutes), having closed Stalled the first time. Act and Strategy, which
// cannot be stopped, fail the test when stalling: whoever plays it must pass
// its context, and not ask them once it is done.
type Stall struct {
	T       testing.TB
	Stall   *atomic.Bool
	Stalled chan struct{}
	once    *sync.Once
}

// NewStall returns a Stall that stalls once stall is set.
func NewStall(t testing.TB, stall *atomic.Bool) Stall {
	return Stall{T: t, Stall: stall, Stalled: make(chan struct{}), once: new(sync.Once)}
}

// Act checks or calls.
func (b Stall) Act(v *engine.View) engine.Action {
	if b.Stall.Load() {
		b.T.Error("Act called without a context while stalling")
	}
	return CheckOrCall(v)
}

// ActContext checks or calls, once ctx ends when stalling.
func (b Stall) ActContext(ctx context.Context, v *engine.View) engine.Action {
	b.wait(ctx)
	return CheckOrCall(v)
}

// Strategy checks or calls.
func (b Stall) Strategy(v *engine.View, out []bot.ActionProb) ([]bot.ActionProb, bool) {
	if b.Stall.Load() {
		b.T.Error("Strategy called without a context while stalling")
	}
	return append(out[:0], bot.ActionProb{Action: CheckOrCall(v), Prob: 1}), true
}

// StrategyContext checks or calls, once ctx ends when stalling.
func (b Stall) StrategyContext(ctx context.Context, v *engine.View, out []bot.ActionProb) ([]bot.ActionProb, bool) {
	b.wait(ctx)
	return append(out[:0], bot.ActionProb{Action: CheckOrCall(v), Prob: 1}), true
}

func (b Stall) wait(ctx context.Context) {
	if b.Stall.Load() {
		b.once.Do(func() { close(b.Stalled) })
		<-ctx.Done()
	}
}

// CheckOrCall returns the check, or the call when there is a bet to call.
func CheckOrCall(v *engine.View) engine.Action {
	if v.Legal.Can(engine.Call) {
		return engine.Action{Seat: v.Viewer, Kind: engine.Call, Amount: v.Legal.CallAmount}
	}
	return engine.Action{Seat: v.Viewer, Kind: engine.Check}
}
