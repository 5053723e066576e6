package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/felt-poker/felt/internal/addrkey"
	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
)

type testHouse struct {
	srv   *Server
	house *house.House
	ts    *httptest.Server
}

// newHouse serves a house over st (storetest.Each runs a test on every backend).
func newHouse(t testing.TB, st store.Store, edits ...func(*Config)) *testHouse {
	t.Helper()
	hc := house.DefaultConfig()
	hc.Argon2.Memory, hc.Argon2.Time = 64, 1 // fast hashes for tests
	h, err := house.New(st, hc)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.EnsureBoards(t.Context()); err != nil {
		t.Fatal(err)
	}
	cfg := Config{House: h, Log: slog.New(slog.DiscardHandler), Tables: table.Config{
		BotDelay: time.Millisecond, HandPause: 20 * time.Millisecond, Grace: time.Second,
	}}
	for _, edit := range edits {
		edit(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	srv.SetReady()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		ts.Close()
	})
	return &testHouse{srv: srv, house: h, ts: ts}
}

// user is an HTTP client with its own cookie jar.
type user struct {
	t  *testing.T
	th *testHouse
	c  *http.Client
}

func (th *testHouse) client(t *testing.T) *user {
	jar, _ := cookiejar.New(nil)
	return &user{t: t, th: th, c: &http.Client{Jar: jar, Timeout: 10 * time.Second}}
}

// do sends a request and decodes the JSON reply into a map.
func (u *user) do(method, path string, body any) (int, map[string]any) {
	u.t.Helper()
	var rd io.Reader
	if s, ok := body.(string); ok {
		rd = strings.NewReader(s)
	} else if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, u.th.ts.URL+path, rd)
	resp, err := u.c.Do(req)
	if err != nil {
		u.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	b, _ := io.ReadAll(resp.Body)
	if len(b) > 0 {
		_ = json.Unmarshal(b, &out)
	}
	return resp.StatusCode, out
}

func (u *user) must(method, path string, body any, want int) map[string]any {
	u.t.Helper()
	code, out := u.do(method, path, body)
	if code != want {
		u.t.Fatalf("%s %s: %d %v, want %d", method, path, code, out, want)
	}
	return out
}

func (u *user) register(name string) {
	u.must("POST", "/api/register", map[string]any{"username": name, "password": "correct horse", "adult": true}, 201)
}

func errField(out map[string]any) (code, field string) {
	e, _ := out["error"].(map[string]any)
	c, _ := e["code"].(string)
	f, _ := e["field"].(string)
	return c, f
}

// ws is a WebSocket client that records every message.
type ws struct {
	t    *testing.T
	c    *websocket.Conn
	mu   sync.Mutex
	msgs []map[string]any
	raw  [][]byte
	more chan struct{}
	done chan struct{}
	err  error // why reading ended, once done is closed
}

func (u *user) dial() *ws {
	u.t.Helper()
	url := "ws" + strings.TrimPrefix(u.th.ts.URL, "http") + "/ws"
	c, _, err := websocket.Dial(u.t.Context(), url, &websocket.DialOptions{HTTPClient: u.c})
	if err != nil {
		u.t.Fatal(err)
	}
	c.SetReadLimit(1 << 22)
	w := &ws{t: u.t, c: c, more: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for {
			_, b, err := c.Read(context.Background())
			if err != nil {
				w.err = err
				return
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				u.t.Errorf("server sent bad JSON: %s", b)
				return
			}
			w.mu.Lock()
			w.msgs = append(w.msgs, m)
			w.raw = append(w.raw, b)
			w.mu.Unlock()
			select {
			case w.more <- struct{}{}:
			default:
			}
		}
	}()
	u.t.Cleanup(func() { c.CloseNow() })
	return w
}

func (w *ws) send(m map[string]any) {
	w.t.Helper()
	b, _ := json.Marshal(m)
	if err := w.c.Write(w.t.Context(), websocket.MessageText, b); err != nil {
		w.t.Fatal(err)
	}
}

// wait returns the first message from index *from on that pred accepts, moving
// *from past it.
func (w *ws) wait(from *int, what string, pred func(m map[string]any) bool) map[string]any {
	w.t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		w.mu.Lock()
		for ; *from < len(w.msgs); *from++ {
			if m := w.msgs[*from]; pred(m) {
				*from++
				w.mu.Unlock()
				return m
			}
		}
		w.mu.Unlock()
		select {
		case <-w.more:
		case <-w.done:
			select {
			case <-w.more: // messages read before the end
			default:
				w.t.Fatalf("no %s: the connection ended: %v", what, w.err)
			}
		case <-deadline:
			w.t.Fatalf("no %s within 15 s", what)
		}
	}
}

