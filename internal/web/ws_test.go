package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
)

// isMyTurn accepts a state in which the recipient has legal actions.
func isMyTurn(m map[string]any) bool {
	if m["type"] != "state" {
		return false
	}
	s := decodeState(m)
	return s.Hand != nil && s.Hand.Legal != nil
}

// turns returns a filter of states where the recipient is to act that accepts
// each decision once (a state sent again for the same decision is skipped).
func turns() func(m map[string]any) bool {
	var hand int64
	events := -1
	return func(m map[string]any) bool {
		if !isMyTurn(m) {
			return false
		}
		s := decodeState(m)
		if s.Hand.Number == hand && len(s.Hand.Events) <= events {
			return false
		}
		hand, events = s.Hand.Number, len(s.Hand.Events)
		return true
	}
}

// passive answers a state where it is the recipient's turn with a check or call.
func passive(s *table.State) map[string]any {
	for _, a := range s.Hand.Legal.Actions {
		if a == "check" {
			return map[string]any{"type": "act", "table": s.Table, "action": "check"}
		}
	}
	return map[string]any{"type": "act", "table": s.Table, "action": "call"}
}

func TestPlayToShowdownOverWebSocket(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st)
		alice, bob := th.client(t), th.client(t)
		alice.register("alice")
		bob.must("POST", "/api/guest", nil, 201)
		alice.must("POST", "/api/tables", map[string]any{"name": "T1", "variant": "nlhe", "seats": 4, "small_blind": 10, "big_blind": 20,
			"min_buy_in": 400, "max_buy_in": 2000, "bots": []string{"call"}}, 201)

		aw, bw, anon := alice.dial(), bob.dial(), th.client(t).dial()
		var ai, bi, ni int
		if w := aw.wait(&ai, "welcome", typeIs("welcome")); w["user"].(map[string]any)["name"] != "alice" {
			t.Fatal(w)
		}
		if l := aw.wait(&ai, "lobby", typeIs("lobby")); len(l["tables"].([]any)) != 1 {
			t.Fatal(l)
		}
		if w := anon.wait(&ni, "welcome", typeIs("welcome")); w["user"] != nil {
			t.Fatal("anonymous welcome has a user", w)
		}
		for _, w := range []*ws{bw, anon} {
			i := 0
			if r := w.request(&i, 1, map[string]any{"type": "watch", "table": "T1"}); r["type"] != "ok" {
				t.Fatal(r)
			}
		}
		if r := aw.request(&ai, 1, map[string]any{"type": "sit", "table": "T1", "buy_in": 1000}); r["type"] != "ok" {
			t.Fatal(r)
		}
		// Room chat reaches the spectators; the lobby sees alice's seat.
		// The hand alice is dealt into may start before she chats: a request moves
		// past what came before it, so she chats from a copy of her place.
		chatFrom := ai
		if r := aw.request(&chatFrom, 2, map[string]any{"type": "chat", "table": "T1", "text": "good luck"}); r["type"] != "ok" {
			t.Fatal(r)
		}
		bw.wait(&bi, "room chat", func(m map[string]any) bool {
			return m["type"] == "chat" && m["text"] == "good luck" && m["table"] == "T1"
		})
		anon.wait(&ni, "tables", func(m map[string]any) bool {
			if m["type"] != "tables" {
				return false
			}
			for _, in := range m["tables"].([]any) {
				if in := in.(map[string]any); in["name"] == "T1" && strings.Contains(strings.Join(toStrings(in["players"]), ","), "alice") {
					return true
				}
			}
			return false
		})
		if r := anon.request(&ni, 3, map[string]any{"type": "chat", "text": "hi"}); r["type"] != "error" || r["error"].(map[string]any)["code"] != "unauthorized" {
			t.Fatal("anonymous chat:", r)
		}

		// alice checks or calls; the call bot calls: every hand goes to showdown.
		showdowns := 0
		myTurn := turns()
		seen := map[int64]bool{}
		mine := func(s *table.State) bool { return s.You != nil && s.Seats[s.You.Seat].InHand }
		for id := 10.0; showdowns < 3; id++ {
			m := aw.wait(&ai, "alice's turn or a showdown", func(m map[string]any) bool {
				if m["type"] != "state" {
					return false
				}
				s := decodeState(m)
				return s.Hand != nil && (s.Hand.Over && len(s.Hand.Result.Shown) > 0 && !seen[s.Hand.Number] && mine(s) || myTurn(m))
			})
			s := decodeState(m)
			if s.Hand.Over {
				seen[s.Hand.Number] = true
				showdowns++
				if s.Hand.SeedSHA256 == "" {
					t.Fatal("no seed commitment")
				}
				if seed, ok := m["state"].(map[string]any)["hand"].(map[string]any)["seed"]; ok {
					t.Fatalf("the seed %v is sent at the hand's end", seed)
				}
				continue
			}
			if r := aw.request(&ai, id, passive(s)); r["type"] != "ok" {
				t.Fatal(r)
			}
		}
		// Hands are stored in the background and a hand's id shows in the state
		// once it is stored, while it is still the table's last hand. alice sits
		// out, so that no hand follows the one she plays last (the bot alone is
		// not dealt in), and waits for its id to show, however slow the store.
		if r := aw.request(&ai, 50, map[string]any{"type": "sit_out", "table": "T1"}); r["type"] != "ok" {
			t.Fatal(r)
		}
		var handID int64
		for id := 51.0; handID == 0; id++ {
			m := aw.wait(&ai, "alice's turn or her last hand's stored id", func(m map[string]any) bool {
				if m["type"] != "state" {
					return false
				}
				s := decodeState(m)
				return s.Hand != nil && s.Hand.Over && s.Hand.ID != 0 && mine(s) || myTurn(m)
			})
			if s := decodeState(m); s.Hand.Over {
				handID = s.Hand.ID
			} else if r := aw.request(&ai, id, passive(s)); r["type"] != "ok" {
				t.Fatal(r)
			}
		}
		if r := aw.request(&ai, 100, map[string]any{"type": "stand", "table": "T1"}); r["type"] != "ok" {
			t.Fatal(r)
		}
		aw.wait(&ai, "cash-out", func(m map[string]any) bool { return m["type"] == "notice" && m["code"] == "cashed_out" })
		checkCredits(alice, 10_000)
		me := alice.must("GET", "/api/me", nil, 200)
		if me["hands_played"].(float64) < 3 {
			t.Fatal(me)
		}
		h := alice.must("GET", "/api/hands/"+itoa(int(handID)), nil, 200)
		if !strings.Contains(h["phh"].(string), "variant = ") || len(h["players"].([]any)) != 2 {
			t.Fatal(h)
		}
		if p := bob.must("GET", "/api/players/alice/hands", nil, 200); len(p["hands"].([]any)) < 3 {
			t.Fatal(p)
		}
		time.Sleep(50 * time.Millisecond)
		noForeignCards(t, bw.states())
		noForeignCards(t, anon.states())
		noForeignCards(t, aw.states())
		for _, s := range bw.states() {
			if s.You != nil {
				t.Fatal("a spectator was given a seat")
			}
		}
	})
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func TestHeadsUpReconnectAndGrace(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st)
		g := th.client(t)
		g.must("POST", "/api/guest", nil, 201)
		if code, out := g.do("POST", "/api/headsup", map[string]any{"bot": "nosuch"}); code != 400 || out["error"].(map[string]any)["field"] != "bot" {
			t.Fatal(code, out)
		}
		if code, out := g.do("POST", "/api/headsup", map[string]any{"chips": 20_000}); code != 400 || out["error"].(map[string]any)["code"] != "insufficient_credits" {
			t.Fatal(code, out)
		}
		info := g.must("POST", "/api/headsup", map[string]any{"bot": "call"}, 201)
		name := info["name"].(string)
		if info["heads_up"] != true || info["big_blind"].(float64) != 100 {
			t.Fatal(info)
		}
		if ts := g.must("GET", "/api/tables", nil, 200); len(ts["tables"].([]any)) != 0 {
			t.Fatal("a heads-up table is listed in the lobby")
		}
		w := g.dial()
		i := 0
		w.request(&i, 1, map[string]any{"type": "watch", "table": name})
		m := w.wait(&i, "my turn", isMyTurn)
		s := decodeState(m)
		mine := s.Seats[s.You.Seat].Cards
		if len(mine) != 2 || mine[0] == table.Hidden {
			t.Fatal("own cards:", mine)
		}
		w.c.CloseNow()
		<-w.done

		// Back within the grace: same seat, and in the same hand the same cards.
		w2 := g.dial()
		j := 0
		w2.request(&j, 1, map[string]any{"type": "watch", "table": name})
		s2 := decodeState(w2.wait(&j, "state", typeIs("state")))
		// (Meanwhile the seat checked or folded for her.)
		if s2.You == nil || s2.You.Seat != s.You.Seat || s2.You.Status != table.StatusPlaying ||
			s2.Hand.Number == s.Hand.Number && strings.Join(s2.Seats[s.You.Seat].Cards, "") != strings.Join(mine, "") {
			t.Fatalf("after reconnecting: you %+v, hand %d, cards %v", s2.You, s2.Hand.Number, s2.Seats[s.You.Seat].Cards)
		}
		// Gone: after the grace (1 s here) the seat is freed, the chips come back and
		// the heads-up table closes.
		w2.c.CloseNow()
		deadline := time.Now().Add(10 * time.Second)
		for {
			if _, err := th.srv.lobby.Table(name); err != nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the heads-up table is still open after the grace")
			}
			time.Sleep(20 * time.Millisecond)
		}
		checkCredits(g, 10_000)
	})
}

func TestBadMessagesChangeNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st)
		a := th.client(t)
		a.register("alice")
		a.must("POST", "/api/tables", map[string]any{"name": "T2", "variant": "flhe", "seats": 3, "small_blind": 5, "big_blind": 10,
			"min_buy_in": 100, "max_buy_in": 1000, "bots": []string{"call"}}, 201)
		w := a.dial()
		i := 0
		for n, tc := range []struct {
			msg  string
			code string
		}{
			{`not json`, "bad_json"},
			{`{"type":"fly","id":1}`, "invalid"},
			{`{"type":"act","id":2}`, "invalid"},
			{`{"type":"watch","table":"Nope","id":3}`, "not_found"},
			{`{"type":"act","table":"T2","action":"check","id":4}`, "not_seated"},
			{`{"type":"sit","table":"T2","buy_in":5,"id":5}`, "invalid"},
			{`{"type":"sit","table":"T2","buy_in":50000,"id":6}`, "invalid"},
			{`{"type":"sit","table":"T2","buy_in":500,"seat":0,"id":7}`, "seat_taken"},
			{`{"type":"sit","table":"T2","buy_in":500,"seat":7,"id":8}`, "invalid"},
			{`{"type":"sit","table":"T2","buy_in":500,"id":9}`, ""},
			{`{"type":"sit","table":"T2","buy_in":500,"id":10}`, "seated"},
			{`{"type":"act","table":"T2","action":"jump","id":11}`, "invalid"},
			{`{"type":"chat","table":"T2","text":"` + strings.Repeat("x", 300) + `","id":12}`, "invalid"},
			{`{"type":"ping","id":13}`, ""},
		} {
			if err := w.c.Write(t.Context(), 1, []byte(tc.msg)); err != nil {
				t.Fatal(err)
			}
			m := w.wait(&i, "reply", func(m map[string]any) bool { return m["type"] == "ok" || m["type"] == "error" || m["type"] == "pong" })
			got := ""
			if e, ok := m["error"].(map[string]any); ok {
				got = e["code"].(string)
			}
			if got != tc.code {
				t.Errorf("message %d %.40s: %v, want %q", n, tc.msg, m, tc.code)
			}
		}
		// Out of turn and a bad amount, whenever alice is (or is not) to act.
		j := 0
		m := w.wait(&j, "my turn", turns())
		i = max(i, j)
		s := decodeState(m)
		r := w.request(&i, 50, map[string]any{"type": "act", "table": "T2", "action": "raise", "amount": 999999})
		if r["type"] != "error" {
			t.Fatal("a raise far too big was accepted", r)
		}
		if c := r["error"].(map[string]any)["code"]; c != "bad_amount" && c != "illegal_action" {
			t.Fatal(r)
		}
		// The table is not stalled: alice can still act, then leaves at once.
		if r := w.request(&i, 51, passive(s)); r["type"] != "ok" {
			t.Fatal(r)
		}
		if r := w.request(&i, 52, map[string]any{"type": "leave", "table": "T2"}); r["type"] != "ok" {
			t.Fatal(r)
		}
		deadline := time.Now().Add(10 * time.Second)
		for len(a.must("GET", "/api/me", nil, 200)["tables"].([]any)) > 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		checkCredits(a, 10_000)
		// A flood of messages is rate limited, not fatal.
		limited := false
		for k := range 60 {
			w.send(map[string]any{"type": "ping", "id": 1000 + k})
		}
		w.wait(&i, "rate limit", func(m map[string]any) bool {
			if e, ok := m["error"].(map[string]any); ok && e["code"] == "rate_limited" {
				limited = true
			}
			return limited
		})
	})
}

