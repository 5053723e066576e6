package main

import (
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestKillNineResumesTournament starts a sit-and-go in a real house, kills the
// process with SIGKILL while it runs, restarts it on the same data directory
// and checks that the tournament runs again at its table with every stack, and
// that the players' buy-ins were taken once and nothing was refunded.
func TestKillNineResumesTournament(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the felt binary")
	}
	bin := buildFelt(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "house.toml")
	if err := os.WriteFile(cfg, []byte(`announce = "off"
tables = []
[tournaments]
bots = ["call"]
bot_fill = "0s"
scheduled = []
[[tournaments.sit_and_go]]
name = "Crash SNG"
seats = 3
buy_in = 100
stack = 1500
level = "1m"
`), 0o600); err != nil {
		t.Fatal(err)
	}
	h := startHouse(t, bin, dir, "--config", cfg)
	var clients []*http.Client
	var start []float64
	for _, name := range []string{"anne", "bert"} {
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
		me := getJSON(t, c, "POST", h.base+"/api/register", map[string]any{"username": name, "password": "correct horse", "adult": true})
		clients, start = append(clients, c), append(start, me["credits"].(float64))
	}
	list := getJSON(t, clients[0], "GET", h.base+"/api/tournaments", nil)["tournaments"].([]any)
	if len(list) != 1 {
		t.Fatalf("tournaments: %v", list)
	}
	id := int64(list[0].(map[string]any)["id"].(float64))
	path := fmt.Sprintf("%s/api/tournaments/%d", h.base, id)
	for _, c := range clients {
		getJSON(t, c, "POST", path+"/register", nil)
	}
	if in := getJSON(t, clients[0], "POST", path+"/bots", nil); in["state"] != "running" {
		t.Fatalf("after the bots: %v", in)
	}
	if err := h.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = h.cmd.Wait()

	h = startHouse(t, bin, dir, "--config", cfg)
	in := getJSON(t, clients[0], "GET", fmt.Sprintf("%s/api/tournaments/%d", h.base, id), nil)
	tables, _ := in["tables"].([]any)
	standings, _ := in["standings"].([]any)
	if in["state"] != "running" || in["remaining"].(float64) != 3 || len(tables) != 1 || len(standings) != 3 {
		t.Fatalf("after kill -9 and a restart: %v", in)
	}
	var chips float64
	for _, s := range standings {
		chips += s.(map[string]any)["stack"].(float64)
	}
	if chips != 3*1500 {
		t.Errorf("chips after the restart: %v", chips)
	}
	for i, c := range clients {
		if me := getJSON(t, c, "GET", h.base+"/api/me", nil); me["credits"].(float64) != start[i]-100 {
			t.Errorf("player %d's credits after the restart: %v, want %v", i, me["credits"], start[i]-100)
		}
	}
}
