package table

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"maps"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// gate blocks the calls of a slow database while it is shut.
type gate struct {
	mu sync.Mutex
	ch chan struct{} // nil: open
}

func (g *gate) shut() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ch == nil {
		g.ch = make(chan struct{})
	}
}

func (g *gate) open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ch != nil {
		close(g.ch)
		g.ch = nil
	}
}

// pass waits until the gate is open or ctx ends, as a database call that waits
// for a lock would.
func (g *gate) pass(ctx context.Context) error {
	g.mu.Lock()
	ch := g.ch
	g.mu.Unlock()
	if ch == nil {
		return nil
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// slowBank is a bank whose buy-ins and cash-outs wait at its gate.
type slowBank struct {
	*bank
	gate *gate
}

func (s *slowBank) BuyIn(ctx context.Context, u int64, ref string, amount int64) (int64, error) {
	if err := s.gate.pass(ctx); err != nil {
		return 0, err
	}
	return s.bank.BuyIn(ctx, u, ref, amount)
}

func (s *slowBank) CashOut(ctx context.Context, u int64, ref string, amount int64) (int64, error) {
	if err := s.gate.pass(ctx); err != nil {
		return 0, err
	}
	return s.bank.CashOut(ctx, u, ref, amount)
}

func (b *bank) creditsOf(u int64) int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.credits[u]
}

// slowModels is a model store whose saves wait at its gate.
type slowModels struct {
	memModels
	gate *gate
}

func (s *slowModels) SaveModel(ctx context.Context, b, opponent string, model []byte) error {
	if err := s.gate.pass(ctx); err != nil {
		return err
	}
	return s.memModels.SaveModel(ctx, b, opponent, model)
}

func (s *slowModels) snapshot() map[string][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.m)
}

// TestSlowDatabaseDoesNotStopTheTable: while the database blocks every buy-in,
// cash-out and model save, the table deals on (a learning bot at it), a buy-in
// fails by its deadline and changes nothing, and a cash-out waits; once the
// database answers, the cash-out is booked and the ledger is exact.
func TestSlowDatabaseDoesNotStopTheTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := &gate{}
		defer g.open() // a failed test still lets the table close
		b := newBank(1, 2, 3)
		models := &slowModels{memModels{m: map[string][]byte{}}, g}
		cfg := testConfig(&slowBank{b, g}, "bayes", "call")
		cfg.Seats, cfg.BotModels = 5, models
		tb := mustNew(t, cfg)
		alice, bob, carol := Player{1, "alice"}, Player{2, "bob"}, Player{3, "carol"}
		ca, cb := &client{}, &client{}
		for p, c := range map[Player]*client{alice: ca, bob: cb} {
			if _, err := tb.Watch(t.Context(), p, c); err != nil {
				t.Fatal(err)
			}
			if err := tb.Sit(t.Context(), p, -1, 1000); err != nil {
				t.Fatal(err)
			}
		}
		// The players check or fold: none of them goes broke before the test is done.
		playWith(t, tb, b, 3, map[Player]*client{alice: ca, bob: cb}, checkFold)

		g.shut()
		synctest.Wait()
		snapshot := models.snapshot()
		leaver, lc, stayer, sc := alice, ca, bob, cb
		if err := tb.Leave(t.Context(), leaver); err != nil {
			t.Fatal(err)
		}
		sat := make(chan error, 1)
		go func() { sat <- tb.Sit(t.Context(), carol, -1, 1000) }()
		before := b.numHands()
		playWith(t, tb, b, before+5, map[Player]*client{stayer: sc}, checkFold)
		if b.numHands() < before+5 {
			t.Fatalf("%d hands while the database was blocked", b.numHands()-before)
		}
		time.Sleep(bankTimeout)
		synctest.Wait()
		select {
		case err := <-sat:
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("carol's buy-in while the database was blocked: %v", err)
			}
		default:
			t.Fatal("carol's buy-in has no deadline")
		}
		leaverCredits := b.creditsOf(leaver.ID)
		if lc.notices(t, "cashed_out") != 0 || b.creditsOf(3) != 10_000 {
			t.Fatal("the gate let a cash-out or a buy-in through")
		}
		if !maps.EqualFunc(snapshot, models.snapshot(), bytes.Equal) {
			t.Fatal("the gate let a model save through")
		}

		g.open()
		time.Sleep(10 * time.Second) // the cash-out's next attempt
		synctest.Wait()
		if lc.notices(t, "cashed_out") != 1 || b.creditsOf(leaver.ID) <= leaverCredits {
			t.Fatalf("%s's cash-out: %d notices, credits %d then %d", leaver.Name, lc.notices(t, "cashed_out"), leaverCredits, b.creditsOf(leaver.ID))
		}
		if err := tb.Sit(t.Context(), carol, -1, 1000); err != nil { // her seat was not kept
			t.Fatal(err)
		}
		if err := tb.Close(t.Context(), "test over"); err != nil {
			t.Fatal(err)
		}
		on, in, out, _ := tb.Chips(t.Context())
		if on != 0 || in != out {
			t.Fatalf("after closing: on %d, in %d, out %d", on, in, out)
		}
		b.checkLedger(t)
		models.mu.Lock()
		defer models.mu.Unlock()
		if len(models.m["bayes/bob"]) == 0 {
			t.Fatalf("the bayes bot's model of bob was not saved: %v", keys(models.m))
		}
	})
}

