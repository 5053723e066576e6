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
