package web

import (
	"context"
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
		watches: map[string]watch{}, limiter: chat.NewLimiter(wsRateN, wsRateWindow)}
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
