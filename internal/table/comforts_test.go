package table

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/history"
	"github.com/felt-poker/felt/internal/house"
)

// TestStraddleAndRunTwiceAtTheTable: at a table allowing both, players who
// chose to straddle do so under the gun, and an all-in before the river with
// everyone agreeing runs the board twice (the state shows the second board);
// the hands' PHH record both and replays; chips are conserved throughout.
func TestStraddleAndRunTwiceAtTheTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1, 2, 3)
		cfg := testConfig(b, "call")
		cfg.Straddle, cfg.RunItTwice = true, true
		tb := mustNew(t, cfg)
		seats := map[Player]*client{}
		yes := true
		for i, name := range []string{"alice", "bob", "carol"} {
			p, c := Player{int64(i + 1), name}, &client{}
			seats[p] = c
			tb.Watch(t.Context(), p, c)
			if err := tb.Sit(t.Context(), p, i+1, 2000); err != nil {
				t.Fatal(err)
			}
			if err := tb.SetOptions(t.Context(), p, Options{Straddle: &yes, RunTwice: &yes}); err != nil {
				t.Fatal(err)
			}
		}
		// Calling down: the straddles of the players under the gun.
		calls := func(l *LegalInfo) (engine.ActionKind, int64) {
			if slices.Contains(l.Actions, "check") {
				return engine.Check, 0
			}
			return engine.Call, 0
		}
		playWith(t, tb, b, 6, seats, calls)
		// All in: the board run twice.
		allIn := func(l *LegalInfo) (engine.ActionKind, int64) {
			if slices.Contains(l.Actions, "raise") {
				return engine.Raise, l.MaxTo
			}
			return calls(l)
		}
		playWith(t, tb, b, 7, seats, allIn)
		checkChips(t, tb)
		if err := tb.Close(t.Context(), "test over"); err != nil {
			t.Fatal(err)
		}
		if on, in, out, _ := tb.Chips(t.Context()); on != 0 || in != out {
			t.Fatalf("after closing: on %d, in %d, out %d", on, in, out)
		}
		b.checkLedger(t)
		straddles, twice := 0, 0
		for _, h := range b.hands {
			p, err := history.Parse([]byte(h.PHH))
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := p.Replay(); err != nil {
				t.Fatalf("hand does not replay: %v\n%s", err, h.PHH)
			}
			if len(p.BlindsOrStraddles) > 2 && p.BlindsOrStraddles[2] == 40 {
				straddles++
			}
			if p.SecondBoard != "" {
				twice++
			}
		}
		if straddles == 0 || twice == 0 {
			t.Fatalf("%d hands straddled, %d ran twice", straddles, twice)
		}
		seen := false
		for _, c := range seats {
			for _, m := range c.all() {
				if strings.Contains(string(m), `"second_board"`) && strings.Contains(string(m), `"second_run"`) {
					seen = true
				}
			}
		}
		if !seen {
			t.Fatal("no state showed the second board")
		}
	})
}

// TestOptionsRefused: a table without the settings refuses the choices, and a
// player without a seat has none to set.
func TestOptionsRefused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		tb := mustNew(t, testConfig(b, "call"))
		alice, yes, no := Player{1, "alice"}, true, false
		if err := tb.SetOptions(t.Context(), alice, Options{Straddle: &no}); !errors.Is(err, ErrNotSeated) {
			t.Fatalf("options without a seat: %v", err)
		}
		tb.Watch(t.Context(), alice, &client{})
		if err := tb.Sit(t.Context(), alice, 1, 1000); err != nil {
			t.Fatal(err)
		}
		for _, o := range []Options{{Straddle: &yes}, {RunTwice: &yes}} {
			var fe *house.FieldError
			if err := tb.SetOptions(t.Context(), alice, o); !errors.As(err, &fe) {
				t.Fatalf("%+v at a table without it: %v", o, err)
			}
		}
		for _, v := range []string{FixedLimit, StudThree} {
			cfg := testConfig(b)
			cfg.Variant, cfg.Straddle = v, true
			if v == StudThree {
				cfg.SmallBlind, cfg.BigBlind, cfg.Ante = 0, 0, 1
			}
			cfg.DefaultTimes()
			var fe *house.FieldError
			if err := cfg.Validate(); !errors.As(err, &fe) || fe.Field != "straddle" {
				t.Fatalf("a straddle in %s: %v", v, err)
			}
		}
	})
}

// TestLockedTable: a table with a password lets in only players who gave it
// (watch, sit, chat), never anonymous ones, and records its hands private.
func TestLockedTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1, 2)
		cfg := testConfig(b, "call")
		var err error
		if cfg.Lock, err = NewPasswordLock("open sesame"); err != nil {
			t.Fatal(err)
		}
		tb := mustNew(t, cfg)
		alice, bob, c := Player{1, "alice"}, Player{2, "bob"}, &client{}
		if _, err := tb.Watch(t.Context(), alice, c); !errors.Is(err, ErrLocked) {
			t.Fatalf("watch without the password: %v", err)
		}
		if err := tb.Sit(t.Context(), alice, -1, 1000); !errors.Is(err, ErrLocked) {
			t.Fatalf("sit without the password: %v", err)
		}
		if err := tb.Chat(t.Context(), alice, "", "hi"); !errors.Is(err, ErrLocked) {
			t.Fatalf("chat without the password: %v", err)
		}
		if err := tb.Admit(t.Context(), bob, "open says me"); !errors.Is(err, ErrLocked) {
			t.Fatalf("a wrong password: %v", err)
		}
		if err := tb.Admit(t.Context(), Player{}, "open sesame"); !errors.Is(err, ErrAnonymous) {
			t.Fatalf("an anonymous player: %v", err)
		}
		if _, err := tb.Watch(t.Context(), Player{}, &client{}); !errors.Is(err, ErrAnonymous) {
			t.Fatalf("an anonymous spectator: %v", err)
		}
		if err := tb.Admit(t.Context(), alice, "open sesame"); err != nil {
			t.Fatal(err)
		}
		if _, err := tb.Watch(t.Context(), alice, c); err != nil {
			t.Fatal(err)
		}
		if err := tb.Sit(t.Context(), alice, -1, 1000); err != nil {
			t.Fatal(err)
		}
		playWith(t, tb, b, 1, map[Player]*client{alice: c}, checkFold)
		if len(b.hands) == 0 || !b.hands[0].Private {
			t.Fatal("a locked table's hand was recorded public")
		}
		if in := c.last(t).Info; in.Locked != LockPassword {
			t.Fatalf("listed as locked %q", in.Locked)
		}
	})
}
