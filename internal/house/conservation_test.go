package house_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// world is the tables as the test imagines them: the chips each player has at
// each table, and every chip the house has granted.
type world struct {
	h       *house.House
	s       store.Store
	clock   *clock
	users   []int64
	tables  []string
	mu      sync.Mutex
	stacks  map[string]map[int64]int64
	granted int64
	done    map[string]int // successful operations by name
	// busy serialises the operations on one table, as a live table's goroutine
	// does: a hand is recorded before the next buy-in or cash-out at its table.
	busy map[string]*sync.Mutex
}

func newWorld(t *testing.T, s store.Store, players, tables int) *world {
	w := &world{s: s, clock: newClock(), stacks: make(map[string]map[int64]int64), done: make(map[string]int), busy: make(map[string]*sync.Mutex)}
	w.h = newHouse(t, s, w.clock, func(c *house.Config) { c.RefillBelow = 5_000 })
	for i := range players {
		u := register(t, w.h, fmt.Sprintf("player%d", i))
		w.users = append(w.users, u.ID)
		w.granted += w.h.Config().SignupCredits
	}
	for i := range tables {
		name := fmt.Sprintf("table%d", i)
		w.tables = append(w.tables, name)
		w.stacks[name] = make(map[int64]int64)
		w.busy[name] = new(sync.Mutex)
	}
	return w
}

// step does one random operation: a buy-in (sometimes too large), a hand moving
// chips between two seated players, a cash-out, a refill or the passing of time.
func (w *world) step(ctx context.Context, r *rand.Rand) error {
	switch op := r.IntN(10); {
	case op < 3: // buy-in
		u, tb := w.users[r.IntN(len(w.users))], w.tables[r.IntN(len(w.tables))]
		w.busy[tb].Lock()
		defer w.busy[tb].Unlock()
		credits, err := w.h.Credits(ctx, u)
		if err != nil {
			return err
		}
		amount := 1 + r.Int64N(max(credits, 0)+2_000)
		if _, err := w.h.BuyIn(ctx, u, tb, amount); errors.Is(err, house.ErrInsufficientCredits) {
			return nil
		} else if err != nil {
			return err
		}
		w.mu.Lock()
		w.stacks[tb][u] += amount
		w.done["buy-in"]++
		w.mu.Unlock()
	case op < 6: // a hand
		tb := w.tables[r.IntN(len(w.tables))]
		w.busy[tb].Lock()
		defer w.busy[tb].Unlock()
		w.mu.Lock()
		var seated []int64
		for u, chips := range w.stacks[tb] {
			if chips > 0 {
				seated = append(seated, u)
			}
		}
		if len(seated) < 2 {
			w.mu.Unlock()
			return nil
		}
		slices.Sort(seated)
		i, j := r.IntN(len(seated)), r.IntN(len(seated)-1)
		if j >= i {
			j++
		}
		winner, loser := seated[i], seated[j]
		pot := 1 + r.Int64N(w.stacks[tb][loser])
		w.stacks[tb][loser] -= pot
		w.stacks[tb][winner] += pot
		w.done["hand"]++
		w.mu.Unlock()
		hand := store.Hand{TableRef: tb, Variant: "NT", PHH: "variant = 'NT'\n"}
		for seat, u := range seated {
			p := store.HandPlayer{Seat: seat + 1, UserID: u, Name: fmt.Sprint(u)}
			switch u {
			case winner:
				p.Net, p.Won = pot, true
			case loser:
				p.Net = -pot
			}
			hand.Players = append(hand.Players, p)
		}
		if _, err := w.h.RecordHand(ctx, hand); err != nil {
			return err
		}
	case op < 8: // cash-out
		tb := w.tables[r.IntN(len(w.tables))]
		w.busy[tb].Lock()
		defer w.busy[tb].Unlock()
		w.mu.Lock()
		var seated []int64
		for u := range w.stacks[tb] {
			seated = append(seated, u)
		}
		if len(seated) == 0 {
			w.mu.Unlock()
			return nil
		}
		slices.Sort(seated)
		u := seated[r.IntN(len(seated))]
		chips := w.stacks[tb][u]
		delete(w.stacks[tb], u)
		w.done["cash-out"]++
		w.mu.Unlock()
		if _, err := w.h.CashOut(ctx, u, tb, chips); err != nil {
			return err
		}
	case op < 9: // refill
		got, err := w.h.Refill(ctx, w.users[r.IntN(len(w.users))])
		if errors.Is(err, house.ErrRefillNotNeeded) || errors.Is(err, house.ErrRefillTooSoon) {
			return nil
		}
		if err != nil {
			return err
		}
		w.mu.Lock()
		w.granted += got
		w.done["refill"]++
		w.mu.Unlock()
	default:
		w.clock.Advance(time.Duration(r.IntN(12)) * time.Hour)
	}
	return nil
}

