package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cluster/natstest"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// tryJSON sends a GET to url as c and returns the status and the answer.
func tryJSON(c *http.Client, url string) (int, map[string]any) {
	resp, err := c.Get(url)
	if err != nil {
		return 0, nil
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// tourneyTable returns the name of a table of tournament id that the node at
// base runs, or "".
func tourneyTable(c *http.Client, base string, id int64) string {
	_, out := tryJSON(c, base+"/api/tables")
	tables, _ := out["tables"].([]any)
	for _, x := range tables {
		name, _ := x.(map[string]any)["name"].(string)
		if strings.HasPrefix(name, fmt.Sprintf("t%d-", id)) {
			return name
		}
	}
	return ""
}

// TestClusterDirectorKillNine runs a house of two felt processes with a
// sit-and-go: two players register through the node that answers them (the
// API forwards to the director's node), bots fill it and it starts on the
// director's node, which is then killed with SIGKILL. The other node gets the
// director lease and resumes the tournament at its table with every chip;
// each buy-in was taken once and nothing was refunded.
func TestClusterDirectorKillNine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the felt binary")
	}
	dsn := storetest.PostgresDSN(t) // skips without FELT_TEST_POSTGRES
	nats := natstest.Start(t).ClientURL()
	bin := buildFelt(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "house.toml")
	if err := os.WriteFile(cfg, []byte(`name = "Cluster Club"
tables = []
[tournaments]
bots = ["call"]
bot_fill = "0s"
scheduled = []
[[tournaments.sit_and_go]]
name = "Cluster SNG"
seats = 3
buy_in = 100
stack = 1500
level = "1m"
`), 0o600); err != nil {
		t.Fatal(err)
	}
	node := func(name string) *houseProc {
		return startHouse(t, bin, filepath.Join(dir, name), "--config", cfg, "--announce", "off", "--db", dsn,
			"--nats", nats, "--node", name, "--lease-ttl", "1s")
	}
	nodes := []*houseProc{node("a"), node("b")}
	var clients []*http.Client
	var start []float64
	for _, name := range []string{"anne", "bert"} {
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
		me := getJSON(t, c, "POST", nodes[1].base+"/api/register", map[string]any{"username": name, "password": "correct horse", "adult": true})
		clients, start = append(clients, c), append(start, me["credits"].(float64))
	}
	c := clients[0]
	var list []any
	waitUntil(t, "a node directs the tournaments", func() bool {
		st, out := tryJSON(c, nodes[1].base+"/api/tournaments")
		list, _ = out["tournaments"].([]any)
		return st == http.StatusOK && len(list) == 1
	})
	id := int64(list[0].(map[string]any)["id"].(float64))
	path := fmt.Sprintf("/api/tournaments/%d", id)
	for _, c := range clients { // through node b, wherever the director is
		getJSON(t, c, "POST", nodes[1].base+path+"/register", nil)
	}
	if in := getJSON(t, c, "POST", nodes[1].base+path+"/bots", nil); in["state"] != "running" {
		t.Fatalf("after the bots: %v", in)
	}
	director, other := nodes[0], nodes[1]
	waitUntil(t, "the tournament's table open", func() bool {
		for i, n := range nodes {
			if tourneyTable(c, n.base, id) != "" {
				director, other = n, nodes[1-i]
				return true
			}
		}
		return false
	})
	if err := director.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = director.cmd.Wait()
	var in map[string]any
	waitUntil(t, "the other node resumes the tournament", func() bool {
		var st int
		st, in = tryJSON(c, other.base+path)
		return st == http.StatusOK && tourneyTable(c, other.base, id) != ""
	})
	standings, _ := in["standings"].([]any)
	var chips float64
	for _, s := range standings {
		chips += s.(map[string]any)["stack"].(float64)
	}
	if in["state"] != "running" || len(standings) != 3 || chips != 3*1500 {
		t.Fatalf("after kill -9 of the director's node: %v (chips %v, want %v)", in, chips, 3*1500)
	}
	for i, c := range clients {
		if me := getJSON(t, c, "GET", other.base+"/api/me", nil); me["credits"].(float64) != start[i]-100 {
			t.Errorf("player %d's credits after the takeover: %v, want %v", i, me["credits"], start[i]-100)
		}
	}
}

// waitUntil polls cond for up to a minute.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	stop := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(stop) {
			t.Fatalf("not after a minute: %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