func typeIs(t string) func(map[string]any) bool {
	return func(m map[string]any) bool { return m["type"] == t }
}

// request sends m with id and returns the reply. Messages the server sent after
// m (states may come before the reply) are left for the next wait.
func (w *ws) request(from *int, id float64, m map[string]any) map[string]any {
	w.t.Helper()
	w.mu.Lock()
	start := len(w.msgs)
	w.mu.Unlock()
	m["id"] = id
	w.send(m)
	i := start
	r := w.wait(&i, "reply", func(m map[string]any) bool {
		return (m["type"] == "ok" || m["type"] == "error" || m["type"] == "pong") && m["id"] == id
	})
	*from = max(*from, start)
	return r
}

func (w *ws) states() []table.State {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []table.State
	for _, b := range w.raw {
		var m table.StateMsg
		if json.Unmarshal(b, &m) == nil && m.Type == "state" {
			out = append(out, *m.State)
		}
	}
	return out
}

func decodeState(m map[string]any) *table.State {
	b, _ := json.Marshal(m)
	var sm table.StateMsg
	_ = json.Unmarshal(b, &sm)
	return sm.State
}

// noForeignCards fails on a card of another seat that the recipient sees but that
// was not shown at showdown.
func noForeignCards(t *testing.T, states []table.State) {
	t.Helper()
	for _, s := range states {
		own := -1
		if s.You != nil {
			own = s.You.Seat
		}
		for _, seat := range s.Seats {
			if seat.Seat == own {
				continue
			}
			for _, c := range seat.Cards {
				if c == table.Hidden {
					continue
				}
				shown := false
				for _, e := range s.Hand.Events {
					if e.Kind == "show" && *e.Seat == seat.Seat && strings.Contains(strings.Join(e.Cards, " "), c) {
						shown = true
					}
				}
				if !shown {
					t.Fatalf("recipient (seat %d) saw %s of seat %d in hand %d", own, c, seat.Seat, s.Hand.Number)
				}
			}
		}
		if s.Hand != nil {
			for _, e := range s.Hand.Events {
				if e.Kind == "hole_cards" && *e.Seat != own {
					for _, c := range e.Cards {
						if c != table.Hidden {
							t.Fatalf("recipient (seat %d) got hole card %s of seat %d", own, c, *e.Seat)
						}
					}
				}
			}
		}
	}
}

// checkCredits checks that a player's credits are their start plus everything
// they won or lost at the tables: not a chip lost.
func checkCredits(u *user, start float64) {
	u.t.Helper()
	me := u.must("GET", "/api/me", nil, 200)
	// The lobby's listing follows the stand-up at once; the table's ledger worker
	// books the cash-out in the background (internal/table ledger.go).
	for range 500 {
		if len(me["tables"].([]any)) == 0 && me["credits"].(float64) == start+me["net_won"].(float64) {
			break
		}
		time.Sleep(20 * time.Millisecond)
		me = u.must("GET", "/api/me", nil, 200)
	}
	if me["credits"].(float64) != start+me["net_won"].(float64) {
		u.t.Fatalf("credits %v, want %v + net won %v", me["credits"], start, me["net_won"])
	}
	if len(me["tables"].([]any)) != 0 {
		u.t.Fatalf("still seated at %v", me["tables"])
	}
}

func TestHealthzAndMetrics(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st)
		u := th.client(t)
		if code, _ := u.do("GET", "/healthz", nil); code != 200 {
			t.Fatal(code)
		}
		th.srv.ready.Store(false)
		if code, _ := u.do("GET", "/healthz", nil); code != 503 {
			t.Fatal(code)
		}
		th.srv.ready.Store(true)
		resp, err := http.Get(th.ts.URL + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, m := range []string{"felt_tables", "felt_hands_total", "felt_ws_connections", "go_goroutines"} {
			if !strings.Contains(string(b), m) {
				t.Errorf("metrics lack %s", m)
			}
		}
		resp, _ = http.Get(th.ts.URL + "/")
		b, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), "Play money only") || !strings.Contains(string(b), "18+") {
			t.Fatal("home page does not say play money only, 18+")
		}
	})
}

