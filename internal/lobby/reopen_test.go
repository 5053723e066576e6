package lobby

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/table"
)

// slowDepartures is a store whose departure writes wait, once entered is
// signalled, until release is closed.
type slowDepartures struct {
	store.Store
	entered chan struct{}
	release chan struct{}
}

func (s slowDepartures) PutDeparture(ctx context.Context, d store.Departure) error {
	select {
	case s.entered <- struct{}{}:
	default:
	}
	<-s.release
	return s.Store.PutDeparture(ctx, d)
}

// reopenHouse is a house on one node over a store whose departure writes
// wait for release, a player of it, and a lobby logging to the file logs.
func reopenHouse(t *testing.T) (h *house.House, alice table.Player, l *Lobby, slow slowDepartures, logs string) {
	t.Helper()
	st, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "felt.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	slow = slowDepartures{Store: st, entered: make(chan struct{}, 1), release: make(chan struct{})}
	cfg := house.DefaultConfig()
	cfg.Argon2 = house.Argon2Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}
	h, err = house.New(slow, cfg)
	if err != nil {
		t.Fatal(err)
	}
	u, err := h.Register(t.Context(), house.Registration{Username: "alice", Password: "correct horse", ConfirmedAdult: true})
	if err != nil {
		t.Fatal(err)
	}
	logs = filepath.Join(t.TempDir(), "lobby.log")
	f, err := os.Create(logs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	l = New(slog.New(slog.NewTextHandler(f, nil)), nil)
	t.Cleanup(func() { l.Shutdown(context.Background()) })
	return h, table.Player{ID: u.ID, Name: "alice"}, l, slow, logs
}

// leaveAndCloseIdle opens Mine at l, has alice sit down with 2000 and stand
// up (her departure's write waits in the store), and waits until Mine has
// closed idle; it returns Mine's configuration and the closed table.
func leaveAndCloseIdle(t *testing.T, h *house.House, alice table.Player, l *Lobby, slow slowDepartures) (table.Config, *table.Table) {
	t.Helper()
	cfg := table.Config{Name: "Mine", Variant: table.NoLimit, Seats: 4, SmallBlind: 10, BigBlind: 20, MinBuyIn: 200, MaxBuyIn: 2000,
		ActionTime: 10 * time.Second, IdleClose: 50 * time.Millisecond, Bank: h}
	tb, err := l.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Sit(t.Context(), alice, 1, 2000); err != nil {
		t.Fatal(err)
	}
	if err := tb.Stand(t.Context(), alice); err != nil {
		t.Fatal(err)
	}
	<-slow.entered // the departure is being written
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := l.Table("Mine"); errors.Is(err, ErrNoTable) {
			return cfg, tb
		}
		if time.Now().After(deadline) {
			t.Fatal("Mine did not close idle")
		}
	}
}

// TestReopenedTableSeesTheDeparturesOfTheClosedOne: alice sits down at her
// table Mine with 2000 and stands up; Mine closes idle while its ledger is
// still writing her departure to the store (a slow write), and Mine is opened
// again at once. The new Mine waits for the old one's ledger, and holds alice
// to the 2000 she left with. Before, it read the store before the write and
// let her sit down with 200.
func TestReopenedTableSeesTheDeparturesOfTheClosedOne(t *testing.T) {
	h, alice, l, slow, _ := reopenHouse(t)
	cfg, _ := leaveAndCloseIdle(t, h, alice, l, slow)
	opened := make(chan error, 1)
	var again *table.Table
	go func() {
		var err error
		again, err = l.Open(cfg)
		opened <- err
	}()
	var err error
	select {
	case err = <-opened:
		t.Errorf("Mine opened again (%v) while the closed Mine was still writing a departure", err)
		close(slow.release)
	case <-time.After(200 * time.Millisecond):
		close(slow.release)
		err = <-opened
	}
	if err != nil {
		t.Fatal(err)
	}
	err = again.Sit(t.Context(), alice, 1, 200)
	var fe *house.FieldError
	if !errors.As(err, &fe) || fe.Field != "buy_in" || !strings.Contains(err.Error(), "2000") {
		t.Fatalf("alice sits down at the reopened Mine with 200: %v, want a buy_in error naming the 2000 she left with", err)
	}
	if err := again.Sit(t.Context(), alice, 1, 2000); err != nil {
		t.Fatalf("alice sits down again with 2000: %v", err)
	}
}

