package web

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
)

// GET /api/headsup/levels lists the heads-up game's named levels with their
// measured strength and budget; POST /api/headsup with a level seats its bot,
// and an unknown level (or a level and a bot both) is refused with a clear error
// and opens nothing, the player's credits untouched.
func TestHeadsUpLevelsAPI(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	u := th.client(t)
	u.must("POST", "/api/guest", nil, 201)
	out := u.must("GET", "/api/headsup/levels", nil, 200)
	levels, _ := out["levels"].([]any)
	if len(levels) < 3 || out["default"] != "beginner" {
		t.Fatalf("levels: %v", out)
	}
	last := levels[len(levels)-1].(map[string]any)
	if last["level"] != "strongest" || last["bot"] != "resolve" || last["budget_ms"] != 2000.0 || !strings.Contains(last["strength"].(string), "mbb/g") {
		t.Fatalf("the strongest level: %v", last)
	}
	credits := u.must("GET", "/api/me", nil, 200)["credits"]
	n := th.srv.lobby.Count()
	for _, req := range []map[string]any{{"level": "grandmaster"}, {"level": "strong", "bot": "call"}, {"level": strings.Repeat("x", 5000)}} {
		code, out := u.do("POST", "/api/headsup", req)
		e, _ := out["error"].(map[string]any)
		if c, f := errField(out); code != 400 || c != "invalid" || f != "level" || strings.Contains(fmt.Sprint(e["message"]), "xxxx") {
			t.Errorf("heads-up %.40v: %d %v", req, code, out)
		}
	}
	if m, c := th.srv.lobby.Count(), u.must("GET", "/api/me", nil, 200)["credits"]; m != n || c != credits {
		t.Fatalf("refused levels left %d tables (%d before), credits %v (%v before)", m, n, c, credits)
	}
	in := u.must("POST", "/api/headsup", map[string]any{"level": "strong"}, 201)
	if players := fmt.Sprint(in["players"]); !strings.Contains(players, "neural") {
		t.Fatalf("the strong level seated %s, want neural", players)
	}
}

// The server's Tables.NewBot makes the bots of the tables it opens (tests seat
// bots of their own through it): a heads-up game's bot is made by it, and a
// table's own NewBot is kept.
func TestTablesNewBot(t *testing.T) {
	var mu sync.Mutex
	var made []string
	newBot := func(name string, o bot.Options) (bot.Bot, error) {
		mu.Lock()
		made = append(made, name)
		mu.Unlock()
		return bot.New(name, o)
	}
	th := newHouse(t, storetest.SQLite(t), func(c *Config) { c.Tables.NewBot = newBot })
	u := th.client(t)
	u.must("POST", "/api/guest", nil, 201)
	u.must("POST", "/api/headsup", map[string]any{"bot": "call"}, 201)
	mu.Lock()
	got := fmt.Sprint(made)
	mu.Unlock()
	if got != "[call]" {
		t.Fatalf("the server's NewBot made %s, want [call]", got)
	}
	own := func(string, bot.Options) (bot.Bot, error) { return nil, nil }
	if c := th.srv.TableDefaults(table.Config{NewBot: own}); reflect.ValueOf(c.NewBot).Pointer() != reflect.ValueOf(own).Pointer() {
		t.Fatal("TableDefaults replaced the table's own NewBot")
	}
}
