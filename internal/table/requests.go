package table

import (
	"time"

	"github.com/felt-poker/felt/internal/bot"
)

// Tables as players and operators ask for them: the API's create-table and
// heads-up requests and the config file's tables turn into a Config here, so
// that every way in shares one set of defaults and bounds (Config.DefaultTimes
// and Config.Validate do the rest when the table opens).

// ActionTime converts a number of seconds to act, as the API and the config file
// write it, to Config.ActionTime: 0 leaves the default; any other number must be
// MinActionTime to MaxActionTime (checked before converting, so that no number
// overflows into range).
func ActionTime(seconds int) (time.Duration, error) {
	lo, hi := int(MinActionTime/time.Second), int(MaxActionTime/time.Second)
	if seconds == 0 {
		return 0, nil
	}
	if seconds < lo || seconds > hi {
		return 0, invalid("action_seconds", "must be %d to %d", lo, hi)
	}
	return time.Duration(seconds) * time.Second, nil
}

// HeadsUp is a game against one bot as a player asks for it (POST /api/headsup).
type HeadsUp struct {
	// Level is one of HeadsUpLevels by its key; Bot a bot by name instead (not
	// both; neither: HeadsUpBot).
	Level      string `json:"level"`
	Bot        string `json:"bot"`
	Chips      int64  `json:"chips"` // each side's stack
	SmallBlind int64  `json:"small_blind"`
	BigBlind   int64  `json:"big_blind"`
	// DoubleEvery is how many hands the blinds double after (nil: 10; 0: never).
	DoubleEvery *int   `json:"double_every"`
	Watchers    string `json:"watchers"` // WatchPlayers (the default) or WatchAnyone
}

// Heads-up defaults: the standard bot, 10,000 chips each, blinds 50/100
// doubling every 10 hands.
const (
	HeadsUpBot         = "chart"
	HeadsUpChips       = 10_000
	HeadsUpSmallBlind  = 50
	HeadsUpBigBlind    = 100
	HeadsUpDoubleEvery = 10
	// HeadsUpMinBigBlinds is the fewest big blinds a heads-up stack may hold.
	HeadsUpMinBigBlinds = 10
)

// DefaultHeadsUp is a heads-up request with every default filled in: decode a
// request over it so that the fields left out keep their defaults.
func DefaultHeadsUp() HeadsUp {
	return HeadsUp{Chips: HeadsUpChips, SmallBlind: HeadsUpSmallBlind, BigBlind: HeadsUpBigBlind}
}

// PlaysHeadsUp reports whether the bot called name may be the opponent of a
// heads-up game (cfr, for one, plays fixed-limit only).
func PlaysHeadsUp(name string) bool {
	c, err := HeadsUpConfig("", DefaultHeadsUp())
	return err == nil && bot.CheckGame(name, c.botGame()) == nil
}

// HeadsUpConfig returns the Config of a heads-up game called name for h: two
// seats, the bot (h.Level's, h.Bot or HeadsUpBot) seated with h.Chips, the
// player to buy in for up to as many, private. It checks the rules of a
// heads-up game alone (a known level, not both a level and a bot, a stack of at
// least HeadsUpMinBigBlinds big blinds, no negative doubling); Config.Validate
// checks the blinds, the bot and the rest when the table opens, as for any
// table.
func HeadsUpConfig(name string, h HeadsUp) (Config, error) {
	every := HeadsUpDoubleEvery
	if h.DoubleEvery != nil {
		every = *h.DoubleEvery
	}
	switch {
	case h.Level != "" && h.Bot != "":
		return Config{}, invalid("level", "give a level or a bot, not both")
	case h.Level != "":
		l, err := HeadsUpLevel(h.Level)
		if err != nil {
			return Config{}, err
		}
		h.Bot = l.Bot
	case h.Bot == "":
		h.Bot = HeadsUpBot
	}
	switch {
	case h.BigBlind > 0 && (h.Chips/HeadsUpMinBigBlinds < h.BigBlind || h.Chips > MaxBuyIn):
		return Config{}, invalid("chips", "must be at least %d big blinds and at most %d", HeadsUpMinBigBlinds, MaxBuyIn)
	case every < 0:
		return Config{}, invalid("double_every", "must not be negative")
	}
	return Config{
		Name: name, Variant: NoLimit, Seats: 2, SmallBlind: h.SmallBlind, BigBlind: h.BigBlind,
		MinBuyIn: h.BigBlind, MaxBuyIn: h.Chips, BotStack: h.Chips, Schedule: Schedule{EveryHands: every},
		Bots: []string{h.Bot}, HeadsUp: true, Private: true, Watchers: h.Watchers,
	}, nil
}
