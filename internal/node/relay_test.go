package node

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/felt-poker/felt/internal/cluster/natstest"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// wsClient is a player's WebSocket on one node.
type wsClient struct {
	t  *testing.T
	ws *websocket.Conn
	hc *http.Client // with the player's session
}

// dial registers a player on the node at base and opens their WebSocket.
func dial(t *testing.T, ctx context.Context, base, name string) *wsClient {
	t.Helper()
	return dialAs(t, ctx, base, register(t, base, name))
}

// register registers a player on the node at base and returns their client.
func register(t *testing.T, base, name string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	body := strings.NewReader(`{"username":"` + name + `","password":"correct horse","adult":true}`)
	resp, err := c.Post(base+"/api/register", "application/json", body)
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("register: %v %v", resp, err)
	}
	resp.Body.Close()
	return c
}

// dialAs opens the WebSocket of the player of client hc on the node at base
// (any node: the session is the house's).
func dialAs(t *testing.T, ctx context.Context, base string, hc *http.Client) *wsClient {
	t.Helper()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws", &websocket.DialOptions{HTTPClient: hc})
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(1 << 22)
	t.Cleanup(func() { ws.CloseNow() })
	return &wsClient{t: t, ws: ws, hc: hc}
}

func (c *wsClient) send(ctx context.Context, msg string) {
	c.t.Helper()
	if err := c.ws.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		c.t.Fatal(err)
	}
}

