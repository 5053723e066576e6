package cluster

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// slowKV is a bucket whose updates each take delay more: the round trips of a
// node short of CPU.
type slowKV struct {
	jetstream.KeyValue
	delay time.Duration
}

func (s slowKV) Update(ctx context.Context, key string, value []byte, rev uint64) (uint64, error) {
	time.Sleep(s.delay)
	return s.KeyValue.Update(ctx, key, value, rev)
}

// TestRenewalsKeepUpWithSlowRoundTrips renews 100 leases whose every renewal
// takes 100 ms more: one after the other the pass would take twice the TTL and
// lose the last half; in parallel it keeps every lease.
func TestRenewalsKeepUpWithSlowRoundTrips(t *testing.T) {
	url, _ := startNATS(t)
	const ttl, tables = 5 * time.Second, 100
	n := connectTTL(t, url, "a", ttl)
	ctx := context.Background()
	leases := make([]*Lease, tables)
	for i := range leases {
		l, err := n.Acquire(ctx, fmt.Sprintf("T%03d", i))
		if err != nil {
			t.Fatal(err)
		}
		n.Own(l)
		leases[i] = l
	}
	n.renewAll(ctx, nil) // every deadline fresh before the slow pass
	n.leases = slowKV{KeyValue: n.leases, delay: ttl / tables * 2}
	var lost atomic.Int32
	n.renewAll(ctx, func(*Lease) { lost.Add(1) })
	now := time.Now()
	for _, l := range leases {
		if !l.Valid(now) {
			t.Errorf("lease of %s not valid after the pass", l.Table())
		}
	}
	if st := n.Stats(); lost.Load() != 0 || st.Lost != 0 || st.Renewals != 2*tables || st.Owned != tables {
		t.Fatalf("after the slow pass: %d lost, stats %+v", lost.Load(), st)
	}
}

// TestAdoptionDoesNotHoldRenewals blocks an adoption: the node's own lease is
// renewed all the while, not lost for want of a renewal.
func TestAdoptionDoesNotHoldRenewals(t *testing.T) {
	url, _ := startNATS(t)
	n := connectTTL(t, url, "a", 1500*time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	mine, err := n.Acquire(ctx, "Mine")
	if err != nil {
		t.Fatal(err)
	}
	n.Own(mine)
	if err := n.Register(ctx, "Orphan", map[string]int{"seats": 6}); err != nil {
		t.Fatal(err)
	}
	reached, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	adopt := func(ctx context.Context, l *Lease, _ Registration) error {
		once.Do(func() { close(reached) })
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil
	}
	var lost atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = n.Run(ctx, adopt, func(*Lease) { lost.Add(1) })
	}()
	select {
	case <-reached:
	case <-time.After(deadline):
		t.Fatal("the orphan was not adopted")
	}
	from := n.Stats().Renewals
	waitFor(t, "three renewals during the adoption", func() bool { return n.Stats().Renewals >= from+3 })
	if !mine.Valid(time.Now()) || lost.Load() != 0 {
		t.Fatalf("during the adoption: lease valid %v, %d lost", mine.Valid(time.Now()), lost.Load())
	}
	close(release)
	cancel()
	<-done
}

// TestRoleTablesLeftToTheRole registers a table under a role beside an
// ordinary one: a keeper's pass adopts the ordinary table and leaves the
// role's to the role's holder (no lease taken, nothing opened), and the
// relay's lookups find the role in the registration.
func TestRoleTablesLeftToTheRole(t *testing.T) {
	url, _ := startNATS(t)
	n := connect(t, url, "a")
	ctx := context.Background()
	if err := n.RegisterNew(ctx, "Plain", "plain"); err != nil {
		t.Fatal(err)
	}
	if err := n.RegisterRoleTable(ctx, "t1-1", "tournaments", "tourney"); err != nil {
		t.Fatal(err)
	}
	if err := n.RegisterRoleTable(ctx, "T1-1", "tournaments", "again"); !errors.Is(err, ErrRegistered) {
		t.Fatalf("a role table registered twice: %v, want ErrRegistered", err)
	}
	var adopted []string
	n.adoptOrphans(ctx, func(_ context.Context, l *Lease, reg Registration) error {
		adopted = append(adopted, reg.Table)
		return nil
	})
	if len(adopted) != 1 || adopted[0] != "Plain" {
		t.Fatalf("adopted %v, want only Plain", adopted)
	}
	if h, err := n.Holder(ctx, "t1-1"); err != nil || h != "" {
		t.Fatalf("the role table's lease is held by %q (%v), want none", h, err)
	}
	reg, ok, err := n.Lookup(ctx, "t1-1")
	if err != nil || !ok || reg.Role != "tournaments" {
		t.Fatalf("the role table's registration: %+v %v %v", reg, ok, err)
	}
}
