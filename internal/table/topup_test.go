package table

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/felt-poker/felt/internal/house"
)

// TestTopUp tops a stack up: at once between hands, at the hand's end during
// one; never past the maximum buy-in, never for someone not seated, never for
// nothing or less; and a top-up still waiting when the player leaves goes back
// with the stack. Chips are conserved at every step.
func TestTopUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		tb := mustNew(t, testConfig(b, "call", "call")) // buy-ins 200 to 2000
		alice, c := Player{1, "alice"}, &client{}
		tb.Watch(t.Context(), alice, c)
		if err := tb.TopUp(t.Context(), alice, 100); !errors.Is(err, ErrNotSeated) {
			t.Fatalf("a top-up without a seat: %v", err)
		}
		if err := tb.Sit(t.Context(), alice, 3, 1000); err != nil {
			t.Fatal(err)
		}
		// Sitting out, between hands: the chips are on the stack at once.
		if err := tb.SitOut(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		time.Sleep(30 * time.Second)
		synctest.Wait()
		if s := c.last(t); s.Hand != nil && !s.Hand.Over && s.Seats[3].InHand {
			t.Fatal("alice is dealt in while sitting out")
		}
		before := c.last(t).Seats[3].Stack
		for _, bad := range []int64{0, -5, 2000 - before + 1} {
			err := tb.TopUp(t.Context(), alice, bad)
			var fe *house.FieldError
			if !errors.As(err, &fe) || fe.Field != "amount" {
				t.Errorf("a top-up of %d: %v", bad, err)
			}
		}
		synctest.Wait()
		if got := c.last(t).Seats[3].Stack; got != before || b.creditsOf(1) != 9000 {
			t.Fatalf("refused top-ups changed the stack (%d, was %d) or the credits (%d)", got, before, b.creditsOf(1))
		}
		if err := tb.TopUp(t.Context(), alice, 300); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if got := c.last(t).Seats[3].Stack; got != before+300 || b.creditsOf(1) != 8700 {
			t.Fatalf("after a top-up of 300: stack %d (was %d), credits %d", got, before, b.creditsOf(1))
		}
		checkChips(t, tb)

		// In a hand: the chips wait for its end.
		if err := tb.SitIn(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		for range 100 {
			time.Sleep(500 * time.Millisecond)
			synctest.Wait()
			if s := c.last(t); s.Hand != nil && !s.Hand.Over && s.Seats[3].InHand && s.Hand.ToAct != 3 {
				break
			}
		}
		s := c.last(t)
		if s.Hand == nil || s.Hand.Over || !s.Seats[3].InHand {
			t.Fatal("alice is not in a hand")
		}
		if err := tb.TopUp(t.Context(), alice, 100); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		checkChips(t, tb)
		// Leaving with the top-up still waiting: it goes back with the stack.
		if err := tb.Leave(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		time.Sleep(30 * time.Second)
		synctest.Wait()
		checkChips(t, tb)
		if err := tb.TopUp(t.Context(), alice, 100); !errors.Is(err, ErrNotSeated) {
			t.Errorf("a top-up after leaving: %v", err)
		}
		tb.Close(t.Context(), "done")
		b.checkLedger(t)
	})
}

// seatBank books like the house (house.BuyIn, house.CashOut): a buy-in adds to
// the player's seat record at the table, a cash-out deletes that record and
// credits what the table says, and a cash-out that finds no record books
// nothing (house.ErrNoSeat: taken as booked already). committed, when not
// nil, is told of each top-up's buy-in once it is booked, and holds its reply
// until it is closed.
type seatBank struct {
	*bank
	rows      map[int64]int64
	committed chan chan struct{}
}

func (s *seatBank) BuyIn(ctx context.Context, u int64, ref string, amount int64) (int64, error) {
	left, err := s.bank.BuyIn(ctx, u, ref, amount)
	if err != nil {
		return 0, err
	}
	s.mu.Lock()
	s.rows[u] += amount
	ch := s.committed
	s.mu.Unlock()
	if ch != nil {
		reply := make(chan struct{})
		ch <- reply
		<-reply
	}
	return left, nil
}

func (s *seatBank) CashOut(ctx context.Context, u int64, ref string, amount int64) (int64, error) {
	s.mu.Lock()
	_, ok := s.rows[u]
	delete(s.rows, u)
	s.mu.Unlock()
	if !ok {
		return 0, house.ErrNoSeat
	}
	return s.bank.CashOut(ctx, u, ref, amount)
}

// TestTopUpRacingALeaveKeepsItsChips: a player sends a top-up and, before its
// buy-in's reply is back, leaves the seat (a second tab), busts or sees the
// table close. The seat's cash-out deletes the seat's record, the top-up
// included, and credits the stack only; the top-up's return, booked after it,
// then found no record and booked nothing: the top-up's chips were gone. Now
// the seat's cash-out waits for the top-ups in flight and returns them with
// the stack.
func TestTopUpRacingALeaveKeepsItsChips(t *testing.T) {
	for _, end := range []string{"leave", "close"} {
		t.Run(end, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				b := &seatBank{bank: newBank(1), rows: map[int64]int64{}}
				tb := mustNew(t, testConfig(b)) // alice alone: no hand is dealt
				alice := Player{1, "alice"}
				if err := tb.Sit(t.Context(), alice, -1, 1000); err != nil {
					t.Fatal(err)
				}
				committed := make(chan chan struct{})
				b.mu.Lock()
				b.committed = committed
				b.mu.Unlock()
				topped := make(chan error, 1)
				go func() { topped <- tb.TopUp(t.Context(), alice, 500) }()
				reply := <-committed // booked; its reply not yet back
				var err error
				if end == "leave" {
					err = tb.Leave(t.Context(), alice)
				} else {
					closed := make(chan error, 1)
					go func() { closed <- tb.Close(context.Background(), "test over") }()
					synctest.Wait()
					close(reply)
					reply = nil
					err = <-closed
				}
				if err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
				if reply != nil {
					close(reply)
				}
				if err := <-topped; err == nil {
					t.Error("a top-up whose seat was gone before it was booked succeeded")
				}
				if err := tb.Close(context.Background(), "test over"); err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
				if c := b.creditsOf(1); c != 10_000 || len(b.rows) != 0 {
					t.Fatalf("alice has %d credits and the seat records %v after leaving, want 10000 and none", c, b.rows)
				}
			})
		})
	}
}
