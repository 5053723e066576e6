package web

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/felt-poker/felt/internal/addrkey"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
)

// serveReal serves th's server the way felt serve does: on a real listener,
// through Listener and HTTPServer. It returns the address.
func serveReal(t *testing.T, th *testHouse) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := th.srv.HTTPServer(nil)
	go hs.Serve(th.srv.Listener(ln))
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// closedWithin reports whether the server ends c (EOF or reset) within d,
// reading and discarding whatever it sends first.
func closedWithin(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

// TestSlowBodyIsCutOff sends a request whose body never comes: the server hangs
// up once ReadTimeout passes, rather than hold the connection for good (issue
// 12: 19,990 such connections from one address starved everyone).
func TestSlowBodyIsCutOff(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t), func(c *Config) { c.ReadTimeout = 200 * time.Millisecond })
	addr := serveReal(t, th)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /api/login HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"user", addr)
	if !closedWithin(c, 20*time.Second) {
		t.Fatal("a request whose body stalls holds its connection open past ReadTimeout")
	}
}

// TestDefaultTimeouts checks that a server left at its defaults has every bound.
func TestDefaultTimeouts(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	hs := th.srv.HTTPServer(nil)
	if hs.ReadHeaderTimeout <= 0 || hs.ReadTimeout <= 0 || hs.WriteTimeout <= 0 || hs.IdleTimeout <= 0 || hs.MaxHeaderBytes <= 0 || hs.MaxHeaderBytes > 1<<20 {
		t.Fatalf("unbounded server: %+v", hs)
	}
	if th.srv.cfg.MaxHTTPConnsPerIP != DefaultMaxHTTPConnsPerIP {
		t.Fatalf("MaxHTTPConnsPerIP %d", th.srv.cfg.MaxHTTPConnsPerIP)
	}
}

// TestTablesShareOneThinkersBound: every table the server opens (players',
// heads-up games, the house's, tournaments') shares one bound on bots thinking
// for long at once (table.Thinkers), so that guests opening many tables of
// such bots cannot make the house think for all of them at once.
func TestTablesShareOneThinkersBound(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	a, b := th.srv.TableDefaults(table.Config{}), th.srv.TableDefaults(table.Config{Name: "other"})
	if a.Thinkers == nil || a.Thinkers != b.Thinkers {
		t.Fatalf("the tables' bounds: %p and %p, want one shared", a.Thinkers, b.Thinkers)
	}
}

