package web

import (
	"strconv"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
)

// TestProfileDetailsAndPassword edits a player's details and password through
// the API: bad details and a wrong current password change nothing; a new
// password logs out the player's other sessions, not this one.
func TestProfileDetailsAndPassword(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st)
		a := th.client(t)
		a.register("alice")
		other := th.client(t) // alice on another device
		other.must("POST", "/api/login", map[string]any{"username": "alice", "password": "correct horse"}, 200)

		me := a.must("POST", "/api/me/details", map[string]any{"email": " alice@example.org ", "location": "Lyon"}, 200)
		if me["email"] != "alice@example.org" || me["location"] != "Lyon" {
			t.Fatalf("after editing: %v", me)
		}
		for _, bad := range []map[string]any{{"email": "not an address"}, {"location": "a\u202eb"}, {"email": "a@b.c", "extra": 1}} {
			code, out := a.do("POST", "/api/me/details", bad)
			if code != 400 {
				t.Errorf("details %v: %d %v", bad, code, out)
			}
		}
		if me := a.must("GET", "/api/me", nil, 200); me["email"] != "alice@example.org" || me["location"] != "Lyon" {
			t.Errorf("bad details changed the profile: %v", me)
		}

		// A wrong current password, a short new one: refused, nothing changes.
		code, out := a.do("POST", "/api/me/password", map[string]any{"current_password": "wrong horse", "new_password": "battery staple"})
		if c, f := errField(out); code != 403 || c != "wrong_password" || f != "current_password" {
			t.Errorf("wrong current password: %d %v", code, out)
		}
		code, out = a.do("POST", "/api/me/password", map[string]any{"current_password": "correct horse", "new_password": "short"})
		if c, f := errField(out); code != 400 || c != "invalid" || f != "new_password" {
			t.Errorf("short new password: %d %v", code, out)
		}
		other.must("GET", "/api/me", nil, 200)

		a.must("POST", "/api/me/password", map[string]any{"current_password": "correct horse", "new_password": "battery staple"}, 204)
		a.must("GET", "/api/me", nil, 200) // this session stays
		if code, _ := other.do("GET", "/api/me", nil); code != 401 {
			t.Errorf("the other device is still logged in after the password changed: %d", code)
		}
		b := th.client(t)
		if code, _ := b.do("POST", "/api/login", map[string]any{"username": "alice", "password": "correct horse"}); code != 401 {
			t.Errorf("the old password still logs in: %d", code)
		}
		b.must("POST", "/api/login", map[string]any{"username": "alice", "password": "battery staple"}, 200)

		// A guest has no profile to edit.
		g := th.client(t)
		g.must("POST", "/api/guest", nil, 201)
		if code, _ := g.do("POST", "/api/me/details", map[string]any{"email": "g@example.org"}); code != 403 {
			t.Errorf("a guest edited a profile: %d", code)
		}
	})
}

// TestDeleteAccount deletes an account through the API: not with a wrong
// password, not while the player has chips at a table; then its credits are
// zeroed in the ledger, it cannot log in, its sessions end, it leaves the
// rankings and profiles, and its name may be registered again.
func TestDeleteAccount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st)
		a := th.client(t)
		a.register("alice")
		id := int64(a.must("GET", "/api/me", nil, 200)["id"].(float64))
		if err := st.AddStats(t.Context(), id, store.Stats{HandsPlayed: 50, NetWon: 10}); err != nil {
			t.Fatal(err)
		}

		if code, out := a.do("POST", "/api/me/delete", map[string]any{"password": "wrong horse"}); code != 403 {
			t.Fatalf("deleted with a wrong password: %d %v", code, out)
		}
		// Seated at a heads-up game: refused, nothing changes.
		hu := a.must("POST", "/api/headsup", map[string]any{"bot": "call"}, 201)
		credits := a.must("GET", "/api/me", nil, 200)["credits"]
		code, out := a.do("POST", "/api/me/delete", map[string]any{"password": "correct horse"})
		if c, _ := errField(out); code != 409 || c != "holds_seat" {
			t.Fatalf("deleted while seated: %d %v", code, out)
		}
		if me := a.must("GET", "/api/me", nil, 200); me["credits"] != credits || me["name"] != "alice" {
			t.Fatalf("a refused deletion changed the account: %v", me)
		}
		// Leave the table; once the chips are back, delete.
		tb, err := th.srv.lobby.Table(hu["name"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if err := tb.Leave(t.Context(), table.Player{ID: id, Name: "alice"}); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			code, out = a.do("POST", "/api/me/delete", map[string]any{"password": "correct horse"})
			if c, _ := errField(out); code != 409 || c != "holds_seat" || time.Now().After(deadline) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if code != 204 {
			t.Fatalf("deleting after leaving: %d %v", code, out)
		}

		if code, _ := a.do("GET", "/api/me", nil); code != 401 {
			t.Errorf("the deleted account's session still works: %d", code)
		}
		if bal, err := st.Balance(t.Context(), id); err != nil || bal != 0 {
			t.Errorf("the deleted account's credits: %d %v", bal, err)
		}
		u, err := st.UserByID(t.Context(), id)
		if err != nil || u.Username != "deleted-"+idText(id) || u.PasswordHash != "" || u.DeletedAt.IsZero() {
			t.Errorf("the deleted account: %+v %v", u, err)
		}
		b := th.client(t)
		for _, name := range []string{"alice", "deleted-" + idText(id)} {
			if code, _ := b.do("POST", "/api/login", map[string]any{"username": name, "password": "correct horse"}); code != 401 {
				t.Errorf("logging in as %s after the deletion: %d", name, code)
			}
			if code, _ := b.do("GET", "/api/players/"+name, nil); code != 404 {
				t.Errorf("the profile of %s after the deletion: %d", name, code)
			}
		}
		if rs := b.must("GET", "/api/rankings", nil, 200)["rankings"].([]any); len(rs) != 0 {
			t.Errorf("rankings after the deletion: %v", rs)
		}
		if code, _ := b.do("POST", "/api/register", map[string]any{"username": "deleted-" + idText(id+1), "password": "correct horse", "adult": true}); code != 400 {
			t.Errorf("registered a deleted- name: %d", code)
		}
		b.register("alice") // the name is free again: a new account, new credits
		if me := b.must("GET", "/api/me", nil, 200); int64(me["id"].(float64)) == id || me["net_won"].(float64) != 0 {
			t.Errorf("the new alice: %v", me)
		}
		// The credits left the ledger by one adjustment entry.
		es, err := st.Entries(t.Context(), id, 1)
		if err != nil || len(es) != 1 || es[0].Kind != store.KindAdjustment || es[0].Amount >= 0 {
			t.Errorf("the last ledger entry of the deleted account: %+v %v", es, err)
		}
	})
}

func idText(n int64) string { return strconv.FormatInt(n, 10) }
