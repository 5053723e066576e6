package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// wsAsk sends msg (with "id": id) on ws and returns the reply to it: nil
// for {"type":"ok"}, else its error. It reads past the other messages,
// calling seen on each.
func wsAsk(ctx context.Context, t *testing.T, ws *websocket.Conn, id int, msg string, seen func(b []byte)) map[string]any {
	t.Helper()
	msg = strings.TrimSuffix(msg, "}") + fmt.Sprintf(`,"id":%d}`, id)
	if err := ws.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		t.Fatal(err)
	}
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("no reply to %s: %v", msg, err)
		}
		var m struct {
			Type  string         `json:"type"`
			ID    int            `json:"id"`
			Error map[string]any `json:"error"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m.ID == id && (m.Type == "ok" || m.Type == "error") {
			return m.Error
		}
		if seen != nil {
			seen(b)
		}
	}
}

// TestKillNineKeepsTheDeparture runs a real house, sits a player at Main
// with 2000 chips (the minimum is 400), stands them up (the 2000 back in
// their credits), kills the process with SIGKILL, and starts it again on
// the same data directory: the player may sit down at Main again only with
// the 2000 they left with, and does with 2000. Before, the restart forgot
// the departure and the player sat down with 400 (ratholing through a
// restart).
func TestKillNineKeepsTheDeparture(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the felt binary")
	}
	bin := buildFelt(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "house.toml")
	if err := os.WriteFile(cfg, []byte(`name = "Rathole Club"
[[tables]]
name = "Main"
variant = "nlhe"
seats = 3
small_blind = 10
big_blind = 20
min_buy_in = 400
max_buy_in = 2000
`), 0o600); err != nil {
		t.Fatal(err)
	}
	h := startHouse(t, bin, dir, "--config", cfg, "--announce", "off")
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	me := getJSON(t, c, "POST", h.base+"/api/register", map[string]any{"username": "rathole", "password": "correct horse", "adult": true})
	start := me["credits"].(float64)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	dial := func(h *houseProc) *websocket.Conn {
		ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(h.base, "http")+"/ws", &websocket.DialOptions{HTTPClient: c})
		if err != nil {
			t.Fatal(err)
		}
		ws.SetReadLimit(1 << 22)
		return ws
	}
	ws := dial(h)
	if e := wsAsk(ctx, t, ws, 1, `{"type":"sit","table":"Main","buy_in":2000}`, nil); e != nil {
		t.Fatalf("sit: %v", e)
	}
	cashed := false
	seen := func(b []byte) { cashed = cashed || strings.Contains(string(b), `"cashed_out"`) }
	if e := wsAsk(ctx, t, ws, 2, `{"type":"stand","table":"Main"}`, seen); e != nil {
		t.Fatalf("stand: %v", e)
	}
	for !cashed {
		_, b, err := ws.Read(ctx)
		if err != nil {
			t.Fatal("no cashed_out notice:", err)
		}
		seen(b)
	}
	if me := getJSON(t, c, "GET", h.base+"/api/me", nil); me["credits"].(float64) != start {
		t.Fatalf("credits after standing up: %v, want %v", me["credits"], start)
	}
	if err := h.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = h.cmd.Wait()
	ws.CloseNow()

	h = startHouse(t, bin, dir, "--config", cfg, "--announce", "off")
	ws = dial(h)
	defer ws.CloseNow()
	e := wsAsk(ctx, t, ws, 1, `{"type":"sit","table":"Main","buy_in":400}`, nil)
	if msg, _ := e["message"].(string); e["field"] != "buy_in" || !strings.Contains(msg, "2000") {
		t.Errorf("sitting down again after kill -9 with 400: %v, want a buy_in error naming the 2000 left with", e)
	}
	if e := wsAsk(ctx, t, ws, 2, `{"type":"sit","table":"Main","buy_in":2000}`, nil); e != nil {
		t.Errorf("sitting down again with 2000: %v", e)
	}
	if me := getJSON(t, c, "GET", h.base+"/api/me", nil); me["credits"].(float64) != start-2000 {
		t.Errorf("credits seated again: %v, want %v", me["credits"], start-2000)
	}
}
