package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
)

// lockedTable opens alice's table Secret with the given access and returns the
// reply.
func lockedTable(u *user, name, access, password string) map[string]any {
	u.t.Helper()
	return u.must("POST", "/api/tables", map[string]any{"name": name, "variant": "nlhe", "seats": 4, "small_blind": 5, "big_blind": 10,
		"min_buy_in": 100, "max_buy_in": 1000, "bots": []string{"call"}, "access": access, "password": password}, 201)
}

// code returns the error code of a WebSocket reply ("" for ok).
func code(m map[string]any) string {
	if e, ok := m["error"].(map[string]any); ok {
		return e["code"].(string)
	}
	return ""
}

// TestPasswordTable: a table with a password is listed as locked; without the
// password nobody watches, sits or chats, with it they do; anonymous
// spectators log in first; the password is never kept in the clear.
func TestPasswordTable(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	a, b, anon := th.client(t), th.client(t), th.client(t)
	a.register("alice")
	b.register("bob")
	lockedTable(a, "Secret", "password", "open sesame")
	for _, bad := range []map[string]any{{"access": "password", "password": "abc"}, {"access": "moat"}, {"access": "", "password": "x"},
		{"lock": map[string]any{"kind": "password", "salt": "AAAA", "hash": "AAAA"}}} {
		req := map[string]any{"name": "Bad", "variant": "nlhe", "seats": 4, "small_blind": 5, "big_blind": 10, "min_buy_in": 100, "max_buy_in": 1000}
		for k, v := range bad {
			req[k] = v
		}
		if c, out := a.do("POST", "/api/tables", req); c != 400 {
			t.Errorf("%v: %d %v", bad, c, out)
		}
	}
	listed := false
	for _, tb := range b.must("GET", "/api/tables", nil, 200)["tables"].([]any) {
		if in := tb.(map[string]any); in["name"] == "Secret" {
			listed = in["locked"] == "password"
		}
	}
	if !listed {
		t.Fatal("the password table is not listed as locked")
	}
	w := b.dial()
	i := 0
	for n, m := range []map[string]any{{"type": "watch", "table": "Secret"}, {"type": "sit", "table": "Secret", "buy_in": 500},
		{"type": "chat", "table": "Secret", "text": "let me in"}, {"type": "watch", "table": "Secret", "key": "open says me"}} {
		if r := w.request(&i, float64(n+1), m); code(r) != "locked" {
			t.Fatalf("%v without the password: %v", m, r)
		}
	}
	if r := w.request(&i, 10, map[string]any{"type": "sit", "table": "Secret", "buy_in": 500, "key": "open sesame"}); code(r) != "" {
		t.Fatalf("sit with the password: %v", r)
	}
	if r := w.request(&i, 11, map[string]any{"type": "chat", "table": "Secret", "text": "hi"}); code(r) != "" {
		t.Fatalf("chat once in: %v", r)
	}
	wa := anon.dial()
	j := 0
	if r := wa.request(&j, 1, map[string]any{"type": "watch", "table": "Secret", "key": "open sesame"}); code(r) != "unauthorized" {
		t.Fatalf("an anonymous spectator with the password: %v", r)
	}
	kept, err := th.house.PlayerTables().PlayerTables(t.Context())
	if err != nil || len(kept) != 1 || strings.Contains(string(kept[0].Config), "sesame") || !strings.Contains(string(kept[0].Config), `"lock"`) {
		t.Fatalf("kept %s (%v)", kept[0].Config, err)
	}
}

// TestTablePasswordGuessesAreThrottled: wrong passwords from one address lock
// that address out of the table (the right one too) with a 429 and
// retry_after, as failed logins do; another player elsewhere still gets in.
func TestTablePasswordGuessesAreThrottled(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	a, m := th.client(t), th.client(t)
	a.register("alice")
	m.register("mallory")
	lockedTable(a, "Secret", "password", "open sesame")
	w := m.dial()
	i := 0
	limited := false
	for n := 0; n < 10 && !limited; n++ {
		r := w.request(&i, float64(n+1), map[string]any{"type": "watch", "table": "Secret", "key": "guess" + itoa(n)})
		switch code(r) {
		case "locked":
		case "rate_limited":
			limited = r["error"].(map[string]any)["retry_after"] != nil
		default:
			t.Fatalf("guess %d: %v", n, r)
		}
	}
	if !limited {
		t.Fatal("10 wrong passwords were never rate limited")
	}
	if r := w.request(&i, 50, map[string]any{"type": "watch", "table": "Secret", "key": "open sesame"}); code(r) != "rate_limited" {
		t.Fatalf("the right password during the lock-out: %v", r)
	}
}

