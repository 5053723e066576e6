package web

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// client is who sent a request, as far as the house may believe it: the address
// of the connection, or, when the connection comes from a trusted proxy
// (Config.TrustedProxies), the client address and scheme the proxy forwarded.
type client struct {
	ip    string
	https bool
}

type clientKey struct{}

// clientIP is the IP address a request came from: the connection's, or the one a
// trusted proxy forwarded in X-Forwarded-For. Per-address limits (connections,
// rate limits) key on it, and nothing else reads the address of a request.
func clientIP(r *http.Request) string {
	if c, ok := r.Context().Value(clientKey{}).(client); ok {
		return c.ip
	}
	return peerIP(r)
}

// isHTTPS reports whether the client reached the house over TLS: its own
// (--tls-cert) or a trusted proxy's (X-Forwarded-Proto: https).
func isHTTPS(r *http.Request) bool {
	if c, ok := r.Context().Value(clientKey{}).(client); ok {
		return c.https
	}
	return r.TLS != nil
}

// peerIP is the IP address of the connection a request came on.
func peerIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// withClient works out who sent each request, once, for clientIP and isHTTPS.
func (s *Server) withClient(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := s.clientOf(r)
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientKey{}, c)))
	})
}

// clientOf believes the X-Forwarded-For and X-Forwarded-Proto headers only from
// a trusted proxy; from anyone else they are ignored (any client can send them).
func (s *Server) clientOf(r *http.Request) client {
	c := client{ip: peerIP(r), https: r.TLS != nil}
	peer, err := netip.ParseAddr(c.ip)
	if err != nil || !s.trustedProxy(peer) {
		return c
	}
	if ip, ok := forwardedFor(r.Header.Values("X-Forwarded-For"), s.trustedProxy); ok {
		c.ip = ip.String()
	}
	if p := lastListed(r.Header.Values("X-Forwarded-Proto")); strings.EqualFold(p, "https") {
		c.https = true
	}
	return c
}

// trustedProxy reports whether ip is one of Config.TrustedProxies.
func (s *Server) trustedProxy(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// forwardedFor is the client address in X-Forwarded-For headers: walking the
// list from the right (the hop nearest the house), the first address that is
// not a trusted proxy, since anything left of it was written by the client
// itself. It reports false for a list it cannot read, which is then ignored.
func forwardedFor(values []string, trusted func(netip.Addr) bool) (netip.Addr, bool) {
	var hops []string
	for _, v := range values {
		hops = append(hops, strings.Split(v, ",")...)
	}
	var last netip.Addr
	for i := len(hops) - 1; i >= 0; i-- {
		ip, ok := parseHop(strings.TrimSpace(hops[i]))
		if !ok {
			return netip.Addr{}, false
		}
		if last = ip; !trusted(ip) {
			return ip, true
		}
	}
	return last, last.IsValid()
}

// parseHop reads one address of X-Forwarded-For: an IP, with or without a port.
func parseHop(s string) (netip.Addr, bool) {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	ip, err := netip.ParseAddr(s)
	return ip.Unmap(), err == nil && ip.Zone() == ""
}

// lastListed is the last element of comma-separated header values: the one the
// nearest proxy wrote.
func lastListed(values []string) string {
	if len(values) == 0 {
		return ""
	}
	v := values[len(values)-1]
	return strings.TrimSpace(v[strings.LastIndex(v, ",")+1:])
}
