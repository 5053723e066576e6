package casino

import (
	"net"
	"testing"
	"time"
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
