package table

import (
	"fmt"
	"math"
	"testing"
	"testing/synctest"
	"time"
)

// tick lets 100 ms pass and plays for p (a check or a call) when the table
// asks them to act; it returns the newest state c has.
func tick(t *testing.T, tb *Table, p Player, c *client) *State {
	t.Helper()
	time.Sleep(100 * time.Millisecond)
	synctest.Wait()
	s := c.last(t)
	if s != nil && s.Hand != nil && s.Hand.Legal != nil {
		actAs(t, tb, p, s)
		synctest.Wait()
		s = c.last(t)
	}
	return s
}

// tickUntil ticks until done says the state is the one waited for.
func tickUntil(t *testing.T, tb *Table, p Player, c *client, what string, done func(*State) bool) *State {
	t.Helper()
	for range 3000 {
		if s := tick(t, tb, p, c); s != nil && done(s) {
			return s
		}
	}
	t.Fatalf("%s never came", what)
	return nil
}

// firstDealt waits for the first hand after hand number after that deals p's
// seat in, and returns its state.
func firstDealt(t *testing.T, tb *Table, p Player, c *client, seat int, after int64) *State {
	t.Helper()
	return tickUntil(t, tb, p, c, fmt.Sprintf("a hand after %d dealing %s in", after, p.Name), func(s *State) bool {
		return s.Hand != nil && s.Hand.Number > after && s.Seats[seat].InHand
	})
}