// TestWebSocketOutlivesTimeouts keeps a WebSocket open well past every HTTP
// timeout: net/http clears the deadlines of a hijacked connection.
func TestWebSocketOutlivesTimeouts(t *testing.T) {
	const d = 50 * time.Millisecond
	th := newHouse(t, storetest.SQLite(t), func(c *Config) {
		c.ReadHeaderTimeout, c.ReadTimeout, c.WriteTimeout, c.IdleTimeout = d, d, d, d
	})
	addr := serveReal(t, th)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if _, _, err := c.Read(ctx); err != nil { // welcome
		t.Fatal(err)
	}
	time.Sleep(10 * d)
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"ping","id":7}`)); err != nil {
		t.Fatalf("write after the timeouts: %v", err)
	}
	for {
		_, b, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("read after the timeouts: %v", err)
		}
		if strings.Contains(string(b), `"id":7`) {
			return
		}
	}
}

// TestConnectionsPerAddress opens as many plain connections from loopback as the
// bound allows: the next one is closed at once, and a place freed is taken again.
func TestConnectionsPerAddress(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t), func(c *Config) { c.MaxHTTPConnsPerIP = 3 })
	addr := serveReal(t, th)
	get := func(c net.Conn) error { // one request on a kept-alive connection
		fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			return err
		}
		resp.Body.Close()
		return nil
	}
	var open []net.Conn
	defer func() {
		for _, c := range open {
			c.Close()
		}
	}()
	for i := range 3 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, c)
		if err := get(c); err != nil {
			t.Fatalf("connection %d within the bound: %v", i+1, err)
		}
	}
	extra, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	if !closedWithin(extra, 10*time.Second) {
		t.Fatal("a 4th connection from one address was kept open beyond the bound of 3")
	}
	if resp, err := http.Get(th.ts.URL + "/metrics"); err != nil {
		t.Error(err)
	} else {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), "\nfelt_conns_refused_total 1\n") {
			t.Error("/metrics does not count the refused connection in felt_conns_refused_total")
		}
	}
	open[0].Close()
	open = open[1:]
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if get(c) == nil {
			c.Close()
			break
		}
		c.Close()
		if time.Since(start) > 10*time.Second {
			t.Fatal("no connection after one of the three closed")
		}
	}
}

// fakeListener hands out one end of a pipe per remote address queued.
type fakeListener struct {
	addrs  chan string
	closed []*fakeConn
}

type fakeConn struct {
	net.Conn
	remote net.Addr
	closed bool
}

func (c *fakeConn) RemoteAddr() net.Addr { return c.remote }
func (c *fakeConn) Close() error         { c.closed = true; return c.Conn.Close() }

func (l *fakeListener) Accept() (net.Conn, error) {
	a, ok := <-l.addrs
	if !ok {
		return nil, net.ErrClosed
	}
	ap := netip.MustParseAddrPort(a)
	c, _ := net.Pipe()
	fc := &fakeConn{Conn: c, remote: net.TCPAddrFromAddrPort(ap)}
	l.closed = append(l.closed, fc)
	return fc, nil
}
func (l *fakeListener) Close() error   { return nil }
func (l *fakeListener) Addr() net.Addr { return &net.TCPAddr{} }

// TestPerIPListener counts by address: one address is bounded while another
// is not affected, an IPv6 /64 counts as one address, and a trusted proxy is
// not counted.
func TestPerIPListener(t *testing.T) {
	fl := &fakeListener{addrs: make(chan string, 20)}
	proxy := netip.MustParsePrefix("10.9.9.9/32")
	refusals := 0
	ln := limitPerIP(fl, 2, proxy.Contains, func() { refusals++ })
	for _, a := range []string{
		"10.0.0.1:1", "10.0.0.1:2", "10.0.0.1:3", // the third is refused
		"10.0.0.2:1",
		"[2001:db8::1]:1", "[2001:db8::2]:1", "[2001:db8::3]:1", // one /64: the third is refused
		"[2001:db8:0:1::1]:1",
		"10.9.9.9:1", "10.9.9.9:2", "10.9.9.9:3",
	} {
		fl.addrs <- a
	}
	close(fl.addrs)
	var got []string
	var conns []net.Conn
	for {
		c, err := ln.Accept()
		if err != nil {
			break
		}
		conns = append(conns, c)
		got = append(got, c.RemoteAddr().String())
	}
	want := "10.0.0.1:1 10.0.0.1:2 10.0.0.2:1 [2001:db8::1]:1 [2001:db8::2]:1 [2001:db8:0:1::1]:1 10.9.9.9:1 10.9.9.9:2 10.9.9.9:3"
	if strings.Join(got, " ") != want {
		t.Fatalf("accepted %v\nwant     %s", got, want)
	}
	refused := 0
	for _, c := range fl.closed {
		if c.closed {
			refused++
		}
	}
	if refused != 2 || refusals != 2 {
		t.Fatalf("%d connections closed on accept, %d counted, want the 2 beyond the bound", refused, refusals)
	}
	// Closing a connection twice frees one place, not two.
	conns[0].Close()
	conns[0].Close()
	pl := ln.(*perIPListener)
	if !pl.open.Take("10.0.0.1") || pl.open.Take("10.0.0.1") {
		t.Fatal("10.0.0.1 has not exactly one place free after one of its two closed")
	}
}

// TestPerIPListenerSlash48: a holder of a /48 opened the bound from each of its
// 65,536 /64s before; now its /64s hold addrkey.WideFactor times the bound in
// all, and another /48 is not affected.
func TestPerIPListenerSlash48(t *testing.T) {
	fl := &fakeListener{addrs: make(chan string, 64)}
	ln := limitPerIP(fl, 2, func(netip.Addr) bool { return false }, nil)
	for i := range 2*addrkey.WideFactor + 3 {
		fl.addrs <- fmt.Sprintf("[2001:db8:1:%x::1]:1", i) // one per /64
	}
	fl.addrs <- "[2001:db8:2::1]:1"
	close(fl.addrs)
	accepted, other := 0, false
	for {
		c, err := ln.Accept()
		if err != nil {
			break
		}
		accepted++
		other = other || c.RemoteAddr().String() == "[2001:db8:2::1]:1"
	}
	if want := 2*addrkey.WideFactor + 1; accepted != want || !other {
		t.Fatalf("accepted %d (another /48's: %v), want %d: the /48's %d and another /48's", accepted, other, want, 2*addrkey.WideFactor)
	}
}

// TestForwardedForFromUntrusted sends X-Forwarded-For and X-Forwarded-Proto from
// an address that is not a trusted proxy: neither is believed, so a client
// cannot choose the address its limits count against, nor a Secure cookie
// over plain HTTP. From the trusted proxy both are, and a client's own entries
// left of the proxy's are not.
func TestForwardedForFromUntrusted(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t), func(c *Config) {
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}
	})
	var seen client
	h := th.srv.withClient(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = client{ip: clientIP(r), https: isHTTPS(r)}
	}))
	for _, tc := range []struct {
		peer, xff, proto string
		want             client
	}{
		{"198.51.100.7:4000", "203.0.113.9", "https", client{ip: "198.51.100.7"}},
		{"198.51.100.7:4000", "", "", client{ip: "198.51.100.7"}},
		{"192.0.2.10:4000", "203.0.113.9", "https", client{ip: "203.0.113.9", https: true}},
		{"192.0.2.10:4000", "1.2.3.4, 203.0.113.9, 192.0.2.11", "http", client{ip: "203.0.113.9"}},
		{"192.0.2.10:4000", "garbage", "", client{ip: "192.0.2.10"}},
		{"192.0.2.10:4000", "", "", client{ip: "192.0.2.10"}},
		{"[::ffff:192.0.2.10]:4000", "[2001:db8::5]:99", "", client{ip: "2001:db8::5"}},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.peer
		if tc.xff != "" {
			r.Header.Set("X-Forwarded-For", tc.xff)
		}
		if tc.proto != "" {
			r.Header.Set("X-Forwarded-Proto", tc.proto)
		}
		h.ServeHTTP(httptest.NewRecorder(), r)
		if seen != tc.want {
			t.Errorf("from %s with X-Forwarded-For %q, proto %q: %+v, want %+v", tc.peer, tc.xff, tc.proto, seen, tc.want)
		}
	}

	// The session cookie follows: Secure only when the trusted proxy says HTTPS.
	for _, tc := range []struct {
		peer   string
		secure bool
	}{{"198.51.100.7:4000", false}, {"192.0.2.10:4000", true}} {
		r := httptest.NewRequest("POST", "/api/guest", strings.NewReader(`{}`))
		r.RemoteAddr = tc.peer
		r.Header.Set("X-Forwarded-Proto", "https")
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		th.srv.Handler().ServeHTTP(w, r)
		cookies := w.Result().Cookies()
		if len(cookies) != 1 || cookies[0].Secure != tc.secure {
			t.Errorf("guest from %s: %d %v, want one cookie with Secure %v", tc.peer, w.Code, cookies, tc.secure)
		}
		if hsts := w.Header().Get("Strict-Transport-Security") != ""; hsts != tc.secure {
			t.Errorf("guest from %s: HSTS %v, want %v", tc.peer, hsts, tc.secure)
		}
	}
}

// TestSecurityHeaders checks the headers of pages, static files and API replies.
func TestSecurityHeaders(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	for _, path := range []string{"/", "/lobby", "/static/js/app.js", "/api/tables", "/healthz", "/nowhere"} {
		resp, err := http.Get(th.ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		h := resp.Header
		csp := h.Get("Content-Security-Policy")
		if !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
			t.Errorf("%s: Content-Security-Policy %q", path, csp)
		}
		for k, v := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"} {
			if h.Get(k) != v {
				t.Errorf("%s: %s %q, want %q", path, k, h.Get(k), v)
			}
		}
		if h.Get("Strict-Transport-Security") != "" {
			t.Errorf("%s: HSTS over plain HTTP", path)
		}
	}
}

// TestHealthzDatabaseDown: /healthz answers 503 once the database is gone.
func TestHealthzDatabaseDown(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st)
		u := th.client(t)
		if code, _ := u.do("GET", "/healthz", nil); code != 200 {
			t.Fatalf("healthz with the database up: %d", code)
		}
		st.Close()
		if code, _ := u.do("GET", "/healthz", nil); code != http.StatusServiceUnavailable {
			t.Fatalf("healthz with the database closed: %d, want 503", code)
		}
	})
}
