package table

import (
	"slices"
	"strings"
	"time"

	"github.com/felt-poker/felt/internal/bot"
)

// Level is a named strength of the heads-up game against the computer (the
// lobby offers them; POST /api/headsup takes one as "level"): the bot it seats
// and how strong that bot measured.
type Level struct {
	// Key names the level in the API ("strong"), Name in the lobby ("Strong").
	Key  string `json:"level"`
	Name string `json:"name"`
	// Bot is the bot seated, as bot.New names it.
	Bot string `json:"bot"`
	// Budget is the time the bot may take per decision (the bot's own: 0 for a
	// bot that answers at once); the table's clock bounds it too.
	Budget time.Duration `json:"-"`
	// Strength is the bot's measured strength, from docs/bots.md ("How strong
	// each bot is"), with the measure named.
	Strength string `json:"strength"`
}

// BudgetMS is Budget in milliseconds, for the API.
func (l Level) BudgetMS() int64 { return l.Budget.Milliseconds() }

// HeadsUpLevels are the heads-up game's levels, weakest first. The figures are
// docs/bots.md's: what Local Best Response (felt lbr, in thousandths of a big
// blind a hand, ± the 95% half-width) wins from the bot, the less the stronger,
// and its worst case in the exploiter gauntlet (felt gauntlet --cv, big blinds
// per 100 hands). Update them here when that table changes.
var HeadsUpLevels = []Level{
	{Key: "beginner", Name: "Beginner", Bot: "chart",
		Strength: "a best response wins +9,747 ± 1,326 mbb/g from it; gauntlet worst case +21 ± 32 bb/100"},
	{Key: "intermediate", Name: "Intermediate", Bot: "bayes",
		Strength: "a best response wins +3,485 ± 614 mbb/g from it; gauntlet worst case +30 ± 19 bb/100"},
	{Key: "strong", Name: "Strong", Bot: "neural",
		Strength: "a best response wins +1,596 ± 507 mbb/g from it; gauntlet worst case −21 ± 29 bb/100"},
	{Key: "strongest", Name: "Strongest", Bot: "resolve", Budget: bot.DefaultResolveBudget,
		Strength: "re-solves the turn and river: beats neural by +73 ± 11, tag by +20 ± 16, chart by +25 ± 13 and hsppot by +30 ± 13 bb/100 in duplicate (20,000 to 40,000 hands); a best response won −906 ± 1,427 mbb/g from an earlier version (1,244 hands)"},
}

// HeadsUpLevel returns the level called key (any case), or an error naming the
// levels for any other.
func HeadsUpLevel(key string) (Level, error) {
	i := slices.IndexFunc(HeadsUpLevels, func(l Level) bool { return strings.EqualFold(l.Key, key) })
	if i < 0 {
		keys := make([]string, len(HeadsUpLevels))
		for j, l := range HeadsUpLevels {
			keys[j] = l.Key
		}
		return Level{}, invalid("level", "no such level: choose %s", strings.Join(keys, ", "))
	}
	return HeadsUpLevels[i], nil
}
