package web

import (
	"fmt"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/tournament"
)

func tournamentHouse(t *testing.T) *testHouse {
	th := newHouse(t, storetest.SQLite(t), func(c *Config) {
		c.Tournaments.SitAndGos = []tournament.Spec{{Name: "Duel", Seats: 2, BuyIn: 100, Stack: 1500}}
	})
	if err := th.srv.RestoreTournaments(t.Context()); err != nil {
		t.Fatal(err)
	}
	return th
}

// TestTournamentAPI registers two players for a heads-up sit-and-go through the
// API, which starts it, and tries what a player should not be able to do: a
// second registration, an anonymous one, crafted ids, unregistering after the
// start.
func TestTournamentAPI(t *testing.T) {
	th := tournamentHouse(t)
	anon, alice, bob := th.client(t), th.client(t), th.client(t)
	alice.register("alice")
	bob.register("bob")
	list := anon.must("GET", "/api/tournaments", nil, 200)
	ts := list["tournaments"].([]any)
	if len(ts) != 1 || list["payouts"] == nil {
		t.Fatalf("list: %v", list)
	}
	id := int64(ts[0].(map[string]any)["id"].(float64))
	path := fmt.Sprintf("/api/tournaments/%d", id)
	if code, _ := anon.do("POST", path+"/register", nil); code != 401 {
		t.Errorf("anonymous register: %d", code)
	}
	in := alice.must("POST", path+"/register", nil, 200)
	if in["registered"] != true || in["entrants"].(float64) != 1 {
		t.Errorf("after registering: %v", in)
	}
	if code, out := alice.do("POST", path+"/register", nil); code != 409 || out["error"].(map[string]any)["code"] != "registered" {
		t.Errorf("register twice: %d %v", code, out)
	}
	for _, bad := range []string{"0", "-1", "abc", "1e3", "99999", "9223372036854775808", fmt.Sprint(id) + "%20"} {
		if code, _ := alice.do("POST", "/api/tournaments/"+bad+"/register", nil); code != 404 {
			t.Errorf("register for %q: %d", bad, code)
		}
		if code, _ := anon.do("GET", "/api/tournaments/"+bad, nil); code != 404 {
			t.Errorf("GET tournament %q: %d", bad, code)
		}
	}
	if code, out := bob.do("POST", path+"/unregister", nil); code != 409 || out["error"].(map[string]any)["code"] != "not_registered" {
		t.Errorf("unregister a stranger: %d %v", code, out)
	}
	bob.must("POST", path+"/register", nil, 200)
	deadline := time.Now().Add(5 * time.Second)
	for in = anon.must("GET", path, nil, 200); in["state"] != "running"; in = anon.must("GET", path, nil, 200) {
		if time.Now().After(deadline) {
			t.Fatalf("not started: %v", in)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if tables := in["tables"].([]any); len(tables) != 1 {
		t.Errorf("tables: %v", in["tables"])
	}
	if code, out := bob.do("POST", path+"/unregister", nil); code != 409 || out["error"].(map[string]any)["code"] != "registration_closed" {
		t.Errorf("unregister after the start: %d %v", code, out)
	}
	if me := bob.must("GET", "/api/me", nil, 200); me["credits"].(float64) != 10_000-100 {
		t.Errorf("bob's credits: %v", me["credits"])
	}
	// Another sit-and-go is open; no bots in this house.
	list = anon.must("GET", "/api/tournaments", nil, 200)
	var next int64
	for _, x := range list["tournaments"].([]any) {
		if m := x.(map[string]any); m["state"] == "registering" {
			next = int64(m["id"].(float64))
		}
	}
	if next == 0 || next == id {
		t.Fatalf("no new sit-and-go: %v", list)
	}
	alice.must("POST", fmt.Sprintf("/api/tournaments/%d/register", next), nil, 200)
	if code, out := alice.do("POST", fmt.Sprintf("/api/tournaments/%d/bots", next), nil); code != 403 {
		t.Errorf("bots in a house without: %d %v", code, out)
	}
	alice.must("POST", fmt.Sprintf("/api/tournaments/%d/unregister", next), nil, 200)
	if st := anon.must("GET", "/api/players/alice/tournaments", nil, 200); st["played"].(float64) != 0 {
		t.Errorf("alice's results: %v", st)
	}
	if rk := anon.must("GET", "/api/rankings/tournaments", nil, 200); len(rk["rankings"].([]any)) != 0 {
		t.Errorf("tournament rankings before any finished: %v", rk)
	}
	for _, q := range []string{"limit=0", "limit=101", "limit=x", "offset=-1", "offset=y"} {
		if code, _ := anon.do("GET", "/api/rankings/tournaments?"+q, nil); code != 400 {
			t.Errorf("tournament rankings ?%s: %d", q, code)
		}
	}
}
