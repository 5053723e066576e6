package bot

import (
	"context"
	"slices"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// thirdTurnRaise deals a 200-big-blind hand (blinds 50/100) in which the big
// blind re-raises on the turn: bet, raise, raise, the third past the turn's raise
// cap in the re-solved tree, so that the bot (seat 0) has no plan there.
func thirdTurnRaise(t *testing.T) *engine.Hand {
	t.Helper()
	h := dealt(t, "AhKd", "8s8c", "3dJc2c5h9s", engine.Config{Stacks: []int64{20000, 20000}, SmallBlind: 50, BigBlind: 100})
	play(t, h, "r350", "c", "k", "k", "r700", "r2800", "r9100")
	return h
}

// withHole returns v with the viewer's hole cards replaced by hole, in its seat
// and in its hole-card event (as LBR asks about each hand of a range).
func withHole(v engine.View, hole string) engine.View {
	c := cards.MustParseList(hole)
	v.Seats = slices.Clone(v.Seats)
	v.Events = slices.Clone(v.Events)
	v.Seats[v.Viewer].Cards[0], v.Seats[v.Viewer].Cards[1] = c[0], c[1]
	for k := range v.Events {
		if e := &v.Events[k]; e.Kind == engine.EvHoleCards && int(e.Seat) == v.Viewer {
			e.Cards[0], e.Cards[1] = c[0], c[1]
		}
	}
	return v
}

// TestResolveNoPlanIsNotResolvedAgain: at a history the re-solved tree does not
// hold, the bot has no plan and answers as quickAction does; asked again about
// other hands (LBR asks about 1,326), it answers the same without re-solving the
// turn for each: the kept solve stays the one it made.
func TestResolveNoPlanIsNotResolvedAgain(t *testing.T) {
	b := newTestResolve(t, 1)
	v := thirdTurnRaise(t).View(0)
	hist, _ := readHistory(&v)
	want := quickAction(&v)
	ask := func(hole string) {
		t.Helper()
		w := withHole(v, hole)
		probs, ok := b.Strategy(&w, nil)
		if !ok || len(probs) != 1 || probs[0].Action != want || b.cache[hist.key] != nil {
			t.Fatalf("%s: %v, %v; want %v alone, without a plan", hole, probs, ok, want)
		}
	}
	ask("AhKd")
	ask("QsQh") // the first re-solve set the turn's bound: this one is bounded
	kept := b.kept.s
	for _, hole := range []string{"7c6c", "AsAd", "KhTh"} {
		ask(hole)
		if b.kept.s != kept {
			t.Fatalf("%s: the turn was re-solved again", hole)
		}
	}
}

// blip is a context that reports itself cancelled on its n-th look only: a
// re-solve stopped short by a deadline that its caller no longer sees as done.
type blip struct {
	context.Context
	n int
}

func (c *blip) Err() error {
	if c.n--; c.n == 0 {
		return context.Canceled
	}
	return nil
}

// TestResolveNoPlanAfterShortSolveIsTriedAgain: a failure whose re-solve was
// stopped before its iterations is not remembered (a full re-solve could leave
// the bot in another state), so the next question re-solves.
func TestResolveNoPlanAfterShortSolveIsTriedAgain(t *testing.T) {
	b := newTestResolve(t, 1)
	v := thirdTurnRaise(t).View(0)
	if _, ok := b.Strategy(&v, nil); !ok { // sets the turn's bound
		t.Fatal("no answer")
	}
	if _, ok := b.StrategyContext(&blip{context.Background(), 3}, &v, nil); !ok {
		t.Fatal("no answer")
	}
	short := b.kept.s
	if short.Iterations() >= minTurnIterations {
		t.Fatalf("the re-solve ran %d iterations: not stopped short", short.Iterations())
	}
	if _, ok := b.Strategy(&v, nil); !ok || b.kept.s == short {
		t.Fatalf("answered %v, re-solved %v: want a new re-solve after one stopped short", ok, b.kept.s != short)
	}
}
