package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/announce"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// A guest chooses bots by name only: no option from the network reads or writes
// a file, blocks the lobby, or echoes a path or a file's content in its error
// (issue 12, item 1). On the old code, adaptive:state=PATH created PATH,
// neural:weights=/etc/passwd answered with the file's first byte, and a FIFO
// froze the lobby.
func TestBotOptionsFromTheNetworkTouchNoFile(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	u := th.client(t)
	u.must("POST", "/api/guest", nil, 201)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(dir, "secret")
	if err := os.WriteFile(secret, []byte("hunter2"), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := []string{
		"adaptive:state=" + filepath.Join(dir, "a.json"),
		"bayes:state=" + filepath.Join(dir, "b.json"),
		"neural:weights=" + secret,
		"neural:weights=/etc/passwd",
		"neural:weights=/dev/zero",
		"neural:weights=" + fifo,
		"cfr:strategy=" + fifo,
		"montecarlo:samples=100000",
	}
	for i, b := range bad {
		table := map[string]any{"name": fmt.Sprintf("T%d", i), "variant": "nlhe", "seats": 6, "small_blind": 10, "big_blind": 20,
			"min_buy_in": 400, "max_buy_in": 2000, "bots": []string{"call", b}}
		for _, req := range []struct {
			path string
			body any
		}{{"/api/tables", table}, {"/api/headsup", map[string]any{"bot": b}}} {
			done := make(chan struct{})
			var code int
			var out map[string]any
			go func() { defer close(done); code, out = u.do("POST", req.path, req.body) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("%s %s: no answer", req.path, b)
			}
			if c, _ := errField(out); code != 400 || c != "invalid" {
				t.Errorf("%s %s: %d %v, want 400 invalid", req.path, b, code, out)
			}
			raw, _ := json.Marshal(out)
			if strings.Contains(string(raw), dir) || strings.Contains(string(raw), "/etc/") || strings.Contains(string(raw), "hunter2") || strings.Contains(string(raw), "/dev/") {
				t.Errorf("%s %s: the reply repeats a path or a file: %s", req.path, b, raw)
			}
		}
	}
	for _, f := range []string{"a.json", "b.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a remote request created %s", f)
		}
	}
	// The lobby still answers, and harmless options still work.
	u.must("GET", "/api/tables", nil, 200)
	u.must("POST", "/api/headsup", map[string]any{"bot": "montecarlo:samples=200,bluff=false"}, 201)
}

// A player may have at most MaxTablesPerPlayer tables open, heads-up games
// included; the house's own tables do not count.
func TestTablesPerPlayerBounded(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t), func(c *Config) { c.MaxTablesPerPlayer = 2 })
	u := th.client(t)
	u.must("POST", "/api/guest", nil, 201)
	u.must("POST", "/api/headsup", map[string]any{"bot": "call"}, 201)
	table := func(name string) map[string]any {
		return map[string]any{"name": name, "variant": "nlhe", "seats": 6, "small_blind": 10, "big_blind": 20,
			"min_buy_in": 400, "max_buy_in": 2000, "bots": []string{"call"}}
	}
	u.must("POST", "/api/tables", table("One"), 201)
	if code, out := u.do("POST", "/api/tables", table("Two")); code != 429 {
		t.Fatalf("third table: %d %v, want 429", code, out)
	}
	if code, _ := u.do("POST", "/api/headsup", map[string]any{"bot": "call"}); code != 429 {
		t.Fatalf("third table (heads-up): %d, want 429", code)
	}
	other := th.client(t)
	other.must("POST", "/api/guest", nil, 201)
	other.must("POST", "/api/tables", table("Two"), 201)
}

