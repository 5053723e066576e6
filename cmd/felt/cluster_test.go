package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/felt-poker/felt/internal/cluster/natstest"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// wsState is what the cluster test reads of a table's state message.
type wsState struct {
	Type  string `json:"type"`
	Code  string `json:"code"`
	State *struct {
		Table string `json:"table"`
		You   *struct {
			Seat int `json:"seat"`
		} `json:"you"`
		Seats []struct {
			Cards  []string `json:"cards"`
			InHand bool     `json:"in_hand"`
		} `json:"seats"`
		Hand *struct {
			Number  int64             `json:"number"`
			HandKey string            `json:"hand_key"`
			Over    bool              `json:"over"`
			Board   []string          `json:"board"`
			Pot     int64             `json:"pot"`
			ToAct   int               `json:"to_act"`
			Events  []json.RawMessage `json:"events"`
			Legal   *struct {
				Actions []string `json:"actions"`
			} `json:"legal"`
		} `json:"hand"`
	} `json:"state"`
}

// readUntil reads ws until a state message satisfies cond, and returns it.
func readUntil(ctx context.Context, t *testing.T, ws *websocket.Conn, cond func(*wsState) bool) *wsState {
	t.Helper()
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			t.Fatal("the awaited state never came:", err)
		}
		var m wsState
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type == "error" {
			t.Fatalf("error: %s", b)
		}
		if m.Type == "state" && m.State != nil && cond(&m) {
			return &m
		}
	}
}

// watchUntil watches table on ws until a state satisfies cond. A table being
// taken over is never answered "no such table": the node counts it as owned
// (felt_cluster_tables_owned) once it is open, and a watch in the moment
// before waits for it.
func watchUntil(ctx context.Context, t *testing.T, ws *websocket.Conn, table string, cond func(*wsState) bool) *wsState {
	t.Helper()
	if err := ws.Write(ctx, websocket.MessageText, []byte(fmt.Sprintf(`{"type":"watch","table":%q,"id":100}`, table))); err != nil {
		t.Fatal(err)
	}
	return readUntil(ctx, t, ws, cond)
}

// toAct reports a state in which the player is to act in a live hand.
func toAct(m *wsState) bool {
	s := m.State
	return s.You != nil && s.Hand != nil && !s.Hand.Over && s.Hand.Legal != nil
}

// dialWS opens the WebSocket of the house at base with c's cookies.
func dialWS(ctx context.Context, t *testing.T, base string, c *http.Client) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws", &websocket.DialOptions{HTTPClient: c})
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(1 << 22)
	t.Cleanup(func() { ws.CloseNow() })
	return ws
}

// owns reports whether the node at base runs a table or more (its metrics say
// so).
func owns(c *http.Client, base string) bool {
	resp, err := c.Get(base + "/metrics")
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return ownedRE.Match(b)
}

var ownedRE = regexp.MustCompile(`\nfelt_cluster_tables_owned [1-9]`)

// lists reports whether the house at base lists table name in its lobby.
func lists(c *http.Client, base, name string) bool {
	resp, err := c.Get(base + "/api/tables")
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	var out struct {
		Tables []struct {
			Name string `json:"name"`
		} `json:"tables"`
	}
	if json.NewDecoder(resp.Body).Decode(&out) != nil {
		return false
	}
	for _, t := range out.Tables {
		if t.Name == name {
			return true
		}
	}
	return false
}

