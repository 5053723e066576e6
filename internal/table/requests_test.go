package table

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/house"
)

func fieldOf(err error) string {
	var fe *house.FieldError
	if errors.As(err, &fe) {
		return fe.Field
	}
	return ""
}

// TestActionTime converts the seconds to act of a request: 0 is the default,
// the bounds are MinActionTime and MaxActionTime, and no number overflows into
// range.
func TestActionTime(t *testing.T) {
	for _, c := range []struct {
		in   int
		want time.Duration
		ok   bool
	}{
		{0, 0, true}, {5, 5 * time.Second, true}, {120, 2 * time.Minute, true},
		{4, 0, false}, {121, 0, false}, {-1, 0, false}, {1000, 0, false},
		// 18446744083 s is 2^64 ns + 0.3 s plus change: it wraps to a few seconds.
		{18446744083, 0, false}, {math.MaxInt, 0, false}, {math.MinInt, 0, false},
	} {
		got, err := ActionTime(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ActionTime(%d) = %v, %v; want %v (ok %v)", c.in, got, err, c.want, c.ok)
		}
		if err != nil && fieldOf(err) != "action_seconds" {
			t.Errorf("ActionTime(%d): error names %q", c.in, fieldOf(err))
		}
	}
}

// TestHeadsUpConfig checks a heads-up request's defaults and its own rules;
// the blinds are Validate's, as for any table.
func TestHeadsUpConfig(t *testing.T) {
	cfg, err := HeadsUpConfig("hu-x", DefaultHeadsUp())
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Seats != 2 || cfg.SmallBlind != 50 || cfg.BigBlind != 100 || cfg.MaxBuyIn != 10_000 || cfg.BotStack != 10_000 ||
		cfg.Schedule.EveryHands != 10 || !cfg.HeadsUp || !cfg.Private || len(cfg.Bots) != 1 || cfg.Bots[0] != "chart" {
		t.Errorf("the default heads-up: %+v", cfg)
	}
	never := 0
	h := DefaultHeadsUp()
	h.DoubleEvery = &never
	if cfg, err := HeadsUpConfig("hu-x", h); err != nil || cfg.Schedule.EveryHands != 0 {
		t.Errorf("blinds that never double: %+v %v", cfg.Schedule, err)
	}
	bad := func(edit func(*HeadsUp), field string) {
		t.Helper()
		h := DefaultHeadsUp()
		edit(&h)
		cfg, err := HeadsUpConfig("hu-x", h)
		if err == nil {
			cfg.Bank = newBank()
			cfg.DefaultTimes()
			err = cfg.Validate()
		}
		if fieldOf(err) != field {
			t.Errorf("%+v: %v, want an error on %s", h, err, field)
		}
	}
	minus := -1
	bad(func(h *HeadsUp) { h.Chips = 999 }, "chips")
	bad(func(h *HeadsUp) { h.Chips = MaxBuyIn + 1 }, "chips")
	bad(func(h *HeadsUp) { h.BigBlind = math.MaxInt64 / 5 }, "chips")
	bad(func(h *HeadsUp) { h.DoubleEvery = &minus }, "double_every")
	bad(func(h *HeadsUp) { h.SmallBlind = 0 }, "small_blind")
	bad(func(h *HeadsUp) { h.BigBlind = 40 }, "big_blind")
	bad(func(h *HeadsUp) { h.Watchers = "friends" }, "watchers")
	bad(func(h *HeadsUp) { h.Level = "grandmaster" }, "level")
	bad(func(h *HeadsUp) { h.Level, h.Bot = "strong", "call" }, "level")
}

// Every heads-up level seats a bot of the registry that a player may ask for,
// with its measured strength; a level's key chooses it in any case.
func TestHeadsUpLevels(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range HeadsUpLevels {
		if err := bot.CheckUntrusted(l.Bot); err != nil || l.Name == "" || l.Strength == "" || seen[l.Key] {
			t.Errorf("level %+v: %v", l, err)
		}
		seen[l.Key] = true
		h := DefaultHeadsUp()
		h.Level = strings.ToUpper(l.Key)
		if cfg, err := HeadsUpConfig("hu-x", h); err != nil || cfg.Bots[0] != l.Bot {
			t.Errorf("level %s seats %v (%v), want %s", l.Key, cfg.Bots, err, l.Bot)
		}
	}
	if last := HeadsUpLevels[len(HeadsUpLevels)-1]; last.Bot != "resolve" || last.Budget != bot.DefaultResolveBudget {
		t.Errorf("the strongest level is %+v, want resolve at its default budget", last)
	}
}

// A table's bots must play its game: cfr (heads-up limit only) is refused at a
// no-limit heads-up table and at a six-seat limit table, accepted at a heads-up
// limit one.
func TestBotsPlayTheTablesGame(t *testing.T) {
	for _, c := range []struct {
		variant string
		seats   int
		field   string
	}{{NoLimit, 2, "bots"}, {FixedLimit, 6, "bots"}, {FixedLimit, 2, ""}} {
		cfg, err := HeadsUpConfig("hu-x", DefaultHeadsUp())
		if err != nil {
			t.Fatal(err)
		}
		cfg.Bank = newBank()
		cfg.DefaultTimes()
		cfg.Variant, cfg.Seats, cfg.Bots = c.variant, c.seats, []string{"cfr"}
		if err := cfg.Validate(); fieldOf(err) != c.field {
			t.Errorf("cfr at %d-seat %s: %v, want an error on %q", c.seats, c.variant, err, c.field)
		}
	}
}
