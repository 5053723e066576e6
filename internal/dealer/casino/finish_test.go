package casino

import (
	"context"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cards"
)

// exitListener hands out connections it remembers, so that a test can close them
// all the moment Run returns, as the exit of felt dealer does: a frame written
// before that reaches the client, a frame still queued is lost.
type exitListener struct {
	net.Listener
	mu    sync.Mutex
	conns []net.Conn
	wrap  func(net.Conn) net.Conn // nil: none
}

func (l *exitListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if l.wrap != nil {
		c = l.wrap(c)
	}
	l.mu.Lock()
	l.conns = append(l.conns, c)
	l.mu.Unlock()
	return c, nil
}

// exit closes every connection accepted.
func (l *exitListener) exit() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.conns {
		c.Close()
	}
}

func listen(t *testing.T) *exitListener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return &exitListener{Listener: ln}
}

// allIn bets everything it may: the game ends in a few hands.
func allIn(_ net.Conn, q string, _ int) (string, bool) {
	f := strings.Split(q, ":")
	stack, _ := strconv.ParseInt(f[1], 10, 64)
	toCall, _ := strconv.ParseInt(f[3], 10, 64)
	return Bet(min(stack, toCall+MaxRaise)), false
}

// TestLastMessagesArrive plays a short two-player game thirty times and closes
// the dealer's connections the moment Run returns, as the exit of felt dealer
// does. Both players must have been sent their last frame by then: the winner its
// "done:game over", the player knocked out in the last hand its "done:no chips".
func TestLastMessagesArrive(t *testing.T) {
	for i := range 30 {
		seed := cards.SeedFromUint64(uint64(i))
		d, err := New(Config{Players: 2, Stack: 3, Ante: 1, Timeout: time.Second, Seed: &seed})
		if err != nil {
			t.Fatal(err)
		}
		ln := listen(t)
		res := make(chan Result, 1)
		go func() {
			r, err := d.Run(context.Background(), ln)
			ln.exit()
			if err != nil {
				t.Error(err)
			}
			res <- r
		}()
		a := scripted(t, ln.Addr().String(), "a", allIn)
		b := scripted(t, ln.Addr().String(), "b", allIn)
		r := wait(t, res)
		got := map[string][]string{"a": wait(t, a), "b": wait(t, b)}
		for _, s := range r.Standings {
			want := Done(ReasonGameOver)
			if s.Out {
				want = Done(s.Reason)
			}
			if m := got[s.ID]; len(m) == 0 || m[len(m)-1] != want {
				t.Fatalf("game %d (%d hands): %s (%+v) got %q, want %q last", i, r.Hands, s.ID, s, m, want)
			}
		}
	}
}

// stallConn is a connection whose peer stopped reading with its socket buffer
// full: once stalled, a write blocks until the write deadline or Close.
type stallConn struct {
	net.Conn
	stall    func(frame []byte) bool // reports the write that finds the buffer full
	mu       sync.Mutex
	stalled  bool
	deadline time.Time
	closed   chan struct{}
	once     sync.Once
}

func (c *stallConn) SetWriteDeadline(t time.Time) error {
	c.mu.Lock()
	c.deadline = t
	c.mu.Unlock()
	return c.Conn.SetWriteDeadline(t)
}

func (c *stallConn) Write(b []byte) (int, error) {
	c.mu.Lock()
	c.stalled = c.stalled || c.stall(b)
	stalled, deadline := c.stalled, c.deadline
	c.mu.Unlock()
	if !stalled {
		return c.Conn.Write(b)
	}
	select {
	case <-c.closed:
		return 0, net.ErrClosed
	case <-time.After(time.Until(deadline)):
		return 0, &net.OpError{Op: "write", Err: osTimeout{}}
	}
}

func (c *stallConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return c.Conn.Close()
}

// osTimeout is the error of a write past its deadline.
type osTimeout struct{}

func (osTimeout) Error() string   { return "i/o timeout" }
func (osTimeout) Timeout() bool   { return true }
func (osTimeout) Temporary() bool { return true }

// TestStalledClientDoesNotHoldFinish plays one hand between two players with a
// long timeout; one stops reading when the hand is over (its status does not fit
// in its socket buffer). Run must return by FlushWait after the end, not the
// timeout, with the other player's done written.
func TestStalledClientDoesNotHoldFinish(t *testing.T) {
	const flush = 200 * time.Millisecond
	seed := cards.SeedFromUint64(1)
	d, err := New(Config{Players: 2, Hands: 1, Timeout: time.Minute, FlushWait: flush, Seed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	ln := listen(t)
	first := true
	ln.wrap = func(c net.Conn) net.Conn {
		if !first {
			return c
		}
		first = false // the first connection to log in stalls
		return &stallConn{Conn: c, closed: make(chan struct{}), stall: func(b []byte) bool {
			return strings.Contains(string(b), MsgStatus+":")
		}}
	}
	res := make(chan time.Duration, 1)
	var end time.Time // when the hand was over, for the spectators
	d.show.mu.Lock()
	d.show.tap = func(b []byte) {
		if end.IsZero() && strings.Contains(string(b), `"over":true`) {
			end = time.Now()
		}
	}
	d.show.mu.Unlock()
	go func() {
		if _, err := d.Run(context.Background(), ln); err != nil {
			t.Error(err)
		}
		d.show.mu.Lock()
		defer d.show.mu.Unlock()
		res <- time.Since(end)
	}()
	call := func(_ net.Conn, q string, _ int) (string, bool) { return "bet:" + toCall(q), false }
	staller := scripted(t, ln.Addr().String(), "staller", call)
	waitSnapshot(t, d, func(s Snapshot) bool { return len(s.Standings) == 1 })
	other := scripted(t, ln.Addr().String(), "other", call)
	took := wait(t, res)
	if took > flush+2*time.Second {
		t.Errorf("Run returned %v after the hand, want about FlushWait (%v)", took, flush)
	}
	if m := wait(t, other); len(m) == 0 || m[len(m)-1] != Done(ReasonGameOver) {
		t.Errorf("other got %q", m)
	}
	wait(t, staller)
}
