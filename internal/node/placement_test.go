package node

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cluster/natstest"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// TestTablesPlacedOnTheLeastLoadedNode has a player on node a, which runs the
// house's table, open tables there while node b runs none: the first opens
// on a (one table more than b is even), the second on b (two more), the
// third on a again; a heads-up game then opens on b, and the player plays it
// from a through the relay. A request that reaches b opens there.
func TestTablesPlacedOnTheLeastLoadedNode(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	opt := nodeOptions{place: true}
	a := startNodeWith(t, ctx, dsn, url, "a", opt)
	b := startNodeWith(t, ctx, dsn, url, "b", opt)
	waitFor(t, "a knows b is live", func() bool { n, _ := a.tables.load.least("a"); return n == "b" })
	alice := register(t, a.url, "alice")
	runsOn := func(name string, want, other *testNode) {
		t.Helper()
		if _, err := want.lobby.Table(name); err != nil {
			t.Fatalf("%s does not run on %s: %v", name, want.c.Name(), err)
		}
		if _, err := other.lobby.Table(name); err == nil {
			t.Fatalf("%s runs on %s too", name, other.c.Name())
		}
	}
	for _, step := range []struct {
		name      string
		on, other *testNode
	}{{"One", a, b}, {"Two", b, a}, {"Three", a, b}} {
		if code, out := post(t, alice, a.url, "/api/tables", newTable(step.name)); code != http.StatusCreated || out["name"] != step.name {
			t.Fatalf("open %s through a: %d %v", step.name, code, out)
		}
		runsOn(step.name, step.on, step.other)
	}
	code, out := post(t, alice, a.url, "/api/headsup", map[string]any{"bot": "call", "chips": 1000, "small_blind": 10, "big_blind": 20})
	if code != http.StatusCreated {
		t.Fatalf("a heads-up game through a: %d %v", code, out)
	}
	game := out["name"].(string)
	runsOn(game, b, a)
	ws := dialAs(t, ctx, a.url, alice)
	ws.send(ctx, `{"type":"watch","table":"`+game+`","id":1}`)
	ws.until(ctx, "alice to act at her game on b", toActIn(game))
	ws.send(ctx, `{"type":"act","table":"`+game+`","action":"fold","id":2}`)
	if r := ws.until(ctx, "the fold", reply(2)); r["type"] != "ok" {
		t.Fatalf("fold at b's game through a: %v", r)
	}
	if code, out := post(t, alice, b.url, "/api/tables", newTable("Four")); code != http.StatusCreated {
		t.Fatalf("open Four through b: %d %v", code, out)
	}
	runsOn("Four", b, a)
}

// TestPlacementRefusedOpensHere: the least loaded node does not take placed
// tables (it serves no placement); the table opens where it was asked.
func TestPlacementRefusedOpensHere(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNodeWith(t, ctx, dsn, url, "a", nodeOptions{place: true})
	b := startNode(t, ctx, dsn, url, "b")
	waitFor(t, "a knows b is live", func() bool { n, _ := a.tables.load.least("a"); return n == "b" })
	alice := register(t, a.url, "alice")
	for _, name := range []string{"One", "Two"} {
		if code, out := post(t, alice, a.url, "/api/tables", newTable(name)); code != http.StatusCreated {
			t.Fatalf("open %s: %d %v", name, code, out)
		}
		if _, err := a.lobby.Table(name); err != nil {
			t.Fatalf("%s does not run on a: %v", name, err)
		}
	}
	if got := b.tables.Owned(); len(got) != 0 {
		t.Fatalf("b runs %v", got)
	}
}

