package web

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

const studyRiver = `pot = 10
stack = 95
board = "Qs Jh 2h 8d 3c"
oop = "AA,KK,QQ,AK,JTs,T9s,98s,A5s,A4s"
ip = "QQ:0.5,JJ,TT,99,AQs,KQ,QJ,JTs,76s"
[[sizes]]
bet = [100]
raise = [50]
`

// studyTurn keeps the house's solver busy until it is stopped.
const studyTurn = `pot = 10
stack = 95
board = "Qs Jh 2h 8d"
oop = "random"
ip = "random"
[[sizes]]
bet = [75]
raise = [100]
`

// TestStudyAPI: a player solves a pasted spot and browses it; a bad spot or path is
// a 400 naming the problem; a second solve of the player is a 429, another
// player's while the house's solver is busy a 503 with Retry-After; logged-out
// players get a 401.
func TestStudyAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st)
		if code, _ := th.client(t).do("POST", "/api/study", map[string]any{"spot": studyRiver}); code != 401 {
			t.Errorf("logged out: %d", code)
		}
		a := th.client(t)
		a.register("alice")
		if code, out := a.do("GET", "/api/study/node", nil); code != 404 {
			t.Errorf("node before any solve: %d %v", code, out)
		}
		out := a.must("POST", "/api/study", map[string]any{"spot": studyRiver, "format": "toml", "accuracy": 0.5}, 202)
		if out["state"] != "solving" || out["nodes"].(float64) == 0 {
			t.Fatalf("started: %v", out)
		}
		for deadline := time.Now().Add(time.Minute); out["state"] != "done"; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("still solving: %v", out)
			}
			out = a.must("GET", "/api/study", nil, 200)
		}
		if out["stopped"] != "target" || out["exploitability"].(float64) > 0.5 {
			t.Errorf("done: %v", out)
		}
		node := a.must("GET", "/api/study/node?path="+url.QueryEscape("b10"), nil, 200)
		if node["kind"] != "decision" || node["player"] != "IP" || len(node["hands"].([]any)) == 0 {
			t.Errorf("node b10: %v", node)
		}
		code, out := a.do("GET", "/api/study/node?path=b999", nil)
		if c, _ := errField(out); code != 400 || c != "invalid" {
			t.Errorf("a wrong path: %d %v", code, out)
		}
		code, out = a.do("POST", "/api/study", map[string]any{"spot": "pot = 10"})
		if e, _ := out["error"].(map[string]any); code != 400 || !strings.Contains(e["message"].(string), "stack is missing") {
			t.Errorf("a bad spot: %d %v", code, out)
		}
		a.must("POST", "/api/study", map[string]any{"spot": studyTurn, "accuracy": 0.1}, 202)
		if code, _ := a.do("POST", "/api/study", map[string]any{"spot": studyRiver}); code != 429 {
			t.Errorf("a second solve of alice: %d", code)
		}
		if code, _ := a.do("GET", "/api/study/node", nil); code != 429 {
			t.Errorf("browsing while solving: %d", code)
		}
		b := th.client(t)
		b.register("bob")
		code, out = b.do("POST", "/api/study", map[string]any{"spot": studyRiver})
		if e, _ := out["error"].(map[string]any); code != 503 || e["retry_after"] != 30.0 {
			t.Errorf("bob while alice solves: %d %v", code, out)
		}
		if out := a.must("POST", "/api/study/stop", nil, 200); out["stopped"] != "stopped" {
			t.Errorf("stopped: %v", out)
		}
		if code, _ := a.do("POST", "/api/study/stop", nil); code != 404 {
			t.Errorf("stopping again: %d", code)
		}
		b.must("POST", "/api/study", map[string]any{"spot": studyRiver}, 202)
	})
}
