package cluster

import (
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/cluster/natstest"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/nats-io/nats.go"
)

// testTTL is the leases' TTL in these tests: short, since every wait polls.
const testTTL = 600 * time.Millisecond

// deadline bounds every wait of a test: generous, never reached when all is well.
const deadline = 30 * time.Second

// connect joins a node named name to the NATS at url, with leases of testTTL.
func connect(t *testing.T, url, name string) *Node { return connectTTL(t, url, name, testTTL) }

// connectTTL joins a node with leases of ttl: tests that are not about expiry
// take a long one, so that a loaded machine never expires a lease under them.
func connectTTL(t *testing.T, url, name string, ttl time.Duration) *Node {
	t.Helper()
	opts := []nats.Option{nats.ReconnectWait(50 * time.Millisecond)}
	n, err := Connect(context.Background(), Config{URL: url, Node: name, LeaseTTL: ttl, Timeout: 2 * time.Second,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Options: opts})
	if err != nil {
		t.Fatalf("connect %s: %v", name, err)
	}
	t.Cleanup(func() { n.nc.Close() })
	return n
}

// kill ends a node's connection without releasing anything, as a kill -9 would.
func kill(n *Node) { n.nc.Close() }

// waitFor polls cond every 20 ms until it holds, failing the test after deadline.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	stop := time.Now().Add(deadline)
	for !cond() {
		if time.Now().After(stop) {
			t.Fatalf("not after %v: %s", deadline, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// acquireWhenFree polls until n acquires table's lease.
func acquireWhenFree(t *testing.T, n *Node, table string) *Lease {
	t.Helper()
	var l *Lease
	waitFor(t, n.Name()+" acquires "+table, func() bool {
		var err error
		l, err = n.Acquire(context.Background(), table)
		return err == nil
	})
	return l
}

// randomAction returns a legal action of the seat to act, drawn by r.
func randomAction(h *engine.Hand, r *rand.Rand) engine.Action {
	l := h.Legal()
	a := engine.Action{Seat: l.Seat}
	for {
		k := engine.ActionKind(r.IntN(int(engine.Raise) + 1))
		if !l.Can(k) || (k == engine.Fold && r.IntN(3) != 0) {
			continue
		}
		a.Kind = k
		if k == engine.Bet || k == engine.Raise {
			a.Amount = l.MinTo + r.Int64N(l.MaxTo-l.MinTo+1)
		}
		return a
	}
}

// testHandConfig is a six-handed no-limit hand dealt by seed.
func testHandConfig(seed uint64) engine.Config {
	var s cards.Seed
	s[0], s[1] = byte(seed), byte(seed>>8)
	return engine.Config{Stacks: []int64{1000, 800, 1200, 500, 0, 2000}, SmallBlind: 5, BigBlind: 10, Button: 1, Seed: s}
}

// startNATS runs an embedded NATS server with JetStream and returns its URL and
// host:port.
func startNATS(t testing.TB) (url, addr string) {
	s := natstest.Start(t)
	return s.ClientURL(), s.Addr().String()
}
