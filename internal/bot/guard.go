package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"time"

	"github.com/felt-poker/felt/internal/engine"
)

// CutMargin is how long before a decision's deadline a Guard answers for a bot
// that has not answered (its context ended DeadlineMargin before the deadline):
// the time left for the answer's way to the dealer.
const CutMargin = DeadlineMargin / 2

// CheckOrFold is the safe answer for a bot that cannot give one (late, or
// panicked): a check when nothing is to call, otherwise a fold.
func CheckOrFold(l engine.Legal) engine.Action { return checkOrFold(l) }

// PanicError is a bot's panic, caught by DecideSafe: the value it panicked
// with and the stack of the goroutine that asked it.
type PanicError struct {
	Value any
	Stack []byte
}

// Error returns the panic's value.
func (e *PanicError) Error() string { return fmt.Sprintf("bot panicked: %v", e.Value) }

// DecideSafe is Decide that returns a panic of the bot as a *PanicError
// instead of raising it.
func DecideSafe(ctx context.Context, b Bot, v *engine.View) (a engine.Action, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &PanicError{Value: p, Stack: debug.Stack()}
		}
	}()
	return Decide(ctx, b, v), nil
}

// Guard asks a bot for its decisions on behalf of a client that must answer a
// dealer whatever the bot does (felt bot over ACPC, felt stud-bot over Casino
// Day), so that the connection carries on. A bot that panics is answered for
// with CheckOrFold and counted in Panics; the first panic is written to Log
// with its stack, later ones are only counted. A bot that has not answered
// CutMargin before the decision's deadline is answered for the same way and
// counted in Late; its late answer is dropped, and while it is still busy it is
// not asked again (a bot is used by one goroutine at a time): its next
// decisions are answered for, and counted in Late, until it has answered.
//
// A Guard is used by one goroutine at a time.
type Guard struct {
	Bot Bot
	// Log gets the first panic's value and stack (nil: nowhere).
	Log io.Writer
	// Panics and Late count the decisions answered for the bot: because it
	// panicked, and because its time ran out.
	Panics, Late int

	busy   <-chan answer // the decision still running after its cut, if any
	logged bool          // a panic was written to Log
}

// answer is what DecideSafe returned.
type answer struct {
	a   engine.Action
	err error
}

// Decide returns the bot's action at v, asked with ctx and, unless deadline is
// zero, with a context ending DeadlineMargin before deadline (WithDeadline).
// It answers for the bot (CheckOrFold) when the bot panics, when it has not
// answered CutMargin before deadline, and when the deadline is that close
// already or the bot is still busy on an earlier decision by then.
func (g *Guard) Decide(ctx context.Context, v engine.View, deadline time.Time) engine.Action {
	var cut <-chan time.Time
	if !deadline.IsZero() {
		wait := time.Until(deadline.Add(-CutMargin))
		if wait <= 0 {
			return g.late(v)
		}
		var cancel context.CancelFunc
		ctx, cancel = WithDeadline(ctx, deadline)
		defer cancel() // a bot answered for is told to stop
		t := time.NewTimer(wait)
		defer t.Stop()
		cut = t.C
	}
	if g.busy != nil {
		select {
		case r := <-g.busy:
			g.busy = nil
			g.logPanic(r.err) // already answered for, as late
		case <-cut:
			return g.late(v)
		}
	}
	ch := make(chan answer, 1)
	go func() {
		a, err := DecideSafe(ctx, g.Bot, &v)
		ch <- answer{a, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			g.Panics++
			g.logPanic(r.err)
			return CheckOrFold(v.Legal)
		}
		return r.a
	case <-cut:
		g.busy = ch
		return g.late(v)
	}
}

// late counts a decision answered for a bot out of time and returns the answer.
func (g *Guard) late(v engine.View) engine.Action {
	g.Late++
	return CheckOrFold(v.Legal)
}

// logPanic writes err to Log with its stack if it is the first panic.
func (g *Guard) logPanic(err error) {
	var p *PanicError
	if !errors.As(err, &p) || g.logged || g.Log == nil {
		return
	}
	g.logged = true
	fmt.Fprintf(g.Log, "%v: answered with a check or fold, the connection carries on (later panics are only counted)\n%s\n", p, p.Stack)
}
