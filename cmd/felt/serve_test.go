package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestServe starts the house on a free port with a fresh data directory, checks
// that it is ready with its default tables, and shuts it down.
func TestServe(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	c := serveCmd{Addr: "127.0.0.1:0", Data: dir, Announce: "off"}
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- c.run(ctx, slog.New(slog.DiscardHandler), func(a string) { addr <- a }) }()
	var base string
	select {
	case a := <-addr:
		base = "http://" + a
	case err := <-done:
		t.Fatal(err)
	case <-time.After(20 * time.Second):
		t.Fatal("the house did not open")
	}
	resp, err := http.Get(base + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatal("healthz:", err, resp)
	}
	resp.Body.Close()
	// Each table lists itself from its own goroutine once it runs, so the lobby
	// may show the default tables a moment after the house answers: wait for them.
	want := len(defaultHouseConfig().Tables)
	var b []byte
	for deadline := time.Now().Add(20 * time.Second); ; {
		resp, err := http.Get(base + "/api/tables")
		if err != nil {
			t.Fatal(err)
		}
		b, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		var ts struct {
			Tables []struct {
				Name  string `json:"name"`
				Taken int    `json:"taken"`
			} `json:"tables"`
		}
		if err := json.Unmarshal(b, &ts); err != nil {
			t.Fatalf("tables: %v: %s", err, b)
		}
		ready := len(ts.Tables) == want
		for _, tb := range ts.Tables {
			ready = ready && tb.Taken >= 2
		}
		if ready {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("want %d tables with two bots each, got %s", want, b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "felt.db")); err != nil {
		t.Fatal("no database in the data directory:", err)
	}
}
