package table

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/felt-poker/felt/internal/chat"
	"github.com/felt-poker/felt/internal/engine"
)

// The tests of this file lose a table's node (its log refuses every write
// from then on, as a fenced log does) and take the table up again from the
// same log, as another node does: what the players had beside the hand in play
// (their clocks and time banks, their disconnect grace, their options, the
// waiting list, the players let in to a locked table, the room chat) is kept.

// checkOrCall checks when it may, and calls otherwise.
func checkOrCall(l *LegalInfo) (engine.ActionKind, int64) {
	if slices.Contains(l.Actions, "check") {
		return engine.Check, 0
	}
	return engine.Call, 0
}

// actAs plays what choose picks from the legal actions of the state s.
func actAs(t *testing.T, tb *Table, p Player, s *State) {
	t.Helper()
	k, amt := checkOrCall(s.Hand.Legal)
	if err := tb.Act(t.Context(), p, k, amt); err != nil {
		t.Fatal(err)
	}
}

// lose stops table a as a lost node does: its log refuses every write from
// now on (handover, when set, is a SIGTERM's: its last note goes through).
func lose(t *testing.T, a *Table, log *memLog, handover bool) {
	t.Helper()
	if !handover {
		log.setRefuse()
	}
	if err := a.HandOver(t.Context(), "its node is lost"); err != nil {
		t.Fatal(err)
	}
	log.setRefuse() // a writes nothing more
}

// takeOver opens cfg's table again from log after down, as the node that
// takes it over: the log is the new owner's from then on.
func takeOver(t *testing.T, cfg Config, log *memLog, down time.Duration, stacks map[int64]int64) *Table {
	t.Helper()
	time.Sleep(down)
	cfg.HandLog, cfg.Resume = log, log.resume(t, stacks)
	log.setRefused(false)
	return mustNew(t, cfg)
}

// TestTakeoverKeepsTheClock loses alice's node while she is to act, 10.5 s
// into a turn of a 10 s clock with 3 s left of her time bank (she spent 2 s
// of it on her turn before, in the same hand): the table taken over 3 s later
// gives her what she had left at the last record (the clock noted at 10 s)
// plus the takeover's grace of 2 s, not a fresh clock with the bank of the
// hand's start. Handed over (SIGTERM), she has what she had to the
// millisecond, plus the grace.
func TestTakeoverKeepsTheClock(t *testing.T) {
	for _, handover := range []bool{false, true} {
		t.Run(fmt.Sprintf("handover=%v", handover), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				b, log := newBank(1), &memLog{}
				cfg := testConfig(b, "call")
				cfg.HandLog, cfg.TakeoverGrace = log, 2*time.Second
				a := mustNew(t, cfg)
				alice, ca := Player{1, "alice"}, &client{}
				if _, err := a.Watch(t.Context(), alice, ca); err != nil {
					t.Fatal(err)
				}
				if err := a.Sit(t.Context(), alice, -1, 1000); err != nil {
					t.Fatal(err)
				}
				s := waitTurn(t, ca)
				time.Sleep(12 * time.Second) // 2 s of her bank
				actAs(t, a, alice, s)
				s = waitTurn(t, ca)
				hand := s.Hand.HandKey
				time.Sleep(10*time.Second + 500*time.Millisecond)
				lose(t, a, log, handover)

				bt := takeOver(t, cfg, log, 3*time.Second, map[int64]int64{1: 1000})
				cb := &client{}
				if _, err := bt.Watch(t.Context(), alice, cb); err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
				after := cb.last(t)
				if after.Hand == nil || after.Hand.HandKey != hand || after.Hand.Clock == nil || after.Hand.Clock.Seat != after.You.Seat {
					t.Fatalf("after the takeover: %+v, want alice to act in hand %s", after.Hand, hand)
				}
				// 10 s + 3 s of bank, 10 s used (10.5 s handed over), 2 s of grace.
				want := 5 * time.Second
				if handover {
					want = 4500 * time.Millisecond
				}
				if got := time.Duration(after.Hand.Clock.RemainingMS) * time.Millisecond; got > want || got < want-200*time.Millisecond {
					t.Errorf("handed over %v: %v left to act, want %v", handover, got, want)
				}
				if bank := after.You.TimeBankMS; bank > 3000 || bank < 2800 {
					t.Errorf("time bank %d ms, want 3000 (her turn began up to 0.1 s before she saw it)", bank)
				}
			})
		})
	}
}

