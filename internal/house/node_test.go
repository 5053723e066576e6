package house_test

import (
	"context"
	"errors"
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
