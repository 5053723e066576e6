package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/felt-poker/felt/internal/cluster"
	"github.com/felt-poker/felt/internal/cluster/natstest"
	feltnode "github.com/felt-poker/felt/internal/node"
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
// base lists (every node lists the director's tables), or "".
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
// director's node. The players watch and play their seats through the other
// node (relayed); while one of them is to act, after an action of the hand,
// the director's node is killed with SIGKILL. The other node gets the
// director lease and takes the table up from its log: the player finds the
// same hand at the same action (hand key, cards, board, pot, seat to act),
// the tournament's chips are all there, and each buy-in was taken once and
// nothing refunded.
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
	ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
	defer cancel()
	var name string
	waitUntil(t, "the tournament's table open", func() bool { name = tourneyTable(c, nodes[1].base, id); return name != "" })
	// Every node lists the table: the director is the holder of its lease.
	probe, err := cluster.Connect(ctx, cluster.Config{URL: nats, Node: "probe", LeaseTTL: time.Second, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	holder, err := probe.RoleHolder(ctx, feltnode.DirectorRole)
	if err != nil || (holder != "a" && holder != "b") {
		t.Fatalf("the director lease's holder: %q, %v", holder, err)
	}
	director, other := nodes[0], nodes[1]
	if holder == "b" {
		director, other = other, director
	}
	var seats []*wsFollow
	for _, c := range clients { // both players on the other node
		f := follow(ctx, dialWS(ctx, t, other.base, c))
		f.send(ctx, t, fmt.Sprintf(`{"type":"watch","table":%q,"id":1}`, name))
		seats = append(seats, f)
	}
	first, st := turn(t, seats, func(*wsState) bool { return true })
	first.send(ctx, t, fmt.Sprintf(`{"type":"act","table":%q,"action":%q,"id":2}`, name, callOrCheck(st)))
	acting, before := turn(t, seats, func(m *wsState) bool {
		return m.State.Hand.HandKey == st.State.Hand.HandKey && len(m.State.Hand.Events) > len(st.State.Hand.Events)
	})

	if err := director.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = director.cmd.Wait()
	var after *wsState
	waitUntil(t, "the hand in play taken up on the other node", func() bool {
		acting.send(ctx, t, fmt.Sprintf(`{"type":"watch","table":%q,"id":3}`, name))
		time.Sleep(200 * time.Millisecond)
		after = acting.last()
		return after != nil && toAct(after) && after.State.Hand.HandKey == before.State.Hand.HandKey
	})
	hb, ha := before.State.Hand, after.State.Hand
	if !slices.Equal(ha.Board, hb.Board) || ha.Pot != hb.Pot || ha.ToAct != hb.ToAct ||
		!slices.Equal(after.State.Seats[after.State.You.Seat].Cards, before.State.Seats[before.State.You.Seat].Cards) {
		t.Fatalf("after kill -9 of the director's node: hand %+v, seats %+v; before: hand %+v, seats %+v", ha, after.State.Seats, hb, before.State.Seats)
	}
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

// wsFollow reads a WebSocket on a goroutine and keeps the last table state.
type wsFollow struct {
	ws *websocket.Conn
	mu sync.Mutex
	st *wsState
}

// follow starts reading ws until ctx is done.
func follow(ctx context.Context, ws *websocket.Conn) *wsFollow {
	f := &wsFollow{ws: ws}
	go func() {
		for {
			_, b, err := ws.Read(ctx)
			if err != nil {
				return
			}
			var m wsState
			if json.Unmarshal(b, &m) == nil && m.Type == "state" && m.State != nil {
				f.mu.Lock()
				f.st = &m
				f.mu.Unlock()
			}
		}
	}()
	return f
}

func (f *wsFollow) last() *wsState {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.st
}

func (f *wsFollow) send(ctx context.Context, t *testing.T, msg string) {
	t.Helper()
	if err := f.ws.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		t.Fatal(err)
	}
}

// turn waits until one of seats is to act in a state that satisfies cond,
// and returns it with the state.
func turn(t *testing.T, seats []*wsFollow, cond func(*wsState) bool) (*wsFollow, *wsState) {
	t.Helper()
	var who *wsFollow
	var st *wsState
	waitUntil(t, "a player to act", func() bool {
		for _, f := range seats {
			if m := f.last(); m != nil && toAct(m) && cond(m) {
				who, st = f, m
				return true
			}
		}
		return false
	})
	return who, st
}

// callOrCheck returns the passive action the state allows.
func callOrCheck(m *wsState) string {
	if slices.Contains(m.State.Hand.Legal.Actions, "call") {
		return "call"
	}
	return "check"
}
