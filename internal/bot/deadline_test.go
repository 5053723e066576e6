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
// iteration past it, about a tenth of a second on the turn, more under load); it
// still runs at least one, and all n without a deadline.
func TestIterateStopsBeforeTheDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := 0
		step := func() { n++; time.Sleep(100 * time.Millisecond) }
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
		defer cancel()
		iterate(ctx, step, 60)
		if took := time.Since(start); n != 2 || took > 250*time.Millisecond {
			t.Errorf("%d iterations in %v with a 250 ms deadline, want 2 by the deadline", n, took)
		}
		n = 0
		iterate(ctx, step, 60) // the deadline has passed: one iteration still
		if n != 1 {
			t.Errorf("%d iterations past the deadline, want 1", n)
		}
		n = 0
		iterate(context.Background(), step, 5)
		if n != 5 {
			t.Errorf("%d iterations without a deadline, want 5", n)
		}
	})
}