// backWith returns the buy-in p sits down with again at tb: want, or the
// stack they left with if more (Config.ReturnWindow).
func backWith(t *testing.T, tb *Table, p Player, want int64) int64 {
	t.Helper()
	err := tb.call(t.Context(), func() error {
		if d, ok := tb.returning(p.ID, time.Now()); ok {
			want = max(want, d.stack)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// handOver reports whether s shows a hand the table has finished.
func handOver(s *State) bool { return s.Hand != nil && s.Hand.Over }

// TestStandingUpDodgesNoBlind: a player who stands up whenever a hand ends
// and sits down again once the next has been dealt without her is dealt in
// only at the big blind, every time. Before, she was dealt in at once, as a
// newcomer: never the big blind in the hand she came back to (the button
// moved on to her or past her), and she could play every other orbit free.
func TestStandingUpDodgesNoBlind(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		tb := mustNew(t, testConfig(b, "call", "call")) // bots in seats 0 and 1
		alice, c := Player{1, "alice"}, &client{}
		if _, err := tb.Watch(t.Context(), alice, c); err != nil {
			t.Fatal(err)
		}
		if err := tb.Sit(t.Context(), alice, 3, 1000); err != nil {
			t.Fatal(err)
		}
		const cycles = 4
		for cycle := range cycles {
			s := tickUntil(t, tb, alice, c, "the end of a hand", handOver)
			stood := s.Hand.Number
			if err := tb.Stand(t.Context(), alice); err != nil {
				t.Fatal(err)
			}
			tickUntil(t, tb, alice, c, "a hand without alice", func(s *State) bool { return s.Hand.Number > stood })
			if err := tb.Sit(t.Context(), alice, 3, backWith(t, tb, alice, 1000)); err != nil {
				t.Fatal(err)
			}
			synctest.Wait()
			s = c.last(t)
			if s.You == nil || !s.You.WaitBigBlind {
				t.Errorf("cycle %d: alice seated again after a hand dealt without her: %+v, want her to wait for the big blind", cycle, s.You)
			}
			s = firstDealt(t, tb, alice, c, 3, s.Hand.Number)
			if s.Hand.BigBlindSeat != 3 {
				t.Fatalf("cycle %d: back after standing up, alice is first dealt in hand %d, the big blind in seat %d: she dodged it",
					cycle, s.Hand.Number, s.Hand.BigBlindSeat)
			}
			if s.You.WaitBigBlind {
				t.Errorf("cycle %d: alice dealt in at the big blind still waits for it", cycle)
			}
		}
		if n := c.notices(t, "wait_big_blind"); n != cycles {
			t.Errorf("%d wait_big_blind notices, want %d", n, cycles)
		}
		checkChips(t, tb)
	})
}

// TestSittingDownAgainOwesOnlyWhatItDodged: standing up and sitting down
// again in the same seat before any hand is dealt owes nothing; in another
// seat it owes the big blind (a seat past the blinds would dodge them);
// after Config.SitOutLimit, or after busting, the player is a newcomer
// again, dealt in at once; a newcomer owes nothing.
func TestSittingDownAgainOwesOnlyWhatItDodged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1, 2)
		tb := mustNew(t, testConfig(b)) // no bots: no hand is dealt
		alice, c := Player{1, "alice"}, &client{}
		if _, err := tb.Watch(t.Context(), alice, c); err != nil {
			t.Fatal(err)
		}
		sitAgain := func(seat int, away time.Duration, want bool, why string) {
			t.Helper()
			if err := tb.Stand(t.Context(), alice); err != nil {
				t.Fatal(err)
			}
			time.Sleep(away)
			if err := tb.Sit(t.Context(), alice, seat, 500); err != nil {
				t.Fatal(err)
			}
			synctest.Wait()
			if s := c.last(t); s.You == nil || s.You.WaitBigBlind != want {
				t.Errorf("%s: %+v, want waiting for the big blind %v", why, s.You, want)
			}
		}
		if err := tb.Sit(t.Context(), alice, 3, 500); err != nil {
			t.Fatal(err)
		}
		sitAgain(3, 0, false, "the same seat, no hand dealt")
		sitAgain(2, 0, true, "another seat")
		sitAgain(2, 0, true, "the seat she left owing the big blind") // she owed it when she left
		sitAgain(1, 5*time.Minute-time.Millisecond, true, "another seat just within the sit-out limit")
		sitAgain(0, 5*time.Minute, false, "another seat after the sit-out limit (5 minutes)")
		err := tb.call(t.Context(), func() error { tb.cashOut(tb.seatOf(alice.ID), "busted"); return nil })
		if err != nil {
			t.Fatal(err)
		}
		if err := tb.Sit(t.Context(), alice, 1, 500); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if s := c.last(t); s.You.WaitBigBlind {
			t.Error("back after busting: waiting for the big blind, want a newcomer")
		}
		bob, cb := Player{2, "bob"}, &client{}
		if _, err := tb.Watch(t.Context(), bob, cb); err != nil {
			t.Fatal(err)
		}
		if err := tb.Sit(t.Context(), bob, 3, 500); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if s := cb.last(t); s.You.WaitBigBlind {
			t.Error("a newcomer waits for the big blind")
		}
		if n := c.notices(t, "wait_big_blind"); n != 3 {
			t.Errorf("%d wait_big_blind notices, want 3", n)
		}
		checkChips(t, tb)
	})
}

