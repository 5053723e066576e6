package table

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/felt-poker/felt/internal/house"
)

// winFrom moves n chips from loser's stack to winner's between hands, as a
// hand would: the chips on the table stay what they were.
func winFrom(t *testing.T, tb *Table, winner, loser Player, n int64) {
	t.Helper()
	err := tb.call(t.Context(), func() error {
		tb.seats[tb.seatOf(winner.ID)].stack += n
		tb.seats[tb.seatOf(loser.ID)].stack -= n
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRatholing: alice wins bob's chips (3000, over the table's 2000
// maximum), stands up, and sits down again at once with the table's minimum
// buy-in, having put the rest in her credits. She is refused, with the
// amount she must bring (at least the 3000 she left with, however many
// seats or minutes later within the return window; neither less nor more,
// the table's maximum being her stack then), and nothing changes; with 3000
// she sits. After the window she is a newcomer again. Before, she sat down
// with 200 and kept 2800 off the table.
func TestRatholing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1, 2)
		tb := mustNew(t, testConfig(b))
		alice, bob, c := Player{1, "alice"}, Player{2, "bob"}, &client{}
		if _, err := tb.Watch(t.Context(), alice, c); err != nil {
			t.Fatal(err)
		}
		// bob sits out: no hand is dealt.
		if err := tb.Sit(t.Context(), bob, 3, 2000); err != nil {
			t.Fatal(err)
		}
		if err := tb.SitOut(t.Context(), bob); err != nil {
			t.Fatal(err)
		}
		if err := tb.Sit(t.Context(), alice, 1, 2000); err != nil {
			t.Fatal(err)
		}
		winFrom(t, tb, alice, bob, 1000)
		if err := tb.Stand(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if got := b.creditsOf(alice.ID); got != 10_000-2000+3000 {
			t.Fatalf("alice has %d credits after standing up with 3000, want 11000", got)
		}
		refused := func(seat int, buyIn int64, why string) {
			t.Helper()
			err := tb.Sit(t.Context(), alice, seat, buyIn)
			var fe *house.FieldError
			if !errors.Is(err, house.ErrInvalid) || !errors.As(err, &fe) || fe.Field != "buy_in" || !strings.Contains(err.Error(), "3000") {
				t.Errorf("%s: alice sits down again with %d: %v, want a buy_in error naming the 3000 she left with", why, buyIn, err)
			}
			synctest.Wait()
			if s := c.last(t); s.You != nil {
				t.Fatalf("%s: alice seated in seat %d", why, s.You.Seat)
			}
			if got := b.creditsOf(alice.ID); got != 11_000 {
				t.Errorf("%s: alice has %d credits after a refused buy-in, want 11000", why, got)
			}
		}
		refused(-1, 200, "the table's minimum")
		refused(2, 2000, "the table's maximum, in another seat")
		time.Sleep(30*time.Minute - time.Millisecond) // the default return window
		refused(0, 2999, "one chip short, just within the window")
		refused(0, 3001, "one chip more than she left with")
		if err := tb.Sit(t.Context(), alice, 0, 3000); err != nil {
			t.Fatalf("alice back with the 3000 she left with: %v", err)
		}
		checkChips(t, tb)
		if err := tb.Stand(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		time.Sleep(30 * time.Minute)
		if err := tb.Sit(t.Context(), alice, 0, 200); err != nil {
			t.Fatalf("alice back after the return window with the minimum: %v", err)
		}
		synctest.Wait()
		checkChips(t, tb)
	})
}

// TestRatholingShortOfCredits: bob left with 1500 and has spent his credits
// elsewhere since: he may not sit at the table with less until the window
// ends (the bank refuses the 1500 he lacks, the table anything less), and
// nothing changes.
func TestRatholingShortOfCredits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(2)
		tb := mustNew(t, testConfig(b))
		bob := Player{2, "bob"}
		if err := tb.Sit(t.Context(), bob, 1, 1500); err != nil {
			t.Fatal(err)
		}
		if err := tb.Stand(t.Context(), bob); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		b.mu.Lock()
		b.credits[bob.ID] = 1000 // lost at another table
		b.mu.Unlock()
		if err := tb.Sit(t.Context(), bob, 1, 1000); !errors.Is(err, house.ErrInvalid) {
			t.Errorf("bob back with all he has (1000) after leaving with 1500: %v, want a buy_in error", err)
		}
		if err := tb.Sit(t.Context(), bob, 1, 1500); !errors.Is(err, house.ErrInsufficientCredits) {
			t.Errorf("bob back with 1500 and 1000 credits: %v, want insufficient credits", err)
		}
		if got := b.creditsOf(bob.ID); got != 1000 {
			t.Errorf("bob has %d credits after two refusals, want 1000", got)
		}
		checkChips(t, tb)
	})
}