// TestRefusedPlacementsLeaveNoLoad: a player's requests that the least
// loaded node refuses (a name taken there) open no table, so they must not
// count as its load: otherwise a player who sends refused requests makes
// every node but the one they choose look loaded, and the house's new
// tables all open on that one.
func TestRefusedPlacementsLeaveNoLoad(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	opt := nodeOptions{place: true}
	a := startNodeWith(t, ctx, dsn, url, "a", opt)
	b := startNodeWith(t, ctx, dsn, url, "b", opt)
	waitFor(t, "a knows b is live", func() bool { n, _ := a.tables.load.least("a"); return n == "b" })
	alice := register(t, a.url, "alice")
	if code, out := post(t, alice, a.url, "/api/tables", newTable("One")); code != http.StatusCreated {
		t.Fatalf("open One: %d %v", code, out)
	}
	// a runs two tables, b none: each request through a goes to b, which
	// refuses a name the house has.
	for range 3 {
		if code, out := post(t, alice, a.url, "/api/tables", newTable("one")); code != http.StatusConflict {
			t.Fatalf("a second One: %d %v", code, out)
		}
	}
	if node, n := a.tables.load.least("a"); node != "b" || n != 0 {
		t.Fatalf("b counts %d tables after refusals (least %q)", n, node)
	}
	if code, out := post(t, alice, a.url, "/api/tables", newTable("Two")); code != http.StatusCreated {
		t.Fatalf("open Two: %d %v", code, out)
	}
	if _, err := b.lobby.Table("Two"); err != nil {
		t.Fatalf("Two does not run on b, the least loaded node: %v", err)
	}
}

// TestPlacementsExpire: a placement whose listing never comes (its answer
// lost) counts for a lease TTL at most.
func TestPlacementsExpire(t *testing.T) {
	ld := newLoad(time.Second)
	ld.live["b"] = "b"
	t0 := time.Unix(1000, 0)
	ld.placed("b", t0)
	ld.placed("b", t0.Add(500*time.Millisecond))
	if got := len(ld.pendingLocked("b", t0.Add(900*time.Millisecond))); got != 2 {
		t.Fatalf("%d placements pending before their life ends, want 2", got)
	}
	if got := len(ld.pendingLocked("b", t0.Add(1200*time.Millisecond))); got != 1 {
		t.Fatalf("%d placements pending after the first's life, want 1", got)
	}
	ld.unplaced("b")
	if got := len(ld.pendingLocked("b", t0.Add(1200*time.Millisecond))); got != 0 {
		t.Fatalf("%d placements pending after the refusal, want 0", got)
	}
	ld.unplaced("b") // nothing left: no effect
	if _, ok := ld.pending["b"]; ok {
		t.Fatal("an empty pending list is kept")
	}
}

// TestLoadLeast: the least loaded live node by its listings and the tables
// placed there not listed yet; a node not live, or this one, is never chosen.
func TestLoadLeast(t *testing.T) {
	ld := newLoad(time.Hour)
	if n, _ := ld.least("a"); n != "" {
		t.Fatalf("no other node live: %q", n)
	}
	ld.live["a"], ld.live["b"], ld.live["c"] = "a", "b", "c"
	for key, node := range map[string]string{"t1": "b", "t2": "b", "t3": "c", "t4": "gone", "t5": "a"} {
		ld.list(key, node)
	}
	if n, k := ld.least("a"); n != "c" || k != 1 {
		t.Fatalf("b 2, c 1: %q %d", n, k)
	}
	ld.placed("c", time.Now())
	ld.placed("c", time.Now())
	if n, k := ld.least("a"); n != "b" || k != 2 {
		t.Fatalf("b 2, c 1 and 2 placed: %q %d, want b (by name among equals)", n, k)
	}
	ld.list("t6", "c") // one of the two placed is listed
	if n, k := ld.least("a"); n != "b" || k != 2 {
		t.Fatalf("c listed one placed: %q %d", n, k)
	}
	ld.unlist("t1")
	for range 5 { // more than placed: no effect past none
		ld.unplaced("c")
	}
	if n, k := ld.least("a"); n != "b" || k != 1 {
		t.Fatalf("t1 gone: %q %d", n, k)
	}
}
