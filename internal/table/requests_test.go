package table

import (
	"errors"
	"math"
	"testing"
	"time"

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
