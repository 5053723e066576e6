// Package gate holds what the dealers (Casino Day, ACPC) share against hostile
// connections before a player has said who it is: a bound on the connections
// waiting to do so, and an accept loop that a failing accept does not end.
package gate

import (
	"context"
	"errors"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/addrkey"
)

// Defaults of a Gate's bounds.
const (
	// PerAddress is the most connections from one address (addrkey.Of: an IPv4
	// address, an IPv6 /64) that wait at once; one IPv6 /48 (addrkey.Wide) holds
	// addrkey.WideFactor times as many.
	PerAddress = 8
	// Total is the most connections that wait at once.
	Total = 256
)

// Gate bounds the connections that wait to identify themselves (a Casino Day
// login, an ACPC VERSION line): at most perAddress from one address,
// addrkey.WideFactor·perAddress from one IPv6 /48, and total in all. A connection
// past a bound closes the oldest waiting one, of its own address first, then of
// its own /48, so that a flood of silent connections holds no more than the
// bounds and a player who answers at once is never kept out by it: only a flood
// faster than that player's first line could close it, and a flood from the /64s
// of one /48 closes only that /48's. A Gate is safe for concurrent use.
type Gate struct {
	perAddress, total int

	mu      sync.Mutex
	waiting []*entry // oldest first
}

type entry struct {
	conn      net.Conn
	key, wide string // addrkey.Of and addrkey.Wide of its address
}

// New returns a gate with the given bounds (0: the defaults).
func New(perAddress, total int) *Gate {
	if perAddress <= 0 {
		perAddress = PerAddress
	}
	if total <= 0 {
		total = Total
	}
	return &Gate{perAddress: perAddress, total: total}
}

// Admit counts conn as waiting and returns the function that ends its wait (it
// may be called more than once). It closes the oldest waiting connection of
// conn's address when that address has perAddress waiting, else the oldest of
// its /48 when that holds addrkey.WideFactor·perAddress, else the oldest of all
// when the gate holds total; the wait of a connection it closed fails as a
// closed connection's does.
func (g *Gate) Admit(conn net.Conn) (done func()) {
	key := addrkey.OfAddr(conn.RemoteAddr())
	e := &entry{conn: conn, key: key, wide: addrkey.Wide(key)}
	byKey := func(o *entry) bool { return o.key == e.key }
	byWide := func(o *entry) bool { return e.wide != "" && o.wide == e.wide }
	g.mu.Lock()
	var evict *entry
	if g.count(byKey) >= g.perAddress {
		evict = g.oldest(byKey)
	} else if g.count(byWide) >= addrkey.WideMax(g.perAddress) {
		evict = g.oldest(byWide)
	} else if len(g.waiting) >= g.total {
		evict = g.waiting[0]
	}
	if evict != nil {
		g.remove(evict)
	}
	g.waiting = append(g.waiting, e)
	g.mu.Unlock()
	if evict != nil {
		evict.conn.Close()
	}
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.remove(e)
	}
}

// Waiting returns the number of connections waiting.
func (g *Gate) Waiting() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.waiting)
}

// oldest is the oldest waiting connection that from holds for (one exists);
// g.mu must be held.
func (g *Gate) oldest(from func(*entry) bool) *entry {
	return g.waiting[slices.IndexFunc(g.waiting, from)]
}

// count counts the waiting connections that from holds for; g.mu must be held.
func (g *Gate) count(from func(*entry) bool) int {
	n := 0
	for _, e := range g.waiting {
		if from(e) {
			n++
		}
	}
	return n
}

// remove drops e if it waits; g.mu must be held.
func (g *Gate) remove(e *entry) {
	if i := slices.Index(g.waiting, e); i >= 0 {
		g.waiting = slices.Delete(g.waiting, i, i+1)
	}
}

// Backoff bounds of Accept after a failed accept, as net/http's Server does.
const (
	firstBackoff = 5 * time.Millisecond
	maxBackoff   = time.Second
)

// Accept returns the next connection of ln. A temporary failure (too many open
// files: a flood of connections; a connection aborted before it was accepted)
// is waited out, the wait doubling from 5 ms to 1 s, instead of ending the
// listening for good; log, when not nil, is told of each. Accept returns the
// error when ln is closed, on any other failure, or when ctx ends.
func Accept(ctx context.Context, ln net.Listener, log func(error)) (net.Conn, error) {
	wait := time.Duration(0)
	for {
		c, err := ln.Accept()
		if err == nil {
			return c, nil
		}
		var tmp interface{ Temporary() bool }
		if errors.Is(err, net.ErrClosed) || !errors.As(err, &tmp) || !tmp.Temporary() {
			return nil, err
		}
		wait = min(max(2*wait, firstBackoff), maxBackoff)
		if log != nil {
			log(err)
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, err
		}
	}
}