// TestRateLimitedMessagesAreAnswered floods a connection with pings: every one
// is answered with its own id, a pong or, past the rate, a rate_limited error,
// so a client waiting for a reply is never left waiting.
func TestRateLimitedMessagesAreAnswered(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	w := th.client(t).dial()
	const n = 2 * wsRateN
	for k := range n {
		w.send(map[string]any{"type": "ping", "id": 1000 + k})
	}
	limited := 0
	for k := range n {
		i := 0
		r := w.wait(&i, "reply "+itoa(1000+k), func(m map[string]any) bool { return m["id"] == float64(1000+k) })
		if e, ok := r["error"].(map[string]any); ok && e["code"] == "rate_limited" {
			limited++
		} else if r["type"] != "pong" {
			t.Fatal(r)
		}
	}
	if limited == 0 {
		t.Fatalf("%d pings at once, none rate limited", n)
	}
}

func TestShutdownReturnsEveryStack(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st)
		a := th.client(t)
		a.register("alice")
		a.must("POST", "/api/tables", map[string]any{"name": "T3", "variant": "nlhe", "seats": 3, "small_blind": 10, "big_blind": 20,
			"min_buy_in": 400, "max_buy_in": 2000, "bots": []string{"raise"}}, 201)
		w := a.dial()
		i := 0
		w.request(&i, 1, map[string]any{"type": "sit", "table": "T3", "buy_in": 2000})
		w.wait(&i, "my turn", isMyTurn) // a hand is in play, chips in the pot
		if me := a.must("GET", "/api/me", nil, 200); me["credits"].(float64) != 8000 {
			t.Fatal(me)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := th.srv.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
		<-w.done // the server closed the connection
		checkCredits(a, 10_000)
		if code, _ := a.do("GET", "/healthz", nil); code != 503 {
			t.Fatal("healthz after shutdown:", code)
		}
	})
}

