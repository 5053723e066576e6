package node

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cluster"
	"github.com/felt-poker/felt/internal/cluster/natstest"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
)

// chatLines returns the texts of the lobby chat lines in a lobby snapshot.
func chatLines(m map[string]any) []string {
	var out []string
	lines, _ := m["chat"].([]any)
	for _, l := range lines {
		if l, ok := l.(map[string]any); ok {
			out = append(out, fmt.Sprint(l["from"], ": ", l["text"]))
		}
	}
	return out
}

func isLobby(m map[string]any) bool { return m["type"] == "lobby" }

// TestLobbyChatOnEveryNode: a line said on one node is shown on the other,
// once; a flood is cut by the rate limit of the node it is said on, and a line
// that node refuses goes nowhere; a node started later, and a new connection
// on any node, find the last lines.
func TestLobbyChatOnEveryNode(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	b := startNode(t, ctx, dsn, url, "b")
	ann, cat := dial(t, ctx, a.url, "ann"), dial(t, ctx, a.url, "cat")
	ben := dial(t, ctx, b.url, "ben")
	ben.until(ctx, "ben's snapshot", isLobby)

	// Ann floods from a: five lines pass, the rest are refused there, as is
	// a line with a direction override.
	for i := 1; i <= 8; i++ {
		ann.send(ctx, fmt.Sprintf(`{"type":"chat","text":"flood %d","id":%d}`, i, i))
		r := ann.until(ctx, "a chat reply", reply(float64(i)))
		if want := i <= 5; (r["type"] == "ok") != want {
			t.Fatalf("line %d: %v, want ok %v", i, r, want)
		}
	}
	cat.send(ctx, `{"type":"chat","text":"evil \u202egnirts","id":1}`)
	if r := cat.until(ctx, "the refusal", reply(1)); r["type"] != "error" {
		t.Fatalf("a hidden-text line: %v, want refused", r)
	}
	cat.send(ctx, `{"type":"chat","text":"the end","id":2}`)
	cat.until(ctx, "cat's line", reply(2))
	var got []string
	for {
		m := ben.until(ctx, "the lines on b", func(m map[string]any) bool { return m["type"] == "chat" })
		got = append(got, fmt.Sprint(m["from"], ": ", m["text"]))
		if m["text"] == "the end" {
			break
		}
	}
	want := []string{"ann: flood 1", "ann: flood 2", "ann: flood 3", "ann: flood 4", "ann: flood 5", "cat: the end"}
	if !slices.Equal(got, want) {
		t.Fatalf("b showed %q, want %q", got, want)
	}
	// Ben answers from b; a shows it to ann.
	ben.send(ctx, `{"type":"chat","text":"hi from b","id":1}`)
	ann.until(ctx, "ben's line on a", func(m map[string]any) bool { return m["type"] == "chat" && m["text"] == "hi from b" })

	want = append(want, "ben: hi from b")
	c := startNode(t, ctx, dsn, url, "c")
	for _, n := range []*testNode{a, b, c} {
		if got := chatLines(dial(t, ctx, n.url, "new"+n.c.Name()).until(ctx, "the snapshot", isLobby)); !slices.Equal(got, want) {
			t.Errorf("a new connection on %s finds %q, want %q", n.c.Name(), got, want)
		}
	}
}

// onlineSet keeps the players online as a lobby subscriber sees them.
type onlineSet struct {
	mu      sync.Mutex
	players map[string]bool
}

func (s *onlineSet) Send(b []byte) {
	var m struct {
		Type    string   `json:"type"`
		Players []string `json:"players"`
		Joined  []string `json:"joined"`
		Left    []string `json:"left"`
	}
	if json.Unmarshal(b, &m) != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch m.Type {
	case "lobby":
		s.players = map[string]bool{}
		for _, p := range m.Players {
			s.players[p] = true
		}
	case "online":
		for _, p := range m.Joined {
			s.players[p] = true
		}
		for _, p := range m.Left {
			delete(s.players, p)
		}
	}
}

// are reports whether the players online are exactly names.
func (s *onlineSet) are(names ...string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.players) != len(names) {
		return false
	}
	for _, n := range names {
		if !s.players[n] {
			return false
		}
	}
	return true
}

// TestOnlineOnEveryNode: every node lists the players online on every node;
// when a node is lost, its players leave the other nodes' lists within the
// lease TTL, except those online on another node too; a node leaving on
// purpose takes its players off at once.
func TestOnlineOnEveryNode(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	b := startNode(t, ctx, dsn, url, "b")
	c := startNode(t, ctx, dsn, url, "c")
	onB := &onlineSet{}
	b.lobby.Subscribe(table.Player{}, onB)
	dial(t, ctx, a.url, "ann")
	bob := dial(t, ctx, a.url, "bob")
	bob.until(ctx, "bob's snapshot", isLobby)
	dial(t, ctx, c.url, "cyd")
	// Bob is on b too.
	bobOnB := dialAs(t, ctx, b.url, bob.hc)
	bobOnB.until(ctx, "bob's snapshot on b", isLobby)
	waitFor(t, "b lists everyone", func() bool { return onB.are("ann", "bob", "cyd") })

	lost := time.Now()
	a.c.Conn().Close() // a is lost: its entry is written no more
	waitFor(t, "a's players leave b's list", func() bool { return onB.are("bob", "cyd") })
	t.Logf("a's players left b's list %v after a was lost (lease TTL 1s)", time.Since(lost).Round(time.Millisecond))

	if err := c.c.Close(); err != nil { // c leaves: its entry goes at once
		t.Fatal(err)
	}
	waitFor(t, "c's players leave b's list", func() bool { return onB.are("bob") })
}