func TestAccounts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st)
		u := th.client(t)
		for _, tc := range []struct {
			body  map[string]any
			code  string
			field string
		}{
			{map[string]any{"username": "al", "password": "correct horse", "adult": true}, "invalid", "username"},
			{map[string]any{"username": "alice", "password": "short", "adult": true}, "invalid", "password"},
			{map[string]any{"username": "alice", "password": "correct horse"}, "invalid", "adult"},
		} {
			code, out := u.do("POST", "/api/register", tc.body)
			if c, f := errField(out); code != 400 || c != tc.code || f != tc.field {
				t.Errorf("%v: %d %v", tc.body, code, out)
			}
		}
		if code, out := u.do("POST", "/api/register", `{"username": 3}`); code != 400 || out["error"].(map[string]any)["code"] != "bad_json" {
			t.Errorf("bad JSON: %d %v", code, out)
		}
		if code, _ := u.do("GET", "/api/me", nil); code != 401 {
			t.Fatal("me without a session:", code)
		}
		u.register("alice")
		me := u.must("GET", "/api/me", nil, 200)
		if me["name"] != "alice" || me["credits"].(float64) != 10_000 {
			t.Fatal(me)
		}
		if code, out := th.client(t).do("POST", "/api/register", map[string]any{"username": "ALICE", "password": "correct horse", "adult": true}); code != 409 {
			t.Fatal("taken name:", code, out)
		}
		if code, out := u.do("POST", "/api/refill", nil); code != 400 || out["error"].(map[string]any)["code"] != "refill_not_needed" {
			t.Fatal(code, out)
		}
		u.must("POST", "/api/logout", nil, 204)
		if code, _ := u.do("GET", "/api/me", nil); code != 401 {
			t.Fatal("me after logout:", code)
		}
		if code, _ := u.do("POST", "/api/login", map[string]any{"username": "alice", "password": "wrong password"}); code != 401 {
			t.Fatal("wrong password:", code)
		}
		u.must("POST", "/api/login", map[string]any{"username": "alice", "password": "correct horse"}, 200)
		g := th.client(t)
		if me := g.must("POST", "/api/guest", nil, 201); me["guest"] != true || !strings.HasPrefix(me["name"].(string), "guest-") {
			t.Fatal(me)
		}
		// A cross-origin POST is refused.
		req, _ := http.NewRequest("POST", th.ts.URL+"/api/refill", nil)
		req.Header.Set("Origin", "https://evil.example")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		resp, err := u.c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 403 {
			t.Fatal("cross-origin POST:", resp.StatusCode)
		}
		// Boards: guests read, registered players post.
		if code, _ := g.do("POST", "/api/boards/general/topics", map[string]any{"title": "hi", "body": "there"}); code != 403 {
			t.Fatal("guest post:", code)
		}
		for _, bad := range []map[string]any{
			{"title": "Hel\u202Elo", "body": "x"}, {"title": "a\u0000b", "body": "x"}, {"title": "two\nlines", "body": "x"},
			{"title": "t", "body": "\u001b[2J"}, {"title": "t", "body": "bell\a"}, {"title": "t", "body": "c1 \u009b"},
		} {
			if code, out := u.do("POST", "/api/boards/general/topics", bad); code != 400 {
				t.Fatal("a control or invisible character in a topic:", bad, code, out)
			}
		}
		topic := u.must("POST", "/api/boards/general/topics", map[string]any{"title": "Hello", "body": "First post"}, 201)
		id := int(topic["id"].(float64))
		u.must("POST", "/api/topics/"+itoa(id)+"/posts", map[string]any{"body": "A reply"}, 201)
		if code, out := u.do("POST", "/api/topics/"+itoa(id)+"/posts", map[string]any{"body": "  "}); code != 400 || out["error"].(map[string]any)["field"] != "body" {
			t.Fatal(code, out)
		}
		got := g.must("GET", "/api/topics/"+itoa(id), nil, 200)
		if len(got["posts"].([]any)) != 2 {
			t.Fatal(got)
		}
		if ts := g.must("GET", "/api/boards/general/topics", nil, 200); len(ts["topics"].([]any)) != 1 {
			t.Fatal(ts)
		}
		g.must("GET", "/api/boards/nope/topics", nil, 404)
		g.must("GET", "/api/players/alice", nil, 200)
		g.must("GET", "/api/players/nobody", nil, 404)
		g.must("GET", "/api/hands/12345", nil, 404)
	})
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestCreateTableValidation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st)
		u := th.client(t)
		u.register("alice")
		good := func() map[string]any {
			return map[string]any{"name": "Friday", "variant": "nlhe", "seats": 6, "small_blind": 10, "big_blind": 20,
				"min_buy_in": 400, "max_buy_in": 2000, "action_seconds": 20, "bots": []string{"call"}}
		}
		for _, tc := range []struct {
			key   string
			value any
			field string
		}{
			{"name", "ThisNameIsTooLong", "name"},
			{"name", "two words", "name"},
			{"name", "lobby", "name"},
			{"name", "t2-1", "name"}, // a tournament's table: squatted, the tournament stalls
			{"name", "T12-3a", "name"},
			{"name", "", "name"},
			{"variant", "omaha", "variant"},
			{"seats", 11, "seats"},
			{"seats", 1, "seats"},
			{"small_blind", 0, "small_blind"},
			{"big_blind", 5, "big_blind"},
			{"ante", 20, "ante"},
			{"max_buy_in", 400, "max_buy_in"},
			{"min_buy_in", 10, "min_buy_in"},
			{"action_seconds", 2, "action_seconds"},
			{"bots", []string{"nosuchbot"}, "bots"},
			{"bots", []string{"call", "call", "call", "call", "call", "call"}, "bots"},
			{"schedule", map[string]int{"every_hands": -1}, "schedule"},
		} {
			body := good()
			body[tc.key] = tc.value
			code, out := u.do("POST", "/api/tables", body)
			if c, f := errField(out); code != 400 || c != "invalid" || f != tc.field {
				t.Errorf("%s=%v: %d %v", tc.key, tc.value, code, out)
			}
		}
		if code, _ := th.client(t).do("POST", "/api/tables", good()); code != 401 {
			t.Fatal("anonymous create:", code)
		}
		info := u.must("POST", "/api/tables", good(), 201)
		if info["name"] != "Friday" || info["taken"].(float64) != 1 {
			t.Fatal(info)
		}
		body := good()
		body["name"] = "FRIDAY"
		if code, out := u.do("POST", "/api/tables", body); code != 409 {
			t.Fatal("duplicate name:", code, out)
		}
		stud := map[string]any{"name": "Stud", "variant": "stud3", "seats": 4, "min_buy_in": 10, "max_buy_in": 100, "bots": []string{"call"}}
		u.must("POST", "/api/tables", stud, 201)
		if ts := u.must("GET", "/api/tables", nil, 200); len(ts["tables"].([]any)) != 2 {
			t.Fatal(ts)
		}
		if code, _ := u.do("POST", "/api/tables", `{"name":"x","nope":1}`); code != 400 {
			t.Fatal("unknown field accepted")
		}
	})
}

