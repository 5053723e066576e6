package table

import (
	"context"
	"runtime"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/engine"
)

// Thinkers bounds how many bots that think for long (bot.ContextActor: resolve
// re-solves for up to its budget, a core each) think at once across every table
// that shares it: the house's. Without it, guests opening heads-up games and
// showcases full of such bots (a few per guest, many guests per address) made
// the house run as many re-solves as they liked, and every table, request and
// WebSocket of the house waited for a core behind them.
//
// A bot that finds no place within ThinkWait answers at once, as at its
// deadline (ActContext with its context done: resolve plays its quick
// action); a bot that thinks briefly (every other kind) never waits.
type Thinkers struct {
	slots chan struct{}
}

// ThinkWait is the longest a bot waits for a place among the Thinkers.
const ThinkWait = time.Second

// NewThinkers returns a bound of n bots thinking at once (n < 1: as many as
// the CPUs Go uses, GOMAXPROCS).
func NewThinkers(n int) *Thinkers {
	if n < 1 {
		n = runtime.GOMAXPROCS(0)
	}
	return &Thinkers{slots: make(chan struct{}, n)}
}

// acquire takes a place, waiting ThinkWait at most or until ctx is done, and
// reports whether it did.
func (th *Thinkers) acquire(ctx context.Context) bool {
	select {
	case th.slots <- struct{}{}:
		return true
	default:
	}
	wait := time.NewTimer(ThinkWait)
	defer wait.Stop()
	select {
	case th.slots <- struct{}{}:
		return true
	case <-wait.C:
	case <-ctx.Done():
	}
	return false
}

func (th *Thinkers) release() { <-th.slots }

// decide asks bs's bot for its action at v by ctx's end: a bot that thinks for
// long takes a place among the table's Thinkers first, or answers at once.
func (t *Table) decide(ctx context.Context, bs *botSeat, v *engine.View) engine.Action {
	if _, long := bs.b.(bot.ContextActor); long && t.cfg.Thinkers != nil {
		if !t.cfg.Thinkers.acquire(ctx) {
			done, cancel := context.WithCancel(ctx)
			cancel()
			return bot.Decide(done, bs.b, v)
		}
		defer t.cfg.Thinkers.release()
	}
	return bot.Decide(ctx, bs.b, v)
}
