package lbr

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/engine"
)

// countingStrategist counts a Strategist's calls of Act and Strategy.
type countingStrategist struct {
	bot.Strategist
	acts, asks *atomic.Int64
}

func (c countingStrategist) Act(v *engine.View) engine.Action {
	c.acts.Add(1)
	return c.Strategist.Act(v)
}

func (c countingStrategist) Strategy(v *engine.View, out []bot.ActionProb) ([]bot.ActionProb, bool) {
	c.asks.Add(1)
	return c.Strategist.Strategy(v, out)
}

// LBR asks cfr (its built-in blueprint) for its strategy exactly: Act is called
// only for the bot's own decisions in the hands played, never for the hands of a
// range, and no action it took emptied its range (Misses). Several workers,
// each with its own bot, give the result one worker gives (run with -race).
func TestCFRAskedExactly(t *testing.T) {
	var acts, asks atomic.Int64
	c := Config{Bot: "cfr", Game: limitGame(t), Hands: 24, Seed: 15, Preflop: true, Runouts: 50,
		NewBot: func(name string, o bot.Options) (bot.Bot, error) {
			b, err := bot.New(name, o)
			if err != nil {
				return nil, err
			}
			st, ok := b.(bot.Strategist)
			if !ok {
				return nil, errors.New("cfr is not a bot.Strategist: LBR samples its Act")
			}
			return countingStrategist{st, &acts, &asks}, nil
		}}
	c.Workers = 1
	one := run(t, c)
	if n := acts.Load(); n > 20*int64(one.Hands) || asks.Load() < NumCombos {
		t.Fatalf("%d hands: Act called %d times, Strategy %d", one.Hands, n, asks.Load())
	}
	c.Workers = 2
	two := run(t, c)
	if one.Chips != two.Chips || one.MBBCI95 != two.MBBCI95 || one.Misses != 0 || two.Misses != 0 {
		t.Fatalf("1 worker: %+v\n2 workers: %+v", one, two)
	}
}
