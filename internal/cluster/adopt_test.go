package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// gate is an adoption held until released, counting the adoptions in flight
// and their peak.
type gate struct {
	entered          chan string
	release          chan struct{}
	inFlight, peak   atomic.Int32
	mu               sync.Mutex
	adopted          map[string]int // by table, the adoptions begun
	failWhenCanceled bool
}

func newGate(n int) *gate {
	return &gate{entered: make(chan string, n), release: make(chan struct{}), adopted: map[string]int{}}
}

func (g *gate) adopt(ctx context.Context, l *Lease, _ Registration) error {
	now := g.inFlight.Add(1)
	defer g.inFlight.Add(-1)
	for p := g.peak.Load(); now > p && !g.peak.CompareAndSwap(p, now); p = g.peak.Load() {
	}
	g.mu.Lock()
	g.adopted[l.Table()]++
	g.mu.Unlock()
	g.entered <- l.Table()
	select {
	case <-g.release:
	case <-ctx.Done():
		<-g.release
	}
	if g.failWhenCanceled && ctx.Err() != nil {
		return ctx.Err() // a log read cut short: the adoption fails
	}
	return nil
}

// awaitEntered waits until k adoptions have begun.
func (g *gate) awaitEntered(t *testing.T, k int) {
	t.Helper()
	for i := range k {
		select {
		case <-g.entered:
		case <-time.After(deadline):
			t.Fatalf("%d adoptions begun, want %d", i, k)
		}
	}
}

// registerOrphans registers k tables that no node holds: a lost node's.
func registerOrphans(t *testing.T, n *Node, k int) {
	t.Helper()
	for i := range k {
		if err := n.Register(context.Background(), fmt.Sprintf("T%03d", i), nil); err != nil {
			t.Fatal(err)
		}
	}
}

// heldBy counts the leases of the bucket each node holds.
func heldBy(t *testing.T, n *Node) map[string]int {
	t.Helper()
	out := map[string]int{}
	err := n.each(context.Background(), n.leases, func(e jetstream.KeyValueEntry) {
		var lv leaseValue
		_ = json.Unmarshal(e.Value(), &lv)
		out[lv.Node]++
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAdoptionsRunInParallelUpToTheBound has a node adopt three times
// adopters tables of a lost node, each adoption held until released: adopters
// of them are under way at once (one after the other, a node took 200 tables
// over in 200 adoptions' time), never more, and then every table is adopted.
func TestAdoptionsRunInParallelUpToTheBound(t *testing.T) {
	url, _ := startNATS(t)
	a := connectTTL(t, url, "a", 30*time.Second)
	const tables = 3 * adopters
	registerOrphans(t, a, tables)
	g := newGate(tables)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, g.adopt, nil) }()
	g.awaitEntered(t, adopters)
	if got := g.inFlight.Load(); got != adopters {
		t.Fatalf("%d adoptions in flight, want %d", got, adopters)
	}
	close(g.release)
	waitFor(t, "every table adopted", func() bool { return a.Stats().Takeovers == tables })
	if p := g.peak.Load(); p != adopters {
		t.Errorf("at most %d adoptions at once, want %d", p, adopters)
	}
	for name, k := range g.adopted {
		if k != 1 {
			t.Errorf("%s adopted %d times", name, k)
		}
	}
	if st, held := a.Stats(), heldBy(t, a); st.Owned != tables || held["a"] != tables {
		t.Errorf("a owns %d tables and holds %d leases, want %d", st.Owned, held["a"], tables)
	}
	cancel()
	<-done
}

// TestStoppingNodeAdoptsNothingMore stops a node while adopters adoptions are
// under way and more tables wait: Run returns only once those adoptions have
// ended, no other table is acquired, and the adoptions that failed for the
// stop have their leases released at once, not left to expire.
func TestStoppingNodeAdoptsNothingMore(t *testing.T) {
	url, _ := startNATS(t)
	a := connectTTL(t, url, "a", 30*time.Second)
	const tables = 3 * adopters
	registerOrphans(t, a, tables)
	g := newGate(tables)
	g.failWhenCanceled = true
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, g.adopt, nil) }()
	g.awaitEntered(t, adopters)
	cancel()
	select {
	case <-done:
		t.Fatal("Run returned with adoptions under way")
	default:
	}
	close(g.release)
	select {
	case <-done:
	case <-time.After(deadline):
		t.Fatal("Run did not return")
	}
	if k := len(g.adopted); k != adopters {
		t.Errorf("%d adoptions begun, want %d", k, adopters)
	}
	if st, held := a.Stats(), heldBy(t, a); st.Takeovers != 0 || st.Owned != 0 || held["a"] != 0 {
		t.Errorf("after the stop: %d taken over, %d owned, %d leases held; want none", st.Takeovers, st.Owned, held["a"])
	}
}

