package web

import (
	"net"
	"net/netip"
	"sync"
)

// perIPListener bounds the connections open at once from one address: a
// connection beyond the bound is closed as soon as it is accepted, before a
// byte of it is read, so that one address cannot hold every file descriptor
// of the house. WebSockets are connections too and count.
//
// An IPv4 address is one address; IPv6 addresses count by /64, the block one
// host is commonly given. Connections from exempt addresses (trusted proxies,
// which carry many clients) are not counted.
type perIPListener struct {
	net.Listener
	max    int
	exempt func(netip.Addr) bool
	// refused is called for each connection closed beyond the bound.
	refused func()

	mu   sync.Mutex
	open map[netip.Addr]int // guarded by mu
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
	return &perIPListener{Listener: ln, max: max, exempt: exempt, refused: refused, open: map[netip.Addr]int{}}
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
		key := ip
		if ip.Is6() {
			p, _ := ip.Prefix(64)
			key = p.Addr()
		}
		if !l.take(key) {
			c.Close()
			l.refused()
			continue
		}
		return &countedConn{Conn: c, release: func() { l.release(key) }}, nil
	}
}

func (l *perIPListener) take(key netip.Addr) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[key] >= l.max {
		return false
	}
	l.open[key]++
	return true
}

func (l *perIPListener) release(key netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[key]--; l.open[key] <= 0 {
		delete(l.open, key)
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
