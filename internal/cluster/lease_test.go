package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestTableKey checks that any name gives a valid key, and two names that
// differ other than by case never the same one.
func TestTableKey(t *testing.T) {
	for name, want := range map[string]string{
		"Main": "main", "high-stakes_2": "high-stakes_2", "Bob's table": "bob=27s=20table", "a.b>c*": "a=2eb=3ec=2a", "été": "=c3=a9t=c3=a9",
	} {
		if got := TableKey(name); got != want {
			t.Errorf("TableKey(%q) = %q, want %q", name, got, want)
		}
	}
	if TableKey("a=2e") == TableKey("a.") {
		t.Error(`"a=2e" and "a." share a key`)
	}
}

// TestOneOwnerWhenNodesRace has three nodes race, many times over, to acquire
// one table's lease: exactly one wins each time, and the others are told who.
func TestOneOwnerWhenNodesRace(t *testing.T) {
	url, _ := startNATS(t)
	nodes := []*Node{connectTTL(t, url, "a", time.Minute), connectTTL(t, url, "b", time.Minute), connectTTL(t, url, "c", time.Minute)}
	ctx := context.Background()
	for round := range 20 {
		table := fmt.Sprintf("race-%d", round)
		var mu sync.Mutex
		var won []*Lease
		var held []string
		var wg sync.WaitGroup
		for _, n := range nodes {
			for range 3 {
				wg.Go(func() {
					l, err := n.Acquire(ctx, table)
					mu.Lock()
					defer mu.Unlock()
					var he *HeldError
					switch {
					case err == nil:
						won = append(won, l)
					case errors.As(err, &he):
						held = append(held, he.Node)
					default:
						t.Errorf("acquire: %v", err)
					}
				})
			}
		}
		wg.Wait()
		if len(won) != 1 {
			t.Fatalf("round %d: %d owners, want 1", round, len(won))
		}
		owner := won[0].n.Name()
		for _, h := range held {
			if h != owner && h != "" {
				t.Errorf("round %d: told the holder is %q, it is %q", round, h, owner)
			}
		}
		if got, err := nodes[0].Holder(ctx, table); err != nil || got != owner {
			t.Errorf("round %d: Holder = %q, %v; want %q", round, got, err, owner)
		}
	}
}

// TestLeaseRenewedStaysReleasedFrees checks the lease's life: renewals keep it
// past its TTL, others cannot take it meanwhile, and a release frees it at once
// with a greater fencing token for the next owner.
func TestLeaseRenewedStaysReleasedFrees(t *testing.T) {
	url, _ := startNATS(t)
	const ttl = 2 * time.Second // renewed every 400 ms: a lapse needs a 1.6 s stall
	a, b := connectTTL(t, url, "a", ttl), connectTTL(t, url, "b", ttl)
	ctx := context.Background()
	la, err := a.Acquire(ctx, "Main")
	if err != nil {
		t.Fatal(err)
	}
	for range 6 { // well past the TTL
		time.Sleep(ttl / 5)
		if err := la.Renew(ctx); err != nil {
			t.Fatalf("renew: %v", err)
		}
		if _, err := b.Acquire(ctx, "main"); !errors.Is(err, ErrHeld) {
			t.Fatalf("b acquired a renewed lease (table names ignore case): %v", err)
		}
	}
	if err := la.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if la.Valid(time.Now()) {
		t.Error("a released lease is still valid")
	}
	lb, err := b.Acquire(ctx, "Main")
	if err != nil {
		t.Fatalf("acquire after release: %v", err)
	}
	if lb.Token() <= la.Token() {
		t.Errorf("tokens %d then %d: want them increasing", la.Token(), lb.Token())
	}
	if err := la.Renew(ctx); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("renew of a released lease: %v, want ErrLeaseLost", err)
	}
}