// TestReturnBuyInShown: alice, standing up with more than the minimum, is
// told in the state the buy-in she may sit down with again and for how long;
// bob, watching, is told nothing of it.
func TestReturnBuyInShown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1, 2)
		tb := mustNew(t, testConfig(b))
		alice, bob, ca, cb := Player{1, "alice"}, Player{2, "bob"}, &client{}, &client{}
		for p, c := range map[Player]*client{alice: ca, bob: cb} {
			if _, err := tb.Watch(t.Context(), p, c); err != nil {
				t.Fatal(err)
			}
		}
		if err := tb.Sit(t.Context(), alice, 1, 1500); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Minute)
		if err := tb.Stand(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		want := Return{MinBuyIn: 1500, MaxBuyIn: 2000, RemainingMS: DefaultReturnWindow.Milliseconds()}
		if s := ca.last(t); s.Return == nil || *s.Return != want {
			t.Errorf("alice's state after standing up: return %+v, want %+v", s.Return, want)
		}
		if s := cb.last(t); s.Return != nil {
			t.Errorf("bob's state: return %+v, want none", s.Return)
		}
		if err := tb.Sit(t.Context(), alice, 1, 1500); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if s := ca.last(t); s.Return != nil {
			t.Errorf("alice seated: return %+v, want none", s.Return)
		}
	})
}

