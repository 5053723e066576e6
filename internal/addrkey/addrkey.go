// Package addrkey says which network addresses count as one: the key that the
// house's per-address limits and the dealers' bounds on waiting connections count
// by, and the wider key (an IPv6 /48) that the house's new accounts and
// connections also count by.
package addrkey

import (
	"math"
	"net"
	"net/netip"
	"sync"
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

// WideFactor is how many times an address's allowance (Of) the wide key of
// its network (Wide) is allowed in all: a holder of a /48 has 65,536 /64s, and
// would otherwise get each per-address allowance 65,536 times; 8 leaves room
// for a few hosts or households in one /48 (docs/security.md, "IPv6
// networks wider than a /64").
const WideFactor = 8

// WideMax is the allowance of a Wide key for an address's allowance n:
// WideFactor·n, or the largest int when that would not fit (before, a bound
// such as the dealer's --max-per-address 9223372036854775807, meant as no
// bound, wrapped round to a negative allowance that refused every IPv6
// address).
func WideMax(n int) int {
	if n > math.MaxInt/WideFactor {
		return math.MaxInt
	}
	return WideFactor * n
}

// Wide is the wider key an address also counts by: the IPv6 /48 network
// holding it, or "" (no wider key) for an IPv4 address or a text that is not an
// address. from may be an address or Of's key of one (an IPv6 /64 network).
func Wide(from string) string {
	a, err := netip.ParseAddr(from)
	if err != nil {
		p, perr := netip.ParsePrefix(from)
		if perr != nil {
			return ""
		}
		a = p.Addr()
	}
	a = a.Unmap().WithZone("")
	if !a.Is6() {
		return ""
	}
	return netip.PrefixFrom(a, 48).Masked().String()
}

// Counter counts what is open at once per address: at most Max per key of Of,
// and WideMax(Max) per Wide key (for IPv6). Max 0 or less: no bound. Its
// zero value, with Max set, is ready to use.
type Counter struct {
	Max int

	mu   sync.Mutex
	open map[string]int // by Of key and by Wide key; guarded by mu
}

// Take counts one more open from from, or reports false (and counts nothing)
// when its address or its wide network holds its allowance already.
func (c *Counter) Take(from string) bool {
	if c.Max <= 0 {
		return true
	}
	key, wide := Of(from), Wide(from)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.open[key] >= c.Max || (wide != "" && c.open[wide] >= WideMax(c.Max)) {
		return false
	}
	if c.open == nil {
		c.open = map[string]int{}
	}
	c.open[key]++
	if wide != "" {
		c.open[wide]++
	}
	return true
}

// Release gives back one place that Take(from) counted.
func (c *Counter) Release(from string) {
	if c.Max <= 0 {
		return
	}
	key, wide := Of(from), Wide(from)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range []string{key, wide} {
		if k == "" {
			continue
		}
		if c.open[k]--; c.open[k] <= 0 {
			delete(c.open, k)
		}
	}
}
