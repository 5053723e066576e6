package house_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// TestNodesShareTheDatabase has two nodes of one house claim a PostgreSQL
// database together: a single-node house is refused meanwhile (its Recover would
// pay out the nodes' live seats), and a node may not Recover.
func TestNodesShareTheDatabase(t *testing.T) {
	s := storetest.Postgres(t)
	ctx := context.Background()
	a, b, single := newHouse(t, s, newClock()), newHouse(t, s, newClock()), newHouse(t, s, newClock())
	if err := a.ClaimNode(ctx); err != nil {
		t.Fatal(err)
	}
	defer a.Unclaim()
	if err := b.ClaimNode(ctx); err != nil {
		t.Fatalf("a second node: %v", err)
	}
	defer b.Unclaim()
	if err := single.Claim(ctx); !errors.Is(err, house.ErrDatabaseInUse) {
		t.Fatalf("a single-node house beside nodes: %v, want ErrDatabaseInUse", err)
	}
	if _, err := a.Recover(ctx); err == nil {
		t.Fatal("a node recovered every seat of the house")
	}
}

// TestReturnSeatPaysOnce is a node taking a table over that returns the buy-in
// of a player its lost owner had not seated: paid once, whoever comes second
// (a retry, the lost owner's own late cash-out) books nothing.
func TestReturnSeatPaysOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		w := newWorld(t, s, 3, 2)
		r := rand.New(rand.NewChaCha8([32]byte{5}))
		for i := range 60 {
			if err := w.step(ctx, r); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
		}
		if _, err := w.h.ReturnSeat(ctx, "table0", w.users[0]); err == nil {
			t.Fatal("ReturnSeat without a claim succeeded")
		}
		if err := w.h.Claim(ctx); err != nil {
			t.Fatal(err)
		}
		defer w.h.Unclaim()
		returned := 0
		for _, tb := range w.tables {
			stacks, err := w.h.TableStacks(ctx, tb)
			if err != nil {
				t.Fatal(err)
			}
			w.mu.Lock()
			want := len(w.stacks[tb])
			w.mu.Unlock()
			if len(stacks) != want {
				t.Fatalf("%s: TableStacks %v, the test counts %d seats", tb, stacks, want)
			}
			for u, chips := range stacks {
				rf, err := w.h.ReturnSeat(ctx, tb, u)
				if err != nil || rf.Amount != chips {
					t.Fatalf("return %d at %s: %+v, %v; want %d", u, tb, rf, err, chips)
				}
				if _, err := w.h.ReturnSeat(ctx, tb, u); !errors.Is(err, store.ErrNotFound) {
					t.Fatalf("second return: %v, want ErrNotFound", err)
				}
				if _, err := w.h.CashOut(ctx, u, tb, chips); !errors.Is(err, house.ErrNoSeat) {
					t.Fatalf("the lost owner's late cash-out: %v, want ErrNoSeat", err)
				}
				w.mu.Lock()
				delete(w.stacks[tb], u)
				w.mu.Unlock()
				returned++
			}
		}
		if returned == 0 {
			t.Fatal("no seat to return")
		}
		w.check(ctx, t, "after the returns")
		w.checkSeats(ctx, t, "after the returns")
	})
}

// TestStaleOwnerWritesRefused is the database's fence: a node runs a table
// (fenced with token 1) and another takes it over (token 2); every later write
// of the first for that table (a cash-out, a hand, a buy-in, a fence) is
// refused and changes nothing, while the new owner's go through.
func TestStaleOwnerWritesRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		stale, owner := newHouse(t, s, newClock()), newHouse(t, s, newClock())
		u := register(t, stale, "frank")
		const ref = "table:Main#1"
		if err := stale.Fence(ctx, ref, 1); err != nil {
			t.Fatal(err)
		}
		if _, err := stale.BuyIn(ctx, u.ID, ref, 500); err != nil {
			t.Fatal(err)
		}
		credits, _ := stale.Credits(ctx, u.ID)
		if err := owner.Fence(ctx, ref, 2); err != nil {
			t.Fatal(err)
		}
		hand := store.Hand{TableRef: ref, Variant: "NT", PHH: "variant = 'NT'\n", Players: []store.HandPlayer{
			{Seat: 0, UserID: u.ID, Name: "frank", Net: 20, Won: true}, {Seat: 1, Name: "callbot", Net: -20}}}
		if _, err := stale.CashOut(ctx, u.ID, ref, 500); !errors.Is(err, house.ErrFenced) {
			t.Errorf("stale cash-out: %v, want ErrFenced", err)
		}
		if _, err := stale.RecordHand(ctx, hand); !errors.Is(err, house.ErrFenced) {
			t.Errorf("stale hand: %v, want ErrFenced", err)
		}
		if _, err := stale.BuyIn(ctx, u.ID, ref, 100); !errors.Is(err, house.ErrFenced) {
			t.Errorf("stale buy-in: %v, want ErrFenced", err)
		}
		if err := stale.Fence(ctx, ref, 1); !errors.Is(err, house.ErrFenced) {
			t.Errorf("stale fence: %v, want ErrFenced", err)
		}
		if c, _ := stale.Credits(ctx, u.ID); c != credits {
			t.Errorf("credits %d after the stale writes, want %d", c, credits)
		}
		if hs, _ := s.HandsByTable(ctx, ref, 10); len(hs) != 0 {
			t.Errorf("%d stale hands stored", len(hs))
		}
		if _, err := owner.RecordHand(ctx, hand); err != nil {
			t.Fatalf("the owner's hand: %v", err)
		}
		if c, err := owner.CashOut(ctx, u.ID, ref, 520); err != nil || c != credits+520 {
			t.Fatalf("the owner's cash-out: %d, %v; want %d", c, err, credits+520)
		}
	})
}