func TestRankingsAndPlayerStats(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st)
		u := th.client(t)
		u.register("alice")
		u.register("bobby")
		ctx := t.Context()
		a, _, _ := th.house.Player(ctx, "alice")
		b, _, _ := th.house.Player(ctx, "bobby")
		// 60 hands at 10/20: alice wins 20 in every one, raising first in half of them.
		for i := range 60 {
			if _, err := th.house.RecordHand(ctx, store.Hand{TableRef: "t", Variant: "nlhe", BigBlind: 20, PHH: "x", Players: []store.HandPlayer{
				{Seat: 0, UserID: a.ID, Name: "alice", Net: 20, Won: true, VPIP: true, PFR: i%2 == 0},
				{Seat: 1, UserID: b.ID, Name: "bobby", Net: -20},
			}}); err != nil {
				t.Fatal(err)
			}
		}
		p := u.must("GET", "/api/players/alice", nil, 200)
		if p["hands_played"] != 60.0 || p["vpip"] != 1.0 || p["pfr"] != 0.5 || p["bb_per_100"] != 100.0 || p["win_rate"] != 1.0 || p["net_won"] != 1200.0 {
			t.Errorf("player: %v", p)
		}
		for _, by := range []string{"", "?by=net", "?by=win_rate&limit=5"} {
			out := u.must("GET", "/api/rankings"+by, nil, 200)
			rows, _ := out["rankings"].([]any)
			if len(rows) != 2 {
				t.Fatalf("rankings%s: %v", by, out)
			}
			first, second := rows[0].(map[string]any), rows[1].(map[string]any)
			if first["name"] != "alice" || first["rank"] != 1.0 || second["name"] != "bobby" || second["bb_per_100"] != -100.0 {
				t.Errorf("rankings%s: %v", by, out)
			}
		}
		if out := u.must("GET", "/api/rankings?by=win_rate", nil, 200); out["min_hands"] != 50.0 {
			t.Errorf("min_hands: %v", out)
		}
		for q, field := range map[string]string{"by=luck": "by", "limit=0": "limit", "limit=x": "limit", "offset=-1": "offset"} {
			code, out := u.do("GET", "/api/rankings?"+q, nil)
			if c, f := errField(out); code != 400 || c != "invalid" || f != field {
				t.Errorf("rankings?%s: %d %v", q, code, out)
			}
		}
	})
}

