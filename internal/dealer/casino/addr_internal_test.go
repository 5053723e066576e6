package casino

import (
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/addrkey"
)

// fromConn is a connection whose remote address is addr.
type fromConn struct {
	net.Conn
	addr net.Addr
}

func (c fromConn) RemoteAddr() net.Addr { return c.addr }

// TestAddressFullIPv6: logins from addresses of one IPv6 /64 (and an IPv4
// address written as IPv4-mapped IPv6) count as one address, whatever the
// interface identifier or zone; another /64 is another address. Held: no
// change was needed (internal/addrkey).
func TestAddressFullIPv6(t *testing.T) {
	d, err := New(Config{Players: 0, MaxPlayers: 10, MaxPerAddress: 2, Hands: 1, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	join := func(id, ip string) error {
		c, peer := net.Pipe()
		t.Cleanup(func() { c.Close(); peer.Close() })
		p := newRemote(fromConn{c, &net.TCPAddr{IP: net.ParseIP(ip), Port: 4000}}, time.Minute)
		return d.join(id, "Test", p)
	}
	for _, tc := range []struct {
		id, ip string
		want   error
	}{
		{"a1", "2001:db8:1:2::1", nil},
		{"a2", "2001:db8:1:2:ffff:ffff:ffff:fffe", nil},
		{"a3", "2001:db8:1:2:1234::9", errRefused(ReasonAddressFull)},
		{"b1", "2001:db8:1:3::1", nil},
		{"c1", "10.0.0.7", nil},
		{"c2", "::ffff:10.0.0.7", nil},
		{"c3", "10.0.0.7", errRefused(ReasonAddressFull)},
	} {
		if err := join(tc.id, tc.ip); err != tc.want {
			t.Errorf("%s from %s: %v, want %v", tc.id, tc.ip, err, tc.want)
		}
	}
}

// TestAddressFullSlash48: the /64s of one IPv6 /48 hold addrkey.WideFactor
// times MaxPerAddress players in all (done:too many players from one address
// past it, even from a /64 with room), another /48 still gets in, IPv4 is
// counted as before, and a player who hangs up frees its place in its /64 and
// in its /48.
func TestAddressFullSlash48(t *testing.T) {
	const per = 2
	d, err := New(Config{Players: 0, MaxPlayers: 100, MaxPerAddress: per, Hands: 1, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	peers := map[string]net.Conn{}
	join := func(id, ip string) error {
		c, peer := net.Pipe()
		t.Cleanup(func() { c.Close(); peer.Close() })
		peers[id] = peer
		p := newRemote(fromConn{c, &net.TCPAddr{IP: net.ParseIP(ip), Port: 4000}}, time.Minute)
		return d.join(id, "Test", p)
	}
	full := errRefused(ReasonAddressFull)
	for i := range addrkey.WideFactor * per { // per players from each of WideFactor /64s
		if err := join(fmt.Sprintf("w%d", i), fmt.Sprintf("2001:db8:1:%x::%x", i/per, i+1)); err != nil {
			t.Fatalf("player %d of the /48: %v", i, err)
		}
	}
	for _, tc := range []struct {
		id, ip string
		want   error
	}{
		{"x1", "2001:db8:1:ff::1", full}, // a fresh /64 of the full /48
		{"x2", "2001:db8:1:0::99", full}, // a full /64
		{"y1", "2001:db8:2:ff::1", nil},  // another /48
		{"y2", "2001:db8:2:ff::2", nil},  // its /64 holds per
		{"y3", "2001:db8:2:ff::3", full}, // and no more
		{"v1", "192.0.2.1", nil},         // IPv4 as before
		{"v2", "::ffff:192.0.2.1", nil},  // the same address, mapped
		{"v3", "192.0.2.1", full},        // past per
		{"v4", "192.0.2.2", nil},         // another IPv4 address
	} {
		if err := join(tc.id, tc.ip); err != tc.want {
			t.Errorf("%s from %s: %v, want %v", tc.id, tc.ip, err, tc.want)
		}
	}
	peers["w0"].Close() // w0 (2001:db8:1:0::1) hangs up in the lobby
	deadline := time.Now().Add(10 * time.Second)
	for !standingOut(d, "w0") {
		if time.Now().After(deadline) {
			t.Fatal("w0 was not put out after hanging up")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := join("x3", "2001:db8:1:ff::1"); err != nil { // the /48 has room again
		t.Fatalf("a fresh /64 after a hang-up: %v", err)
	}
	if err := join("x4", "2001:db8:1:0::98"); err != full { // the /48 is full again
		t.Fatalf("w0's /64 with the /48 full again: %v, want %v", err, full)
	}
	peers["x3"].Close()
	for !standingOut(d, "x3") {
		if time.Now().After(deadline) {
			t.Fatal("x3 was not put out after hanging up")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := join("x5", "2001:db8:1:0::97"); err != nil { // w0's /64 place, freed
		t.Fatalf("w0's /64 after the /48 had room again: %v", err)
	}
}

// standingOut reports that player id is out of d's game.
func standingOut(d *Dealer, id string) bool {
	for _, st := range d.standings() {
		if st.ID == id {
			return st.Out
		}
	}
	return false
}

// TestLoginHangUpLoopGivesBackItsPlaceOnce: a player who logs in and hangs up
// in a loop, under one id, from the /64 where another player stays, neither
// keeps its place (a slow lock-out of the /64 and its /48) nor frees one twice
// (a place more for each turn): after five turns the /64 holds the player who
// stayed and one more, as at the start. Held: no change was needed.
func TestLoginHangUpLoopGivesBackItsPlaceOnce(t *testing.T) {
	d, err := New(Config{Players: 0, MaxPlayers: 10, MaxPerAddress: 2, Hands: 1, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	join := func(id, ip string) (net.Conn, error) {
		c, peer := net.Pipe()
		t.Cleanup(func() { c.Close(); peer.Close() })
		p := newRemote(fromConn{c, &net.TCPAddr{IP: net.ParseIP(ip), Port: 4000}}, time.Minute)
		return peer, d.join(id, "Test", p)
	}
	if _, err := join("stays", "2001:db8:1:2::2"); err != nil {
		t.Fatal(err)
	}
	for turn := range 5 {
		peer, err := join("loops", "2001:db8:1:2::1")
		if err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
		peer.Close()
		for deadline := time.Now().Add(10 * time.Second); !standingOut(d, "loops"); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("turn %d: not put out after hanging up", turn)
			}
		}
	}
	if _, err := join("loops", "2001:db8:1:2::1"); err != nil {
		t.Fatalf("after the loop: %v", err)
	}
	if _, err := join("third", "2001:db8:1:2::3"); err != errRefused(ReasonAddressFull) {
		t.Fatalf("a third player of the /64: %v, want %v", err, errRefused(ReasonAddressFull))
	}
}
