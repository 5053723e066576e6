package arena

import (
	"context"
	"fmt"

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
}

// Gauntlet is the outcome of a gauntlet, from the bot's side.
type Gauntlet struct {
	Bot string
	// Matches[k] is the bot's match against Exploiters[k].
	Matches []Result
	// Worst is the index of the match with the lowest win rate.
	Worst int
}

// Survives reports whether the bot lost to no exploiter by more than the 95%
// interval of the match allows (its win rate plus the half-width is not below
// zero).
func (g Gauntlet) Survives() bool {
	w := g.Matches[g.Worst]
	return w.BBPer100+w.CI95 >= 0
}

// PlayGauntlet plays the bot against every exploiter in turn, each match on all
// cores and with the same seed, so every exploiter sees the same deals.
func PlayGauntlet(ctx context.Context, gc GauntletConfig) (Gauntlet, error) {
	g := Gauntlet{Bot: gc.Bot}
	for k, e := range Exploiters {
		r, err := Match(ctx, MatchConfig{A: gc.Bot, B: e.Bot, Game: gc.Game, Hands: gc.Hands, Seed: gc.Seed,
			Workers: gc.Workers, Progress: gc.Progress, NewBot: gc.NewBot})
		if err != nil {
			return Gauntlet{}, fmt.Errorf("%s against the %s: %w", gc.Bot, e.Name, err)
		}
		g.Matches = append(g.Matches, r)
		if r.BBPer100 < g.Matches[g.Worst].BBPer100 {
			g.Worst = k
		}
	}
	return g, nil
}
