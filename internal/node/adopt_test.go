package node

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cluster/natstest"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// adopters is the bound on a node's adoptions under way (cluster's).
const adopters = 8

// openGate holds each table a node opens (Config.beforeOpen) until released,
// counting the openings under way and their peak.
type openGate struct {
	entered        chan string
	release        chan struct{}
	inFlight, peak atomic.Int32
	mu             sync.Mutex
	opened         map[string]int
}

func newOpenGate() *openGate {
	return &openGate{entered: make(chan string, 64), release: make(chan struct{}), opened: map[string]int{}}
}

func (g *openGate) hold(name string) {
	now := g.inFlight.Add(1)
	defer g.inFlight.Add(-1)
	for p := g.peak.Load(); now > p && !g.peak.CompareAndSwap(p, now); p = g.peak.Load() {
	}
	g.mu.Lock()
	g.opened[name]++
	g.mu.Unlock()
	g.entered <- name
	<-g.release
}

// awaitEntered waits until k openings have begun.
func (g *openGate) awaitEntered(t *testing.T, k int) {
	t.Helper()
	for i := range k {
		select {
		case <-g.entered:
		case <-time.After(deadline):
			t.Fatalf("%d tables being opened, want %d", i, k)
		}
	}
}

// orphanedTables runs twelve house tables on node a, then hands them over:
// node b, whose keeper the test runs (b.tables.Run) and whose openings wait
// at g, finds them all without an owner, as a lost node's.
func orphanedTables(t *testing.T, ctx context.Context) (b *testNode, g *openGate, names []string) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	var extra []string
	for i := 1; i < 12; i++ {
		extra = append(extra, fmt.Sprintf("T%02d", i))
	}
	names = append([]string{"Main"}, extra...)
	const ttl = 30 * time.Second // nothing expires here: the tables are handed over
	a := startNodeWith(t, ctx, dsn, url, "a", nodeOptions{ttl: ttl, tables: extra})
	if got := len(a.tables.Owned()); got != len(names) {
		t.Fatalf("a runs %d tables, want %d", got, len(names))
	}
	g = newOpenGate()
	b = startNodeWith(t, ctx, dsn, url, "b", nodeOptions{ttl: ttl, tables: extra, beforeOpen: g.hold, noRun: true})
	if err := a.tables.HandOver(ctx); err != nil {
		t.Fatal(err)
	}
	return b, g, names
}

// TestLostNodesTablesAdoptedInParallel has a node take twelve tables over,
// each held at its opening: eight are opened at once, never more, and then
// every table is open on the node, once. (They were opened one after the
// other: 200 tables took 200 openings' time.)
func TestLostNodesTablesAdoptedInParallel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	b, g, names := orphanedTables(t, ctx)
	go func() { _ = b.tables.Run(ctx) }()
	g.awaitEntered(t, adopters)
	if n := g.inFlight.Load(); n != adopters {
		t.Fatalf("%d tables being opened, want %d", n, adopters)
	}
	close(g.release)
	waitFor(t, "b runs every table", func() bool {
		return len(b.tables.Owned()) == len(names) && b.c.Stats().Takeovers == int64(len(names))
	})
	if p := g.peak.Load(); p != adopters {
		t.Errorf("at most %d tables opened at once, want %d", p, adopters)
	}
	for _, name := range names {
		if g.opened[name] != 1 {
			t.Errorf("%s opened %d times", name, g.opened[name])
		}
		if _, err := b.lobby.Table(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestHandOverDuringAdoptions hands a node's tables over while it is taking
// eight tables over: HandOver returns once those adoptions have ended, and
// the node then runs no table and holds no lease (those cut short are
// released at once, not left to expire), and opens no table after it, nor
// adopts any if Run begins after it.
func TestHandOverDuringAdoptions(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	b, g, names := orphanedTables(t, ctx)
	go func() { _ = b.tables.Run(ctx) }()
	g.awaitEntered(t, adopters)
	handed := make(chan error, 1)
	go func() { handed <- b.tables.HandOver(ctx) }()
	close(g.release)
	if err := <-handed; err != nil {
		t.Fatal(err)
	}
	if got, st := b.tables.Owned(), b.c.Stats(); len(got) != 0 || st.Owned != 0 {
		t.Errorf("after the handover b runs %v, owns %d leases", got, st.Owned)
	}
	for _, name := range names {
		if h, err := b.c.Holder(ctx, name); err != nil || h != "" {
			t.Errorf("%s: held by %q (%v) after the handover, want free", name, h, err)
		}
	}
	// A player's table asked of the node now is refused, its name left free.
	u, err := b.h.Register(ctx, house.Registration{Username: "alice", Password: "correct horse", ConfirmedAdult: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := b.tables.cfg.Table("Main")
	cfg.Name, cfg.Permanent, cfg.Bots = "Late", false, nil
	if _, err := b.tables.OpenPlayerTable(ctx, u.ID, 0, cfg, []byte(`{}`)); !errors.Is(err, errLeaving) {
		t.Fatalf("a table asked of a node that has handed over: %v, want refused", err)
	}
	if ok, err := b.c.IsRegistered(ctx, "Late"); err != nil || ok {
		t.Errorf("the refused table is registered: %v %v", ok, err)
	}
	if h, err := b.c.Holder(ctx, "Late"); err != nil || h != "" {
		t.Errorf("the refused table's lease is held by %q (%v)", h, err)
	}
	// Run, begun after the handover, adopts nothing (the twelve tables are
	// free): it returns at once.
	opened := len(g.entered) // the openings begun so far, not yet read
	ran := make(chan error, 1)
	go func() { ran <- b.tables.Run(ctx) }()
	select {
	case err := <-ran:
		if err != nil || len(g.entered) != opened {
			t.Errorf("Run after the handover: %v, %d tables opened", err, len(g.entered)-opened)
		}
	case <-ctx.Done():
		t.Fatal("Run after the handover did not return")
	}
}
