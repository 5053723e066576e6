package web

import (
	"net"
	"net/netip"
	"sync"

	"github.com/felt-poker/felt/internal/addrkey"
)

// perIPListener bounds the connections open at once from one address: a
// connection beyond the bound is closed as soon as it is accepted, before a
// byte of it is read, so that one address cannot hold every file descriptor
// of the house. WebSockets are connections too and count.
//
// Addresses count as addrkey.Counter counts them: an IPv4 address is one
// address; IPv6 addresses count by /64, the block one host is commonly given,
// and the /64s of one /48 hold addrkey.WideFactor times the bound in all.
// Connections from exempt addresses (trusted proxies, which carry many
// clients) are not counted.
type perIPListener struct {
	net.Listener
	exempt func(netip.Addr) bool
	// refused is called for each connection closed beyond the bound.
	refused func()
	open    *addrkey.Counter
}

// limitPerIP wraps ln with a bound of max connections per address (0: ln as
// it is); refused, if not nil, is called for each connection closed beyond it.
func limitPerIP(ln net.Listener, max int, exempt func(netip.Addr) bool, refused func()) net.Listener {
	if max <= 0 {
		return ln
	}
	if refused == nil {
		refused = func() {}
	}
	return &perIPListener{Listener: ln, exempt: exempt, refused: refused, open: &addrkey.Counter{Max: max}}
}

// Accept returns the next connection within the bound, closing those beyond it.
func (l *perIPListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip, ok := addrIP(c.RemoteAddr())
		if !ok || l.exempt(ip) {
			return c, nil
		}
		key := ip.String()
		if !l.open.Take(key) {
			c.Close()
			l.refused()
			continue
		}
		return &countedConn{Conn: c, release: func() { l.open.Release(key) }}, nil
	}
}

// addrIP is the IP address of a, without a zone.
func addrIP(a net.Addr) (netip.Addr, bool) {
	var ap netip.AddrPort
	switch a := a.(type) {
	case *net.TCPAddr:
		ap = a.AddrPort()
	default:
		p, err := netip.ParseAddrPort(a.String())
		if err != nil {
			return netip.Addr{}, false
		}
		ap = p
	}
	ip := ap.Addr().Unmap().WithZone("")
	return ip, ip.IsValid()
}

// countedConn gives its place back when closed (once, however often Close is called).
type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *countedConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}
