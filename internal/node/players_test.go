package node

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cluster/natstest"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
)

// post sends body to the node at base as the player of c, and returns the
// status and the decoded answer.
func post(t *testing.T, c *http.Client, base, path string, body any) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", base+path, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

// newTable is a player's table of two seats, with bots if any.
func newTable(name string, bots ...string) map[string]any {
	return map[string]any{"name": name, "variant": "nlhe", "seats": 2, "small_blind": 10, "big_blind": 20,
		"min_buy_in": 200, "max_buy_in": 2000, "bots": bots}
}

// errorCode returns the code of an API error answer.
func errorCode(out map[string]any) string {
	e, _ := out["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

// credits returns the player's credits and their net won, from the ledger.
func credits(t *testing.T, ctx context.Context, n *testNode, name string) (credits, net int64) {
	t.Helper()
	u, _, err := n.h.Player(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	tot, err := n.h.Totals(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	return tot.Credits, tot.NetWon
}

// TestPlayerTableNameUniqueInTheHouse has two players on two nodes open a
// table of the same name at the same moment, again and again: one gets it,
// the other is told the name is taken. A name of another node's table (the
// house's own, in any case) is refused too.
func TestPlayerTableNameUniqueInTheHouse(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	b := startNode(t, ctx, dsn, url, "b")
	alice, bob := register(t, a.url, "alice"), register(t, b.url, "bob")
	for i := range 5 {
		name := fmt.Sprintf("Duel%d", i)
		var codes [2]int
		var outs [2]map[string]any
		var wg sync.WaitGroup
		for k, p := range []struct {
			c    *http.Client
			base string
		}{{alice, a.url}, {bob, b.url}} {
			wg.Go(func() { codes[k], outs[k] = post(t, p.c, p.base, "/api/tables", newTable(name)) })
		}
		wg.Wait()
		won, lost := 0, 1
		if codes[1] == http.StatusCreated {
			won, lost = 1, 0
		}
		if codes[won] != http.StatusCreated || codes[lost] != http.StatusConflict || errorCode(outs[lost]) != "taken" {
			t.Fatalf("%s opened on both nodes at once: %d %v, %d %v; want one 201 and one 409 taken", name, codes[0], outs[0], codes[1], outs[1])
		}
	}
	if code, out := post(t, bob, b.url, "/api/tables", newTable("main")); code != http.StatusConflict {
		t.Fatalf("a table called main on b while a runs Main: %d %v, want 409", code, out)
	}
	if code, out := post(t, alice, a.url, "/api/tables", newTable("duel0")); code != http.StatusConflict {
		t.Fatalf("duel0 on a while Duel0 is open: %d %v, want 409", code, out)
	}
	// A table that does not open leaves its name free.
	bad := newTable("Spare")
	bad["small_blind"] = 30
	if code, out := post(t, bob, b.url, "/api/tables", bad); code != http.StatusBadRequest {
		t.Fatalf("a small blind over the big: %d %v, want 400", code, out)
	}
	if code, out := post(t, alice, a.url, "/api/tables", newTable("Spare")); code != http.StatusCreated {
		t.Fatalf("Spare after a table of that name failed to open: %d %v", code, out)
	}
}

// TestPlayerTableTakenOver has a player on node b open a table on node a
// (its HTTP request went to a), sit and play at it through the relay; a is
// lost mid-hand. b takes the table over with the hand in play: the player
// finds the same hand there, plays it out and leaves with every chip.
func TestPlayerTableTakenOver(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	b := startNode(t, ctx, dsn, url, "b")
	cc := register(t, a.url, "carol")
	if code, out := post(t, cc, a.url, "/api/tables", newTable("Cards", "call")); code != http.StatusCreated {
		t.Fatalf("open Cards: %d %v", code, out)
	}
	if _, err := a.lobby.Table("Cards"); err != nil {
		t.Fatal("Cards does not run on a, where it was opened")
	}
	carol := dialAs(t, ctx, b.url, cc)
	carol.send(ctx, `{"type":"sit","table":"Cards","buy_in":1000,"id":1}`)
	if r := carol.until(ctx, "the sit", reply(1)); r["type"] != "ok" {
		t.Fatalf("sit at a's player table through b: %v", r)
	}
	before := carol.until(ctx, "carol to act on a", toActIn("Cards"))

	a.c.Conn().Close() // a is lost
	carol.until(ctx, "the table_moved notice", func(m map[string]any) bool {
		return m["type"] == "notice" && m["code"] == "table_moved" && m["table"] == "Cards"
	})
	waitFor(t, "b runs Cards", func() bool { _, err := b.lobby.Table("Cards"); return err == nil })
	carol.send(ctx, `{"type":"watch","table":"Cards","id":2}`)
	after := carol.until(ctx, "carol to act on b", toActIn("Cards"))
	bh := before["state"].(map[string]any)["hand"].(map[string]any)
	ah := after["state"].(map[string]any)["hand"].(map[string]any)
	if ah["hand_key"] != bh["hand_key"] {
		t.Fatalf("the hand on b is %v, on a it was %v", ah["hand_key"], bh["hand_key"])
	}
	carol.send(ctx, `{"type":"act","table":"Cards","action":"fold","id":3}`)
	if r := carol.until(ctx, "the fold", reply(3)); r["type"] != "ok" {
		t.Fatalf("fold on b: %v", r)
	}
	carol.send(ctx, `{"type":"leave","table":"Cards","id":4}`)
	if r := carol.until(ctx, "the leave", reply(4)); r["type"] != "ok" {
		t.Fatalf("leave on b: %v", r)
	}
	signup := b.h.Config().SignupCredits
	waitFor(t, "carol cashed out with every chip", func() bool {
		c, net := credits(t, ctx, b, "carol")
		return c == signup+net && net != 0
	})
	if reg, ok, err := b.c.Lookup(ctx, "Cards"); err != nil || !ok || reg.Table != "Cards" {
		t.Errorf("Cards in the registry after the takeover: %+v %v %v", reg, ok, err)
	}
}

// TestHeadsUpTakenOver plays a heads-up game against the computer opened on
// node a; a is lost while the player is to act. b takes the game over (the
// bot made again from the game's settings) with the hand in play; the player
// plays it out there and leaves, the game closes and leaves the registry for
// good, and every chip is accounted for.
func TestHeadsUpTakenOver(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	b := startNode(t, ctx, dsn, url, "b")
	dc := register(t, a.url, "dee")
	code, out := post(t, dc, a.url, "/api/headsup", map[string]any{"bot": "call", "chips": 1000, "small_blind": 10, "big_blind": 20})
	if code != http.StatusCreated {
		t.Fatalf("open a heads-up game: %d %v", code, out)
	}
	name := out["name"].(string)
	dee := dialAs(t, ctx, b.url, dc)
	dee.send(ctx, `{"type":"watch","table":"`+name+`","id":1}`)
	before := dee.until(ctx, "dee to act on a", toActIn(name))

	a.c.Conn().Close() // a is lost
	waitFor(t, "b runs the game", func() bool { _, err := b.lobby.Table(name); return err == nil })
	dee.send(ctx, `{"type":"watch","table":"`+name+`","id":2}`)
	after := dee.until(ctx, "dee to act on b", toActIn(name))
	bh := before["state"].(map[string]any)["hand"].(map[string]any)
	ah := after["state"].(map[string]any)["hand"].(map[string]any)
	if ah["hand_key"] != bh["hand_key"] {
		t.Fatalf("the hand on b is %v, on a it was %v", ah["hand_key"], bh["hand_key"])
	}
	dee.send(ctx, `{"type":"leave","table":"`+name+`","id":3}`)
	if r := dee.until(ctx, "the leave", reply(3)); r["type"] != "ok" {
		t.Fatalf("leave on b: %v", r)
	}
	tb, err := b.lobby.Table(name)
	if err == nil {
		<-tb.Done() // the game is over when its player leaves
	}
	signup := b.h.Config().SignupCredits
	waitFor(t, "dee's chips back with the hand's result", func() bool {
		c, net := credits(t, ctx, b, "dee")
		return c == signup+net && net != 0
	})
	waitFor(t, "the game leaves the registry", func() bool {
		_, ok, err := b.c.Lookup(ctx, name)
		return err == nil && !ok
	})
	// The lease is released once the registry and the log have forgotten
	// the game (or a keeper's pass that read the registry before took it
	// again, found the log closed and released it).
	waitFor(t, "the closed game's lease released", func() bool {
		h, err := b.c.Holder(ctx, name)
		return err == nil && h == ""
	})
	if _, err := b.lobby.Table(name); err == nil {
		t.Error("the closed game is open on b")
	}
}

// TestNodeLostBeforeTheFirstHand opens a player's table on node a, where a
// player sits alone (no hand yet); a is lost. b takes the table over at the
// same reference, and the player keeps her seat and her buy-in there (her
// seat was noted in the table's log), until she stands up.
func TestNodeLostBeforeTheFirstHand(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	b := startNode(t, ctx, dsn, url, "b")
	ec := register(t, a.url, "erin")
	if code, out := post(t, ec, a.url, "/api/tables", newTable("Solo")); code != http.StatusCreated {
		t.Fatalf("open Solo: %d %v", code, out)
	}
	ta, err := a.lobby.Table("Solo")
	if err != nil {
		t.Fatal(err)
	}
	erin := dialAs(t, ctx, a.url, ec)
	erin.send(ctx, `{"type":"sit","table":"Solo","buy_in":500,"id":1}`)
	if r := erin.until(ctx, "the sit", reply(1)); r["type"] != "ok" {
		t.Fatalf("sit: %v", r)
	}
	signup := a.h.Config().SignupCredits
	if c, _ := credits(t, ctx, a, "erin"); c != signup-500 {
		t.Fatalf("credits %d after the buy-in, want %d", c, signup-500)
	}
	a.c.Conn().Close() // a is lost
	var tb *table.Table
	waitFor(t, "b runs Solo", func() bool {
		tb, err = b.lobby.Table("Solo")
		return err == nil
	})
	if tb.Ref() != ta.Ref() {
		t.Errorf("Solo on b is %q, on a it was %q", tb.Ref(), ta.Ref())
	}
	if c, _ := credits(t, ctx, b, "erin"); c != signup-500 {
		t.Errorf("erin's credits after the takeover: %d, want %d (her buy-in at the table)", c, signup-500)
	}
	stacks, err := b.h.TableStacks(ctx, ta.Ref())
	if err != nil || len(stacks) != 1 {
		t.Fatalf("the store seats %v at Solo (%v), want erin", stacks, err)
	}
	ps, err := tb.Players(ctx)
	if err != nil || len(ps) != 1 || ps[0].Name != "erin" {
		t.Fatalf("Solo on b seats %v (%v), want erin", ps, err)
	}
	if err := tb.Stand(ctx, ps[0]); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "erin's buy-in back", func() bool {
		c, _ := credits(t, ctx, b, "erin")
		return c == signup
	})
}

// TestPlayerTableHandedOver stops the node that runs a player's table on
// purpose (SIGTERM: node.HandOver) while the player is to act: the other node
// takes the table up at once with the hand in play, and the table, which
// moved and did not close, stays in the house's registry.
func TestPlayerTableHandedOver(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	b := startNode(t, ctx, dsn, url, "b")
	fc := register(t, a.url, "fay")
	if code, out := post(t, fc, a.url, "/api/tables", newTable("Den", "call")); code != http.StatusCreated {
		t.Fatalf("open Den: %d %v", code, out)
	}
	fay := dialAs(t, ctx, b.url, fc)
	fay.send(ctx, `{"type":"sit","table":"Den","buy_in":1000,"id":1}`)
	if r := fay.until(ctx, "the sit", reply(1)); r["type"] != "ok" {
		t.Fatalf("sit: %v", r)
	}
	before := fay.until(ctx, "fay to act on a", toActIn("Den"))
	if err := a.tables.HandOver(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "b runs Den", func() bool { _, err := b.lobby.Table("Den"); return err == nil })
	fay.send(ctx, `{"type":"watch","table":"Den","id":2}`)
	after := fay.until(ctx, "fay to act on b", toActIn("Den"))
	if after["state"].(map[string]any)["hand"].(map[string]any)["hand_key"] != before["state"].(map[string]any)["hand"].(map[string]any)["hand_key"] {
		t.Fatal("the hand on b is not a's")
	}
	if _, ok, err := b.c.Lookup(ctx, "Den"); err != nil || !ok {
		t.Fatalf("Den left the registry when it moved: %v %v", ok, err)
	}
}

// TestKeptTablesJoinTheRegistry starts a house of several nodes on the
// database of a house that ran on one node: the tables its players had open
// (kept in the store) enter the house's registry and open again on a node,
// where any node reaches them; a kept table whose name the house has now is
// forgotten.
func TestKeptTablesJoinTheRegistry(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	b := startNode(t, ctx, dsn, url, "b")
	gc, gus := registered(t, ctx, a, "gus")
	for _, name := range []string{"Kept", "main"} {
		cfg, _ := json.Marshal(newTable(name))
		if err := a.h.PlayerTables().SavePlayerTable(ctx, store.PlayerTable{Name: name, OwnerID: gus.ID, Config: cfg, CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	n, err := b.srv.RestoreTables(ctx)
	if err != nil || n != 1 {
		t.Fatalf("RestoreTables: %d, %v; want Kept alone", n, err)
	}
	if _, ok, err := b.c.Lookup(ctx, "Kept"); err != nil || !ok {
		t.Fatalf("Kept is not in the registry: %v %v", ok, err)
	}
	if kept, err := a.h.PlayerTables().PlayerTables(ctx); err != nil || len(kept) != 0 {
		t.Errorf("the store still keeps %v (%v)", kept, err)
	}
	ws := dialAs(t, ctx, a.url, gc)
	waitFor(t, "a node runs Kept", func() bool {
		_, ea := a.lobby.Table("Kept")
		_, eb := b.lobby.Table("Kept")
		return ea == nil || eb == nil
	})
	ws.send(ctx, `{"type":"watch","table":"Kept","id":1}`)
	if r := ws.until(ctx, "the watch", reply(1)); r["type"] != "ok" {
		t.Fatalf("watch Kept from a: %v", r)
	}
}

// TestPlayerTablesOpenWhenANodeStarts stops the only node of a house (it
// hands its tables over, and no node is there to take them) while a player is
// to act at their own table; a node that starts later opens the table again
// from the registry, with the hand in play.
func TestPlayerTablesOpenWhenANodeStarts(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	hc := register(t, a.url, "hal")
	if code, out := post(t, hc, a.url, "/api/tables", newTable("Attic", "call")); code != http.StatusCreated {
		t.Fatalf("open Attic: %d %v", code, out)
	}
	hal := dialAs(t, ctx, a.url, hc)
	hal.send(ctx, `{"type":"sit","table":"Attic","buy_in":1000,"id":1}`)
	before := hal.until(ctx, "hal to act on a", toActIn("Attic"))
	if err := a.tables.HandOver(ctx); err != nil {
		t.Fatal(err)
	}
	c := startNode(t, ctx, dsn, url, "c")
	waitFor(t, "c runs Attic", func() bool { _, err := c.lobby.Table("Attic"); return err == nil })
	hal = dialAs(t, ctx, c.url, hc)
	hal.send(ctx, `{"type":"watch","table":"Attic","id":2}`)
	after := hal.until(ctx, "hal to act on c", toActIn("Attic"))
	if after["state"].(map[string]any)["hand"].(map[string]any)["hand_key"] != before["state"].(map[string]any)["hand"].(map[string]any)["hand_key"] {
		t.Fatal("the hand on c is not a's")
	}
}

// TestClosedPlayerTableStaysClosed loses a node in the moment between a
// player's table closing (its log says so) and its leaving the registry: the
// node that takes its lease finds it closed, takes it out of the registry and
// does not open it.
func TestClosedPlayerTableStaysClosed(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	b := startNode(t, ctx, dsn, url, "b")
	register(t, a.url, "ivy")
	u, _, err := a.h.Player(ctx, "ivy")
	if err != nil {
		t.Fatal(err)
	}
	// Node a opens Gone and closes it, as its table would, and is lost before
	// it takes Gone out of the registry.
	l, err := a.c.Acquire(ctx, "Gone")
	if err != nil {
		t.Fatal(err)
	}
	a.c.Own(l)
	reg, _ := json.Marshal(map[string]any{"owner": u.ID, "table": newTable("Gone")})
	if err := a.c.RegisterNew(ctx, "Gone", registration{Player: reg}); err != nil {
		t.Fatal(err)
	}
	w, _, err := a.c.OpenWAL(ctx, l)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Opened(ctx, table.LogState{Ref: "table:Gone#1", Seats: make([]table.LogSeat, 2)}); err != nil {
		t.Fatal(err)
	}
	if err := w.Closed(ctx); err != nil {
		t.Fatal(err)
	}
	a.c.Conn().Close() // a is lost
	waitFor(t, "Gone leaves the registry", func() bool {
		_, ok, err := b.c.Lookup(ctx, "Gone")
		return err == nil && !ok
	})
	if _, err := b.lobby.Table("Gone"); err == nil {
		t.Fatal("b opened a table that had closed")
	}
}

// closeHold is a table's log that holds the table once its closing is
// logged, before it pays anyone out: its node is then cut off, as if lost
// (kill -9) in that moment.
type closeHold struct {
	table.HandLog
	hold func()
}

func (c closeHold) Closed(ctx context.Context) error {
	err := c.HandLog.Closed(ctx)
	if err == nil {
		c.hold()
	}
	return err
}

// TestClosedTablesStacksReturnedOnTakeover: a player's table closes on node
// a, which logs the closing and is lost before paying its player out; node b,
// taking the table's lease, finds it closed and does not open it, and must
// return what the player had at it to their credits, not leave it there for
// good.
func TestClosedTablesStacksReturnedOnTakeover(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a, b, closeAndLose := closingNodes(t, ctx)
	alice := register(t, a.url, "alice")
	u, _, err := a.h.Player(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if code, out := post(t, alice, a.url, "/api/tables", newTable("Closing")); code != http.StatusCreated {
		t.Fatalf("alice's table: %d %v", code, out)
	}
	tb, err := a.lobby.Table("Closing")
	if err != nil {
		t.Fatal(err)
	}
	start, err := a.h.Credits(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Sit(ctx, table.Player{ID: u.ID, Name: "alice"}, 1, 1000); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "alice's buy-in booked", func() bool { c, _ := a.h.Credits(ctx, u.ID); return c == start-1000 })
	closeAndLose(tb) // the table closed in a's log, alice not paid out
	waitFor(t, "b takes the closed table out of the registry", func() bool {
		ok, err := b.c.IsRegistered(ctx, "Closing")
		return err == nil && !ok
	})
	if c, err := b.h.Credits(ctx, u.ID); err != nil || c != start {
		t.Fatalf("alice's credits once b forgot her closed table: %d %v, want %d (her 1,000 back)", c, err, start)
	}
}

// TestClosedHouseTablesStacksReturnedOnTakeover: a house table whose node is
// lost between logging its closing and paying its players out opens again
// afresh on the next node, and the stacks left at the closed one go back to
// their players first (they were left in the store for good before).
func TestClosedHouseTablesStacksReturnedOnTakeover(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a, b, closeAndLose := closingNodes(t, ctx)
	// alice sits at Main; its first hand waits for her (the bot calls, she has
	// the option), so no hand ends before the table closes: her stack is her
	// buy-in.
	alice, start, ta, _ := aliceToAct(t, ctx, a)
	closeAndLose(ta) // Main closed in a's log, alice not paid out
	waitFor(t, "b runs Main again", func() bool { return b.c.Owns("Main") })
	if c, err := b.h.Credits(ctx, alice.ID); err != nil || c != start {
		t.Fatalf("alice's credits once b opened Main again: %d %v, want %d (her 1,000 back)", c, err, start)
	}
}

// closingNodes starts nodes a (behind a relay the test can cut) and b on one
// house; closeAndLose closes a table of a, waits until its closing is logged,
// holds it there (before its players are paid out) and cuts a off: a is lost.
func closingNodes(t *testing.T, ctx context.Context) (a, b *testNode, closeAndLose func(*table.Table)) {
	t.Helper()
	return closingNodesWith(t, ctx, nodeOptions{})
}

// closingNodesWith is closingNodes with options for both nodes (but
// handLog, a's own).
func closingNodesWith(t *testing.T, ctx context.Context, opt nodeOptions) (a, b *testNode, closeAndLose func(*table.Table)) {
	t.Helper()
	dsn := storetest.PostgresDSN(t)
	srv := natstest.Start(t)
	relay := natstest.NewRelay(t, srv.Addr().String())
	closing, held := make(chan struct{}), make(chan struct{})
	var once sync.Once
	aopt := opt
	aopt.handLog = func(l table.HandLog) table.HandLog {
		return closeHold{HandLog: l, hold: func() { once.Do(func() { close(closing); <-held }) }}
	}
	a = startNodeWith(t, ctx, dsn, relay.URL(), "a", aopt)
	t.Cleanup(func() { close(held) }) // before a stops
	b = startNodeWith(t, ctx, dsn, srv.ClientURL(), "b", opt)
	return a, b, func(tb *table.Table) {
		t.Helper()
		go func() { _ = tb.Close(context.WithoutCancel(ctx), "the test closes it") }()
		select {
		case <-closing:
		case <-ctx.Done():
			t.Fatal("the table's closing was not logged")
		}
		relay.SetCut(true)
	}
}