// setClock gives p's seat at tb bank left of its time bank and timeouts in
// a row, as turns played slowly would have.
func setClock(t *testing.T, tb *Table, p Player, bank time.Duration, timeouts int) {
	t.Helper()
	err := tb.call(t.Context(), func() error {
		st := &tb.seats[tb.seatOf(p.ID)]
		st.bank, st.timeouts = bank, timeouts
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// clockOf returns p's time bank and timeouts in a row at tb.
func clockOf(t *testing.T, tb *Table, p Player) (bank time.Duration, timeouts int) {
	t.Helper()
	err := tb.call(t.Context(), func() error {
		st := &tb.seats[tb.seatOf(p.ID)]
		bank, timeouts = st.bank, st.timeouts
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return bank, timeouts
}

// TestComingBackKeepsTheClock: alice, 1.5 s left of her 5 s time bank and
// one timeout short of being sat out, stands up and sits down again: she
// finds the bank and the count she left, not a full bank and a clean slate;
// after the return window, she does. Before, standing up refilled the bank.
func TestComingBackKeepsTheClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		tb := mustNew(t, testConfig(b))
		alice, c := Player{1, "alice"}, &client{}
		if _, err := tb.Watch(t.Context(), alice, c); err != nil {
			t.Fatal(err)
		}
		sitAgain := func(away time.Duration, bank time.Duration, timeouts int, why string) {
			t.Helper()
			if err := tb.Sit(t.Context(), alice, 1, 500); err != nil {
				t.Fatal(err)
			}
			setClock(t, tb, alice, 1500*time.Millisecond, 1)
			if err := tb.Stand(t.Context(), alice); err != nil {
				t.Fatal(err)
			}
			time.Sleep(away)
			if err := tb.Sit(t.Context(), alice, 2, 500); err != nil {
				t.Fatal(err)
			}
			synctest.Wait()
			if gb, gt := clockOf(t, tb, alice); gb != bank || gt != timeouts {
				t.Errorf("%s: time bank %v and %d timeouts in a row, want %v and %d", why, gb, gt, bank, timeouts)
			}
			if s := c.last(t); s.You == nil || s.You.TimeBankMS != bank.Milliseconds() {
				t.Errorf("%s: alice's state %+v, want a time bank of %v", why, s.You, bank)
			}
			if err := tb.Stand(t.Context(), alice); err != nil {
				t.Fatal(err)
			}
		}
		sitAgain(0, 1500*time.Millisecond, 1, "back at once")
		sitAgain(30*time.Minute-time.Millisecond, 1500*time.Millisecond, 1, "back just within the return window")
		sitAgain(30*time.Minute, 5*time.Second, 0, "back after the return window")
		checkChips(t, tb)
	})
}

// TestTakeoverKeepsTheStackLeft: alice stands up with 1500 chips, 1.5 s of
// time bank and a timeout, her table's node is lost, and she sits down
// again on the node that took it over: she must bring the 1500 there too,
// and finds her bank and timeout. Before, the log kept neither: she sat
// down with the minimum and a full bank.
func TestTakeoverKeepsTheStackLeft(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, log := newBank(1), &memLog{}
		cfg := testConfig(b)
		cfg.HandLog = log
		a := mustNew(t, cfg)
		alice := Player{1, "alice"}
		if err := a.Sit(t.Context(), alice, 1, 1500); err != nil {
			t.Fatal(err)
		}
		setClock(t, a, alice, 1500*time.Millisecond, 1)
		if err := a.Stand(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		lose(t, a, log, false)
		bt := takeOver(t, cfg, log, 5*time.Second, map[int64]int64{})
		if err := bt.Sit(t.Context(), alice, 2, 200); !errors.Is(err, house.ErrInvalid) || !strings.Contains(err.Error(), "1500") {
			t.Errorf("alice back with 200 after the takeover, having left with 1500: %v, want a buy_in error naming 1500", err)
		}
		if err := bt.Sit(t.Context(), alice, 2, 1500); err != nil {
			t.Fatalf("alice back with the 1500 she left with: %v", err)
		}
		if gb, gt := clockOf(t, bt, alice); gb != 1500*time.Millisecond || gt != 1 {
			t.Errorf("after the takeover: time bank %v and %d timeouts in a row, want 1.5s and 1", gb, gt)
		}
		checkChips(t, bt)
	})
}

// TestDepartureFloodKeepsTheStackLeft: alice wins 1000 (1500), leaves, comes
// back with her 1500 and leaves again at once; carol wins 600 with a 1000
// stack; dave leaves with the 2000 he
// brought, having won nothing. Then maxDeparted other players (one
// griefer's accounts) each sit down with the table's maximum and stand up
// again. Alice and carol must still bring back what they left with: the
// table forgets first the departures of those who won least here (the
// flood's, dave's), and alice's winnings stay hers to bring back after her
// return (her stack alone is less than the flood's). Before, it forgot the
// oldest: alice and carol sat down again with the minimum.
func TestDepartureFloodKeepsTheStackLeft(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const flood = maxDeparted
		users := []int64{1, 2, 3, 4}
		for id := int64(100); id < 100+flood; id++ {
			users = append(users, id)
		}
		b := newBank(users...)
		tb := mustNew(t, testConfig(b))
		alice, bob, carol, dave := Player{1, "alice"}, Player{2, "bob"}, Player{3, "carol"}, Player{4, "dave"}
		for _, p := range []Player{bob, alice, carol} { // each sits out: no hand is dealt
			buyIn := map[Player]int64{bob: 2000, alice: 500, carol: 400}[p]
			if err := tb.Sit(t.Context(), p, -1, buyIn); err != nil {
				t.Fatal(err)
			}
			if err := tb.SitOut(t.Context(), p); err != nil {
				t.Fatal(err)
			}
		}
		winFrom(t, tb, alice, bob, 1000)
		winFrom(t, tb, carol, bob, 600)
		if err := tb.Stand(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		for _, p := range []Player{alice, dave} { // alone playing: no hand is dealt
			if err := tb.Sit(t.Context(), p, -1, map[Player]int64{alice: 1500, dave: 2000}[p]); err != nil {
				t.Fatal(err)
			}
			if err := tb.Stand(t.Context(), p); err != nil {
				t.Fatal(err)
			}
		}
		if err := tb.Stand(t.Context(), carol); err != nil {
			t.Fatal(err)
		}
		for id := int64(100); id < 100+flood; id++ {
			time.Sleep(time.Second) // 17 minutes in all: within the return window
			p := Player{id, "sock"}
			if err := tb.Sit(t.Context(), p, -1, 2000); err != nil {
				t.Fatal(err)
			}
			if err := tb.Stand(t.Context(), p); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()
		for _, p := range []Player{alice, carol} {
			if err := tb.Sit(t.Context(), p, -1, 200); !errors.Is(err, house.ErrInvalid) {
				t.Errorf("%s, after %d others came and went, sits down again with the minimum: %v, want a buy_in error", p.Name, flood, err)
			}
		}
		err := tb.call(t.Context(), func() error {
			if len(tb.departed) > maxDeparted {
				t.Errorf("%d departures remembered, want at most %d", len(tb.departed), maxDeparted)
			}
			if _, kept := tb.departed[dave.ID]; kept {
				t.Errorf("dave's departure, who won nothing here, kept over the flood's: %+v", tb.departed[dave.ID])
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		checkChips(t, tb)
	})
}

// TestReturnEndsInTheState: alice stands up with 1500 and stays to watch;
// nothing else happens at the table. When her return window ends she is
// sent a state without state.return (her buy-in is the table's again), not
// one a millisecond before. Before, the table sent nothing until something
// else changed, and her page kept asking for the 1500.
func TestReturnEndsInTheState(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		tb := mustNew(t, testConfig(b))
		alice, c := Player{1, "alice"}, &client{}
		if _, err := tb.Watch(t.Context(), alice, c); err != nil {
			t.Fatal(err)
		}
		if err := tb.Sit(t.Context(), alice, 1, 1500); err != nil {
			t.Fatal(err)
		}
		if err := tb.Stand(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if s := c.last(t); s.Return == nil {
			t.Fatal("no return in alice's state after standing up with 1500")
		}
		time.Sleep(DefaultReturnWindow - time.Millisecond)
		synctest.Wait()
		if s := c.last(t); s.Return == nil {
			t.Fatal("the return gone from alice's state before her window ends")
		}
		n := len(c.all())
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if s := c.last(t); s.Return != nil || len(c.all()) == n {
			t.Errorf("alice's last state once her return window ended: return %+v (%d new messages), want none", s.Return, len(c.all())-n)
		}
	})
}

// TestTakeoverKeepsTheWinnings: alice sits down with 500 and wins 1000; her
// table is taken over by another node, where she stands up: her departure
// holds the 1000 she won (what keeps it over others' past maxDeparted), not
// her whole stack. Before the log kept seat.basis, the new node counted her
// 1500 as won.
func TestTakeoverKeepsTheWinnings(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, log := newBank(1, 2), &memLog{}
		cfg := testConfig(b)
		cfg.HandLog = log
		a := mustNew(t, cfg)
		alice, bob := Player{1, "alice"}, Player{2, "bob"}
		for _, p := range []Player{bob, alice} { // each sits out: no hand is dealt
			if err := a.Sit(t.Context(), p, -1, map[Player]int64{alice: 500, bob: 2000}[p]); err != nil {
				t.Fatal(err)
			}
			if err := a.SitOut(t.Context(), p); err != nil {
				t.Fatal(err)
			}
		}
		winFrom(t, a, alice, bob, 1000)
		synctest.Wait()
		lose(t, a, log, false)
		bt := takeOver(t, cfg, log, 5*time.Second, map[int64]int64{alice.ID: 1500, bob.ID: 1000})
		if err := bt.Stand(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		err := bt.call(t.Context(), func() error {
			if d := bt.departed[alice.ID]; d.stack != 1500 || d.won != 1000 {
				t.Errorf("alice's departure after the takeover: %+v, want a stack of 1500, 1000 of it won", d)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
