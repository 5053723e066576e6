package casino

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/addrkey"
)

// openStream opens GET /events on srv and reads its first event; it returns the
// response (closed by the test's end) or the refusal's status.
func openStream(t *testing.T, srv *httptest.Server) (*http.Response, int) {
	t.Helper()
	resp, err := http.Get(srv.URL + "/events")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != http.StatusOK {
		return nil, resp.StatusCode
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "data: {") {
		t.Fatalf("first event %q %v", line, err)
	}
	return resp, http.StatusOK
}

// TestSpectatorStreamsBounded: one address opens at most MaxStreamsFrom event
// streams at once (each one wakes at every action of the game, so thousands of
// them would starve the dealer of the CPU its players' clocks need); the next is
// refused with 503 until one closes.
func TestSpectatorStreamsBounded(t *testing.T) {
	d, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(d.Handler())
	t.Cleanup(srv.Close) // after the streams close (cleanups run last first)
	left := make(chan struct{}, MaxStreamsFrom+1)
	d.show.mu.Lock()
	d.show.closed = func() { left <- struct{}{} }
	d.show.mu.Unlock()
	var open []*http.Response
	for range MaxStreamsFrom {
		resp, code := openStream(t, srv)
		if code != http.StatusOK {
			t.Fatalf("stream %d refused: %d", len(open), code)
		}
		open = append(open, resp)
	}
	if _, code := openStream(t, srv); code != http.StatusServiceUnavailable {
		t.Fatalf("stream past the bound: %d, want 503", code)
	}
	open[0].Body.Close()
	d.publish() // the stream notices its client went when it writes
	wait(t, left)
	if _, code := openStream(t, srv); code != http.StatusOK {
		t.Fatalf("a stream after one closed: %d", code)
	}
}

// TestSpectatorWhoDoesNotReadIsCutOff: a stream whose client stops reading is
// ended once a write has waited the write timeout, so that it does not hold a
// place (and a snapshot) for good.
func TestSpectatorWhoDoesNotReadIsCutOff(t *testing.T) {
	d, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(d.Handler())
	t.Cleanup(srv.Close) // after the streams close (cleanups run last first)
	left := make(chan struct{}, 1)
	d.show.mu.Lock()
	d.show.writeTimeout = 100 * time.Millisecond
	d.show.closed = func() { left <- struct{}{} }
	d.show.mu.Unlock()
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")) // and never read
	big := []byte(`"` + strings.Repeat("x", 1<<20) + `"`)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(20 * time.Second)
	for {
		d.show.set(bytes.Clone(big)) // a snapshot the socket's buffers cannot hold for long
		select {
		case <-left:
			return
		case <-deadline:
			t.Fatal("the stream was never cut off")
		case <-tick.C:
		}
	}
}

// TestStreamOutlivesServerTimeouts serves the page on a server with every
// timeout short (felt dealer bounds its page's connections as felt serve does):
// a spectator's event stream still gets the snapshots sent well after them
// (net/http clears the read deadline while a handler runs; the stream sets a
// write deadline before each write).
func TestStreamOutlivesServerTimeouts(t *testing.T) {
	const limit = 500 * time.Millisecond
	d, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(d.Handler())
	srv.Config.ReadHeaderTimeout, srv.Config.ReadTimeout = limit, limit
	srv.Config.WriteTimeout, srv.Config.IdleTimeout = limit, limit
	srv.Start()
	t.Cleanup(srv.Close)
	resp, err := http.Get(srv.URL + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	for i := range 3 {
		if i > 0 {
			time.Sleep(3 * limit) // every timeout of the server passes
			d.show.set(fmt.Appendf(nil, `{"n":%d}`, i))
		}
		line, err := r.ReadString('\n')
		if err != nil || !strings.HasPrefix(line, "data: {") {
			t.Fatalf("event %d after %v: %q %v", i, time.Duration(i)*3*limit, line, err)
		}
		r.ReadString('\n') // the blank line ending the event
	}
}

// TestSpectatorStreamsBoundedBySlash48: the /64s of one IPv6 /48 open at most
// addrkey.WideFactor times MaxStreamsFrom streams in all; a further /64 of it
// is refused with 503, another /48 and IPv4 addresses still get a stream, and a
// stream that closes gives back its place in its /64 and its /48.
func TestSpectatorStreamsBoundedBySlash48(t *testing.T) {
	d, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range addrkey.WideFactor * MaxStreamsFrom {
		if !d.show.open(fmt.Sprintf("2001:db8:1:%x::%x", i/MaxStreamsFrom, i+1)) {
			t.Fatalf("stream %d of the /48 refused", i)
		}
	}
	get := func(remote string) int {
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // an accepted stream writes its first event and returns
		r := httptest.NewRequestWithContext(ctx, http.MethodGet, "/events", nil)
		r.RemoteAddr = remote
		w := httptest.NewRecorder()
		d.Handler().ServeHTTP(w, r)
		return w.Code
	}
	if code := get("[2001:db8:1:ff::1]:5000"); code != http.StatusServiceUnavailable {
		t.Fatalf("a fresh /64 of the full /48: %d, want 503", code)
	}
	for _, remote := range []string{"[2001:db8:2::1]:5000", "192.0.2.1:5000"} {
		if code := get(remote); code != http.StatusOK {
			t.Fatalf("%s: %d, want 200", remote, code)
		}
	}
	d.show.close("2001:db8:1:0::1")
	if !d.show.open("2001:db8:1:ff::1") {
		t.Fatal("the /48 was still full after a stream closed")
	}
	if d.show.open("2001:db8:1:0::2") {
		t.Fatal("the /48 took one past its bound")
	}
}
