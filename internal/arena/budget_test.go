package arena

import (
	"context"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/engine"
)

// deadlineBot is a call bot that counts the decisions it was asked with and
// without a deadline.
type deadlineBot struct {
	bot.Bot
	with, without int
}

func (b *deadlineBot) ActContext(ctx context.Context, v *engine.View) engine.Action {
	if d, ok := ctx.Deadline(); ok && time.Until(d) <= time.Minute {
		b.with++
	} else {
		b.without++
	}
	return b.Act(v)
}

// TestMatchBudgetReachesBots: MatchConfig.Budget becomes the deadline of every
// decision of a bot.ContextActor, and no budget means no deadline.
func TestMatchBudgetReachesBots(t *testing.T) {
	g, _ := ParseGame("nl")
	for _, budget := range []time.Duration{0, time.Minute} {
		var made []*deadlineBot
		newBot := func(name string, o bot.Options) (bot.Bot, error) {
			b, err := bot.New(name, o)
			if err != nil || name != "call" {
				return b, err
			}
			d := &deadlineBot{Bot: b}
			made = append(made, d)
			return d, nil
		}
		if _, err := Match(context.Background(), MatchConfig{A: "call", B: "random", Game: g, Hands: 20, Workers: 1, NewBot: newBot, Budget: budget}); err != nil {
			t.Fatal(err)
		}
		d := made[len(made)-1]
		if budget > 0 && (d.with == 0 || d.without != 0) || budget == 0 && (d.with != 0 || d.without == 0) {
			t.Errorf("budget %v: %d decisions with a deadline, %d without", budget, d.with, d.without)
		}
	}
}

// TestMatchTimings: MatchConfig.Timings hears every decision of both bots, under
// the names A and B give, on the street it was made on.
func TestMatchTimings(t *testing.T) {
	g, _ := ParseGame("nl")
	var tm bot.Timings
	actions := 0
	hand := func(_ engine.Config, h *engine.Hand, _ []string) error { actions += h.NumActions(); return nil }
	if _, err := Match(context.Background(), MatchConfig{A: "call", B: "random", Game: g, Hands: 40, Workers: 1, Timings: &tm, Hand: hand}); err != nil {
		t.Fatal(err)
	}
	n, bots, streets := 0, map[string]bool{}, map[engine.Street]bool{}
	for _, r := range tm.Rows() {
		n += r.N
		bots[r.Bot], streets[r.Street] = true, true
		if r.P50 > r.P90 || r.P90 > r.P99 || r.P99 > r.Max {
			t.Errorf("%s on the %v: percentiles out of order: %+v", r.Bot, r.Street, r)
		}
	}
	if n != actions || !bots["call"] || !bots["random"] || !streets[engine.Preflop] || !streets[engine.River] {
		t.Fatalf("%d decisions timed (want %d) by %v on %v", n, actions, bots, streets)
	}
}

// TestGauntletBudgetReachesBots: GauntletConfig.Budget reaches every match.
func TestGauntletBudgetReachesBots(t *testing.T) {
	g, _ := ParseGame("nl")
	var made []*deadlineBot
	newBot := func(name string, o bot.Options) (bot.Bot, error) {
		b, err := bot.New(name, o)
		if err != nil || name != "chart" {
			return b, err
		}
		d := &deadlineBot{Bot: b}
		made = append(made, d)
		return d, nil
	}
	if _, err := PlayGauntlet(context.Background(), GauntletConfig{Bot: "chart", Game: g, Hands: 8, Workers: 1, NewBot: newBot, Budget: time.Minute}); err != nil {
		t.Fatal(err)
	}
	for _, d := range made {
		if d.without != 0 {
			t.Fatalf("a gauntlet match asked chart %d times without a deadline", d.without)
		}
	}
}