// TestGuestsFromOneAddressShareTheChatRate: a script making guests (20 at
// once from one address) cannot multiply the chat's rate by them: three
// guests of one address saying four lines each, in the lobby or in a table's
// room, get ten through in all.
func TestGuestsFromOneAddressShareTheChatRate(t *testing.T) {
	for _, room := range []string{"", "Main"} {
		t.Run("room="+room, func(t *testing.T) { guestsChat(t, room) })
	}
}

// guestsChat has three guests say four lines each in room ("": the lobby).
func guestsChat(t *testing.T, room string) {
	th := newHouse(t, storetest.SQLite(t))
	if room != "" {
		if _, err := th.srv.Lobby().Open(th.srv.TableDefaults(table.Config{Name: room, Variant: table.NoLimit, Seats: 4,
			SmallBlind: 10, BigBlind: 20, MinBuyIn: 200, MaxBuyIn: 2000, ActionTime: time.Minute})); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	said, limited := 0, 0
	for g := range 3 {
		u := th.client(t)
		u.must("POST", "/api/guest", nil, 201)
		w := u.dial()
		if room != "" {
			i := 0
			if r := w.request(&i, 1, map[string]any{"type": "watch", "table": room}); r["type"] != "ok" {
				t.Fatal(r)
			}
		}
		for k := range 4 {
			i := 0
			r := w.request(&i, float64(100*g+k+10), map[string]any{"type": "chat", "table": room, "text": "buy chips at example.com"})
			switch e, _ := r["error"].(map[string]any); {
			case e == nil:
				said++
			case e["code"] == "rate_limited":
				limited++
			default:
				t.Fatal(r)
			}
		}
	}
	if time.Since(start) >= 10*time.Second {
		t.Skip("the lines took more than the rate's window: the machine is too slow for this test")
	}
	if said != 10 || limited != 2 {
		t.Fatalf("three guests of one address said %d lines in %q (%d refused), want 10 (2 refused)", said, room, limited)
	}
}
