package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// wsPair is a conn of the house's (its writer goroutine running) and the
// client's end of its WebSocket.
func wsPair(t *testing.T) (*conn, *websocket.Conn) {
	t.Helper()
	accepted := make(chan *websocket.Conn, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		accepted <- ws
		<-r.Context().Done()
	}))
	t.Cleanup(hs.Close)
	ctx := context.Background()
	cws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cws.CloseNow() })
	s := &Server{}
	s.initMetrics()
	cctx, cancel := context.WithCancel(ctx)
	c := &conn{s: s, ws: <-accepted, out: make(chan []byte, wsQueue), ctx: cctx, cancel: cancel}
	done := make(chan struct{})
	go func() { defer close(done); c.write() }()
	t.Cleanup(func() { c.close(websocket.StatusNormalClosure, ""); <-done })
	return c, cws
}

// TestWSWriteAllocations: writing a message to a client allocates next to
// nothing on the house's side: no context with a deadline per message, no
// registration of one with websocket (eleven allocations a message before).
func TestWSWriteAllocations(t *testing.T) {
	c, cws := wsPair(t)
	got := make(chan struct{})
	go func() {
		for {
			_, r, err := cws.Reader(context.Background())
			if err != nil {
				return
			}
			_, _ = io.Copy(io.Discard, r)
			got <- struct{}{}
		}
	}()
	msg := []byte(`{"type":"state","state":{"table":"Main"}}`)
	allocs := testing.AllocsPerRun(500, func() {
		c.out <- msg
		<-got // the client has read it: one message in flight at a time
	})
	t.Logf("%.2f allocations per message (house and client together)", allocs)
	if allocs > 1 {
		t.Errorf("%.2f allocations per message written, want at most 1", allocs)
	}
}

// TestWSStuckClientDropped: a client that takes nothing is disconnected once
// a write has waited wsWriteTimeout.
func TestWSStuckClientDropped(t *testing.T) {
	defer func(d time.Duration) { wsWriteTimeout = d }(wsWriteTimeout)
	wsWriteTimeout = 200 * time.Millisecond
	c, _ := wsPair(t) // the client never reads
	big := []byte(strings.Repeat("x", 1<<20))
	go func() {
		for c.ctx.Err() == nil {
			select {
			case c.out <- big:
			case <-c.ctx.Done():
			}
		}
	}()
	select {
	case <-c.ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("a client that reads nothing is still connected 5 s on, with a write timeout of 200 ms")
	}
}
