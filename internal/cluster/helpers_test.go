package cluster

import (
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"sync"
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

// connect joins a node named name to the NATS at url.
func connect(t *testing.T, url, name string, opts ...nats.Option) *Node {
	t.Helper()
	opts = append(opts, nats.ReconnectWait(50*time.Millisecond))
	n, err := Connect(context.Background(), Config{URL: url, Node: name, LeaseTTL: testTTL, Timeout: 2 * time.Second,
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

// proxy is a TCP relay between a node and the NATS server that the test can cut
// (a network partition) and restore.
type proxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	cut    bool
	conns  []net.Conn
}

func newProxy(t *testing.T, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target}
	t.Cleanup(func() { ln.Close(); p.setCut(true) })
	go p.serve()
	return p
}

func (p *proxy) url() string { return "nats://" + p.ln.Addr().String() }

func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		cut := p.cut
		p.mu.Unlock()
		if cut {
			c.Close()
			continue
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		go func() { _, _ = io.Copy(s, c); s.Close(); c.Close() }()
		go func() { _, _ = io.Copy(c, s); s.Close(); c.Close() }()
	}
}

// setCut cuts (every connection closed, new ones refused) or restores the relay.
func (p *proxy) setCut(cut bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = cut
	if cut {
		for _, c := range p.conns {
			c.Close()
		}
		p.conns = nil
	}
}

// startNATS runs an embedded NATS server with JetStream and returns its URL and
// host:port.
func startNATS(t *testing.T) (url, addr string) {
	s := natstest.Start(t)
	return s.ClientURL(), s.Addr().String()
}
