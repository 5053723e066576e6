package arena

import (
	"context"
	"fmt"
	"time"

	"github.com/felt-poker/felt/internal/bot"
)

// Exploiter is one opponent of the gauntlet: a bot of the registry and the leak
// it punishes.
type Exploiter struct {
	Bot  string
	Name string
}

// Exploiters are the gauntlet's opponents, simple players that each punish one
// leak (internal/bot's exploiters and its plainest bots).
var Exploiters = []Exploiter{
	{"raise", "always all-in"},
	{"call", "calling station"},
	{"potodds", "pot-odds caller"},
	{"minraise", "min-raiser"},
	{"maniac", "pot-size maniac"},
	{"tag", "tight-aggressive"},
}

// GauntletConfig describes a gauntlet: one bot's duplicate match against every
// exploiter.
type GauntletConfig struct {
	Bot  string
	Game Game
	// Hands per match, Seed, Workers, Progress and NewBot as in MatchConfig.
	Hands    int
	Seed     uint64
	Workers  int
	Progress func(hands int)
	NewBot   func(name string, o bot.Options) (bot.Bot, error)
	// ControlVariate estimates every match with the control variate too, and
	// judges by it (MatchConfig.ControlVariate).
	ControlVariate bool
	// Match plays each match (nil: Match), as LeagueConfig.Match.
	Match MatchFunc
	// Budget and Timings as in MatchConfig, for every match.
	Budget  time.Duration
	Timings bot.DecisionObserver
}

// Gauntlet is the outcome of a gauntlet, from the bot's side.
type Gauntlet struct {
	Bot string
	// Matches[k] is the bot's match against Exploiters[k].
	Matches []Result
	// Worst is the index of the match with the lowest win rate.
	Worst int
}

// Judged returns the win rate and 95% half-width (bb/100) a gauntlet judges a
// match by: the control variate's when the match has it, else the plain ones.
func Judged(r Result) (rate, ci float64) {
	if r.CV != nil {
		return r.CV.BBPer100, r.CV.CI95
	}
	return r.BBPer100, r.CI95
}

// Survives reports whether the bot lost to no exploiter by more than the 95%
// interval of the match allows (its win rate plus the half-width is not below
// zero).
func (g Gauntlet) Survives() bool {
	for _, r := range g.Matches {
		if rate, ci := Judged(r); rate+ci < 0 {
			return false
		}
	}
	return true
}

// PlayGauntlet plays the bot against every exploiter in turn, each match on all
// cores and with the same seed, so every exploiter sees the same deals.
func PlayGauntlet(ctx context.Context, gc GauntletConfig) (Gauntlet, error) {
	g := Gauntlet{Bot: gc.Bot}
	play := gc.Match.orMatch()
	for k, e := range Exploiters {
		r, err := play(ctx, MatchConfig{A: gc.Bot, B: e.Bot, Game: gc.Game, Hands: gc.Hands, Seed: gc.Seed,
			Workers: gc.Workers, Progress: gc.Progress, NewBot: gc.NewBot, ControlVariate: gc.ControlVariate,
			Budget: gc.Budget, Timings: gc.Timings})
		if err != nil {
			return Gauntlet{}, fmt.Errorf("%s against the %s: %w", gc.Bot, e.Name, err)
		}
		g.Matches = append(g.Matches, r)
		rate, _ := Judged(r)
		if worst, _ := Judged(g.Matches[g.Worst]); rate < worst {
			g.Worst = k
		}
	}
	return g, nil
}