func TestConnectionsPerIP(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t), func(c *Config) { c.MaxConnsPerIP = 2 })
	u := th.client(t)
	a, b := u.dial(), u.dial()
	url := "ws" + strings.TrimPrefix(th.ts.URL, "http") + "/ws"
	_, resp, err := websocket.Dial(t.Context(), url, nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("a third connection: %v %v", resp, err)
	}
	a.c.Close(websocket.StatusNormalClosure, "")
	b.c.Close(websocket.StatusNormalClosure, "")
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		c, _, err := websocket.Dial(t.Context(), url, nil)
		if err == nil {
			c.Close(websocket.StatusNormalClosure, "")
			break
		}
		if time.Since(start) > 5*time.Second {
			t.Fatalf("no connection after two closed: %v", err)
		}
	}
}

// TestConnectionsPerSlash48: through a trusted proxy, WebSockets from the /64s
// of one /48 (one per /64, each within the bound) stop at addrkey.WideFactor
// times the bound; another /48 and an IPv4 address still connect; the
// addresses of one /64 count as one.
func TestConnectionsPerSlash48(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t), func(c *Config) {
		c.MaxConnsPerIP = 1
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	})
	url := "ws" + strings.TrimPrefix(th.ts.URL, "http") + "/ws"
	dial := func(from string) (*http.Response, error) {
		c, resp, err := websocket.Dial(t.Context(), url, &websocket.DialOptions{HTTPHeader: http.Header{"X-Forwarded-For": {from}}})
		if err == nil {
			t.Cleanup(func() { c.Close(websocket.StatusNormalClosure, "") })
		}
		return resp, err
	}
	for i := range addrkey.WideFactor {
		if _, err := dial(fmt.Sprintf("2001:db8:1:%x::1", i)); err != nil {
			t.Fatalf("connection %d of the /48: %v", i, err)
		}
	}
	if resp, err := dial("2001:db8:1:ff::1"); err == nil || resp == nil || resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("a further /64 of a full /48: %v %v", resp, err)
	}
	for _, from := range []string{"2001:db8:2::1", "198.51.100.7"} {
		if _, err := dial(from); err != nil {
			t.Fatalf("connection from %s: %v", from, err)
		}
	}
	// Another address of a /64 that holds the bound is the same address (the
	// WebSockets counted by IP before: every IPv6 address its own).
	if resp, err := dial("2001:db8:2::2"); err == nil || resp == nil || resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("a second address of a full /64: %v %v", resp, err)
	}
}

// Learning bots at the house's tables keep their opponent models in the house's
// store, so that they survive a restart.
func TestTablesKeepBotModelsInTheStore(t *testing.T) {
	st := storetest.SQLite(t)
	th := newHouse(t, st)
	cfg := th.srv.TableDefaults(table.Config{Name: "Models"})
	m, ok := cfg.BotModels.(bot.StoreModels)
	if !ok {
		t.Fatalf("BotModels is %T, want bot.StoreModels", cfg.BotModels)
	}
	if err := m.SaveModel(t.Context(), "bayes", "alice", []byte(`{"hands":3}`)); err != nil {
		t.Fatal(err)
	}
	got, err := st.BotModel(t.Context(), "bayes", "alice")
	if err != nil || !strings.Contains(string(got.Model), "hands") {
		t.Fatalf("the model did not reach the store: %+v, %v", got, err)
	}
}

// TestLookalikeNamesRefused: a name that reads like a player's in the house's
// font ("aIice", a capital I, for "alice"; "b0b" for "bob"; "rnary" for
// "mary") would let its holder pass for them in chat and at tables: it is
// refused as taken, naming whose it reads like; an unlike name is not.
func TestLookalikeNamesRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st)
		for _, name := range []string{"alice", "bob", "mary"} {
			th.client(t).register(name)
		}
		for _, like := range []string{"aIice", "A1ice", "b0b", "rnary"} {
			code, out := th.client(t).do("POST", "/api/register", map[string]any{"username": like, "password": "correct horse", "adult": true})
			if c, f := errField(out); code != 409 || c != "taken" || f != "username" {
				t.Errorf("%q: %d %v, want 409 taken", like, code, out)
			}
		}
		th.client(t).register("alicia")
	})
}
