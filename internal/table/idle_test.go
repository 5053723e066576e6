package table

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/house"
)

// A player whose connection drops at their turn keeps the whole clock and time
// bank: the table shows them disconnected with the clock running, and coming
// back (from any connection) within it finds the same hand and their turn
// (issue 17; the old table checked or folded for them at once).
func TestDisconnectedKeepsTheTurn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		tb := mustNew(t, testConfig(b, "call"))
		alice, c := Player{1, "alice"}, &client{}
		id, _ := tb.Watch(t.Context(), alice, c)
		if err := tb.Sit(t.Context(), alice, 3, 1000); err != nil {
			t.Fatal(err)
		}
		var s *State
		for range 100 {
			time.Sleep(100 * time.Millisecond)
			synctest.Wait()
			if s = c.last(t); s != nil && s.Hand != nil && s.Hand.Legal != nil {
				break
			}
		}
		if s == nil || s.Hand == nil || s.Hand.Legal == nil {
			t.Fatal("alice never got her turn")
		}
		hand := s.Hand.Number
		tb.Unwatch(t.Context(), id)
		spec := &client{}
		tb.Watch(t.Context(), Player{}, spec)
		time.Sleep(8 * time.Second) // of a 10 s clock
		synctest.Wait()
		sp := spec.last(t)
		if sp.Seats[3].Status != StatusAway || sp.Seats[3].Connected {
			t.Fatalf("the table shows her seat as %+v", sp.Seats[3])
		}
		if sp.Hand == nil || sp.Hand.Number != hand || sp.Hand.Clock == nil || sp.Hand.Clock.Seat != 3 {
			t.Fatalf("spectator's hand %+v: the clock should still be hers", sp.Hand)
		}
		c2 := &client{}
		tb.Watch(t.Context(), alice, c2)
		synctest.Wait()
		s2 := c2.last(t)
		if s2.Hand == nil || s2.Hand.Number != hand || s2.Hand.Legal == nil {
			t.Fatalf("after reconnecting: hand %+v, want hand %d with her turn", s2.Hand, hand)
		}
		kind := engine.Call
		if slices.Contains(s2.Hand.Legal.Actions, "check") {
			kind = engine.Check
		}
		if err := tb.Act(t.Context(), alice, kind, 0); err != nil {
			t.Fatalf("her action after reconnecting: %v", err)
		}
		checkChips(t, tb)
	})
}

// A disconnected player who does not come back is timed out like anyone else:
// once the clock and bank run out, then stood up when the grace ends.
func TestDisconnectedTimesOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		tb := mustNew(t, testConfig(b, "call"))
		alice := Player{1, "alice"}
		id, _ := tb.Watch(t.Context(), alice, &client{})
		if err := tb.Sit(t.Context(), alice, 3, 1000); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Second)
		tb.Unwatch(t.Context(), id)
		spec := &client{}
		tb.Watch(t.Context(), Player{}, spec)
		time.Sleep(3 * time.Minute)
		synctest.Wait()
		if st := spec.last(t).Seats[3]; st.Status != StatusEmpty {
			t.Fatalf("seat %+v after the grace", st)
		}
		if b.numHands() == 0 {
			t.Fatal("no hand finished while she was away")
		}
		tb.Close(t.Context(), "done")
		b.checkLedger(t)
	})
}