// TestTakeoverClockNotedWhileThinking checks the bound of the clock's rule: a
// player to act gains at most a note's period plus the grace from a
// takeover, however late in their turn their node is lost.
func TestTakeoverClockNotedWhileThinking(t *testing.T) {
	for _, lost := range []time.Duration{2 * time.Second, 7 * time.Second, 14 * time.Second} {
		t.Run(lost.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				b, log := newBank(1), &memLog{}
				cfg := testConfig(b, "call")
				cfg.HandLog, cfg.TakeoverGrace = log, time.Second
				a := mustNew(t, cfg)
				alice, ca := Player{1, "alice"}, &client{}
				if _, err := a.Watch(t.Context(), alice, ca); err != nil {
					t.Fatal(err)
				}
				if err := a.Sit(t.Context(), alice, -1, 1000); err != nil {
					t.Fatal(err)
				}
				s := waitTurn(t, ca)
				left := time.Duration(s.Hand.Clock.RemainingMS) * time.Millisecond
				time.Sleep(lost)
				lose(t, a, log, false)
				bt := takeOver(t, cfg, log, 5*time.Second, map[int64]int64{1: 1000})
				cb := &client{}
				if _, err := bt.Watch(t.Context(), alice, cb); err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
				after := cb.last(t)
				got := time.Duration(after.Hand.Clock.RemainingMS) * time.Millisecond
				if bound := left - lost + clockNoteEvery + cfg.TakeoverGrace; got > bound {
					t.Errorf("lost %v into the turn: %v left after the takeover, more than %v", lost, got, bound)
				}
			})
		})
	}
}

// lockedTable is a locked three-seat table with a bot, straddles and run it
// twice, where alice and bob (let in by its password, like carol and dave)
// sit and then sit out, alice chooses to straddle and run it twice and says
// hello, carol waits for a seat and bob's connection drops; its node is lost
// 40 s later and the table taken over 5 s after. It returns the table taken
// over and its configuration.
func lockedTable(t *testing.T) (*Table, Config) {
	t.Helper()
	b, log := newBank(1, 2, 3, 4), &memLog{}
	cfg := testConfig(b, "call")
	lock, err := NewPasswordLock("secret")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Seats, cfg.Straddle, cfg.RunItTwice, cfg.Grace, cfg.Lock, cfg.HandLog = 3, true, true, time.Minute, lock, log
	a := mustNew(t, cfg)
	alice, bob, carol, dave := Player{1, "alice"}, Player{2, "bob"}, Player{3, "carol"}, Player{4, "dave"}
	ctx, yes := t.Context(), true
	for _, p := range []Player{alice, bob, carol, dave} {
		if err := a.Admit(ctx, p, "secret"); err != nil {
			t.Fatal(err)
		}
	}
	var bobWatch int
	for _, p := range []Player{alice, bob} {
		id, err := a.Watch(ctx, p, &client{})
		if err != nil {
			t.Fatal(err)
		}
		bobWatch = id
		if err := a.Sit(ctx, p, -1, 1000); err != nil {
			t.Fatal(err)
		}
		if err := a.SitOut(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.JoinWaitlist(ctx, carol, "192.0.2.7"); err != nil {
		t.Fatal(err)
	}
	if err := a.SetOptions(ctx, alice, Options{Straddle: &yes, RunTwice: &yes}); err != nil {
		t.Fatal(err)
	}
	if err := a.Chat(ctx, alice, "", "hello"); err != nil {
		t.Fatal(err)
	}
	if err := a.Unwatch(ctx, bobWatch); err != nil {
		t.Fatal(err)
	}
	time.Sleep(40 * time.Second)
	lose(t, a, log, false)
	return takeOver(t, cfg, log, 5*time.Second, map[int64]int64{1: 1000, 2: 1000}), cfg
}

// TestTakeoverKeepsTheGrace: bob, away for 40 s of his minute of grace when
// his table's node is lost, keeps his seat for the 20 s left of it after the
// takeover, not for a new minute.
func TestTakeoverKeepsTheGrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tb, _ := lockedTable(t)
		time.Sleep(15 * time.Second)
		if !seated(t, tb, 2) {
			t.Fatal("bob lost his seat before his grace ended")
		}
		time.Sleep(10 * time.Second)
		if seated(t, tb, 2) {
			t.Error("bob still seated 25 s after the takeover: his grace began again")
		}
	})
}

// seated reports whether the player id holds a seat at tb.
func seated(t *testing.T, tb *Table, id int64) bool {
	t.Helper()
	ps, err := tb.Players(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return slices.ContainsFunc(ps, func(p Player) bool { return p.ID == id })
}

// TestTakeoverKeepsTheOptions: alice straddles and runs it twice after the
// takeover as before.
func TestTakeoverKeepsTheOptions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tb, _ := lockedTable(t)
		c := &client{}
		if _, err := tb.Watch(t.Context(), Player{1, "alice"}, c); err != nil {
			t.Fatal(err)
		}
		if s := c.last(t); s.You == nil || !s.You.Straddle || !s.You.RunTwice {
			t.Errorf("alice after the takeover: %+v, want straddle and run it twice", s.You)
		}
	})
}

