package web

import (
	"crypto/rand"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// withToken adds "Authorization: Bearer" to every request.
type withToken struct {
	token string
	next  http.RoundTripper
}

func (w withToken) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+w.token)
	return w.next.RoundTrip(r)
}

// bot is a client presenting token, with a cookie jar too (which the house
// never fills for a bot).
func (th *testHouse) bot(t *testing.T, token string) *user {
	jar, _ := cookiejar.New(nil)
	return &user{t: t, th: th, c: &http.Client{Jar: jar, Timeout: 10 * time.Second,
		Transport: withToken{token, http.DefaultTransport}}}
}

// makeBot makes one of u's bots and returns its token.
func (u *user) makeBot(name string) string {
	u.t.Helper()
	out := u.must("POST", "/api/me/bots", map[string]any{"name": name}, 201)
	if !strings.HasPrefix(out["token"].(string), "felt_") {
		u.t.Fatalf("token %v", out)
	}
	return out["token"].(string)
}

// TestBotTokenPlaysButChangesNoAccount: a bot's token reads its own account and
// opens a WebSocket as the bot; it is refused (401, nothing changed) on every
// account change, its owner's or its own, and cannot make more bots.
func TestBotTokenPlaysButChangesNoAccount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st)
		a := th.client(t)
		a.register("alice")
		token := a.makeBot("crusher")
		b := th.bot(t, token)
		me := b.must("GET", "/api/me", nil, 200)
		if me["name"] != "bot_crusher" || me["credits"].(float64) != 10_000 {
			t.Fatalf("the bot's account: %v", me)
		}
		for _, r := range []struct{ path, body string }{
			{"/api/me/password", `{"current_password":"correct horse","new_password":"stolen!!pass"}`},
			{"/api/me/delete", `{"password":"correct horse"}`},
			{"/api/me/details", `{"email":"x@example.org","location":""}`},
			{"/api/me/bots", `{"name":"more"}`},
			{"/api/me/bots/crusher/token", `{}`},
			{"/api/me/bots/crusher/revoke", `{}`},
			{"/api/boards/general/topics", `{"title":"spam","body":"spam"}`},
		} {
			if code, out := b.do("POST", r.path, r.body); code != 401 {
				t.Errorf("POST %s with the bot's token: %d %v, want 401", r.path, code, out)
			}
		}
		if code, _ := b.do("GET", "/api/me/bots", nil); code != 401 {
			t.Errorf("GET /api/me/bots with a token: %d, want 401", code)
		}
		// Nothing changed: alice's password and the bot's token still work, and
		// she has one bot.
		a.must("POST", "/api/login", map[string]any{"username": "alice", "password": "correct horse"}, 200)
		b.must("GET", "/api/me", nil, 200)
		if bots := a.must("GET", "/api/me/bots", nil, 200)["bots"].([]any); len(bots) != 1 {
			t.Fatalf("bots: %v", bots)
		}
		// A bot account has no password to log in with.
		if code, _ := th.client(t).do("POST", "/api/login", map[string]any{"username": "bot_crusher", "password": ""}); code != 401 {
			t.Fatalf("a bot logged in by password: %d", code)
		}
		w := b.dial()
		i := 0
		if m := w.wait(&i, "welcome", typeIs("welcome")); m["user"].(map[string]any)["name"] != "bot_crusher" {
			t.Fatalf("welcome %v", m)
		}
	})
}

// TestRevokedTokenEndsTheBot: revoking a token closes the bot's open
// WebSocket and refuses the token from then on; a new token works and the old
// one stays dead; the owner deleting their account revokes it too.
func TestRevokedTokenEndsTheBot(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	a := th.client(t)
	a.register("alice")
	old := a.makeBot("crusher")
	w := th.bot(t, old).dial()
	i := 0
	w.wait(&i, "welcome", typeIs("welcome"))
	a.must("POST", "/api/me/bots/crusher/revoke", nil, 204)
	select {
	case <-w.done:
	case <-time.After(5 * time.Second):
		t.Fatal("the revoked bot's WebSocket is still open")
	}
	url := "ws" + strings.TrimPrefix(th.ts.URL, "http") + "/ws"
	if _, resp, err := websocket.Dial(t.Context(), url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + old}}}); err == nil || resp == nil || resp.StatusCode != 401 {
		t.Fatalf("a revoked token opened a WebSocket: %v", err)
	}
	th.bot(t, old).must("GET", "/api/me", nil, 401)
	if bots := a.must("GET", "/api/me/bots", nil, 200)["bots"].([]any); bots[0].(map[string]any)["token_since"] != nil {
		t.Fatalf("a revoked bot listed with a token: %v", bots)
	}

	fresh := a.must("POST", "/api/me/bots/crusher/token", nil, 200)["token"].(string)
	th.bot(t, fresh).must("GET", "/api/me", nil, 200)
	th.bot(t, old).must("GET", "/api/me", nil, 401)

	a.must("POST", "/api/me/delete", map[string]any{"password": "correct horse"}, 204)
	th.bot(t, fresh).must("GET", "/api/me", nil, 401)
}

