package table

import (
	"testing"
	"testing/synctest"
	"time"
)

// TestSittingOutDodgesNoBlind: a player who sits out while hands are dealt
// and sits in again is dealt in at the big blind, not at the next hand: a
// script sitting out whenever the blinds came to it, and in again once they
// had passed, played every other hand without ever paying one.
func TestSittingOutDodgesNoBlind(t *testing.T) {
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
		if err := tb.SitOut(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		handOf := func() int64 {
			if s := c.last(t); s != nil && s.Hand != nil {
				return s.Hand.Number
			}
			return 0
		}
		for start := handOf(); handOf() < start+3; { // the bots play on without her
			time.Sleep(500 * time.Millisecond)
			synctest.Wait()
		}
		if err := tb.SitIn(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		back := handOf()
		for range 200 {
			time.Sleep(500 * time.Millisecond)
			synctest.Wait()
			s := c.last(t)
			if s.Hand == nil || s.Hand.Number <= back || !s.Seats[3].InHand {
				continue
			}
			if s.Hand.BigBlindSeat != 3 {
				t.Fatalf("back from sitting out, alice is first dealt in hand %d in seat 3, the big blind in seat %d: she dodged it",
					s.Hand.Number, s.Hand.BigBlindSeat)
			}
			checkChips(t, tb)
			return
		}
		t.Fatal("alice was never dealt in again")
	})
}
