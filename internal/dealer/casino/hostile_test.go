package casino

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/dealer/gate"
)

// TestLoginNamesChecked: a login whose id or avatar could write on the
// operator's terminal (a new line forging a line of the standings, an escape
// sequence) or bloat every snapshot (64 KiB names) is refused as a bad message.
func TestLoginNamesChecked(t *testing.T) {
	for _, bad := range []string{
		"x\n1  mallory  Cat  9999  in:Cat", // a line of its own in the standings
		"\x1b[2J:Cat", "octo\tcat:Cat", "<script>alert(1)</script>:Cat", "octo cat:Cat",
		strings.Repeat("a", MaxID+1) + ":Cat", "octocat:" + strings.Repeat("c", MaxAvatar+1),
		"octocat:Cat\x1b]0;pwned\x07", "octocat:Cat\r\n", "octocat:\u202eCat", "octocat:\u200b",
		"octocat:Cat\x00", "\xff:Cat", "-A1:Cat", ".hidden:Cat", "_x:Cat",
	} {
		if id, av, err := ParseLogin(bad); !errors.Is(err, ErrBadMessage) {
			t.Errorf("ParseLogin(%q) = %q, %q, %v; want ErrBadMessage", bad, id, av, err)
		}
	}
	for _, good := range []string{"octocat:Cat", "a:b", "Jane-Doe_2.0:Robot", strings.Repeat("a", MaxID) + ":" + strings.Repeat("é", MaxAvatar),
		"octocat:<b>Cat</b>", "octocat:🐱 Cat"} {
		if _, _, err := ParseLogin(good); err != nil {
			t.Errorf("ParseLogin(%q): %v", good, err)
		}
	}
}

// TestHostileLoginTurnedAway: the dealer answers a login with a new line in its id
// with done:illegal reply, and the id appears nowhere.
func TestHostileLoginTurnedAway(t *testing.T) {
	d, addr, res := startDealer(t, Config{Players: 0, Timeout: time.Minute})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second)) // the dealer's answer comes at once
	if m, err := ReadUTF(c); err != nil || m != MsgLogin {
		t.Fatalf("%q %v", m, err)
	}
	WriteUTF(c, Login("x\n1\tmallory", "Cat"))
	if m, err := ReadUTF(c); err != nil || m != Done(ReasonIllegal) {
		t.Fatalf("got %q %v, want done:illegal reply", m, err)
	}
	loginRaw(t, d, addr, "alice")
	if st := d.standings(); len(st) != 1 || st[0].ID != "alice" {
		t.Fatalf("standings %+v", st)
	}
	d.Start()
	wait(t, res)
}

// TestGameFull: past MaxPlayers a login is told the game is full and the game
// starts with those already in; the players who hung up in the lobby kept by the
// standings are at most MaxPlayers too (each login forgets the first to go while
// they are MaxPlayers).
func TestGameFull(t *testing.T) {
	d, addr, res := startDealer(t, Config{Players: 0, MaxPlayers: 2, Hands: 2, Timeout: time.Minute})
	for i := range 3 {
		c := loginRaw(t, d, addr, fmt.Sprintf("gone%d", i))
		c.Close()
		waitSnapshot(t, d, func(s Snapshot) bool {
			return hasStanding(s, fmt.Sprintf("gone%d", i), func(st Standing) bool { return st.Out })
		})
	}
	call := func(conn net.Conn, q string, n int) (string, bool) { return "bet:" + toCall(q), false }
	a := scripted(t, addr, "alice", call)
	waitSnapshot(t, d, func(s Snapshot) bool { return hasStanding(s, "alice", func(Standing) bool { return true }) })
	b := scripted(t, addr, "bob", call)
	waitSnapshot(t, d, func(s Snapshot) bool { return hasStanding(s, "bob", func(Standing) bool { return true }) })
	late := scripted(t, addr, "carol", call)
	if got := wait(t, late); len(got) != 2 || got[1] != Done(ReasonFull) {
		t.Fatalf("the third player got %q, want done:%s", got, ReasonFull)
	}
	var ids []string
	for _, st := range d.standings() {
		ids = append(ids, st.ID)
	}
	if strings.Join(ids, " ") != "alice bob gone2" {
		t.Fatalf("standings %q, want alice, bob and the last to hang up", ids)
	}
	d.Start()
	r := wait(t, res)
	wait(t, a)
	wait(t, b)
	if r.Hands != 2 {
		t.Fatalf("%d hands", r.Hands)
	}
	checkChips(t, r, 3, DefaultStack)
}