// TestLobbyChatRateAcrossNodes: a player connected to two nodes says lines in
// the lobby on each in turn: five pass in all, not five on each node, and the
// line refused goes nowhere.
func TestLobbyChatRateAcrossNodes(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	b := startNode(t, ctx, dsn, url, "b")
	hc := register(t, a.url, "ann")
	onA, onB := dialAs(t, ctx, a.url, hc), dialAs(t, ctx, b.url, hc)
	start := time.Now()
	var codes []string
	for i := 1; i <= 6; i++ {
		ws := []*wsClient{onA, onB}[i%2]
		ws.send(ctx, fmt.Sprintf(`{"type":"chat","text":"line %d","id":%d}`, i, i))
		r := ws.until(ctx, "a chat reply", reply(float64(i)))
		code := "ok"
		if e, ok := r["error"].(map[string]any); ok {
			code = fmt.Sprint(e["code"])
		}
		codes = append(codes, code)
	}
	if time.Since(start) >= 10*time.Second {
		t.Skip("the six lines took more than the rate's window: the machine is too slow for this test")
	}
	want := []string{"ok", "ok", "ok", "ok", "ok", "rate_limited"}
	if !slices.Equal(codes, want) {
		t.Fatalf("six lines said on two nodes in turn: %q, want five ok and one refused", codes)
	}
}

// TestLobbyWrittenOncePerRenewal counts the writes of a quiet table's lobby
// entry while its lease is renewed six times: one per renewal (the keeper's
// refresh), not two (the keeper's and the node's own pass over its tables).
func TestLobbyWrittenOncePerRenewal(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	var mu sync.Mutex
	counting, writes := false, 0
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		_ = a.c.WatchLobby(wctx, func(l cluster.Listing) {
			mu.Lock()
			defer mu.Unlock()
			if counting && l.Table == "Main" {
				writes++
			}
		}, func(string) {})
	}()
	waitFor(t, "Main listed", func() bool { ls, err := a.c.Lobby(ctx); return err == nil && len(ls) == 1 })
	const passes = 6
	r0 := a.c.Stats().Renewals
	mu.Lock()
	counting = true
	mu.Unlock()
	waitFor(t, "six renewals", func() bool { return a.c.Stats().Renewals >= r0+passes })
	mu.Lock()
	got := writes
	mu.Unlock()
	// Under load the poll may see more renewals than six: count what happened.
	renewals := int(a.c.Stats().Renewals - r0)
	t.Logf("%d writes in %d renewals", got, renewals)
	// The pass before the count may write its entry after r0 was read.
	if got > renewals+1 {
		t.Fatalf("Main's lobby entry written %d times in %d renewals, want at most %d", got, renewals, renewals+1)
	}
}

// TestHousePlayersOnlineMetric: a node's felt_players_online counts its own
// connections' players, felt_house_players_online every node's, each once.
func TestHousePlayersOnlineMetric(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	b := startNode(t, ctx, dsn, url, "b")
	ann := register(t, a.url, "ann")
	dialAs(t, ctx, a.url, ann).until(ctx, "ann's snapshot on a", isLobby)
	dialAs(t, ctx, b.url, ann).until(ctx, "ann's snapshot on b", isLobby)
	dial(t, ctx, b.url, "bob").until(ctx, "bob's snapshot", isLobby)
	metric := func(n *testNode, name string) string {
		resp, err := http.Get(n.url + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		for line := range strings.Lines(string(b)) {
			if v, ok := strings.CutPrefix(line, name+" "); ok {
				return strings.TrimSpace(v)
			}
		}
		return ""
	}
	waitFor(t, "a counts bob online on b", func() bool { return metric(a, "felt_house_players_online") == "2" })
	if got := metric(a, "felt_players_online"); got != "1" {
		t.Errorf("a's felt_players_online %s, want 1 (ann)", got)
	}
	if got := metric(b, "felt_players_online"); got != "2" {
		t.Errorf("b's felt_players_online %s, want 2 (ann and bob)", got)
	}
	waitFor(t, "b counts ann once", func() bool { return metric(b, "felt_house_players_online") == "2" })
}

// TestLobbyChatFailsClosed cuts a node off NATS: a lobby line said there,
// which the house cannot count, is refused busy instead of passing on the
// node's own count (a sender on several nodes could otherwise pass the
// house's rate whenever its compare-and-set failed), and nobody is shown it.
func TestLobbyChatFailsClosed(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	srv := natstest.Start(t)
	relay := natstest.NewRelay(t, srv.Addr().String())
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, relay.URL(), "a")
	hc := register(t, a.url, "ann")
	ws := dialAs(t, ctx, a.url, hc)
	relay.SetCut(true)
	ws.send(ctx, `{"type":"chat","text":"uncounted","id":1}`)
	shown := false
	r := ws.until(ctx, "a chat reply", func(m map[string]any) bool {
		shown = shown || m["type"] == "chat" && m["text"] == "uncounted"
		return reply(1)(m)
	})
	if e, _ := r["error"].(map[string]any); e == nil || e["code"] != "busy" || shown {
		t.Fatalf("a lobby line the house cannot count: %v (shown: %v), want refused busy and not shown", r, shown)
	}
}
