package cluster

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/engine"
)

// BenchmarkWALAction is the cost a table of a house on several nodes pays per
// action: one fenced JetStream publish, acknowledged (an in-process server on
// loopback here).
func BenchmarkWALAction(b *testing.B) {
	url, _ := startNATS(b)
	n, err := Connect(context.Background(), Config{URL: url, Node: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer n.nc.Close()
	ctx := context.Background()
	l, err := n.Acquire(ctx, "Main")
	if err != nil {
		b.Fatal(err)
	}
	w, _, err := n.OpenWAL(ctx, l)
	if err != nil {
		b.Fatal(err)
	}
	if err := w.StartHand(ctx, 1, testHandConfig(1), nil); err != nil {
		b.Fatal(err)
	}
	a := engine.Action{Seat: 2, Kind: engine.Call}
	for b.Loop() {
		if err := w.Action(ctx, a); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWALNote is the cost of a table's note (WAL.Note): a seat's state
// as a table notes it when a player's connection drops, in a hand.
func BenchmarkWALNote(b *testing.B) {
	url, _ := startNATS(b)
	n, err := Connect(context.Background(), Config{URL: url, Node: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer n.nc.Close()
	ctx := context.Background()
	l, err := n.Acquire(ctx, "Main")
	if err != nil {
		b.Fatal(err)
	}
	w, _, err := n.OpenWAL(ctx, l)
	if err != nil {
		b.Fatal(err)
	}
	if err := w.StartHand(ctx, 1, testHandConfig(1), nil); err != nil {
		b.Fatal(err)
	}
	note := json.RawMessage(`{"seats":{"2":{"occupied":true,"id":7,"name":"alice","stack":1000,"bank_ms":30000,"away":true}}}`)
	for b.Loop() {
		if err := w.Note(ctx, note); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAllow is the cost of a lobby chat line's count across the house
// (Node.Allow: a read and a compare-and-set), the window never full.
func BenchmarkAllow(b *testing.B) {
	url, _ := startNATS(b)
	n, err := Connect(context.Background(), Config{URL: url, Node: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer n.nc.Close()
	ctx := context.Background()
	now := time.Unix(1_800_000_000, 0)
	for b.Loop() {
		now = now.Add(time.Minute) // a window of its own each time
		if ok, err := n.Allow(ctx, "chat.lobby.1", 5, 10*time.Second, now); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}
