package table

import (
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// TestLeftPlayerNotListed checks the lobby's listing of a table after a player
// leaves in the middle of a hand: their seat stays taken until the hand ends,
// but they are no longer among the table's players (the lobby would otherwise
// tell them they still have a seat there).
func TestLeftPlayerNotListed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		var mu sync.Mutex
		var last Info
		cfg := testConfig(b, "call", "call")
		cfg.Hooks.Info = func(in Info) { mu.Lock(); last = in; mu.Unlock() }
		listing := func() Info { mu.Lock(); defer mu.Unlock(); return last }
		tb := mustNew(t, cfg)
		alice, c := Player{1, "alice"}, &client{}
		tb.Watch(t.Context(), alice, c)
		if err := tb.Sit(t.Context(), alice, 3, 1000); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if s := c.last(t); s.Hand == nil || s.Hand.Over || !s.Seats[3].InHand {
			t.Fatalf("alice is not in a hand: %+v", s.Hand)
		}
		if in := listing(); !slices.Contains(in.Players, "alice") || in.Taken != 3 {
			t.Fatalf("before leaving: %+v", in)
		}
		if err := tb.Leave(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if s := c.last(t); s.Hand == nil || s.Hand.Over {
			t.Fatal("the hand ended when alice left: the test needs it in play")
		}
		if in := listing(); slices.Contains(in.Players, "alice") || in.Taken != 3 {
			t.Errorf("after leaving in a hand: players %v, %d seats taken (want alice gone, 3 taken until the hand ends)", in.Players, in.Taken)
		}
		tb.Close(t.Context(), "done")
		b.checkLedger(t)
	})
}
