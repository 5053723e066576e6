package table

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/engine"
)

// longBot thinks for long (a bot.ContextActor): it tells asked whether its
// context was live when asked, answers at once with a check or a fold when it
// was not, and otherwise waits for answers (or its context).
type longBot struct {
	asked   chan bool
	answers chan engine.Action
}

func (b *longBot) Act(v *engine.View) engine.Action { return b.ActContext(context.Background(), v) }

func (b *longBot) ActContext(ctx context.Context, v *engine.View) engine.Action {
	live := ctx.Err() == nil
	b.asked <- live
	if !live {
		return engine.Action{Kind: engine.Fold}
	}
	select {
	case a := <-b.answers:
		return a
	case <-ctx.Done():
		return engine.Action{Kind: engine.Fold}
	}
}

// TestThinkersBoundTheHouse: two tables share a bound of one bot thinking at
// once. While the first table's bot thinks, the second's does not start
// thinking: after ThinkWait it answers at once, as at its deadline, and its
// table plays on. Before, every table's bot thought at once, however many
// tables guests opened.
func TestThinkersBoundTheHouse(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1, 2)
		th := NewThinkers(1)
		asked := make(chan bool, 64)
		answers := make(chan engine.Action)
		open := func(name string, p Player) *client {
			cfg := testConfig(b, "resolve")
			cfg.Name, cfg.Seats, cfg.Thinkers = name, 2, th
			cfg.NewBot = func(string, bot.Options) (bot.Bot, error) { return &longBot{asked: asked, answers: answers}, nil }
			tb := mustNew(t, cfg)
			c := &client{}
			if _, err := tb.Watch(t.Context(), p, c); err != nil {
				t.Fatal(err)
			}
			if err := tb.Sit(t.Context(), p, 1, 1000); err != nil {
				t.Fatal(err)
			}
			return c
		}
		open("one", Player{1, "alice"})
		if live := <-asked; !live {
			t.Fatal("the first bot to think was asked with its context done")
		}
		start := time.Now()
		open("two", Player{2, "bob"})
		if live := <-asked; live {
			t.Fatal("a second bot thought while the house's one place was taken")
		}
		if waited := time.Since(start); waited < ThinkWait {
			t.Fatalf("the second bot answered after %v, before ThinkWait", waited)
		}
	})
}