// TestDeparturesBounded: a table remembers one departure a player, for
// keepDeparted (the longer of Config.SitOutLimit and Config.ReturnWindow),
// and at most maxDeparted of them (of equal worth, the oldest forgotten
// first), however many players come and go.
func TestDeparturesBounded(t *testing.T) {
	tb := mustNew(t, testConfig(newBank()))
	err := tb.call(t.Context(), func() error {
		now := time.Now()
		for id := int64(1); id <= maxDeparted+1; id++ {
			tb.depart(0, &seat{occupied: true, p: Player{ID: id, Name: "p"}}, false, now.Add(time.Duration(id)*time.Millisecond))
			tb.depart(1, &seat{occupied: true, p: Player{ID: id, Name: "p"}}, false, now.Add(time.Duration(id)*time.Millisecond))
		}
		if _, kept := tb.departed[1]; len(tb.departed) != maxDeparted || kept {
			t.Errorf("%d departures remembered (the first kept: %v), want %d without the first", len(tb.departed), kept, maxDeparted)
		}
		if d := tb.departed[2]; d.seat != 1 {
			t.Errorf("player 2's departure from seat %d, want the last (1)", d.seat)
		}
		tb.depart(2, &seat{occupied: true, p: Player{ID: 1, Name: "p"}}, false, now.Add(tb.keepDeparted()+2*time.Second))
		if len(tb.departed) != 1 {
			t.Errorf("%d departures remembered past the return window, want the last one", len(tb.departed))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestUnusedDeparturesForgotten: departures no rule reads any more are
// forgotten at the next departure, before the return window ends: past
// Config.SitOutLimit, a player who left with the table's minimum or less
// and a full clock, and a player who left busted, come back as newcomers
// whether the table remembers them or not. The departures the table keeps
// (and logs with each hand) are the ones that matter. Before, each was
// kept for the whole return window.
func TestUnusedDeparturesForgotten(t *testing.T) {
	tb := mustNew(t, testConfig(newBank()))
	err := tb.call(t.Context(), func() error {
		now, cfg := time.Now(), tb.cfg
		leave := func(id, stack int64, bank time.Duration, timeouts int, busted bool, at time.Time) {
			tb.depart(0, &seat{occupied: true, p: Player{ID: id, Name: "p"}, stack: stack, bank: bank, timeouts: timeouts}, busted, at)
		}
		leave(1, cfg.MinBuyIn, cfg.TimeBank, 0, false, now)                  // forgotten
		leave(2, 0, cfg.TimeBank, 0, true, now)                              // busted: forgotten
		leave(3, cfg.MinBuyIn+1, cfg.TimeBank, 0, false, now)                // a stack to bring back
		leave(4, cfg.MinBuyIn, cfg.TimeBank-time.Second, 0, false, now)      // a clock to find again
		leave(5, cfg.MinBuyIn, cfg.TimeBank, 1, false, now)                  // a timeout in a row
		leave(6, cfg.MinBuyIn, cfg.TimeBank, 0, false, now.Add(time.Second)) // the big blind owed still
		leave(7, cfg.MinBuyIn, cfg.TimeBank, 0, false, now.Add(cfg.SitOutLimit))
		for id := int64(1); id <= 7; id++ {
			if _, kept := tb.departed[id]; kept != (id > 2) {
				t.Errorf("player %d's departure kept: %v, want %v", id, kept, id > 2)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTakeoverKeepsTheBlindOwed: alice stands up, her table's node is lost
// (right after, or after a hand dealt without her) and she sits down again on
// the node that took it over once a hand was dealt without her: she waits
// for the big blind there too. Before, the new node knew nothing of her
// leaving and dealt her in at once.
func TestTakeoverKeepsTheBlindOwed(t *testing.T) {
	for _, lost := range []string{"after standing up", "after a hand without her"} {
		t.Run(lost, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				b, log := newBank(1), &memLog{}
				cfg := testConfig(b, "call", "call")
				cfg.HandLog = log
				a := mustNew(t, cfg)
				alice, ca := Player{1, "alice"}, &client{}
				if _, err := a.Watch(t.Context(), alice, ca); err != nil {
					t.Fatal(err)
				}
				if err := a.Sit(t.Context(), alice, 3, 1000); err != nil {
					t.Fatal(err)
				}
				firstDealt(t, a, alice, ca, 3, 0)
				s := tickUntil(t, a, alice, ca, "the end of a hand", handOver)
				stood := s.Hand.Number
				if err := a.Stand(t.Context(), alice); err != nil {
					t.Fatal(err)
				}
				if lost != "after standing up" {
					tickUntil(t, a, alice, ca, "a hand without alice", func(s *State) bool { return s.Hand.Number > stood })
				}
				lose(t, a, log, false)
				bt := takeOver(t, cfg, log, 5*time.Second, map[int64]int64{})
				cb := &client{}
				if _, err := bt.Watch(t.Context(), alice, cb); err != nil {
					t.Fatal(err)
				}
				tickUntil(t, bt, alice, cb, "a hand without alice", func(s *State) bool { return s.Hand != nil && s.Hand.Number > stood })
				if err := bt.Sit(t.Context(), alice, 3, backWith(t, bt, alice, 1000)); err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
				s = cb.last(t)
				if !s.You.WaitBigBlind {
					t.Errorf("alice seated again after the takeover: %+v, want her to wait for the big blind", s.You)
				}
				s = firstDealt(t, bt, alice, cb, 3, s.Hand.Number)
				if s.Hand.BigBlindSeat != 3 {
					t.Fatalf("after the takeover alice is first dealt in hand %d, the big blind in seat %d: she dodged it", s.Hand.Number, s.Hand.BigBlindSeat)
				}
				checkChips(t, bt)
			})
		})
	}
}

// TestResumedDeparturesBounded: a table taking up a log that holds more
// departures than maxDeparted (a state's and the notes after it) keeps at
// most maxDeparted, and reads a departure's clock as at most a full time
// bank and its age and counts as never negative, whatever the log says.
// Before, it kept them all and gave a player back the bank the log named,
// and took an age past what a time.Duration holds for a negative one.
func TestResumedDeparturesBounded(t *testing.T) {
	tb := mustNew(t, testConfig(newBank()))
	err := tb.call(t.Context(), func() error {
		now := time.Now()
		var ds []LogDeparture
		for id := int64(1); id <= maxDeparted+5; id++ {
			ds = append(ds, LogDeparture{ID: id, Seat: 1, AgoMS: id, Stack: 1000})
		}
		ds = append(ds, LogDeparture{ID: 9999, Seat: 1, AgoMS: -3_600_000, Stack: 5000, Won: 1 << 40, BankMS: 1 << 40, Timeouts: -2},
			LogDeparture{ID: 9998, Seat: 1, AgoMS: math.MaxInt64, Stack: 1 << 40, Won: 1 << 40})
		r := &Resume{}
		r.foldDeparted(ds, now)
		tb.departed = nil
		tb.resumeDeparted(r, now)
		if len(tb.departed) > maxDeparted {
			t.Errorf("%d departures taken up, want at most %d", len(tb.departed), maxDeparted)
		}
		if d, ok := tb.departed[9998]; ok {
			t.Errorf("a departure left %d ms ago taken up as %+v", int64(math.MaxInt64), d)
		}
		d, ok := tb.departed[9999]
		if !ok {
			t.Error("the departure with the largest stack forgotten")
		}
		if d.at.After(now) || d.bank > tb.cfg.TimeBank || d.timeouts < 0 || d.won > d.stack {
			t.Errorf("a departure taken up as %+v, want it left now at the latest, no negative count, at most a full bank (%v), won no more than its stack", d, tb.cfg.TimeBank)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestBustedDepartureReachesTheLog: alice left with 3000 (logged), came back
// and busted at the end of a hand in which bob stood up too: her busted
// departure, which no rule reads, is not forgotten before the log has it,
// so that a node taking the table over does not find her 3000 instead and
// ask her to bring it back.
func TestBustedDepartureReachesTheLog(t *testing.T) {
	cfg := testConfig(newBank())
	cfg.HandLog = &memLog{}
	tb := mustNew(t, cfg)
	err := tb.call(t.Context(), func() error {
		now := time.Now()
		alice, bob := Player{ID: 1, Name: "alice"}, Player{ID: 2, Name: "bob"}
		tb.depart(0, &seat{occupied: true, p: alice, stack: 3000, bank: tb.cfg.TimeBank}, false, now)
		tb.loggedDepartSeq = tb.departSeq // the log has it
		tb.depart(0, &seat{occupied: true, p: alice, bank: tb.cfg.TimeBank}, true, now.Add(time.Minute))
		tb.depart(1, &seat{occupied: true, p: bob, stack: 500, bank: tb.cfg.TimeBank}, false, now.Add(time.Minute))
		logged := tb.logDeparted(now.Add(time.Minute), tb.loggedDepartSeq)
		if len(logged) != 2 || logged[0].ID != alice.ID || !logged[0].Busted {
			t.Errorf("the departures the log gets next: %+v, want alice's busted one, then bob's", logged)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