// Tables players open come back when the house starts again after stopping
// (issue 12, item 11); a table that closed by itself does not.
func TestPlayerTablesComeBack(t *testing.T) {
	st := storetest.SQLite(t)
	th := newHouse(t, st)
	u := th.client(t)
	u.register("opener")
	table := func(name string) map[string]any {
		return map[string]any{"name": name, "variant": "plhe", "seats": 5, "small_blind": 5, "big_blind": 10,
			"min_buy_in": 100, "max_buy_in": 1000, "bots": []string{"call"}, "action_seconds": 30}
	}
	u.must("POST", "/api/tables", table("Kept"), 201)
	u.must("POST", "/api/tables", table("Gone"), 201)
	u.must("POST", "/api/headsup", map[string]any{"bot": "call"}, 201)
	gone, err := th.srv.lobby.Table("Gone")
	if err != nil {
		t.Fatal(err)
	}
	if err := gone.Close(t.Context(), "closed by itself"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := th.srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	th2 := newHouse(t, st)
	n, err := th2.srv.RestoreTables(t.Context())
	if err != nil || n != 1 {
		t.Fatalf("RestoreTables = %d, %v; want 1", n, err)
	}
	in, ok := th2.srv.lobby.Info("kept")
	for i := 0; !ok && i < 200; i++ {
		time.Sleep(5 * time.Millisecond)
		in, ok = th2.srv.lobby.Info("kept")
	}
	if !ok || in.Name != "Kept" || in.Variant != "plhe" || in.Seats != 5 || in.BigBlind != 10 {
		t.Fatalf("restored table: %+v, %v", in, ok)
	}
	if _, err := th2.srv.lobby.Table("Gone"); err == nil {
		t.Error("a table that had closed by itself came back")
	}
	// The restored table is still its owner's: it counts towards the bound, and
	// closing it forgets it.
	kept, _ := th2.srv.lobby.Table("Kept")
	if err := kept.Close(t.Context(), "closed by itself"); err != nil {
		t.Fatal(err)
	}
	th2.srv.Shutdown(ctx)
	if n, err := newHouse(t, st).srv.RestoreTables(t.Context()); err != nil || n != 0 {
		t.Fatalf("after closing it: RestoreTables = %d, %v", n, err)
	}
}

// Registering a name that failed logins (the name's login lock-out is on)
// creates the account and its session, never a 429 with the account made
// anyway (red team finding).
func TestRegisterAfterFailedLogins(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	u := th.client(t)
	for range 6 {
		u.do("POST", "/api/login", map[string]any{"username": "fresh1", "password": "wrong password"})
	}
	if code, _ := u.do("POST", "/api/login", map[string]any{"username": "fresh1", "password": "wrong password"}); code != 429 {
		t.Fatalf("the name is not locked out: %d", code)
	}
	me := u.must("POST", "/api/register", map[string]any{"username": "fresh1", "password": "correct horse", "adult": true}, 201)
	if me["name"] != "fresh1" {
		t.Fatal(me)
	}
	u.must("GET", "/api/me", nil, 200)
}

// GET /metrics answers a client on the machine itself, and anyone else only
// when the operator makes the metrics public.
func TestMetricsLocalUnlessPublic(t *testing.T) {
	for _, public := range []bool{false, true} {
		th := newHouse(t, storetest.SQLite(t), func(c *Config) { c.PublicMetrics = public })
		for _, tc := range []struct {
			from string
			want int
		}{{"127.0.0.1:4000", 200}, {"[::1]:4000", 200}, {"203.0.113.5:4000", 404}, {"[2001:db8::1]:4000", 404}} {
			if public {
				tc.want = 200
			}
			req := httptest.NewRequest("GET", "/metrics", nil)
			req.RemoteAddr = tc.from
			rec := httptest.NewRecorder()
			th.srv.Handler().ServeHTTP(rec, req)
			if rec.Code != tc.want || tc.want == 200 && !strings.Contains(rec.Body.String(), "felt_tables") {
				t.Errorf("public %v, from %s: %d, want %d", public, tc.from, rec.Code, tc.want)
			}
		}
	}
}

// Ending sessions ends their sockets: a changed password closes the other
// devices' WebSockets (this one stays), a deleted account closes them all.
func TestEndedSessionsCloseTheirSockets(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	a, other := th.client(t), th.client(t)
	a.register("alice")
	other.must("POST", "/api/login", map[string]any{"username": "alice", "password": "correct horse"}, 200)
	wa, wo := a.dial(), other.dial()
	// The server knows a connection once it has sent its welcome.
	for _, w := range []*ws{wa, wo} {
		j := 0
		w.wait(&j, "welcome", typeIs("welcome"))
	}
	closed := func(w *ws) bool {
		select {
		case <-w.done:
			return true
		case <-time.After(5 * time.Second):
			return false
		}
	}
	a.must("POST", "/api/me/password", map[string]any{"current_password": "correct horse", "new_password": "battery staple"}, 204)
	if !closed(wo) {
		t.Fatal("the other device's socket is still open after the password changed")
	}
	i := 0
	if r := wa.request(&i, 1, map[string]any{"type": "ping"}); r["type"] != "ok" && r["type"] != "pong" {
		t.Fatalf("this device's socket: %v", r)
	}
	a.must("POST", "/api/me/delete", map[string]any{"password": "battery staple"}, 204)
	if !closed(wa) {
		t.Fatal("a deleted account's socket is still open")
	}
}

// TestHousesOnTheNetwork: GET /api/houses lists what Config.Houses hears, and
// says when the house does not listen.
func TestHousesOnTheNetwork(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	out := th.client(t).must("GET", "/api/houses", nil, 200)
	if out["listening"] != false || len(out["houses"].([]any)) != 0 {
		t.Fatalf("without listening: %v", out)
	}
	th = newHouse(t, storetest.SQLite(t), func(c *Config) {
		c.Houses = func() []announce.House {
			return []announce.House{{Beacon: announce.Beacon{Name: "Annex", Addr: "10.0.0.2:8080", Tables: 2, Players: 3}, URL: "http://10.0.0.2:8080"}}
		}
	})
	out = th.client(t).must("GET", "/api/houses", nil, 200)
	hs := out["houses"].([]any)
	if out["listening"] != true || len(hs) != 1 || hs[0].(map[string]any)["url"] != "http://10.0.0.2:8080" || hs[0].(map[string]any)["tables"].(float64) != 2 {
		t.Fatalf("houses: %v", out)
	}
}
