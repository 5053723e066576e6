package bot

import (
	"context"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/solver"
)

// lateTimer is a context past its deadline whose timer has not run yet: Done is
// open and Err nil, as they stay for a while when the runtime is slow to run the
// timer (on a loaded machine, hundreds of milliseconds).
type lateTimer struct {
	context.Context
	done chan struct{}
}

func (c lateTimer) Deadline() (time.Time, bool) { return time.Now().Add(-time.Hour), true }
func (c lateTimer) Done() <-chan struct{}       { return c.done }

// TestResolveNoWorkPastDeadline: asked past its deadline before the context says
// so, the flop re-solving bot starts no re-solve (it builds no tree: the count of
// re-solves begun is 0), neither for the decision (the flop, the turn) nor for
// the beliefs (the turn's walks the flop), caches no plan and answers legally by
// equity, as when the deadline comes before two iterations.
// Before, it read only the context's Err: it built each tree, ran an iteration of
// each, and a flop decision at 300 ms took up to 3.4 s under load.
func TestResolveNoWorkPastDeadline(t *testing.T) {
	for _, c := range []struct {
		name string
		acts []string
	}{
		{"flop", []string{"k"}},
		{"turn", []string{"k", "k", "k"}},
	} {
		b := newFlopResolve(t, ",flop=true")
		b.budget = time.Hour
		h := deepFlop(t, 20000, 20000)
		play(t, h, c.acts...)
		v := h.View(0)
		if v.Street != engine.Flop+engine.Street(len(c.acts)/2) || h.ToAct() != 0 {
			t.Fatalf("%s: the bot is not to act there: %v, seat %d", c.name, v.Street, h.ToAct())
		}
		solves := 0
		b.beforeSolve = func(*solver.Solver) { solves++ }
		a := b.ActContext(lateTimer{context.Background(), make(chan struct{})}, &v)
		if solves != 0 || b.kept.s != nil {
			t.Errorf("%s: %d re-solves begun past the deadline, one kept %v; want none", c.name, solves, b.kept.s != nil)
		}
		if len(b.cache) != 0 {
			t.Errorf("%s: %d plans cached; want none (an answer the deadline cut short)", c.name, len(b.cache))
		}
		a.Seat = 0
		if err := h.Apply(a); err != nil {
			t.Errorf("%s: %v refused: %v", c.name, a, err)
		}
	}
}