// TestStaleOwnerRefused is the owner that wakes up after a long pause (a GC, a
// stopped VM) past its lease: another node has taken the table, and the stale
// owner's renewal and log writes are refused, even when its own clock would
// still believe the lease valid.
func TestStaleOwnerRefused(t *testing.T) {
	url, _ := startNATS(t)
	a, b := connectTTL(t, url, "a", 2*time.Second), connectTTL(t, url, "b", 2*time.Second)
	ctx := context.Background()
	la, err := a.Acquire(ctx, "Main")
	if err != nil {
		t.Fatal(err)
	}
	wa, hl, err := a.OpenWAL(ctx, la)
	if err != nil || hl != nil {
		t.Fatalf("open an empty log: %v, %v", hl, err)
	}
	cfg := testHandConfig(1)
	if err := wa.StartHand(ctx, 1, cfg, nil); err != nil {
		t.Fatal(err)
	}
	if err := wa.Action(ctx, testAction(t, cfg, 0)); err != nil {
		t.Fatal(err)
	}
	// a pauses: no renewal. b takes the table once the lease expires.
	lb := acquireWhenFree(t, b, "Main")
	if lb.Token() <= la.Token() {
		t.Errorf("tokens %d then %d: want them increasing", la.Token(), lb.Token())
	}
	wb, hl, err := b.OpenWAL(ctx, lb)
	if err != nil || hl == nil || len(hl.Actions) != 1 {
		t.Fatalf("b's log: %+v, %v; want the hand and its action", hl, err)
	}
	// a wakes up. Its own clock says the lease is over:
	if err := wa.Action(ctx, testAction(t, cfg, 1)); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("stale write: %v, want ErrLeaseLost", err)
	}
	// and if the clock lied (or the pause fell between its check and its write),
	// the log refuses the write all the same:
	la.mu.Lock()
	la.until = time.Now().Add(time.Hour)
	la.mu.Unlock()
	if err := wa.Action(ctx, testAction(t, cfg, 1)); !errors.Is(err, ErrFenced) {
		t.Errorf("stale write with a lying clock: %v, want ErrFenced", err)
	}
	if err := wa.StartHand(ctx, 2, cfg, nil); !errors.Is(err, ErrFenced) {
		t.Errorf("stale hand start: %v, want ErrFenced", err)
	}
	if err := la.Renew(ctx); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("stale renewal: %v, want ErrLeaseLost", err)
	}
	if err := la.Release(ctx); err != nil {
		t.Errorf("stale release: %v", err)
	}
	// The new owner is untouched by all of it.
	if h, _ := b.Holder(ctx, "Main"); h != "b" {
		t.Errorf("holder after the stale owner's tries: %q, want b", h)
	}
	if err := wb.Action(ctx, testAction(t, cfg, 1)); err != nil {
		t.Errorf("the new owner's write: %v", err)
	}
	_, hl, err = b.OpenWAL(ctx, lb)
	if err != nil || hl == nil || len(hl.Actions) != 2 {
		t.Fatalf("log after all: %+v, %v; want 2 actions, none of the stale owner's", hl, err)
	}
}

// TestCloseHandsTablesOver has a node leave on purpose: its leases are released
// and its listings removed at once, so another node takes its tables without
// waiting for the TTL.
func TestCloseHandsTablesOver(t *testing.T) {
	url, _ := startNATS(t)
	a, b := connect(t, url, "a"), connect(t, url, "b")
	ctx := context.Background()
	l, err := a.Acquire(ctx, "Main")
	if err != nil {
		t.Fatal(err)
	}
	a.Own(l)
	if err := a.List(ctx, l, "info"); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Acquire(ctx, "Main"); err != nil {
		t.Errorf("acquire right after the owner closed: %v", err)
	}
	if ls, err := b.Lobby(ctx); err != nil || len(ls) != 0 {
		t.Errorf("lobby after the owner closed: %+v, %v", ls, err)
	}
}

