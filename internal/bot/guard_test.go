package bot

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/engine"
)

// countingBot calls, or panics with "boom" when panics is set, counting the
// decisions it was asked.
type countingBot struct {
	asked  int
	panics bool
}

func (b *countingBot) Act(v *engine.View) engine.Action {
	b.asked++
	if b.panics {
		panic("boom")
	}
	return engine.Action{Seat: v.Legal.Seat, Kind: engine.Call, Amount: v.Legal.CallAmount}
}

// guardView is a decision facing a bet: a check is not legal, a fold is.
func guardView() engine.View {
	return engine.View{Legal: engine.Legal{Seat: 1, Kinds: 1<<engine.Fold | 1<<engine.Call, CallAmount: 20}}
}

// TestGuard: the bot's answer when it gives one; a fold for a panic (counted,
// the first logged with its stack, once) and for a decision whose clock is
// already within CutMargin (counted as late, the bot not asked).
func TestGuard(t *testing.T) {
	b := &countingBot{}
	var log strings.Builder
	g := Guard{Bot: b, Log: &log}
	if a := g.Decide(context.Background(), guardView(), time.Time{}); a.Kind != engine.Call {
		t.Errorf("the bot's call became %v", a)
	}
	if a := g.Decide(context.Background(), guardView(), time.Now().Add(CutMargin/2)); a.Kind != engine.Fold || g.Late != 1 || b.asked != 1 {
		t.Errorf("a spent clock: %v, %d late, bot asked %d times; want a fold, 1 late, the bot not asked", a, g.Late, b.asked)
	}
	b.panics = true
	for range 2 {
		if a := g.Decide(context.Background(), guardView(), time.Now().Add(time.Minute)); a.Kind != engine.Fold {
			t.Errorf("a panic answered %v, want a fold", a)
		}
	}
	if g.Panics != 2 || strings.Count(log.String(), "bot panicked: boom") != 1 || !strings.Contains(log.String(), "(*countingBot).Act") {
		t.Errorf("%d panics, logged:\n%s", g.Panics, log.String())
	}
	_, err := DecideSafe(context.Background(), b, new(guardView()))
	var p *PanicError
	if !errors.As(err, &p) || p.Value != "boom" || len(p.Stack) == 0 {
		t.Errorf("DecideSafe: %v", err)
	}
}
