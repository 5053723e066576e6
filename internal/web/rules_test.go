package web

import (
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// TestTableRulesFromTheTablePackage checks that the API adds no table rules of
// its own: a table created without action_seconds gets the operator's clock
// (not a handler's 20 s), a clock out of bounds is refused with the table
// package's bounds, and a heads-up game refused for its stack, its doubling or
// its blinds opens nothing.
func TestTableRulesFromTheTablePackage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st, func(c *Config) { c.Tables.ActionTime = 45 * time.Second })
		u := th.client(t)
		u.register("alice")
		body := map[string]any{"name": "Clock", "variant": "nlhe", "seats": 3, "small_blind": 10, "big_blind": 20,
			"min_buy_in": 400, "max_buy_in": 2000, "bots": []string{"call"}}
		if in := u.must("POST", "/api/tables", body, 201); in["action_seconds"] != 45.0 {
			t.Errorf("a table created without action_seconds has a clock of %v s, want the operator's 45", in["action_seconds"])
		}
		for _, secs := range []int{4, 121, 1000, 18446744083} {
			body["name"], body["action_seconds"] = "Clock2", secs
			code, out := u.do("POST", "/api/tables", body)
			e, _ := out["error"].(map[string]any)
			if c, f := errField(out); code != 400 || c != "invalid" || f != "action_seconds" || !strings.Contains(e["message"].(string), "5 to 120") {
				t.Errorf("action_seconds %d: %d %v", secs, code, out)
			}
		}

		n := th.srv.lobby.Count()
		for _, tc := range []struct {
			req   map[string]any
			field string
		}{
			{map[string]any{"chips": 999}, "chips"},
			{map[string]any{"chips": 2_000_000}, "chips"},
			{map[string]any{"double_every": -1}, "double_every"},
			{map[string]any{"small_blind": 0}, "small_blind"},
			{map[string]any{"big_blind": 40}, "big_blind"},
			{map[string]any{"bot": "nosuch"}, "bot"},
		} {
			code, out := u.do("POST", "/api/headsup", tc.req)
			if c, f := errField(out); code != 400 || c != "invalid" || f != tc.field {
				t.Errorf("heads-up %v: %d %v", tc.req, code, out)
			}
		}
		if m := th.srv.lobby.Count(); m != n {
			t.Errorf("refused heads-up games left %d tables open, %d before", m, n)
		}
		in := u.must("POST", "/api/headsup", map[string]any{"bot": "call"}, 201)
		if in["taken"] != 2.0 || in["big_blind"] != 100.0 || in["max_buy_in"] != 10_000.0 {
			t.Errorf("the heads-up listing: %v", in)
		}
	})
}
