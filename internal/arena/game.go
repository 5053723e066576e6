// Package arena pits bots against each other straight on the rules engine, without
// tables or clocks: heads-up matches with duplicate deals on all cores, leagues of
// every bot against every other, and the statistics (bb/100 with 95% confidence
// intervals) that say who is stronger.
package arena

import (
	"fmt"
	"strings"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/engine"
)

// Game is a heads-up game the arena plays: the engine configuration of every hand
// (stacks reset each hand) and the unit results are counted in.
type Game struct {
	// Name is how commands name the game: nl, pl, limit or stud.
	Name string
	// Config is the hand template; the arena fills in Seed and Button.
	Config engine.Config
	// Unit is the chips of one big blind (in stud, one ante), the unit of bb/100.
	Unit int64
}

// The games, heads-up, stacks reset to the start every hand:
//   - nl, pl: no-limit and pot-limit Hold'em, blinds 50/100, stacks 200 big blinds;
//   - limit: fixed-limit Hold'em, blinds 50/100, bets 100/200, stacks 200 big blinds;
//   - stud: three card stud, ante 1, raises of 1 to 10, stacks 200 antes (the unit
//     of "bb/100" is then the ante).
var games = [...]Game{
	{"nl", holdem(engine.NoLimit), 100},
	{"pl", holdem(engine.PotLimit), 100},
	{"limit", holdem(engine.FixedLimit), 100},
	{"stud", engine.Config{Variant: engine.StudThree, Ante: 1, StudMaxRaise: 10}, 1},
}

// stack is the chips each seat starts every hand with, in units.
const stack = 200

func holdem(s engine.Structure) engine.Config {
	return engine.Config{Variant: engine.Holdem, Structure: s, SmallBlind: 50, BigBlind: 100}
}

// Games returns every game the arena plays.
func Games() []Game {
	out := games
	return out[:]
}

// ParseGame returns the game called name (nl, pl, limit or stud).
func ParseGame(name string) (Game, error) {
	var names []string
	for _, g := range games {
		if g.Name == name {
			return g, nil
		}
		names = append(names, g.Name)
	}
	return Game{}, fmt.Errorf("unknown variant %q (%s)", name, strings.Join(names, ", "))
}

// Bot returns g as a bot is told it: heads-up, on seats seats.
func (g Game) Bot(seats int) *bot.Game {
	return &bot.Game{Variant: g.Config.Variant, Structure: g.Config.Structure, Seats: seats}
}

// handConfig returns g's configuration for a heads-up hand, with its own stacks.
func (g Game) handConfig() engine.Config {
	c := g.Config
	c.Stacks = []int64{stack * g.Unit, stack * g.Unit}
	return c
}