// TestInvitationTable: a table by invitation is not listed; its link's token
// lets a player in; once the table has closed, the old link opens nothing, not
// even a new table of the same name.
func TestInvitationTable(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	a, b := th.client(t), th.client(t)
	a.register("alice")
	b.register("bob")
	invite, _ := lockedTable(a, "Friends", "invite", "")["invite"].(string)
	if len(invite) < 20 {
		t.Fatalf("invitation %q", invite)
	}
	for _, tb := range b.must("GET", "/api/tables", nil, 200)["tables"].([]any) {
		if tb.(map[string]any)["name"] == "Friends" {
			t.Fatal("a table by invitation is listed")
		}
	}
	w := b.dial()
	i := 0
	if r := w.request(&i, 1, map[string]any{"type": "watch", "table": "Friends"}); code(r) != "locked" {
		t.Fatalf("watch without the invitation: %v", r)
	}
	if r := w.request(&i, 2, map[string]any{"type": "watch", "table": "Friends", "key": invite}); code(r) != "" {
		t.Fatalf("watch with the invitation: %v", r)
	}
	// The table closes; alice opens another of the same name.
	tb, err := th.srv.Lobby().Table("Friends")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := tb.Close(ctx, "test"); err != nil {
		t.Fatal(err)
	}
	for k := 0; ; k++ { // the lobby forgets the closed table
		if _, err := th.srv.Lobby().Table("Friends"); err != nil {
			break
		}
		if k > 200 {
			t.Fatal("the closed table is still in the lobby")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if r := w.request(&i, 3, map[string]any{"type": "watch", "table": "Friends", "key": invite}); code(r) != "not_found" {
		t.Fatalf("the old link after the table closed: %v", r)
	}
	fresh, _ := lockedTable(a, "Friends", "invite", "")["invite"].(string)
	if fresh == invite {
		t.Fatal("the new table has the old invitation")
	}
	w2 := b.dial()
	j := 0
	if r := w2.request(&j, 4, map[string]any{"type": "watch", "table": "Friends", "key": invite}); code(r) != "locked" {
		t.Fatalf("the old link at the new table: %v", r)
	}
}

// sink drops what a shadow connection sends.
type sink struct{}

func (sink) Send([]byte) {}

// TestGuessesCountAgainstTheirAddress: a client cannot name its own address
// ("_from" is a field only a relaying node sets), so ten guesses from one
// connection are limited whatever it claims; guesses relayed from another node
// count against the address that node saw, so one guesser there does not lock
// out another player relayed from the same node.
func TestGuessesCountAgainstTheirAddress(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	a, m := th.client(t), th.client(t)
	a.register("alice")
	m.register("mallory")
	lockedTable(a, "Secret", "password", "open sesame")
	w := m.dial()
	i := 0
	limited := false
	for n := 0; n < 10 && !limited; n++ {
		r := w.request(&i, float64(n+1), map[string]any{"type": "watch", "table": "Secret", "key": "guess", "_from": "10.9.9." + itoa(n)})
		limited = code(r) == "rate_limited"
	}
	if !limited {
		t.Fatal("guesses claiming other addresses were never limited")
	}
	guess := func(shadow, from string, id int64, key string) string {
		msg := `{"type":"watch","table":"Secret","key":"` + key + `","_from":"` + from + `"}`
		if e := th.srv.HandleRemote(t.Context(), shadow, table.Player{ID: id, Name: "p" + itoa(int(id))}, sink{}, []byte(msg)); e != nil {
			return e.Code
		}
		return ""
	}
	got := ""
	for n := 0; n < 10 && got != "rate_limited"; n++ {
		got = guess("node2/1", "10.0.0.1", 901, "guess")
	}
	if got != "rate_limited" {
		t.Fatalf("relayed guesses from 10.0.0.1: %q", got)
	}
	bob := th.client(t)
	bob.register("bob")
	me := bob.must("GET", "/api/me", nil, 200)
	if got := guess("node2/2", "10.0.0.2", int64(me["id"].(float64)), "open sesame"); got != "" {
		t.Fatalf("bob, relayed from another address, with the password: %q", got)
	}
}