// TestGuessedTokensAreThrottled: tokens guessed from one address count as
// failed logins of that address: after the address limit every token is
// refused with 429, the right one too, until the lock-out ends.
func TestGuessedTokensAreThrottled(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	a := th.client(t)
	a.register("alice")
	token := a.makeBot("crusher")
	// A malformed token counts too (its own key locks after 5), then guesses
	// of the right shape, each a new ID: the address's count locks them all.
	for n := range 6 {
		if code, _ := th.bot(t, strings.Repeat("x", n*1000)+"bad").do("GET", "/api/me", nil); code != 401 && code != 429 {
			t.Fatalf("malformed token %d: %d", n, code)
		}
	}
	limited := false
	for n := 0; n < 25 && !limited; n++ {
		guess := "felt_" + strings.ToLower(rand.Text()[:12]) + "_" + rand.Text()
		code, out := th.bot(t, guess).do("GET", "/api/me", nil)
		switch code {
		case 401:
		case 429:
			limited = true
			if out["error"].(map[string]any)["retry_after"] == nil {
				t.Fatalf("429 without retry_after: %v", out)
			}
		default:
			t.Fatalf("guess %d: %d %v", n, code, out)
		}
	}
	if !limited {
		t.Fatal("25 bad tokens from one address were never rate limited")
	}
	if code, _ := th.bot(t, token).do("GET", "/api/me", nil); code != 429 {
		t.Fatalf("the right token from a locked-out address: %d, want 429", code)
	}
}

// TestBotGarbageChangesNothing: a bot sending garbage over its WebSocket gets
// errors, keeps its credits and its connection.
func TestBotGarbageChangesNothing(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	a := th.client(t)
	a.register("alice")
	a.must("POST", "/api/tables", map[string]any{"name": "T", "variant": "nlhe", "seats": 2, "small_blind": 5, "big_blind": 10,
		"min_buy_in": 100, "max_buy_in": 1000, "bots": []string{"call"}}, 201)
	b := th.bot(t, a.makeBot("junk"))
	w := b.dial()
	i := 0
	w.wait(&i, "welcome", typeIs("welcome"))
	for n, msg := range []string{`{`, `[]`, `null`, `{"type":7}`, `{"type":"act","table":"T","action":"raise","amount":-5,"id":1}`,
		`{"type":"sit","table":"T","buy_in":999999999999,"id":2}`, `{"type":"sit","table":"T","buy_in":-1,"id":3}`,
		`{"type":"top_up","table":"T","amount":100,"id":4}`, `{"type":"chat","text":"` + strings.Repeat("\u202e", 300) + `","id":5}`} {
		if err := w.c.Write(t.Context(), websocket.MessageText, []byte(msg)); err != nil {
			t.Fatal(err)
		}
		if m := w.wait(&i, "reply", func(m map[string]any) bool { return m["type"] == "error" || m["type"] == "ok" }); m["type"] != "error" {
			t.Fatalf("garbage %d %q accepted: %v", n, msg, m)
		}
	}
	if err := w.c.Write(t.Context(), websocket.MessageBinary, []byte{0, 1, 2}); err != nil {
		t.Fatal(err)
	}
	w.wait(&i, "reply to a binary frame", typeIs("error"))
	if r := w.request(&i, 9, map[string]any{"type": "ping"}); r["type"] != "pong" {
		t.Fatalf("after the garbage: %v", r)
	}
	if me := b.must("GET", "/api/me", nil, 200); me["credits"].(float64) != 10_000 || len(me["tables"].([]any)) != 0 {
		t.Fatalf("garbage changed the bot's account: %v", me)
	}
}