// TestFailedAdoptionRetried fails a table's first adoption: its lease is
// released and a later pass adopts it.
func TestFailedAdoptionRetried(t *testing.T) {
	url, _ := startNATS(t)
	a := connectTTL(t, url, "a", 30*time.Second)
	registerOrphans(t, a, 1)
	var tries atomic.Int32
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- a.Run(ctx, func(context.Context, *Lease, Registration) error {
			if tries.Add(1) == 1 {
				return errors.New("the log did not answer")
			}
			return nil
		}, nil)
	}()
	waitFor(t, "the table adopted", func() bool { return a.Stats().Takeovers == 1 })
	if n := tries.Load(); n != 2 {
		t.Errorf("%d tries, want 2", n)
	}
	cancel()
	<-done
}

// lostNode registers k tables held by a node that is then lost: the leases
// of all but the last held of them are gone (released here rather than
// expired, so that the other nodes' may live long), the last held expire
// after ttl.
func lostNode(t *testing.T, url string, k, held int, ttl time.Duration) {
	t.Helper()
	c := connectTTL(t, url, "c", ttl)
	registerOrphans(t, c, k)
	for i := range k {
		l, err := c.Acquire(context.Background(), fmt.Sprintf("T%03d", i))
		if err != nil {
			t.Fatal(err)
		}
		if i >= k-held {
			continue
		}
		if err := l.Release(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	kill(c)
}

// survivor joins node name to the house holding one table of its own, with
// leases of ttl.
func survivor(t *testing.T, url, name string, ttl time.Duration) *Node {
	t.Helper()
	n := connectTTL(t, url, name, ttl)
	table := "Own-" + name
	if err := n.Register(context.Background(), table, nil); err != nil {
		t.Fatal(err)
	}
	l, err := n.Acquire(context.Background(), table)
	if err != nil {
		t.Fatal(err)
	}
	n.Own(l)
	return n
}

func adoptAll(context.Context, *Lease, Registration) error { return nil }

// TestSurvivorsShareTheOrphans loses a node of three with 40 tables: the first
// survivor's pass adopts its share, 20, and leaves the other 20 to the second
// survivor, whose pass adopts them. (A pass used to adopt every table it
// found: the quickest survivor took the lost node's every table.)
func TestSurvivorsShareTheOrphans(t *testing.T) {
	url, _ := startNATS(t)
	a, b := survivor(t, url, "a", time.Minute), survivor(t, url, "b", time.Minute)
	const tables = 40
	lostNode(t, url, tables, 0, time.Minute)
	ctx := context.Background()
	if more := a.adoptOrphans(ctx, adoptAll); !more {
		t.Error("a's pass says it left no table to the others")
	}
	if got := a.Stats().Takeovers; got != tables/2 {
		t.Fatalf("a's pass took %d of %d tables over, want %d", got, tables, tables/2)
	}
	if more := b.adoptOrphans(ctx, adoptAll); more {
		t.Error("b's pass says it left tables")
	}
	if got := b.Stats().Takeovers; got != tables/2 {
		t.Fatalf("b's pass took %d tables over, want %d", got, tables/2)
	}
	if held := heldBy(t, a); held["a"] != tables/2+1 || held["b"] != tables/2+1 || len(held) != 2 {
		t.Fatalf("leases held: %v", held)
	}
}

// TestIdleSurvivorDelaysNothing loses a node while the other survivor adopts
// nothing (its keeper stopped, its lease alive): the one that adopts takes its
// share, then, passing again at once, the rest.
func TestIdleSurvivorDelaysNothing(t *testing.T) {
	url, _ := startNATS(t)
	a, _ := survivor(t, url, "a", time.Minute), survivor(t, url, "b", time.Minute)
	const tables = 40
	lostNode(t, url, tables, 0, time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, adoptAll, nil) }()
	waitFor(t, "a adopts every table", func() bool { return a.Stats().Takeovers == tables })
	cancel()
	<-done
}

// TestLostNodeCountedOutBeforeItsLeasesExpire loses a node holding 40
// tables, 20 of whose leases are gone and 20 not expired yet. Once its
// newest lease write is half a TTL old it no longer counts among the live
// nodes, although it still holds leases: a survivor's pass takes the 20 free
// tables, its fair part of the house with one other survivor, not a third of
// the house's tables (13), as if the lost node were there to take its share.
func TestLostNodeCountedOutBeforeItsLeasesExpire(t *testing.T) {
	url, _ := startNATS(t)
	const ttl = 10 * time.Second // the lost node's leases outlive the test's steps
	a, b := survivor(t, url, "a", ttl), survivor(t, url, "b", ttl)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, n := range []*Node{a, b} {
		go n.keep(ctx, nil) // the survivors renew their leases
	}
	const tables, held = 40, 20
	lostNode(t, url, tables, held, ttl)
	if o, err := a.findOrphans(ctx); err != nil || o.live != 3 {
		t.Fatalf("live nodes just after the loss: %d (%v), want 3", o.live, err)
	}
	waitFor(t, "c counted out", func() bool {
		o, err := a.findOrphans(ctx)
		return err == nil && o.live == 2
	})
	if got := heldBy(t, a)["c"]; got != held {
		t.Fatalf("c holds %d leases when counted out, want %d", got, held)
	}
	a.adoptOrphans(ctx, adoptAll)
	if got := a.Stats().Takeovers; got != tables-held {
		t.Fatalf("a took %d tables over, want %d", got, tables-held)
	}
}
