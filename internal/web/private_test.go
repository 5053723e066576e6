package web

import (
	"testing"

	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// TestPrivateHeadsUpWatchers checks who may watch a heads-up table: by default
// its player alone; anyone once the player opened it with "watchers": "anyone".
// Either way it is not listed in the lobby.
func TestPrivateHeadsUpWatchers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st)
		player, stranger := th.client(t), th.client(t)
		player.must("POST", "/api/guest", nil, 201)
		stranger.must("POST", "/api/guest", nil, 201)
		anonymous := th.client(t)
		if code, out := player.do("POST", "/api/headsup", map[string]any{"bot": "call", "watchers": "friends"}); code != 400 {
			t.Fatalf("watchers \"friends\": %d %v", code, out)
		} else if _, field := errField(out); field != "watchers" {
			t.Fatalf("watchers \"friends\": %v", out)
		}
		for _, tc := range []struct {
			watchers any
			open     bool
		}{{nil, false}, {"none", false}, {"anyone", true}} {
			req := map[string]any{"bot": "call", "chips": 2000}
			if tc.watchers != nil {
				req["watchers"] = tc.watchers
			}
			name := player.must("POST", "/api/headsup", req, 201)["name"].(string)
			if ts := anonymous.must("GET", "/api/tables", nil, 200); len(ts["tables"].([]any)) != 0 {
				t.Fatalf("watchers %v: the heads-up table is listed in the lobby: %v", tc.watchers, ts)
			}
			w := player.dial()
			i := 0
			if r := w.request(&i, 1, map[string]any{"type": "watch", "table": name}); r["type"] != "ok" {
				t.Fatalf("the player cannot watch her table: %v", r)
			}
			for _, u := range []*user{stranger, anonymous} {
				sw := u.dial()
				j := 0
				r := sw.request(&j, 1, map[string]any{"type": "watch", "table": name})
				if tc.open && r["type"] != "ok" {
					t.Fatalf("watchers %v: refused: %v", tc.watchers, r)
				}
				if !tc.open && (r["type"] != "error" || r["error"].(map[string]any)["code"] != "forbidden") {
					t.Fatalf("watchers %v: a stranger's watch got %v", tc.watchers, r)
				}
				if tc.open {
					sw.wait(&j, "state", typeIs("state"))
				}
			}
			w.request(&i, 2, map[string]any{"type": "leave", "table": name})
		}
	})
}
