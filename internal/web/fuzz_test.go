package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/felt-poker/felt/internal/chat"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
)

// FuzzClientMessage feeds arbitrary frames to the message decoder and, when one
// decodes, to the handler of a logged-in connection at a table with bots: no
// input panics, every refusal is an error the protocol names (never "internal"),
// and the table's chips stay conserved.
//
//	go test -fuzz FuzzClientMessage ./internal/web
func FuzzClientMessage(f *testing.F) {
	for _, s := range []string{
		`{"type":"ping","id":1}`, `{"type":"watch","table":"Fuzz"}`, `{"type":"sit","table":"Fuzz","seat":3,"buy_in":500}`,
		`{"type":"act","table":"Fuzz","action":"raise","amount":120}`, `{"type":"chat","text":"hi"}`,
		`{"type":"chat","table":"Fuzz","text":"nh"}`, `{"type":"leave","table":"Fuzz"}`, `{"type":"stand","table":"Fuzz"}`,
		`{"type":"sit_out","table":"Fuzz"}`, `{"type":"sit_in","table":"Fuzz"}`, `{"type":"unwatch","table":"Nope"}`,
		`{"type":"act","table":"Fuzz","action":"bet","amount":-5}`, `{"type":7}`, `[]`, `null`, `{"id":{"a":1}}`, "\xff",
		`{"type":"options","table":"Fuzz","straddle":true,"run_twice":false}`, `{"type":"wait","table":"Fuzz","key":"x"}`,
		`{"type":"unwait","table":"Fuzz"}`, `{"type":"watch","table":"Fuzz","key":"open sesame"}`,
	} {
		f.Add(true, []byte(s))
	}
	f.Add(false, []byte(`{"type":"ping"}`))
	th := newHouse(f, storetest.SQLite(f))
	u, err := th.house.Register(f.Context(), house.Registration{Username: "fuzzer", Password: "correct horse", ConfirmedAdult: true})
	if err != nil {
		f.Fatal(err)
	}
	p := table.Player{ID: u.ID, Name: u.Username}
	if _, err := th.srv.lobby.Open(th.srv.TableDefaults(table.Config{Name: "Fuzz", Variant: table.NoLimit, Seats: 4,
		SmallBlind: 10, BigBlind: 20, MinBuyIn: 200, MaxBuyIn: 2000, ActionTime: 5 * time.Second, Bots: []string{"call", "random"}, Permanent: true})); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text bool, data []byte) {
		typ := websocket.MessageBinary
		if text {
			typ = websocket.MessageText
		}
		m, err := decodeMsg(typ, data)
		if err == nil {
			err = fuzzConn(t, th, p).handle(&m)
		}
		if err != nil {
			if _, e := th.srv.classify(err); e.Code == "internal" {
				t.Fatalf("%q: an internal error: %v", data, err)
			}
		}
		tb, err := th.srv.lobby.Table("Fuzz")
		if err != nil {
			t.Fatal(err)
		}
		on, in, out, err := tb.Chips(t.Context())
		if err != nil || on != in-out {
			t.Fatalf("%q: chips on the table %d, in %d - out %d (%v)", data, on, in, out, err)
		}
	})
}

// fuzzConn is a connection of player p without a socket: what the table sends
// it is read and dropped; at the end of t it stops watching every table.
func fuzzConn(t *testing.T, th *testHouse, p table.Player) *conn {
	ctx, cancel := context.WithCancel(context.Background())
	c := &conn{s: th.srv, p: p, out: make(chan []byte, wsQueue), ctx: ctx, cancel: cancel,
		watches: map[string]watch{}, limiter: chat.NewLimiter[int64](wsRateN, wsRateWindow)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-c.out:
			case <-ctx.Done():
				return
			}
		}
	}()
	t.Cleanup(func() {
		for _, w := range c.watches {
			_ = w.t.Unwatch(context.Background(), w.id)
		}
		cancel()
		<-done
	})
	return c
}

// fuzzEndpoints are the API's POST endpoints that read a JSON body (logout, which
// reads none and would end the fuzzer's session, left out).
var fuzzEndpoints = []string{
	"/api/register", "/api/login", "/api/guest", "/api/refill", "/api/tables", "/api/headsup",
	"/api/boards/general/topics", "/api/topics/1/posts",
}

// FuzzAPIBody posts arbitrary bodies, as a logged-in player, to every endpoint
// that reads one: no input panics or gets an internal error (500), every reply
// is JSON with an error code or the resource, and no file appears.
//
//	go test -fuzz FuzzAPIBody ./internal/web
func FuzzAPIBody(f *testing.F) {
	for i, s := range []string{
		`{"username":"fuzzy","password":"correct horse","adult":true}`, `{"username":"fuzzer","password":"wrong"}`, `{}`,
		`{}`, `{"name":"F1","variant":"nlhe","seats":6,"small_blind":1,"big_blind":2,"min_buy_in":40,"max_buy_in":200,"bots":["call"]}`,
		`{"bot":"adaptive:state=/tmp/fuzz-felt.json","chips":1000,"small_blind":5,"big_blind":10}`,
		`{"title":"t","body":"b"}`, `{"body":"reply"}`,
	} {
		f.Add(uint8(i), []byte(s))
	}
	f.Add(uint8(4), []byte(`{"name":"F2","variant":"stud3","seats":3,"bots":["neural:weights=/dev/zero"],"schedule":{"every_hands":-1}}`))
	f.Add(uint8(5), []byte(`{"bot":"montecarlo:samples=99999999","double_every":-1}`))
	f.Add(uint8(0), []byte(`{"username":"a","password":"`+strings.Repeat("x", 70_000)+`"}`))
	f.Add(uint8(1), []byte(`[1,2`))
	th := newHouse(f, storetest.SQLite(f), func(c *Config) { c.MaxTablesPerPlayer = 2 })
	if _, err := th.house.Register(f.Context(), house.Registration{Username: "fuzzer", Password: "correct horse", ConfirmedAdult: true}); err != nil {
		f.Fatal(err)
	}
	sess, err := th.house.Login(f.Context(), "fuzzer", "correct horse", "192.0.2.1")
	if err != nil {
		f.Fatal(err)
	}
	if _, err := th.house.CreateTopic(f.Context(), sess.User, "general", "first", "post"); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, endpoint uint8, body []byte) {
		path := fuzzEndpoints[int(endpoint)%len(fuzzEndpoints)]
		req := httptest.NewRequest("POST", path, bytes.NewReader(body))
		req.AddCookie(&http.Cookie{Name: CookieName, Value: sess.Token})
		rec := httptest.NewRecorder()
		th.srv.Handler().ServeHTTP(rec, req)
		if rec.Code >= 500 && rec.Code != http.StatusServiceUnavailable {
			t.Fatalf("%s %q: %d %s", path, body, rec.Code, rec.Body)
		}
		var out map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("%s %q: %d, not JSON: %q", path, body, rec.Code, rec.Body)
		}
		if rec.Code >= 400 {
			if e, ok := out["error"].(map[string]any); !ok || e["code"] == "" || e["message"] == "" {
				t.Fatalf("%s %q: %d without an error object: %v", path, body, rec.Code, out)
			}
		}
		if _, err := os.Stat("/tmp/fuzz-felt.json"); err == nil {
			t.Fatalf("%s %q: a request wrote a file", path, body)
		}
	})
}
