// Package addrkey says which network addresses count as one: the key that the
// house's per-address limits and the dealers' bounds on waiting connections count
// by.
package addrkey

import (
	"net"
	"net/netip"
)

// Of is what counts as one address: an IPv4 address, an IPv6 /64 network (one
// subscriber's), or the text as given (at most 64 bytes) when it is not an
// address.
func Of(from string) string {
	a, err := netip.ParseAddr(from)
	if err != nil {
		return from[:min(len(from), 64)]
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String()
	}
	return netip.PrefixFrom(a, 64).Masked().String()
}

// OfAddr is Of the host of a connection's remote address ("host:port").
func OfAddr(a net.Addr) string {
	if a == nil {
		return ""
	}
	s := a.String()
	if host, _, err := net.SplitHostPort(s); err == nil {
		s = host
	}
	return Of(s)
}