// until reads messages until one satisfies cond, and returns it.
func (c *wsClient) until(ctx context.Context, what string, cond func(m map[string]any) bool) map[string]any {
	c.t.Helper()
	for {
		_, b, err := c.ws.Read(ctx)
		if err != nil {
			c.t.Fatalf("waiting for %s: %v", what, err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			c.t.Fatal(err)
		}
		if cond(m) {
			return m
		}
	}
}

// reply returns a cond for the reply to the message of id.
func reply(id float64) func(map[string]any) bool {
	return func(m map[string]any) bool { return m["id"] == id && (m["type"] == "ok" || m["type"] == "error") }
}

// toActIn returns a cond for a state of table in which the player is to act.
func toActIn(table string) func(map[string]any) bool {
	return func(m map[string]any) bool {
		s, _ := m["state"].(map[string]any)
		if m["type"] != "state" || s == nil || s["table"] != table {
			return false
		}
		h, _ := s["hand"].(map[string]any)
		return h != nil && h["legal"] != nil && h["over"] == false
	}
}

// TestPlayOnAnyNode has a player connected to one node play at a table that
// runs on another: the messages go through the relay and the table's states
// come back, a refusal keeps its code, and the chips are the ledger's.
func TestPlayOnAnyNode(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	b := startNode(t, ctx, dsn, url, "b")
	if len(a.tables.Owned()) != 1 {
		t.Fatal("want Main on a")
	}
	bob := dial(t, ctx, b.url, "bob")
	bob.send(ctx, `{"type":"act","table":"Main","action":"fold","id":1}`)
	if r := bob.until(ctx, "the refusal", reply(1)); r["type"] != "error" || r["error"].(map[string]any)["code"] != "not_seated" {
		t.Fatalf("act before sitting: %v, want the other node's not_seated", r)
	}
	bob.send(ctx, `{"type":"sit","table":"Main","buy_in":1000,"id":2}`)
	if r := bob.until(ctx, "the sit", reply(2)); r["type"] != "ok" {
		t.Fatalf("sit through the relay: %v", r)
	}
	bob.until(ctx, "bob to act, relayed", toActIn("Main"))
	bob.send(ctx, `{"type":"chat","table":"Main","text":"hello from b","id":3}`)
	bob.until(ctx, "the chat line back", func(m map[string]any) bool {
		return m["type"] == "chat" && m["text"] == "hello from b"
	})
	bob.send(ctx, `{"type":"act","table":"Main","action":"fold","id":4}`)
	if r := bob.until(ctx, "the fold", reply(4)); r["type"] != "ok" {
		t.Fatalf("fold through the relay: %v", r)
	}
	bob.send(ctx, `{"type":"leave","table":"Main","id":5}`)
	if r := bob.until(ctx, "the leave", reply(5)); r["type"] != "ok" {
		t.Fatalf("leave through the relay: %v", r)
	}
	u, _, err := b.h.Player(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "bob cashed out", func() bool {
		tot, err := b.h.Totals(ctx, u.ID)
		return err == nil && tot.HandsPlayed >= 1 && tot.Credits == b.h.Config().SignupCredits+tot.NetWon
	})
	// Bob watches on; when his connection closes, a's shadow of it stops
	// watching.
	spectators := func() int {
		tb, err := a.lobby.Table("Main")
		if err != nil {
			return -1
		}
		in, err := tb.Info(ctx)
		if err != nil {
			return -1
		}
		return in.Spectators
	}
	bob.send(ctx, `{"type":"watch","table":"Main","id":6}`)
	if r := bob.until(ctx, "the watch", reply(6)); r["type"] != "ok" || spectators() != 1 {
		t.Fatalf("watch through the relay: %v, %d spectators on a", r, spectators())
	}
	bob.ws.Close(websocket.StatusNormalClosure, "")
	waitFor(t, "a's shadow of bob's connection is dropped", func() bool { return spectators() == 0 })
}

// TestLostNodesWatchersLeave has a player on one node watch a table of
// another, then loses the player's node (its NATS connection closed): the
// table's node drops the shadow, and the player is no longer counted there.
func TestLostNodesWatchersLeave(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	b := startNode(t, ctx, dsn, url, "b")
	cy := dial(t, ctx, b.url, "carol")
	cy.send(ctx, `{"type":"watch","table":"Main","id":1}`)
	if r := cy.until(ctx, "the watch", reply(1)); r["type"] != "ok" {
		t.Fatalf("watch through the relay: %v", r)
	}
	tb, err := a.lobby.Table("Main")
	if err != nil {
		t.Fatal(err)
	}
	spectators := func() int {
		in, err := tb.Info(ctx)
		if err != nil {
			return -1
		}
		return in.Spectators
	}
	if n := spectators(); n != 1 {
		t.Fatalf("%d spectators on a, want cy", n)
	}
	b.c.Conn().Close() // b is lost; its WebSocket stays open, but nothing relays it
	waitFor(t, "a drops the lost node's watcher", func() bool { return spectators() == 0 })
}

// TestOneLobby lists every node's tables in every node's lobby: a table of
// node a is in b's lobby (found by name through the relay, not locally), and
// when a hands it over (leaving: it adopts nothing more), it is b's own there.
func TestOneLobby(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	b := startNode(t, ctx, dsn, url, "b")
	listed := func(n *testNode) bool {
		for _, in := range n.lobby.Tables() {
			if in.Name == "Main" {
				return true
			}
		}
		return false
	}
	waitFor(t, "b's lobby lists a's table", func() bool { return listed(b) })
	if _, err := b.lobby.Table("Main"); err == nil {
		t.Fatal("b's lobby has a's table as its own")
	}
	if b.lobby.Seated() != 0 {
		t.Errorf("b counts %d seats of a's table as its own", b.lobby.Seated())
	}
	if err := a.tables.HandOver(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "b runs Main", func() bool { _, err := b.lobby.Table("Main"); return err == nil })
	// The table reports its first listing from its own goroutine once it
	// runs, and a's listing may have gone before (a unlists, then releases):
	// the listing is waited for, not read the moment the table is found.
	waitFor(t, "b lists Main, its own now", func() bool { return listed(b) })
	if len(a.tables.Owned()) != 0 {
		t.Errorf("after the handover a runs %v", a.tables.Owned())
	}
}

// TestRelayedTableMovesWhenItsNodeIsLost has a player on node b play at node
// a's table; a is lost mid-hand. b takes the table over, the player's
// connection (still open on b) is told the table moved, and a new watch finds
// the same hand there with the player to act.
func TestRelayedTableMovesWhenItsNodeIsLost(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	b := startNode(t, ctx, dsn, url, "b")
	dee := dial(t, ctx, b.url, "dee")
	dee.send(ctx, `{"type":"sit","table":"Main","buy_in":1000,"id":1}`)
	if r := dee.until(ctx, "the sit", reply(1)); r["type"] != "ok" {
		t.Fatalf("sit through the relay: %v", r)
	}
	before := dee.until(ctx, "dee to act on a", toActIn("Main"))
	a.c.Conn().Close() // a is lost
	dee.until(ctx, "the table_moved notice", func(m map[string]any) bool {
		return m["type"] == "notice" && m["code"] == "table_moved" && m["table"] == "Main"
	})
	waitFor(t, "b runs Main", func() bool { _, err := b.lobby.Table("Main"); return err == nil })
	dee.send(ctx, `{"type":"watch","table":"Main","id":2}`)
	after := dee.until(ctx, "dee to act on b", toActIn("Main"))
	bh := before["state"].(map[string]any)["hand"].(map[string]any)
	ah := after["state"].(map[string]any)["hand"].(map[string]any)
	if ah["hand_key"] != bh["hand_key"] {
		t.Fatalf("the hand on b is %v, on a it was %v", ah["hand_key"], bh["hand_key"])
	}
}

// TestMovedTableBackWhenTakenOver has a player on node b at node a's table
// when a is lost (or hands its tables over, as on SIGTERM): the player's
// connection is told the table moved, then, without the player asking
// anything, that it is back once b has taken its lease (table_back); the one
// watch the player sends then finds the hand. Before, the player learnt it
// only by trying again on a timer.
func TestMovedTableBackWhenTakenOver(t *testing.T) {
	for _, sigterm := range []bool{false, true} {
		t.Run(map[bool]string{false: "lost", true: "sigterm"}[sigterm], func(t *testing.T) { movedTableBack(t, sigterm) })
	}
}

func movedTableBack(t *testing.T, sigterm bool) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	b := startNode(t, ctx, dsn, url, "b")
	dee := dial(t, ctx, b.url, "dee")
	dee.send(ctx, `{"type":"sit","table":"Main","buy_in":1000,"id":1}`)
	if r := dee.until(ctx, "the sit", reply(1)); r["type"] != "ok" {
		t.Fatalf("sit through the relay: %v", r)
	}
	before := dee.until(ctx, "dee to act on a", toActIn("Main"))
	if sigterm {
		if err := a.tables.HandOver(ctx); err != nil {
			t.Fatal(err)
		}
	} else {
		a.c.Conn().Close() // a is lost
	}
	notice := func(code string) func(map[string]any) bool {
		return func(m map[string]any) bool { return m["type"] == "notice" && m["code"] == code && m["table"] == "Main" }
	}
	dee.until(ctx, "the table_moved notice", notice("table_moved"))
	dee.until(ctx, "the table_back notice", notice("table_back"))
	dee.send(ctx, `{"type":"watch","table":"Main","id":2}`)
	toAct, refused := toActIn("Main"), reply(2)
	after := dee.until(ctx, "dee to act on b", func(m map[string]any) bool { return toAct(m) || refused(m) && m["type"] != "ok" })
	if after["type"] != "state" {
		t.Fatalf("the watch after table_back: %v, want the table", after)
	}
	bh := before["state"].(map[string]any)["hand"].(map[string]any)
	ah := after["state"].(map[string]any)["hand"].(map[string]any)
	if ah["hand_key"] != bh["hand_key"] {
		t.Fatalf("the hand on b is %v, on a it was %v", ah["hand_key"], bh["hand_key"])
	}
}