// TestStaleDirectorWritesRefused: once a new tournament director fenced
// TournamentsRef, the former director's tournament writes (a tournament
// created, a registration, an unregistration, a prize) are refused and change
// nothing; the new director's go through, and the prize is paid once.
func TestStaleDirectorWritesRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		stale, director := newHouse(t, s, newClock()), newHouse(t, s, newClock())
		u := register(t, stale, "gina")
		v := register(t, stale, "hugo")
		if err := stale.Fence(ctx, house.TournamentsRef, 1); err != nil {
			t.Fatal(err)
		}
		tr, err := stale.CreateTournament(ctx, store.Tournament{Spec: []byte(`{}`), State: store.TourneyRegistering})
		if err != nil {
			t.Fatal(err)
		}
		ref := fmt.Sprintf("tourney:%d", tr.ID)
		entry := store.TournamentEntry{TournamentID: tr.ID, Name: "gina", UserID: u.ID, BuyIn: 100, Stack: 1000}
		if _, err := stale.EnterTournament(ctx, ref, entry); err != nil {
			t.Fatal(err)
		}
		credits, _ := stale.Credits(ctx, u.ID)
		hugo, _ := stale.Credits(ctx, v.ID)
		if err := director.Fence(ctx, house.TournamentsRef, 2); err != nil {
			t.Fatal(err)
		}
		if _, err := stale.CreateTournament(ctx, store.Tournament{Spec: []byte(`{}`), State: store.TourneyRegistering}); !errors.Is(err, house.ErrFenced) {
			t.Errorf("stale create: %v, want ErrFenced", err)
		}
		late := store.TournamentEntry{TournamentID: tr.ID, Name: "hugo", UserID: v.ID, BuyIn: 100, Stack: 1000}
		if _, err := stale.EnterTournament(ctx, ref, late); !errors.Is(err, house.ErrFenced) {
			t.Errorf("stale registration: %v, want ErrFenced", err)
		}
		if err := stale.LeaveTournament(ctx, ref, tr.ID, u.ID, 100, "unregistered"); !errors.Is(err, house.ErrFenced) {
			t.Errorf("stale unregistration: %v, want ErrFenced", err)
		}
		won := entry
		won.Place, won.Prize = 1, 100
		running := tr
		running.State, running.Entrants, running.Pool = store.TourneyFinished, 1, 100
		if err := stale.SaveTournament(ctx, ref, running, []store.TournamentEntry{won}); !errors.Is(err, house.ErrFenced) {
			t.Errorf("stale prize: %v, want ErrFenced", err)
		}
		if c, _ := stale.Credits(ctx, u.ID); c != credits {
			t.Errorf("gina's credits %d after the stale writes, want %d", c, credits)
		}
		if c, _ := stale.Credits(ctx, v.ID); c != hugo {
			t.Errorf("hugo's credits %d after the stale writes, want %d", c, hugo)
		}
		if _, es, _ := stale.Tournament(ctx, tr.ID); len(es) != 1 || es[0].Place != 0 {
			t.Errorf("entries after the stale writes: %+v, want gina's unplaced", es)
		}
		if ts, _ := s.Tournaments(ctx, 10, store.TourneyRegistering); len(ts) != 1 {
			t.Errorf("%d tournaments registering, want 1 (the stale create refused)", len(ts))
		}
		for range 2 { // the new director pays the prize, once however often it saves
			if err := director.SaveTournament(ctx, ref, running, []store.TournamentEntry{won}); err != nil {
				t.Fatalf("the director's prize: %v", err)
			}
		}
		if c, _ := director.Credits(ctx, u.ID); c != credits+100 {
			t.Errorf("gina's credits %d after her prize, want %d", c, credits+100)
		}
	})
}
