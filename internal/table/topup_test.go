package table

import (
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