// A player who sits out longer than SitOutLimit is stood up, the stack back in
// their credits; one who sits in again before it stays (seed 000's idle monitor).
func TestSittingOutTooLongStandsUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1, 2)
		cfg := testConfig(b, "call")
		cfg.SitOutLimit = 2 * time.Minute
		tb := mustNew(t, cfg)
		alice, bob := Player{1, "alice"}, Player{2, "bob"}
		ca, cb := &client{}, &client{}
		tb.Watch(t.Context(), alice, ca)
		tb.Watch(t.Context(), bob, cb)
		for i, p := range []Player{alice, bob} {
			if err := tb.Sit(t.Context(), p, i+1, 1000); err != nil {
				t.Fatal(err)
			}
			if err := tb.SitOut(t.Context(), p); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(90 * time.Second)
		if err := tb.SitIn(t.Context(), bob); err != nil {
			t.Fatal(err)
		}
		if err := tb.SitOut(t.Context(), bob); err != nil { // his limit starts again
			t.Fatal(err)
		}
		time.Sleep(40 * time.Second)
		synctest.Wait()
		s := cb.last(t)
		if s.Seats[1].Status != StatusEmpty || ca.notices(t, "stood_up") != 1 {
			t.Fatalf("alice after 130 s sitting out: %+v, %d notices", s.Seats[1], ca.notices(t, "stood_up"))
		}
		if s.Seats[2].Status == StatusEmpty || cb.notices(t, "stood_up") != 0 {
			t.Fatalf("bob, who sat in again, was stood up: %+v", s.Seats[2])
		}
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		if s := cb.last(t); s.Seats[2].Status != StatusEmpty {
			t.Fatalf("bob after his limit: %+v", s.Seats[2])
		}
		checkChips(t, tb)
		tb.Close(t.Context(), "done")
		b.checkLedger(t)
	})
}

// A private table's hands are recorded as private (their players' alone); an
// open table's, and a private table opened to anyone, are not.
func TestPrivateTablesRecordPrivateHands(t *testing.T) {
	for _, tc := range []struct {
		private  bool
		watchers string
	}{{false, ""}, {true, ""}, {true, WatchAnyone}} {
		synctest.Test(t, func(t *testing.T) {
			b := newBank(1)
			cfg := testConfig(b, "call")
			cfg.Private, cfg.Watchers = tc.private, tc.watchers
			tb := mustNew(t, cfg)
			alice := Player{1, "alice"}
			c := &client{}
			tb.Watch(t.Context(), alice, c)
			if err := tb.Sit(t.Context(), alice, 3, 1000); err != nil {
				t.Fatal(err)
			}
			playWith(t, tb, b, 1, map[Player]*client{alice: c}, checkFold)
			want := tc.private && tc.watchers != WatchAnyone
			b.mu.Lock()
			defer b.mu.Unlock()
			if b.hands[0].Private != want {
				t.Errorf("private %v, watchers %q: hand recorded private %v", tc.private, tc.watchers, b.hands[0].Private)
			}
		})
	}
}

// lostReplyBank books the first cash-out and then loses its reply (a timeout);
// the attempts after it find the seat gone, as house.CashOut does.
type lostReplyBank struct {
	*bank
	mu       sync.Mutex
	cashOuts int
}

func (b *lostReplyBank) CashOut(ctx context.Context, u int64, ref string, amount int64) (int64, error) {
	b.mu.Lock()
	b.cashOuts++
	n := b.cashOuts
	b.mu.Unlock()
	if n > 1 {
		return 0, fmt.Errorf("cash-out: %w", house.ErrNoSeat)
	}
	if _, err := b.bank.CashOut(ctx, u, ref, amount); err != nil {
		return 0, err
	}
	return 0, context.DeadlineExceeded
}

// A cash-out whose reply is lost is tried again, and the retry's ErrNoSeat ends
// it: the chips come back once, and the player hears of it once.
func TestCashOutReplyLost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := &lostReplyBank{bank: newBank(1)}
		tb := mustNew(t, testConfig(b, "call"))
		alice, c := Player{1, "alice"}, &client{}
		tb.Watch(t.Context(), alice, c)
		if err := tb.Sit(t.Context(), alice, 3, 1000); err != nil {
			t.Fatal(err)
		}
		if err := tb.SitOut(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Minute) // any hand she was in is over
		if err := tb.Stand(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Second)
		synctest.Wait()
		b.mu.Lock()
		attempts := b.cashOuts
		b.mu.Unlock()
		if attempts != 2 || c.notices(t, "cashed_out") != 1 {
			t.Fatalf("%d attempts, %d notices; want 2 and 1", attempts, c.notices(t, "cashed_out"))
		}
		tb.Close(t.Context(), "done")
		b.checkLedger(t) // credits = start + nets: booked once
	})
}
