package natstest

import (
	"io"
	"net"
	"sync"
	"testing"
)

// Relay is a TCP relay between a NATS client and the server that a test can
// cut (a network partition: every connection closed, new ones refused) and
// restore.
type Relay struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	cut    bool
	conns  []net.Conn
}

// NewRelay relays 127.0.0.1:port to target (host:port) until the test ends.
func NewRelay(t testing.TB, target string) *Relay {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &Relay{ln: ln, target: target}
	t.Cleanup(func() { ln.Close(); r.SetCut(true) })
	go r.serve()
	return r
}

// URL returns the relay's NATS URL.
func (r *Relay) URL() string { return "nats://" + r.ln.Addr().String() }

func (r *Relay) serve() {
	for {
		c, err := r.ln.Accept()
		if err != nil {
			return
		}
		r.mu.Lock()
		cut := r.cut
		r.mu.Unlock()
		if cut {
			c.Close()
			continue
		}
		s, err := net.Dial("tcp", r.target)
		if err != nil {
			c.Close()
			continue
		}
		r.mu.Lock()
		r.conns = append(r.conns, c, s)
		r.mu.Unlock()
		go func() { _, _ = io.Copy(s, c); s.Close(); c.Close() }()
		go func() { _, _ = io.Copy(c, s); s.Close(); c.Close() }()
	}
}

// SetCut cuts the relay (true) or restores it (false).
func (r *Relay) SetCut(cut bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cut = cut
	if cut {
		for _, c := range r.conns {
			c.Close()
		}
		r.conns = nil
	}
}
