package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/chat"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/lobby"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
)

// post sends a JSON body and returns the status, the Retry-After header and the
// error object of the reply.
func (u *user) post(path string, body string) (int, string, map[string]any) {
	u.t.Helper()
	resp, err := u.c.Post(u.th.ts.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		u.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Error map[string]any `json:"error"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, resp.Header.Get("Retry-After"), out.Error
}

// TestLoginThrottledOverHTTP: 100 wrong passwords then the right one were all
// answered before; now the sixth login is 429 with Retry-After, the right
// password too.
func TestLoginThrottledOverHTTP(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	u := th.client(t)
	u.register("alice")
	for range 5 {
		if code, _, e := u.post("/api/login", `{"username":"alice","password":"wrong horse"}`); code != 401 {
			t.Fatalf("wrong password: %d %v", code, e)
		}
	}
	code, retry, e := u.post("/api/login", `{"username":"alice","password":"correct horse"}`)
	if code != 429 || retry != "20" || e["code"] != "rate_limited" || e["retry_after"] != 20.0 ||
		e["message"] != "too many failed logins: try again in 20 s" {
		t.Fatalf("right password while locked out: %d Retry-After %q %v", code, retry, e)
	}
}

// TestNewAccountsLimitedOverHTTP: one address gets 20 guests and 10
// registrations at once, then 429 with Retry-After.
func TestNewAccountsLimitedOverHTTP(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	u := th.client(t)
	for i := range 20 {
		if code, _, e := u.post("/api/guest", ""); code != 201 {
			t.Fatalf("guest %d: %d %v", i, code, e)
		}
	}
	if code, retry, e := u.post("/api/guest", ""); code != 429 || retry != "30" || e["code"] != "rate_limited" {
		t.Fatalf("guest 21: %d Retry-After %q %v", code, retry, e)
	}
	for i := range 10 {
		u.register(fmt.Sprintf("player%d", i))
	}
	code, retry, e := u.post("/api/register", `{"username":"player10","password":"correct horse","adult":true}`)
	if code != 429 || retry != "60" || e["code"] != "rate_limited" || !strings.Contains(e["message"].(string), "try again in 60 s") {
		t.Fatalf("registration 11: %d Retry-After %q %v", code, retry, e)
	}
}

// TestBotNameCannotBeRegistered: a player registering the name of a bot seated
// at a house table ("bot-chart-1") would be listed at the bot's tables.
func TestBotNameCannotBeRegistered(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	a := th.client(t)
	a.register("alice")
	info := a.must("POST", "/api/tables", map[string]any{"name": "Bots", "variant": "nlhe", "seats": 3, "small_blind": 5, "big_blind": 10,
		"min_buy_in": 100, "max_buy_in": 1000, "bots": []string{"chart", "call"}}, 201)
	players := info["players"].([]any)
	if len(players) != 2 {
		t.Fatalf("players %v", players)
	}
	for _, p := range players {
		for _, name := range []string{p.(string), strings.ToUpper(p.(string))} {
			code, _, e := th.client(t).post("/api/register", `{"username":"`+name+`","password":"correct horse","adult":true}`)
			if code != 400 || e["code"] != "invalid" || e["field"] != "username" {
				t.Errorf("register %q: %d %v", name, code, e)
			}
		}
	}
}

// TestPlayersNeverReadInternalErrorText: an error's own text (user ids, table
// references, paths, SQL) stays in the log; the player reads a sentence written
// for them, with the code and status of the sentinel error behind it.
func TestPlayersNeverReadInternalErrorText(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	const secret = "of user 8 at table:Main#1a2b in /var/lib/felt/felt.db: SELECT password_hash FROM users"
	for _, sentinel := range []error{
		house.ErrUsernameTaken, lobby.ErrNameTaken, house.ErrInvalid, errBadJSON, house.ErrBadCredentials,
		house.ErrNoSession, table.ErrAnonymous, errLogin, house.ErrForbidden, store.ErrNotFound, errNotFound,
		lobby.ErrNoTable, house.ErrInsufficientCredits, house.ErrRefillNotNeeded, house.ErrRefillTooSoon,
		chat.ErrRateLimited, errTooManyConns, table.ErrNotSeated, table.ErrSeated, table.ErrSeatTaken,
		engine.ErrNotYourTurn, engine.ErrIllegalAction, engine.ErrBadSeat, engine.ErrBadAmount, engine.ErrHandOver,
		table.ErrClosed, table.ErrMoved, errors.New("disk I/O error"),
	} {
		status, e := th.srv.classify(fmt.Errorf("refill %s: %w", secret, sentinel))
		for _, leak := range []string{"user 8", "table:", "/var/lib", "SELECT", "refill of", "disk"} {
			if strings.Contains(e.Message, leak) {
				t.Errorf("%v: %d %+v shows %q", sentinel, status, e, leak)
			}
		}
		if e.Message == "" || status < 400 {
			t.Errorf("%v: %d %+v", sentinel, status, e)
		}
	}
}

// TestRefusalsSpeakToThePlayer: the refill and buy-in refusals once showed the
// ledger's own text ("refill of user 8: refill not needed: ..."); now a sentence
// for the player, over HTTP and the WebSocket alike.
func TestRefusalsSpeakToThePlayer(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	a := th.client(t)
	a.register("alice")
	code, _, e := a.post("/api/refill", "")
	if code != 400 || e["code"] != "refill_not_needed" || e["message"] != "you have 10000 credits: a refill is for players with fewer than 1000" {
		t.Fatalf("refill: %d %v", code, e)
	}
	a.must("POST", "/api/tables", map[string]any{"name": "Deep", "variant": "nlhe", "seats": 3, "small_blind": 5, "big_blind": 10,
		"min_buy_in": 100, "max_buy_in": 50000, "bots": []string{"call"}}, 201)
	w := a.dial()
	i := 0
	r := w.request(&i, 1, map[string]any{"type": "sit", "table": "Deep", "buy_in": 20000})
	e, _ = r["error"].(map[string]any)
	if e["code"] != "insufficient_credits" || e["message"] != "you have 10000 credits, less than the buy-in of 20000" {
		t.Fatalf("sit: %v", r)
	}
}