// TestBotsPerPlayerAndNames: a player has at most house.MaxBotsPerPlayer bots;
// names are checked; guests have none; a bot's name is another's to take.
func TestBotsPerPlayerAndNames(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	a, g := th.client(t), th.client(t)
	a.register("alice")
	for _, bad := range []string{"", "has space", "waytoolongname", "bot_"} {
		if code, out := a.do("POST", "/api/me/bots", map[string]any{"name": bad}); code != 400 {
			t.Errorf("bot name %q: %d %v", bad, code, out)
		}
	}
	for n := range 5 {
		a.makeBot("b" + itoa(n))
	}
	if code, out := a.do("POST", "/api/me/bots", map[string]any{"name": "b9"}); code != 403 {
		t.Fatalf("a sixth bot: %d %v", code, out)
	}
	if code, out := a.do("POST", "/api/me/bots/bot_b9/revoke", nil); code != 404 {
		t.Fatalf("revoking an unknown bot: %d %v", code, out)
	}
	g.must("POST", "/api/guest", nil, 201)
	if code, _ := g.do("POST", "/api/me/bots", map[string]any{"name": "g"}); code != 403 {
		t.Fatalf("a guest made a bot: %d", code)
	}
	// Another player cannot revoke alice's bot, nor take its name.
	c := th.client(t)
	c.register("carol")
	if code, _ := c.do("POST", "/api/me/bots/b0/revoke", nil); code != 404 {
		t.Fatalf("carol revoked alice's bot: %d", code)
	}
	if code, out := c.do("POST", "/api/me/bots", map[string]any{"name": "b0"}); code != 409 {
		t.Fatalf("carol took a bot's name: %d %v", code, out)
	}
}

// TestBotListSaysWhoPlaysHeadsUp: GET /api/bots marks the bots that may be a
// heads-up opponent, and a bot marked false is refused there, so the lobby's
// choice offers nothing the house then refuses.
func TestBotListSaysWhoPlaysHeadsUp(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	a := th.client(t)
	a.register("alice")
	list := a.must("GET", "/api/bots", nil, 200)["bots"].([]any)
	marked := map[string]bool{}
	for _, b := range list {
		m := b.(map[string]any)
		hu, ok := m["heads_up"].(bool)
		if !ok {
			t.Fatalf("bot %v has no heads_up mark", m)
		}
		marked[m["name"].(string)] = hu
	}
	if !marked["chart"] || marked["cfr"] {
		t.Fatalf("heads_up marks: chart %v, cfr %v; want true, false", marked["chart"], marked["cfr"])
	}
	if code, out := a.do("POST", "/api/headsup", map[string]any{"bot": "cfr"}); code != 400 {
		t.Fatalf("a heads-up game against cfr: %d %v", code, out)
	}
}

// TestTableOpensAreRateLimited: a player who opens tables and heads-up games
// faster than house.Limits.TableOpens allows is refused (429, rate_limited,
// with when to try again), and the refused request opens nothing.
func TestTableOpensAreRateLimited(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t)) // no bound on the tables open at once
	burst := house.DefaultLimits().TableOpens.Burst
	a := th.client(t)
	a.register("alice")
	table := func(name string) map[string]any {
		return map[string]any{"name": name, "variant": "nlhe", "seats": 2, "small_blind": 5, "big_blind": 10,
			"min_buy_in": 100, "max_buy_in": 1000}
	}
	for i := range burst {
		a.must("POST", "/api/tables", table("Flood"+itoa(i)), 201)
	}
	code, out := a.do("POST", "/api/tables", table("OneTooMany"))
	e, _ := out["error"].(map[string]any)
	if code != 429 || e["code"] != "rate_limited" || e["retry_after"] == nil {
		t.Fatalf("a table past the rate: %d %v", code, out)
	}
	if _, err := th.srv.Lobby().Table("OneTooMany"); err == nil {
		t.Fatal("the refused table is open")
	}
	if code, out := a.do("POST", "/api/headsup", map[string]any{}); code != 429 {
		t.Fatalf("a heads-up game past the rate: %d %v", code, out)
	}
	// Another player is not held back by alice's rate.
	b := th.client(t)
	b.register("bob")
	b.must("POST", "/api/tables", table("Bobs"), 201)
}