// TestReopenWaitIsBounded: a closed table that does not finish writing (the
// store stuck) holds a table of its name for reopenWait at most; then it
// opens, and the log says the departures being written are not read.
func TestReopenWaitIsBounded(t *testing.T) {
	h, alice, l, slow, logs := reopenHouse(t)
	l.reopenWait = 100 * time.Millisecond
	cfg, closed := leaveAndCloseIdle(t, h, alice, l, slow)
	start := time.Now()
	if _, err := l.Open(cfg); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited < l.reopenWait || waited > 10*time.Second {
		t.Errorf("Mine opened again after %v, want about %v", waited, l.reopenWait)
	}
	if b, err := os.ReadFile(logs); err != nil || !bytes.Contains(b, []byte("departures it still writes are not read")) {
		t.Errorf("the wait's end was not logged: %s %v", b, err)
	}
	close(slow.release)
	<-closed.Done() // its last writes made before the store closes
}

// TestShutdownWhileAReopenWaits: Mine closed idle, its ledger stuck writing
// alice's departure, and Mine is opened again (a second opening of the name
// is refused at once while the first waits). The house shuts down: the
// waiting opening is refused at once, and Shutdown returns only once the
// closed Mine has written the departure. Before, the opening waited on
// through the shutdown (up to ReopenWait, then read a store closing under
// it), and Shutdown returned at once, the departure not yet written.
func TestShutdownWhileAReopenWaits(t *testing.T) {
	h, alice, l, slow, _ := reopenHouse(t)
	var once sync.Once
	release := func() { once.Do(func() { close(slow.release) }) }
	t.Cleanup(release)
	cfg, closed := leaveAndCloseIdle(t, h, alice, l, slow)
	opened := make(chan error, 1)
	go func() {
		_, err := l.Open(cfg)
		opened <- err
	}()
	time.Sleep(100 * time.Millisecond) // the opening waits for the closed Mine
	again := cfg
	again.Name = "MINE"
	if _, err := l.Open(again); !errors.Is(err, ErrNameTaken) {
		t.Errorf("a second opening of Mine while the first waits: %v, want the name taken", err)
	}
	shut := make(chan error, 1)
	go func() { shut <- l.Shutdown(context.Background()) }()
	select {
	case err := <-opened:
		if !errors.Is(err, table.ErrClosed) {
			t.Errorf("the waiting opening of Mine, the house shutting down: %v, want %v", err, table.ErrClosed)
		}
	case <-time.After(5 * time.Second):
		t.Error("the opening of Mine still waits, the house shutting down")
	}
	select {
	case err := <-shut:
		t.Errorf("Shutdown returned (%v) while the closed Mine was still writing alice's departure", err)
	case <-time.After(200 * time.Millisecond):
	}
	release()
	select {
	case err := <-shut:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Shutdown did not return once the departure was written")
	}
	select {
	case <-closed.Done():
	default:
		t.Error("Shutdown returned before the closed Mine finished")
	}
}

// TestShutdownBoundedByItsContext: a closed table that never finishes (the
// store stuck) holds Shutdown until its context ends, no longer, and the error
// names the table.
func TestShutdownBoundedByItsContext(t *testing.T) {
	h, alice, l, slow, _ := reopenHouse(t)
	cfg, closed := leaveAndCloseIdle(t, h, alice, l, slow)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	err := l.Shutdown(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), cfg.Name) {
		t.Errorf("Shutdown with the closed %s stuck: %v, want the deadline, naming it", cfg.Name, err)
	}
	close(slow.release)
	<-closed.Done() // its last writes made before the store closes
}

// TestReopenWaitEndsWithItsContext: an opening of Mine, the closed Mine stuck
// writing, ends when its context does (a player who hung up, a node whose
// lease is not renewed while it waits) with the context's error: no table
// opens, and neither the name nor the owner's place stays taken. Before, the
// wait held on for ReopenWait whatever the caller.
func TestReopenWaitEndsWithItsContext(t *testing.T) {
	h, alice, l, slow, _ := reopenHouse(t)
	cfg, closed := leaveAndCloseIdle(t, h, alice, l, slow)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if tb, err := l.OpenBy(ctx, alice.ID, 1, cfg); !errors.Is(err, context.DeadlineExceeded) || tb != nil {
		t.Fatalf("Mine opening with its context ended: %v, %v, want the deadline", tb, err)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Errorf("the opening waited %v past its context's 100ms", waited)
	}
	other := cfg
	other.Name = "Other"
	if _, err := l.OpenBy(t.Context(), alice.ID, 1, other); err != nil {
		t.Fatalf("alice's one table after the opening gave up: %v", err)
	}
	close(slow.release)
	<-closed.Done()
	if _, err := l.Open(cfg); err != nil {
		t.Fatalf("Mine once the closed one finished: %v", err)
	}
}