// TestReleasedLeaseAdoptedAtOnce has a node hand a table over (release) with a
// long TTL: another node's keeper adopts it at once, not at its next tick.
func TestReleasedLeaseAdoptedAtOnce(t *testing.T) {
	url, _ := startNATS(t)
	a, b := connect(t, url, "a"), connect(t, url, "b")
	b.cfg.LeaseTTL = time.Minute // b's keeper ticks every 20 s
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := a.Register(ctx, "Main", nil); err != nil {
		t.Fatal(err)
	}
	l, err := a.Acquire(ctx, "Main")
	if err != nil {
		t.Fatal(err)
	}
	a.Own(l)
	adopted := make(chan time.Time, 1)
	go func() {
		_ = b.Run(ctx, func(context.Context, *Lease, Registration) error { adopted <- time.Now(); return nil }, nil)
	}()
	time.Sleep(100 * time.Millisecond) // b's first round finds Main held
	released := time.Now()
	if err := a.Disown(ctx, l); err != nil {
		t.Fatal(err)
	}
	select {
	case at := <-adopted:
		t.Logf("adopted %v after the release", at.Sub(released).Round(time.Millisecond))
	case <-time.After(10 * time.Second):
		t.Fatal("a released table was not adopted before the keeper's tick")
	}
}

// TestLeaseTTLsMustAgree refuses a node whose lease TTL differs from the one
// the house's buckets were made with: it would count a lease's life otherwise
// than the bucket and hold a table the bucket has given to another node.
func TestLeaseTTLsMustAgree(t *testing.T) {
	url, _ := startNATS(t)
	connect(t, url, "a")
	_, err := Connect(context.Background(), Config{URL: url, Node: "b", LeaseTTL: 10 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "same lease TTL") {
		t.Fatalf("a node with another TTL: %v, want refused", err)
	}
}

// TestAwaitOpen: a table counts as being opened on a node from its lease's
// acquisition to Own or Release, and only on that node: AwaitOpen waits for
// it there, returns at once elsewhere and after a failed acquisition, and
// gives up when its context ends.
func TestAwaitOpen(t *testing.T) {
	url, _ := startNATS(t)
	a, b := connect(t, url, "a"), connect(t, url, "b")
	ctx := context.Background()
	if a.AwaitOpen(ctx, "Main") {
		t.Error("AwaitOpen waited for a table no lease is held for")
	}
	l, err := a.Acquire(ctx, "Main")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Acquire(ctx, "Main"); !errors.Is(err, ErrHeld) {
		t.Fatalf("b acquired a's table: %v", err)
	}
	if b.AwaitOpen(ctx, "main") {
		t.Error("b waits for a table its failed acquisition left")
	}
	short, cancel := context.WithCancel(ctx)
	cancel()
	if a.AwaitOpen(short, "Main") {
		t.Error("AwaitOpen reported the table open with its context done")
	}
	if st := a.Stats(); st.Owned != 0 {
		t.Errorf("a counts %d tables owned before Own", st.Owned)
	}
	// What AwaitOpen waits on ends with Own; a lease released without being
	// owned (the table failed to open) ends it too.
	ends := func(name string, end func()) {
		t.Helper()
		a.mu.Lock()
		o := a.opening[TableKey(name)]
		a.mu.Unlock()
		if o == nil {
			t.Fatalf("%s is not counted as being opened", name)
		}
		end()
		select {
		case <-o.done:
		default:
			t.Errorf("the wait for %s did not end", name)
		}
		if a.AwaitOpen(ctx, name) {
			t.Errorf("AwaitOpen waited for %s after its end", name)
		}
	}
	ends("Main", func() { a.Own(l) })
	l2, err := a.Acquire(ctx, "Side")
	if err != nil {
		t.Fatal(err)
	}
	ends("Side", func() {
		if err := l2.Release(ctx); err != nil {
			t.Fatal(err)
		}
	})
}
