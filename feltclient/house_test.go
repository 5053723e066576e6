package feltclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/web"
)

// testHouse is a house served for a test, with an owner logged in.
type testHouse struct {
	t     *testing.T
	url   string
	owner *http.Client
}

func newHouse(t *testing.T) *testHouse {
	t.Helper()
	hc := house.DefaultConfig()
	hc.Argon2.Memory, hc.Argon2.Time = 64, 1
	h, err := house.New(storetest.SQLite(t), hc)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := web.New(web.Config{House: h, Log: slog.New(slog.DiscardHandler), Tables: table.Config{
		BotDelay: time.Millisecond, HandPause: 20 * time.Millisecond, Grace: time.Second,
	}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	srv.SetReady()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		ts.Close()
	})
	jar, _ := cookiejar.New(nil)
	th := &testHouse{t: t, url: ts.URL, owner: &http.Client{Jar: jar, Timeout: 10 * time.Second}}
	th.post("/api/register", map[string]any{"username": "alice", "password": "correct horse", "adult": true}, 201)
	return th
}

// post sends body as the owner and decodes the reply.
func (th *testHouse) post(path string, body any, want int) map[string]any {
	th.t.Helper()
	b, _ := json.Marshal(body)
	resp, err := th.owner.Post(th.url+path, "application/json", bytes.NewReader(b))
	if err != nil {
		th.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode != want {
		th.t.Fatalf("POST %s: %d %v, want %d", path, resp.StatusCode, out, want)
	}
	return out
}

// bot makes one of the owner's bots and returns its token.
func (th *testHouse) bot(name string) string {
	th.t.Helper()
	out := th.post("/api/me/bots", map[string]any{"name": name}, 201)
	tok, _ := out["token"].(string)
	if tok == "" {
		th.t.Fatalf("no token in %v", out)
	}
	return tok
}

// table opens a two-seat table with one of the house's calling bots.
func (th *testHouse) table(name string) {
	th.post("/api/tables", map[string]any{"name": name, "variant": "nlhe", "seats": 2, "small_blind": 10, "big_blind": 20,
		"min_buy_in": 400, "max_buy_in": 2000, "bots": []string{"call"}}, 201)
}