// TestClusterKillNineTakesOver runs a house of two felt processes on one
// PostgreSQL database and an embedded NATS server: a player sits at the table
// the first node runs (a spectator connected to the second node watches it
// through the relay, and says a lobby line the player sees with the
// spectator online), and the first node is killed (SIGKILL) while the player
// is to act. The second node takes the table over, the player finds on it the same
// hand, cards and turn, plays it to its end and stands up: every chip is
// accounted for.
func TestClusterKillNineTakesOver(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the felt binary")
	}
	dsn := storetest.PostgresDSN(t) // skips without FELT_TEST_POSTGRES
	nats := natstest.Start(t).ClientURL()
	bin := buildFelt(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "house.toml")
	if err := os.WriteFile(cfg, []byte(`name = "Cluster Club"
[[tables]]
name = "Main"
variant = "nlhe"
seats = 3
small_blind = 10
big_blind = 20
min_buy_in = 400
max_buy_in = 2000
action_seconds = 60
bots = ["call"]
`), 0o600); err != nil {
		t.Fatal(err)
	}
	node := func(name string) *houseProc {
		return startHouse(t, bin, filepath.Join(dir, name), "--config", cfg, "--announce", "off", "--db", dsn,
			"--nats", nats, "--node", name, "--lease-ttl", "1s")
	}
	a := node("a")
	b := node("b")
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	if !owns(c, a.base) || owns(c, b.base) {
		t.Fatal("want Main on node a alone")
	}
	deadlineAt := time.Now().Add(60 * time.Second)
	for !lists(c, b.base, "Main") { // one lobby: node b lists node a's table
		if time.Now().After(deadlineAt) {
			t.Fatal("node b's lobby does not list node a's table")
		}
		time.Sleep(50 * time.Millisecond)
	}
	me := getJSON(t, c, "POST", a.base+"/api/register", map[string]any{"username": "survivor", "password": "correct horse", "adult": true})
	start := me["credits"].(float64)

	ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
	defer cancel()
	wsA := dialWS(ctx, t, a.base, c)
	if err := wsA.Write(ctx, websocket.MessageText, []byte(`{"type":"sit","table":"Main","buy_in":2000,"id":1}`)); err != nil {
		t.Fatal(err)
	}
	before := readUntil(ctx, t, wsA, toAct)
	// A spectator connected to node b watches the table of node a (relayed).
	jar2, _ := cookiejar.New(nil)
	c2 := &http.Client{Jar: jar2, Timeout: 10 * time.Second}
	getJSON(t, c2, "POST", b.base+"/api/register", map[string]any{"username": "kibitzer", "password": "correct horse", "adult": true})
	wsK := dialWS(ctx, t, b.base, c2)
	if err := wsK.Write(ctx, websocket.MessageText, []byte(`{"type":"watch","table":"Main","id":1}`)); err != nil {
		t.Fatal(err)
	}
	readUntil(ctx, t, wsK, func(m *wsState) bool {
		return m.State.Hand != nil && m.State.Hand.HandKey == before.State.Hand.HandKey
	})
	// One lobby chat and one list of players online: the survivor, on node a,
	// sees the kibitzer of node b come online and their lobby line.
	if err := wsK.Write(ctx, websocket.MessageText, []byte(`{"type":"chat","text":"hello from b"}`)); err != nil {
		t.Fatal(err)
	}
	for chat, online := false, false; !chat || !online; {
		_, b, err := wsA.Read(ctx)
		if err != nil {
			t.Fatal("node b's kibitzer never showed on node a:", err)
		}
		var m struct {
			Type   string   `json:"type"`
			Text   string   `json:"text"`
			From   string   `json:"from"`
			Joined []string `json:"joined"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		chat = chat || m.Type == "chat" && m.From == "kibitzer" && m.Text == "hello from b"
		online = online || m.Type == "online" && slices.Contains(m.Joined, "kibitzer")
	}
	if err := a.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = a.cmd.Wait()
	killed := time.Now()

	for !owns(c, b.base) {
		if time.Since(killed) > 60*time.Second {
			t.Fatal("node b did not take Main over")
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("taken over %v after the kill (lease TTL 1s)", time.Since(killed).Round(time.Millisecond))
	wsB := dialWS(ctx, t, b.base, c)
	after := watchUntil(ctx, t, wsB, "Main", toAct)
	bh, ah := before.State.Hand, after.State.Hand
	if ah.Number != bh.Number || ah.HandKey != bh.HandKey || !reflect.DeepEqual(ah.Board, bh.Board) ||
		!reflect.DeepEqual(after.State.Seats[after.State.You.Seat].Cards, before.State.Seats[before.State.You.Seat].Cards) {
		t.Fatalf("the hand on node b is not the one on node a: %+v %v / %+v %v", bh, before.State.Seats, ah, after.State.Seats)
	}
	// Play the hand to its end (check or fold), then stand up.
	hand := ah.Number
	for m := after; ; {
		if m.State.Hand.Number != hand || m.State.Hand.Over {
			break
		}
		if toAct(m) {
			act := "fold"
			if slices.Contains(m.State.Hand.Legal.Actions, "check") {
				act = "check"
			}
			if err := wsB.Write(ctx, websocket.MessageText, []byte(`{"type":"act","table":"Main","action":"`+act+`"}`)); err != nil {
				t.Fatal(err)
			}
		}
		m = readUntil(ctx, t, wsB, func(*wsState) bool { return true })
	}
	if err := wsB.Write(ctx, websocket.MessageText, []byte(`{"type":"stand","table":"Main","id":3}`)); err != nil {
		t.Fatal(err)
	}
	for { // the cash-out is booked by the table's ledger worker, after the seat is freed
		me = getJSON(t, c, "GET", b.base+"/api/me", nil)
		if tables, _ := me["tables"].([]any); len(tables) == 0 && me["credits"].(float64) != start-2000 {
			break
		}
		if time.Since(killed) > 90*time.Second {
			t.Fatalf("still seated: %v", me)
		}
		time.Sleep(100 * time.Millisecond)
	}
	p := getJSON(t, c, "GET", b.base+"/api/players/survivor", nil)
	if got, want := me["credits"].(float64), start+p["net_won"].(float64); got != want || p["hands_played"].(float64) < 1 {
		t.Fatalf("after the takeover: %v credits, want %v (start %v + net won %v); player %v", got, want, start, p["net_won"], p)
	}
	resp, err := c.Get(b.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "felt_cluster_takeovers_total 1") {
		t.Errorf("node b's metrics do not count the takeover:\n%s", body)
	}
}

// TestClusterSIGTERMHandsOver stops the node that runs a table on purpose
// (SIGTERM, a rolling upgrade) while a player is to act there and in a
// heads-up game against the computer opened on that node: it hands both over
// instead of cancelling the hands, the other node takes them at once (no wait
// for the lease to expire) and the hands go on there.
func TestClusterSIGTERMHandsOver(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the felt binary")
	}
	dsn := storetest.PostgresDSN(t)
	nats := natstest.Start(t).ClientURL()
	bin := buildFelt(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "house.toml")
	if err := os.WriteFile(cfg, []byte(`name = "Cluster Club"
[[tables]]
name = "Main"
variant = "nlhe"
seats = 2
small_blind = 10
big_blind = 20
min_buy_in = 400
max_buy_in = 2000
action_seconds = 60
bots = ["call"]
`), 0o600); err != nil {
		t.Fatal(err)
	}
	// A long TTL: a takeover within it can only come from the handover.
	node := func(name string) *houseProc {
		return startHouse(t, bin, filepath.Join(dir, name), "--config", cfg, "--announce", "off", "--db", dsn,
			"--nats", nats, "--node", name, "--lease-ttl", "60s")
	}
	a := node("a")
	b := node("b")
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	getJSON(t, c, "POST", a.base+"/api/register", map[string]any{"username": "upgrader", "password": "correct horse", "adult": true})
	ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
	defer cancel()
	wsA := dialWS(ctx, t, a.base, c)
	if err := wsA.Write(ctx, websocket.MessageText, []byte(`{"type":"sit","table":"Main","buy_in":2000,"id":1}`)); err != nil {
		t.Fatal(err)
	}
	before := readUntil(ctx, t, wsA, toAct)
	hu := getJSON(t, c, "POST", a.base+"/api/headsup", map[string]any{"bot": "call", "chips": 1000, "small_blind": 10, "big_blind": 20})["name"].(string)
	huBefore := watchUntil(ctx, t, wsA, hu, func(m *wsState) bool { return m.State.Table == hu && toAct(m) })
	stopped := time.Now()
	if err := a.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := a.cmd.Wait(); err != nil {
		t.Fatalf("node a did not stop cleanly: %v", err)
	}
	for !owns(c, b.base) {
		if time.Since(stopped) > 10*time.Second { // the keeper's tick is a third of the TTL: 20 s
			t.Fatal("node b did not take Main over at once")
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("handed over %v after SIGTERM", time.Since(stopped).Round(time.Millisecond))
	wsB := dialWS(ctx, t, b.base, c)
	after := watchUntil(ctx, t, wsB, "Main", func(m *wsState) bool { return m.State.Table == "Main" && toAct(m) })
	if after.State.Hand.HandKey != before.State.Hand.HandKey ||
		!reflect.DeepEqual(after.State.Seats[after.State.You.Seat].Cards, before.State.Seats[before.State.You.Seat].Cards) {
		t.Fatalf("the hand on node b is not the one on node a: %+v / %+v", before.State.Hand, after.State.Hand)
	}
	huAfter := watchUntil(ctx, t, wsB, hu, func(m *wsState) bool { return m.State.Table == hu && toAct(m) })
	if huAfter.State.Hand.HandKey != huBefore.State.Hand.HandKey {
		t.Fatalf("the heads-up hand on node b is not the one on node a: %+v / %+v", huBefore.State.Hand, huAfter.State.Hand)
	}
	if me := getJSON(t, c, "GET", b.base+"/api/me", nil); me["credits"].(float64) != 7000 {
		t.Fatalf("credits after the handover: %v, want 7000 (the stacks stay at the tables)", me["credits"])
	}
}
