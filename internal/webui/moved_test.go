package webui_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/felt-poker/felt/internal/browsertest"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/web"
)

// movingRelay stands for the other nodes of a house (web.Relay): it runs the
// table "Far" elsewhere, counts the watches relayed to it and answers them
// with answer (nil: ok).
type movingRelay struct {
	mu      sync.Mutex
	sink    table.Sink
	answer  []error // the answers to the watches, in order; then nil
	watched chan int
	n       int
}

func (r *movingRelay) Forward(_ context.Context, _ string, _ table.Player, sink table.Sink, msg []byte) error {
	var m struct {
		Type  string `json:"type"`
		Table string `json:"table"`
	}
	_ = json.Unmarshal(msg, &m)
	if m.Type != "watch" || m.Table != "Far" {
		return nil
	}
	r.mu.Lock()
	r.sink = sink
	var err error
	if r.n < len(r.answer) {
		err = r.answer[r.n]
	}
	r.n++
	n := r.n
	r.mu.Unlock()
	r.watched <- n
	return err
}

func (r *movingRelay) Closed(string)                          {}
func (r *movingRelay) AwaitOpen(context.Context, string) bool { return false }

// send sends the watcher a message as the table's node does.
func (r *movingRelay) send(v any) {
	b, _ := json.Marshal(v)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sink.Send(b)
}

// TestBrowserRewatchesMovedTable: the table page of a table that runs on
// another node is told table_moved (its node lost); the page watches it again
// by itself, is answered table_moved while no node has it yet, tries again a
// moment later and is back in, the note about the move gone.
func TestBrowserRewatchesMovedTable(t *testing.T) {
	browsertest.Need(t)
	relay := &movingRelay{watched: make(chan int, 8), answer: []error{nil, table.ErrMoved}}
	base := startHouseWith(t, 100*time.Millisecond, 800*time.Millisecond, func(c *web.Config) { c.Relay = relay })
	tab := profile(t, browsertest.New(t))
	do(t, tab, "the table page", chromedp.Navigate(base+"/table/Far"))
	wait := func(want int, what string) {
		t.Helper()
		select {
		case n := <-relay.watched:
			if n != want {
				t.Fatalf("watch %d relayed, want %d", n, want)
			}
		case <-time.After(40 * time.Second):
			failShot(t, tab, what)
			t.Fatalf("no %s", what)
		}
	}
	wait(1, "first watch")
	relay.send(map[string]string{"type": "notice", "table": "Far", "code": "table_moved", "text": table.ErrMoved.Error()})
	wait(2, "watch after table_moved")
	wait(3, "watch again after the answer table_moved")
	waitJS[bool](t, tab, "the note about the move gone", `!document.getElementById('seat-note')`, 10*time.Second)
}

// TestBrowserWatchesWhenTableBack: the table page of a moved table, answered
// table_moved again and again (its next try 8 s away), watches the table as
// soon as the house says a node has it again (notice table_back), not when
// its timer comes.
func TestBrowserWatchesWhenTableBack(t *testing.T) {
	browsertest.Need(t)
	moved := table.ErrMoved
	relay := &movingRelay{watched: make(chan int, 8), answer: []error{nil, moved, moved, moved, moved, moved}}
	base := startHouseWith(t, 100*time.Millisecond, 800*time.Millisecond, func(c *web.Config) { c.Relay = relay })
	tab := profile(t, browsertest.New(t))
	do(t, tab, "the table page", chromedp.Navigate(base+"/table/Far"))
	wait := func(want int, what string, within time.Duration) {
		t.Helper()
		select {
		case n := <-relay.watched:
			if n != want {
				t.Fatalf("watch %d relayed, want %d", n, want)
			}
		case <-time.After(within):
			failShot(t, tab, what)
			t.Fatalf("no %s within %v", what, within)
		}
	}
	wait(1, "first watch", 40*time.Second)
	relay.send(map[string]string{"type": "notice", "table": "Far", "code": "table_moved", "text": moved.Error()})
	for n := 2; n <= 6; n++ { // tries after 0, 0.5, 1, 2 and 4 s, each answered table_moved
		wait(n, "watch after table_moved", 40*time.Second)
	}
	time.Sleep(500 * time.Millisecond) // the answer in: the next try in 8 s
	relay.send(map[string]string{"type": "notice", "table": "Far", "code": "table_back", "text": "back"})
	wait(7, "watch after table_back", 5*time.Second)
	waitJS[bool](t, tab, "the note about the move gone", `!document.getElementById('seat-note')`, 10*time.Second)
}
