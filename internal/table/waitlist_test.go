package table

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/felt-poker/felt/internal/chat"
)

// TestWaitingList: players join a full table's waiting list in order; a free
// seat is offered to the first, held for them (the next cannot take it), and
// passes to the next when they let the offer lapse; sitting takes them off the
// list. A table with a free seat, or a seated player, has no list to join.
func TestWaitingList(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1, 2, 3, 4)
		cfg := testConfig(b, "call")
		cfg.Seats = 2
		tb := mustNew(t, cfg)
		alice, bob, carol := Player{1, "alice"}, Player{2, "bob"}, Player{3, "carol"}
		clients := map[int64]*client{}
		for _, p := range []Player{alice, bob, carol} {
			clients[p.ID] = &client{}
			if _, err := tb.Watch(t.Context(), p, clients[p.ID]); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := tb.JoinWaitlist(t.Context(), bob, ""); !errors.Is(err, ErrSeatFree) {
			t.Fatalf("joining with a seat free: %v", err)
		}
		if err := tb.Sit(t.Context(), alice, -1, 1000); err != nil {
			t.Fatal(err)
		}
		if _, err := tb.JoinWaitlist(t.Context(), alice, ""); !errors.Is(err, ErrSeated) {
			t.Fatalf("a seated player joined: %v", err)
		}
		if _, err := tb.JoinWaitlist(t.Context(), Player{}, ""); !errors.Is(err, ErrAnonymous) {
			t.Fatalf("an anonymous player joined: %v", err)
		}
		for want, p := range []Player{bob, carol, bob} {
			place, err := tb.JoinWaitlist(t.Context(), p, "")
			if err != nil || place != []int{1, 2, 1}[want] {
				t.Fatalf("%s joined at %d (%v)", p.Name, place, err)
			}
		}
		if err := tb.LeaveWaitlist(t.Context(), Player{4, "dave"}); !errors.Is(err, ErrNotSeated) {
			t.Fatalf("dave left a list he was not on: %v", err)
		}
		synctest.Wait()
		if s := clients[3].last(t); len(s.Waitlist) != 2 || s.Waitlist[0] != "bob" || s.Info.Waiting != 2 {
			t.Fatalf("the list as shown: %v (%d)", s.Waitlist, s.Info.Waiting)
		}
		// alice leaves: her seat is offered to bob, and held for him.
		if err := tb.Leave(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		for range 100 {
			time.Sleep(100 * time.Millisecond)
			synctest.Wait()
			if clients[2].notices(t, "seat_offered") > 0 {
				break
			}
		}
		s := clients[3].last(t)
		if s.Offer == nil || s.Offer.Name != "bob" {
			t.Fatalf("the offer: %+v", s.Offer)
		}
		if err := tb.Sit(t.Context(), carol, -1, 1000); !errors.Is(err, ErrSeatTaken) {
			t.Fatalf("carol took bob's seat: %v", err)
		}
		// bob lets it lapse: carol's turn.
		time.Sleep(31 * time.Second) // the default OfferTime is 30 s
		synctest.Wait()
		if clients[2].notices(t, "offer_expired") != 1 || clients[3].notices(t, "seat_offered") != 1 {
			t.Fatal("the offer did not pass from bob to carol")
		}
		if err := tb.Sit(t.Context(), carol, -1, 1000); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if s := clients[3].last(t); len(s.Waitlist) != 0 || s.Offer != nil {
			t.Fatalf("after carol sat: list %v, offer %+v", s.Waitlist, s.Offer)
		}
		checkChips(t, tb)
	})
}

// TestWaitingListPerAddress: a script's guests (20 at once from one address)
// at the head of a full table's waiting list held every freed seat for
// OfferTime each, one after another, and joined again at the end: at most
// MaxWaitingFrom players from one address wait at once; other addresses are
// not held back, and a place freed lets the address join again.
func TestWaitingListPerAddress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		cfg := testConfig(b, "call")
		cfg.Seats = 2
		tb := mustNew(t, cfg)
		if err := tb.Sit(t.Context(), Player{1, "alice"}, -1, 1000); err != nil {
			t.Fatal(err)
		}
		for i := range MaxWaitingFrom {
			if _, err := tb.JoinWaitlist(t.Context(), Player{int64(10 + i), "guest"}, "10.0.0.1"); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := tb.JoinWaitlist(t.Context(), Player{20, "guest"}, "10.0.0.1"); !errors.Is(err, chat.ErrRateLimited) {
			t.Fatalf("one more guest of the address: %v, want refused", err)
		}
		if _, err := tb.JoinWaitlist(t.Context(), Player{30, "bob"}, "10.0.0.2"); err != nil {
			t.Fatalf("a player of another address: %v", err)
		}
		if err := tb.LeaveWaitlist(t.Context(), Player{10, "guest"}); err != nil {
			t.Fatal(err)
		}
		if place, err := tb.JoinWaitlist(t.Context(), Player{20, "guest"}, "10.0.0.1"); err != nil || place != 3 {
			t.Fatalf("the address's guest once a place freed: %d %v", place, err)
		}
	})
}