// TestBuyInRefundedWhenTheTableCloses: a table that closes while a buy-in is
// being booked returns it to the player's credits.
func TestBuyInRefundedWhenTheTableCloses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := &gate{}
		defer g.open()
		b := newBank(1)
		tb := mustNew(t, testConfig(&slowBank{b, g}, "call"))
		g.shut()
		sat := make(chan error, 1)
		go func() { sat <- tb.Sit(t.Context(), Player{1, "alice"}, -1, 1000) }()
		synctest.Wait()
		closed := make(chan error, 1)
		go func() { closed <- tb.Close(context.Background(), "test over") }()
		synctest.Wait()
		g.open()
		if err := <-sat; !errors.Is(err, ErrClosed) {
			t.Fatalf("sitting at a table that closed: %v", err)
		}
		if err := <-closed; err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if c := b.creditsOf(1); c != 10_000 {
			t.Fatalf("alice has %d credits, want 10000", c)
		}
		b.checkLedger(t)
	})
}

// blockingLoads is a model store whose loads wait at its gate.
type blockingLoads struct {
	slowModels
}

func (s *blockingLoads) LoadModel(ctx context.Context, b, opponent string) ([]byte, error) {
	if err := s.gate.pass(ctx); err != nil {
		return nil, err
	}
	return s.memModels.LoadModel(ctx, b, opponent)
}

// TestModelSaver: saves return at once and coalesce per model while the store
// is blocked, the newest is written once it answers; a load is bounded by
// modelLoadTimeout, and a model that could not be read is not overwritten.
func TestModelSaver(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := &gate{}
		defer g.open()
		store := &blockingLoads{slowModels{memModels{m: map[string][]byte{"bayes/bob": []byte(`"old"`)}}, g}}
		m := newModelSaver(store, slog.New(slog.DiscardHandler))
		g.shut()
		start := time.Now()
		if _, err := m.LoadModel(context.Background(), "bayes", "bob"); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != modelLoadTimeout {
			t.Fatalf("a blocked load: %v after %s", err, time.Since(start))
		}
		for i := range 3 {
			if err := m.SaveModel(context.Background(), "bayes", "alice", []byte{'0' + byte(i)}); err != nil || time.Since(start) != modelLoadTimeout {
				t.Fatalf("a save waited or failed: %v", err)
			}
		}
		_ = m.SaveModel(context.Background(), "bayes", "bob", []byte(`"fresh"`))
		if got, err := m.LoadModel(context.Background(), "bayes", "alice"); err != nil || string(got) != "2" {
			t.Fatalf("a queued model reads back %q, %v", got, err)
		}
		g.open()
		m.close()
		if got := store.snapshot(); string(got["bayes/alice"]) != "2" || string(got["bayes/bob"]) != `"old"` {
			t.Fatalf("stored %q", got)
		}
	})
}