// TestTakeoverKeepsTheWaitlist: carol is still first in line after the
// takeover, and is offered bob's seat when his grace ends.
func TestTakeoverKeepsTheWaitlist(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tb, _ := lockedTable(t)
		c, carol := &client{}, Player{3, "carol"}
		if err := tb.Admit(t.Context(), carol, "secret"); err != nil {
			t.Fatal(err)
		}
		if _, err := tb.Watch(t.Context(), carol, c); err != nil {
			t.Fatal(err)
		}
		if s := c.last(t); !slices.Equal(s.Waitlist, []string{"carol"}) {
			t.Fatalf("waiting list after the takeover: %v, want carol", s.Waitlist)
		}
		_ = tb.call(t.Context(), func() error {
			if from := tb.waitFrom[carol.ID]; from != "192.0.2.7" {
				t.Errorf("carol joined the waiting list from %q after the takeover, want 192.0.2.7 (MaxWaitingFrom)", from)
			}
			return nil
		})
		time.Sleep(25 * time.Second)
		if c.notices(t, "seat_offered") != 1 {
			t.Error("carol was not offered bob's seat")
		}
	})
}

// TestTakeoverKeepsTheAdmitted: dave, let in by the password before the
// takeover, watches the locked table after it without giving it again; a
// stranger is still refused.
func TestTakeoverKeepsTheAdmitted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tb, _ := lockedTable(t)
		if _, err := tb.Watch(t.Context(), Player{4, "dave"}, &client{}); err != nil {
			t.Errorf("dave after the takeover: %v, want let in", err)
		}
		if _, err := tb.Watch(t.Context(), Player{5, "eve"}, &client{}); !errors.Is(err, ErrLocked) {
			t.Errorf("a stranger after the takeover: %v, want ErrLocked", err)
		}
	})
}

// TestTakeoverKeepsTheChat: a player who watches after the takeover is sent
// the room chat's lines said before it.
func TestTakeoverKeepsTheChat(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tb, _ := lockedTable(t)
		c, dave := &client{}, Player{4, "dave"}
		if err := tb.Admit(t.Context(), dave, "secret"); err != nil {
			t.Fatal(err)
		}
		if _, err := tb.Watch(t.Context(), dave, c); err != nil {
			t.Fatal(err)
		}
		var said []string
		for _, b := range c.all() {
			var l chat.Line
			if json.Unmarshal(b, &l) == nil && l.Type == "chat" {
				said = append(said, l.From+": "+l.Text)
			}
		}
		if !slices.Equal(said, []string{"alice: hello"}) {
			t.Errorf("chat after the takeover: %q, want alice's hello", said)
		}
	})
}

// TestNotesBoundedBetweenHands changes a player's option 600 times at a
// table where no hand is dealt: the log then holds the table's whole state
// again and fewer than maxNotes notes after it, and a takeover still finds
// the option as it was last set.
func TestNotesBoundedBetweenHands(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, log := newBank(1), &memLog{}
		cfg := testConfig(b)
		cfg.HandLog, cfg.Straddle = log, true
		a := mustNew(t, cfg)
		alice := Player{1, "alice"}
		if err := a.Sit(t.Context(), alice, -1, 1000); err != nil {
			t.Fatal(err)
		}
		for i := range 600 {
			on := i%2 == 0
			if err := a.SetOptions(t.Context(), alice, Options{Straddle: &on}); err != nil {
				t.Fatal(err)
			}
		}
		log.mu.Lock()
		notes := len(log.notes)
		log.mu.Unlock()
		if notes >= maxNotes {
			t.Fatalf("%d notes after the last state, want fewer than %d", notes, maxNotes)
		}
		lose(t, a, log, false)
		bt := takeOver(t, cfg, log, time.Second, map[int64]int64{1: 1000})
		c := &client{}
		if _, err := bt.Watch(t.Context(), alice, c); err != nil {
			t.Fatal(err)
		}
		synctest.Wait() // the state is sent after Watch returns
		if s := c.last(t); s == nil || s.You == nil || s.You.Straddle {
			t.Errorf("alice after the takeover: %+v, want no straddle (her last choice)", s.You)
		}
	})
}

// BenchmarkNoteNothingChanged is what each command and step of a table with a
// log now costs when nothing of its own changed (the usual case): six seats
// compared with what the log has.
func BenchmarkNoteNothingChanged(b *testing.B) {
	bk := newBank(1, 2, 3, 4, 5)
	cfg := testConfig(bk, "call")
	cfg.Seats, cfg.HandLog = 6, &memLog{}
	tb, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer tb.Close(context.Background(), "done")
	err = tb.call(context.Background(), func() error {
		now := time.Now()
		for i := 1; i < 6; i++ {
			tb.seats[i] = seat{occupied: true, p: Player{int64(i), fmt.Sprint("p", i)}, stack: 1000, bank: 5 * time.Second}
		}
		tb.logState(now)
		b.ResetTimer()
		for range b.N {
			if tb.note(now, false) != nil {
				b.Fatal("a note with nothing changed")
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}
