package bot

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/felt-poker/felt/internal/engine"
)

// ctxBot records the context it was asked with.
type ctxBot struct {
	Bot
	got context.Context
}

func (b *ctxBot) ActContext(ctx context.Context, v *engine.View) engine.Action {
	b.got = ctx
	return b.Act(v)
}

// TestDecideUsesActContext: Decide hands a ContextActor the caller's context, and
// plain bots still answer through Act.
func TestDecideUsesActContext(t *testing.T) {
	v := headsUpView(t)
	ctx, cancel := WithBudget(context.Background(), time.Hour)
	defer cancel()
	b := &ctxBot{Bot: callBot{}}
	if a := Decide(ctx, b, v); a.Kind != engine.Call && a.Kind != engine.Check {
		t.Fatalf("call bot through Decide: %v", a)
	}
	if b.got != ctx {
		t.Fatal("ActContext did not get the caller's context")
	}
	if a := Decide(ctx, foldBot{}, v); a.Kind != engine.Fold && a.Kind != engine.Check {
		t.Fatalf("fold bot through Decide: %v", a)
	}
}

// TestDeadlineHelpers: WithDeadline keeps DeadlineMargin back, zero values mean no
// deadline of their own.
func TestDeadlineHelpers(t *testing.T) {
	at := time.Now().Add(time.Hour)
	ctx, cancel := WithDeadline(context.Background(), at)
	defer cancel()
	if d, ok := ctx.Deadline(); !ok || !d.Equal(at.Add(-DeadlineMargin)) {
		t.Errorf("WithDeadline: deadline %v, %v; want %v", d, ok, at.Add(-DeadlineMargin))
	}
	for _, c := range []func() (context.Context, context.CancelFunc){
		func() (context.Context, context.CancelFunc) { return WithDeadline(context.Background(), time.Time{}) },
		func() (context.Context, context.CancelFunc) { return WithBudget(context.Background(), 0) },
	} {
		ctx, cancel := c()
		if _, ok := ctx.Deadline(); ok {
			t.Error("a zero deadline or budget set one")
		}
		cancel()
	}
}

// headsUpView deals a heads-up no-limit hand and returns the view of the first
// seat to act.
func headsUpView(t *testing.T) *engine.View {
	t.Helper()
	h, err := engine.New(engine.Config{Variant: engine.Holdem, Structure: engine.NoLimit, SmallBlind: 50, BigBlind: 100, Stacks: []int64{20000, 20000}})
	if err != nil {
		t.Fatal(err)
	}
	v := h.View(h.ToAct())
	return &v
}

// TestTimingsPercentiles: Timings reports nearest-rank percentiles by bot and
// street, sorted by bot and then street.
func TestTimingsPercentiles(t *testing.T) {
	var tm Timings
	for i := 1; i <= 100; i++ {
		tm.ObserveDecision("b", engine.Turn, time.Duration(i)*time.Millisecond)
	}
	tm.ObserveDecision("b", engine.Preflop, time.Second)
	tm.ObserveDecision("a", engine.River, time.Second)
	rows := tm.Rows()
	if len(rows) != 3 || rows[0].Bot != "a" || rows[1].Street != engine.Preflop || rows[2].Street != engine.Turn {
		t.Fatalf("rows %+v", rows)
	}
	r := rows[2]
	if r.N != 100 || r.P50 != 50*time.Millisecond || r.P90 != 90*time.Millisecond || r.P99 != 99*time.Millisecond || r.Max != 100*time.Millisecond {
		t.Fatalf("turn %+v: want 100 decisions, 50, 90, 99 and 100 ms", r)
	}
	if one := rows[1]; one.P50 != time.Second || one.P99 != time.Second {
		t.Fatalf("a single decision's percentiles: %+v", one)
	}
}

// TestIterateStopsBeforeTheDeadline: a re-solve does not start an iteration that,
// as long as the longest so far, would end past its deadline (it ran one
// iteration past it, about a tenth of a second on the turn, more under load), and
// an iteration under way when the deadline comes stops there (the first one too:
// it always ran to its end, a whole iteration past a budget shorter than one); all
// n run without a deadline. Time is synctest's: the steps sleep, nothing is timed.
func TestIterateStopsBeforeTheDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := 0
		// step is an iteration of 100 ms that stops when ctx is done, as the solver's.
		step := func(ctx context.Context) bool {
			if ctx.Err() != nil {
				return false
			}
			select {
			case <-time.After(100 * time.Millisecond):
				n++
				return true
			case <-ctx.Done():
				return false
			}
		}
		for _, c := range []struct {
			budget, took time.Duration
			want         int
		}{
			{250 * time.Millisecond, 200 * time.Millisecond, 2}, // a third would end at 300 ms
			{150 * time.Millisecond, 100 * time.Millisecond, 1},
			{50 * time.Millisecond, 50 * time.Millisecond, 0}, // the first stops at the deadline
			{0, 0, 0}, // the deadline has passed
		} {
			n = 0
			start := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), c.budget)
			got := iterate(ctx, step, 60)
			cancel()
			if took := time.Since(start); got != c.want || n != c.want || took != c.took {
				t.Errorf("budget %v: %d iterations completed (%d reported) in %v, want %d in %v", c.budget, n, got, took, c.want, c.took)
			}
		}
		n = 0
		if got := iterate(context.Background(), step, 5); n != 5 || got != 5 {
			t.Errorf("%d iterations without a deadline (%d reported), want 5", n, got)
		}
	})
}
