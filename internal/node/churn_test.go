package node

import (
	"bytes"
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cluster"
	"github.com/felt-poker/felt/internal/cluster/natstest"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
)

// stallSink is a watcher that holds up its table at the notice that the table
// moves, until released: a table slow to stop.
type stallSink struct {
	once             sync.Once
	stalled, release chan struct{}
}

func (s *stallSink) Send(b []byte) {
	if bytes.Contains(b, []byte(`"table_moved"`)) {
		s.once.Do(func() { close(s.stalled) })
		<-s.release
	}
}

// TestLeaseRetakenWhileStopping loses a table's lease while the table is slow
// to stop: the node acquires the lease again at once (no other node wants it)
// and waits for its former instance to stop before opening the table again,
// instead of being refused ("a table called Main is open"), releasing the
// lease and looping.
func TestLeaseRetakenWhileStopping(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	var armed atomic.Bool
	opened, waiting := make(chan string, 8), make(chan string, 8)
	a := startNodeWith(t, ctx, dsn, url, "a", nodeOptions{
		ttl: 20 * time.Second, // long: nothing here expires, the loss is made
		beforeOpen: func(name string) {
			if armed.Load() {
				opened <- name
			}
		},
		awaitStop: func(name string) { waiting <- name },
	})
	old, err := a.lobby.Table("Main")
	if err != nil {
		t.Fatal(err)
	}
	u, err := a.h.Register(ctx, house.Registration{Username: "alice", Password: "correct horse", ConfirmedAdult: true})
	if err != nil {
		t.Fatal(err)
	}
	sink := &stallSink{stalled: make(chan struct{}), release: make(chan struct{})}
	if _, err := old.Watch(ctx, table.Player{ID: u.ID, Name: "alice"}, sink); err != nil {
		t.Fatal(err)
	}
	a.tables.mu.Lock()
	l := a.tables.owned[cluster.TableKey("Main")].lease
	a.tables.mu.Unlock()

	armed.Store(true)
	if err := l.Release(ctx); err != nil { // the lease is gone, as if expired
		t.Fatal(err)
	}
	a.tables.lost(l)
	select {
	case <-waiting: // acquired again, waiting for the old table to stop
	case name := <-opened:
		t.Fatalf("%s opened again while its former instance was stopping", name)
	case <-ctx.Done():
		t.Fatal("Main's lease was not acquired again")
	}
	select {
	case <-sink.stalled:
	case <-ctx.Done():
		t.Fatal("the old table did not begin to stop")
	}
	close(sink.release)
	waitFor(t, "Main open again on a", func() bool {
		tb, err := a.lobby.Table("Main")
		return err == nil && tb != old && a.c.Owns("Main") && a.c.Stats().Takeovers == 1
	})
	select {
	case <-old.Done():
	default:
		t.Fatal("the former instance has not stopped")
	}
	if n := len(opened); n != 1 {
		t.Fatalf("Main opened %d times after the loss, want 1", n)
	}
	if got := a.tables.Owned(); len(got) != 1 {
		t.Fatalf("a owns %v, want Main once", got)
	}
}