// failingListener fails its first Accept calls with a temporary error, as a
// listener does while the process has no file descriptor left.
type failingListener struct {
	net.Listener
	mu    sync.Mutex
	fails int
}

func (l *failingListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	fail := l.fails > 0
	l.fails--
	l.mu.Unlock()
	if fail {
		return nil, &net.OpError{Op: "accept", Net: "tcp", Err: syscall.EMFILE}
	}
	return l.Listener.Accept()
}

// TestAcceptSurvivesFailures: a flood of connections that leaves the process
// without file descriptors makes Accept fail for a while; the dealer waits it out
// and takes logins again, instead of never listening again.
func TestAcceptSurvivesFailures(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := cards.SeedFromUint64(7)
	d, err := New(Config{Players: 2, Hands: 1, Seed: &s})
	if err != nil {
		t.Fatal(err)
	}
	res := make(chan Result, 1)
	go func() {
		r, _ := d.Run(t.Context(), &failingListener{Listener: ln, fails: 3})
		res <- r
	}()
	call := func(conn net.Conn, q string, n int) (string, bool) { return "bet:" + toCall(q), false }
	a := scripted(t, ln.Addr().String(), "alice", call)
	b := scripted(t, ln.Addr().String(), "bob", call)
	r := wait(t, res)
	wait(t, a)
	wait(t, b)
	if r.Hands != 1 {
		t.Fatalf("%+v", r)
	}
	checkChips(t, r, 2, DefaultStack)
}

// TestSilentConnectionsBounded: connections that never answer login are held at
// most gate.PerAddress from one address: each one past it closes the oldest, at
// once rather than at the (long) timeout, and a player who answers logs in.
func TestSilentConnectionsBounded(t *testing.T) {
	d, addr, res := startDealer(t, Config{Players: 0, Timeout: time.Hour})
	const extra = 4
	var silent []net.Conn
	for range gate.PerAddress + extra {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if m, err := ReadUTF(c); err != nil || m != MsgLogin {
			t.Fatalf("%q %v", m, err)
		}
		silent = append(silent, c)
	}
	for i, c := range silent[:extra] {
		got := make(chan error, 1)
		go func() {
			_, err := ReadUTF(c)
			got <- err
		}()
		if err := wait(t, got); !errors.Is(err, io.EOF) && !errors.Is(err, syscall.ECONNRESET) {
			t.Fatalf("silent connection %d: %v, want it closed", i, err)
		}
	}
	loginRaw(t, d, addr, "alice")
	for _, c := range silent {
		c.Close()
	}
	d.Start()
	wait(t, res)
}

// halfFrame is the start of a frame of 65,535 bytes: its header and one byte.
var halfFrame = []byte{0xff, 0xff, 'b'}