// check verifies that credits plus chips on tables equal everything granted, by
// the test's own count and by the ledger's, and that nobody's credits are negative.
func (w *world) check(ctx context.Context, t *testing.T, when string) {
	t.Helper()
	var credits, onTables int64
	for _, u := range w.users {
		c, err := w.h.Credits(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		if c < 0 {
			t.Fatalf("%s: user %d has %d credits", when, u, c)
		}
		credits += c
	}
	w.mu.Lock()
	for _, table := range w.stacks {
		for _, chips := range table {
			onTables += chips
		}
	}
	granted := w.granted
	w.mu.Unlock()
	totals, err := w.s.LedgerTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ledgerGranted := totals[store.KindSignupGrant] + totals[store.KindRefill] + totals[store.KindAdjustment]
	if credits+onTables != granted || granted != ledgerGranted {
		t.Fatalf("%s: credits %d + on tables %d = %d; granted %d by the test's count, %d by the ledger's",
			when, credits, onTables, credits+onTables, granted, ledgerGranted)
	}
}

// checkSeats verifies that the seats the store keeps for recovery hold the
// stacks of the test's own count.
func (w *world) checkSeats(ctx context.Context, t *testing.T, when string) {
	t.Helper()
	seats, err := w.s.Seats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, s := range seats {
		got[fmt.Sprintf("%s/%d", s.TableRef, s.UserID)] = s.Stack
	}
	want := map[string]int64{}
	for tb, table := range w.stacks {
		for u, chips := range table {
			want[fmt.Sprintf("%s/%d", tb, u)] = chips
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s: stored seats %v, want %v", when, got, want)
	}
}

// TestRecover stops a house in the middle of its games (no cash-out at all):
// Recover returns every stack to its player's credits.
func TestRecover(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		w := newWorld(t, s, 4, 3)
		r := rand.New(rand.NewChaCha8([32]byte{3}))
		for i := range 120 {
			if err := w.step(ctx, r); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
		}
		var onTables int64
		for _, table := range w.stacks {
			for _, chips := range table {
				onTables += chips
			}
		}
		if onTables == 0 {
			t.Fatal("no chips on tables to recover")
		}
		if _, err := w.h.Recover(ctx); err == nil {
			t.Fatal("Recover without Claim succeeded")
		}
		w.check(ctx, t, "after a Recover without Claim")
		if err := w.h.Claim(ctx); err != nil {
			t.Fatal(err)
		}
		defer w.h.Unclaim()
		refunds, err := w.h.Recover(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var refunded int64
		for _, rf := range refunds {
			refunded += rf.Amount
			delete(w.stacks[rf.TableRef], rf.UserID)
		}
		if refunded != onTables {
			t.Errorf("refunded %d, %d were on the tables", refunded, onTables)
		}
		w.check(ctx, t, "after recovery")
		w.checkSeats(ctx, t, "after recovery")
		if again, err := w.h.Recover(ctx); err != nil || len(again) != 0 {
			t.Errorf("a second Recover: %v, %v", again, err)
		}
	})
}

// cashOutAll ends every game; then the credits alone must hold everything granted.
func (w *world) cashOutAll(ctx context.Context, t *testing.T) {
	for tb, table := range w.stacks {
		for u, chips := range table {
			if _, err := w.h.CashOut(ctx, u, tb, chips); err != nil {
				t.Fatal(err)
			}
			delete(table, u)
		}
	}
	w.check(ctx, t, "after cashing out everyone")
	totals, err := w.s.LedgerTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if in, out := totals[store.KindBuyIn], totals[store.KindCashOut]; in+out != 0 {
		t.Errorf("buy-ins %d and cash-outs %d do not cancel out with every table empty", in, out)
	}
}

func TestConservation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		w := newWorld(t, s, 5, 3)
		r := rand.New(rand.NewChaCha8([32]byte{1}))
		for i := range 300 {
			if err := w.step(ctx, r); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			w.check(ctx, t, fmt.Sprintf("step %d", i))
			w.checkSeats(ctx, t, fmt.Sprintf("step %d", i))
		}
		w.cashOutAll(ctx, t)
		for _, op := range []string{"buy-in", "hand", "cash-out", "refill"} {
			if w.done[op] < 3 {
				t.Errorf("only %d successful %s operations: %v", w.done[op], op, w.done)
			}
		}
		t.Logf("operations: %v", w.done)
	})
}

func TestConservationConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		w := newWorld(t, s, 4, 2)
		const workers, steps = 4, 80
		errs := make(chan error, workers)
		var wg sync.WaitGroup
		for i := range workers {
			wg.Go(func() {
				r := rand.New(rand.NewChaCha8([32]byte{2, byte(i)}))
				for range steps {
					if err := w.step(ctx, r); err != nil {
						errs <- err
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		w.check(ctx, t, "after the workers")
		w.checkSeats(ctx, t, "after the workers")
		w.cashOutAll(ctx, t)
	})
}

// TestConcurrentBuyInNoOverdraft races buy-ins of one player: exactly as many
// succeed as the credits allow.
func TestConcurrentBuyInNoOverdraft(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		h := newHouse(t, s, newClock())
		u := register(t, h, "racer")
		const tries = 10
		var (
			wg sync.WaitGroup
			mu sync.Mutex
			ok int
		)
		for i := range tries {
			wg.Go(func() {
				_, err := h.BuyIn(ctx, u.ID, fmt.Sprintf("t%d", i), 3_000)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					ok++
				case !errors.Is(err, house.ErrInsufficientCredits):
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if credits, _ := h.Credits(ctx, u.ID); ok != 3 || credits != 1_000 {
			t.Errorf("%d buy-ins of 3000 succeeded leaving %d credits; want 3 leaving 1000", ok, credits)
		}
	})
}
