package gate

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"syscall"
	"testing"

	"github.com/felt-poker/felt/internal/addrkey"
)

// fakeConn is a connection from a chosen address that records its closing.
type fakeConn struct {
	net.Conn
	from   net.Addr
	mu     sync.Mutex
	closed bool
}

func (c *fakeConn) RemoteAddr() net.Addr { return c.from }
func (c *fakeConn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	return nil
}
func (c *fakeConn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

func from(ip string) *fakeConn {
	return &fakeConn{from: &net.TCPAddr{IP: net.ParseIP(ip), Port: 40000}}
}

// TestGateClosesTheOldestOfAnAddress: past the bound of one address, each new
// connection from it closes that address's oldest; another address's are left
// alone, and an IPv6 /64 is one address.
func TestGateClosesTheOldestOfAnAddress(t *testing.T) {
	g := New(3, 100)
	other := from("10.0.0.9")
	g.Admit(other)
	var flood []*fakeConn
	for range 5 {
		c := from("10.0.0.1")
		g.Admit(c)
		flood = append(flood, c)
	}
	for i, c := range flood {
		if want := i < 2; c.isClosed() != want {
			t.Errorf("flood %d closed %v, want %v", i, c.isClosed(), want)
		}
	}
	if other.isClosed() || g.Waiting() != 4 {
		t.Fatalf("other closed %v, %d waiting", other.isClosed(), g.Waiting())
	}
	a, b := from("2001:db8::1"), from("2001:db8::2")
	g.Admit(a)
	g.Admit(b)
	g.Admit(from("2001:db8::3"))
	g.Admit(from("2001:db8::4"))
	if !a.isClosed() || b.isClosed() {
		t.Errorf("IPv6 /64: first closed %v, second %v", a.isClosed(), b.isClosed())
	}
}

// TestGateClosesTheOldestOfASlash48: the /64s of one IPv6 /48 hold
// addrkey.WideFactor times the per-address bound waiting in all; past it, a new
// connection from a fresh /64 of that /48 closes the /48's oldest, and another
// /48's and IPv4 connections are left alone.
func TestGateClosesTheOldestOfASlash48(t *testing.T) {
	const per = 2
	g := New(per, 1000)
	others := []*fakeConn{from("2001:db8:2::1"), from("10.0.0.9")}
	for _, c := range others {
		g.Admit(c)
	}
	var flood []*fakeConn
	for i := range addrkey.WideFactor*per + 3 { // 3 past the /48's bound, each from a fresh /64
		c := from(fmt.Sprintf("2001:db8:1:%x::1", i))
		g.Admit(c)
		flood = append(flood, c)
	}
	for i, c := range flood {
		if want := i < 3; c.isClosed() != want {
			t.Errorf("flood %d closed %v, want %v", i, c.isClosed(), want)
		}
	}
	for _, c := range others {
		if c.isClosed() {
			t.Errorf("%v closed by another /48's flood", c.from)
		}
	}
	if got := g.Waiting(); got != len(others)+addrkey.WideFactor*per {
		t.Fatalf("%d waiting, want %d", got, len(others)+addrkey.WideFactor*per)
	}
}

// TestGateTotal: past the total, a new connection closes the oldest of all; a
// connection whose wait ended counts no more (ending it twice is harmless).
func TestGateTotal(t *testing.T) {
	g := New(8, 3)
	a, b, c := from("10.0.0.1"), from("10.0.0.2"), from("10.0.0.3")
	doneA := g.Admit(a)
	g.Admit(b)
	g.Admit(c)
	doneA()
	doneA()
	d := from("10.0.0.4")
	g.Admit(d)
	if a.isClosed() || b.isClosed() || g.Waiting() != 3 {
		t.Fatalf("a ended its wait: nothing to close; got a %v b %v, %d waiting", a.isClosed(), b.isClosed(), g.Waiting())
	}
	g.Admit(from("10.0.0.5"))
	if !b.isClosed() || c.isClosed() || d.isClosed() {
		t.Fatalf("the oldest (b) must go: b %v c %v d %v", b.isClosed(), c.isClosed(), d.isClosed())
	}
}

// errListener fails as told, then is closed.
type errListener struct {
	net.Listener
	errs []error
	n    int
}

func (l *errListener) Accept() (net.Conn, error) {
	l.n++
	if len(l.errs) > 0 {
		err := l.errs[0]
		l.errs = l.errs[1:]
		return nil, err
	}
	return nil, net.ErrClosed
}

// TestAcceptWaitsOutTemporaryFailures: too many open files is waited out; a
// closed listener, or any other failure, ends Accept at once.
func TestAcceptWaitsOutTemporaryFailures(t *testing.T) {
	emfile := &net.OpError{Op: "accept", Net: "tcp", Err: syscall.EMFILE}
	l := &errListener{errs: []error{emfile, emfile, emfile}}
	logged := 0
	_, err := Accept(context.Background(), l, func(error) { logged++ })
	if !errors.Is(err, net.ErrClosed) || l.n != 4 || logged != 3 {
		t.Fatalf("err %v after %d accepts, %d logged", err, l.n, logged)
	}
	other := errors.New("broken")
	l = &errListener{errs: []error{other}}
	if _, err := Accept(context.Background(), l, nil); err != other || l.n != 1 {
		t.Fatalf("err %v after %d accepts", err, l.n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	l = &errListener{errs: []error{emfile, emfile}}
	if _, err := Accept(ctx, l, nil); !errors.Is(err, syscall.EMFILE) || l.n != 1 {
		t.Fatalf("cancelled: err %v after %d accepts", err, l.n)
	}
}