// TestHalfFrameIsTooSlow: a logged-in player that sends the start of a frame
// and stalls is too slow once the timeout has passed since its first byte, as
// one that does not answer: in the lobby (before, it sat there holding the
// frame's 64 KiB until the game asked it, and counted toward the players that
// start the game), and between its turns in a hand, its chips in the pot
// staying there. The game goes on without them.
func TestHalfFrameIsTooSlow(t *testing.T) {
	d, addr, res := startDealer(t, Config{Players: 0, Hands: 4, Timeout: DefaultTimeout})
	lobby := loginRaw(t, d, addr, "lobby")
	lobby.Write(halfFrame)
	waitSnapshot(t, d, func(s Snapshot) bool {
		return s.Phase == "waiting" && hasStanding(s, "lobby", func(st Standing) bool {
			return st.Out && st.OutHand == 0 && st.Reason == ReasonTooSlow
		})
	})
	lobby.SetReadDeadline(time.Now().Add(20 * time.Second))
	if m, err := ReadUTF(lobby); err != nil || m != Done(ReasonTooSlow) {
		t.Fatalf("the lobby's staller got %q %v, want done:%s", m, err, ReasonTooSlow)
	}

	call := func(conn net.Conn, q string, n int) (string, bool) { return "bet:" + toCall(q), false }
	a := scripted(t, addr, "alice", call)
	b := scripted(t, addr, "bob", call)
	midLast := make(chan string, 1) // the last message mid got after it stalled
	mid := scripted(t, addr, "mid", func(conn net.Conn, q string, n int) (string, bool) {
		// answer, then start a frame nobody asked for and stall, reading on
		WriteUTF(conn, "bet:"+toCall(q))
		conn.Write(halfFrame)
		last := ""
		for {
			m, err := ReadUTF(conn)
			if err != nil {
				midLast <- last
				return "", true
			}
			last = m
		}
	})
	waitSnapshot(t, d, func(s Snapshot) bool { return len(s.Standings) == 4 })
	d.Start()
	r := wait(t, res)
	checkChips(t, r, 4, DefaultStack)
	if r.Hands != 4 {
		t.Fatalf("%d hands, want 4", r.Hands)
	}
	if s := standing(r, "mid"); !s.Out || s.OutHand != 1 || s.Reason != ReasonTooSlow {
		t.Fatalf("mid: %+v, want out for %q in the first hand", s, ReasonTooSlow)
	}
	if last := wait(t, midLast); last != Done(ReasonTooSlow) {
		t.Fatalf("mid's last message %q, want done:%s", last, ReasonTooSlow)
	}
	wait(t, a)
	wait(t, b)
	wait(t, mid)
}

// dialFrom connects to addr from the loopback address local (any of 127/8 on
// Linux), so that a test can log in from several addresses.
func dialFrom(t *testing.T, addr, local string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Skipf("cannot dial from %s: %v", local, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// loginAnswer logs id in over c and returns the dealer's next message.
func loginAnswer(t *testing.T, c net.Conn, id string) string {
	t.Helper()
	if m, err := ReadUTF(c); err != nil || m != MsgLogin {
		t.Fatalf("%q %v", m, err)
	}
	if err := WriteUTF(c, Login(id, "Test")); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(time.Second))
	m, err := ReadUTF(c)
	if err != nil {
		return "" // nothing within a second: seated, waiting for the start
	}
	return m
}

// TestAddressFull: one address fills at most MaxPerAddress places of the lobby
// (a script cannot take the class's places from one machine); another address
// still logs in, and a player who hangs up frees its address's place.
func TestAddressFull(t *testing.T) {
	d, addr, _ := startDealer(t, Config{Players: 0, MaxPlayers: 10, MaxPerAddress: 2, Hands: 1, Timeout: time.Minute})
	first := loginRaw(t, d, addr, "a1")
	loginRaw(t, d, addr, "a2")
	if got := loginAnswer(t, dialFrom(t, addr, "127.0.0.1"), "a3"); got != Done(ReasonAddressFull) {
		t.Fatalf("a third login from one address got %q, want done:%s", got, ReasonAddressFull)
	}
	if got := loginAnswer(t, dialFrom(t, addr, "127.0.0.2"), "b1"); got != "" {
		t.Fatalf("a login from another address got %q", got)
	}
	first.Close()
	waitSnapshot(t, d, func(s Snapshot) bool { return hasStanding(s, "a1", func(st Standing) bool { return st.Out }) })
	if got := loginAnswer(t, dialFrom(t, addr, "127.0.0.1"), "a3"); got != "" {
		t.Fatalf("a login after one from the address hung up got %q", got)
	}
	in := map[string]bool{}
	for _, st := range d.standings() {
		in[st.ID] = !st.Out
	}
	if !in["a2"] || !in["a3"] || !in["b1"] || in["a1"] || len(in) != 4 {
		t.Fatalf("standings %v, want a2, a3 and b1 in, a1 out", in)
	}
	if _, err := New(Config{MaxPerAddress: -1}); !errors.Is(err, ErrConfig) {
		t.Errorf("MaxPerAddress -1: %v", err)
	}
}
