package node

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cluster/natstest"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
)

// heldTo checks that player p, sitting down at tb with the table's minimum
// (200), is refused and told the stack they left with, and that they sit
// down with it.
func heldTo(t *testing.T, ctx context.Context, tb *table.Table, p table.Player, stack int64) {
	t.Helper()
	err := tb.Sit(ctx, p, 1, 200)
	var fe *house.FieldError
	if !errors.As(err, &fe) || fe.Field != "buy_in" || !strings.Contains(err.Error(), fmt.Sprint(stack)) {
		t.Fatalf("%s sits down at %s again with 200: %v, want a buy_in error naming the %d they left with", p.Name, tb.Name(), err, stack)
	}
	if err := tb.Sit(ctx, p, 1, stack); err != nil {
		t.Fatalf("%s sits down at %s again with %d: %v", p.Name, tb.Name(), stack, err)
	}
}

// standRich has p sit down at tb with 2000 and stand up at once.
func standRich(t *testing.T, ctx context.Context, tb *table.Table, p table.Player) {
	t.Helper()
	if err := tb.Sit(ctx, p, 1, 2000); err != nil {
		t.Fatal(err)
	}
	if err := tb.Stand(ctx, p); err != nil {
		t.Fatal(err)
	}
}

// registered registers the player name through n's web API, and returns
// their client and who they are.
func registered(t *testing.T, ctx context.Context, n *testNode, name string) (*http.Client, table.Player) {
	t.Helper()
	hc := register(t, n.url, name)
	u, _, err := n.h.Player(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	return hc, table.Player{ID: u.ID, Name: name}
}

// closePlayerTable has n close its player's table name (as its owner
// closing it, or a minute idle, would) and waits until it has left the
// house's registry: a table of that name may open again, on any node.
func closePlayerTable(t *testing.T, ctx context.Context, n *testNode, name string) {
	t.Helper()
	tb, err := n.lobby.Table(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Close(ctx, "its owner closes it"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, name+" leaves the registry", func() bool {
		ok, err := n.c.IsRegistered(ctx, name)
		return err == nil && !ok
	})
}

// TestRatholeAcrossAReopenedPlayerTable: on a house of two nodes, alice
// opens her table Hole on a, sits down with 2000, stands up and closes it;
// she opens Hole again, on b this time, and then, once that one closed too,
// on a. Each new Hole holds her to the 2000 she left with (the store keeps
// the departures of every node's tables). Before, a player's table opened
// again started a fresh log and forgot her departure: she sat down with 200.
// A closed table's log that is corrupt (junk written over it) does not keep
// the name from opening again.
func TestRatholeAcrossAReopenedPlayerTable(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNode(t, ctx, dsn, url, "a")
	b := startNode(t, ctx, dsn, url, "b")
	hc, alice := registered(t, ctx, a, "alice")
	if code, out := post(t, hc, a.url, "/api/tables", newTable("Hole")); code != http.StatusCreated {
		t.Fatalf("open Hole on a: %d %v", code, out)
	}
	tb, err := a.lobby.Table("Hole")
	if err != nil {
		t.Fatal(err)
	}
	standRich(t, ctx, tb, alice)
	closePlayerTable(t, ctx, a, "Hole")
	// Junk on the closed table's log: a node must not read it, nor be stopped
	// by it.
	if err := a.c.Conn().Publish("felt.wal.hole", []byte("{not a record")); err != nil {
		t.Fatal(err)
	}
	for _, n := range []*testNode{b, a} {
		// The closed table's lease is released just after it leaves the
		// registry: until then the name is taken, and its owner tries again.
		var code int
		var out map[string]any
		waitFor(t, "Hole's name free", func() bool {
			code, out = post(t, hc, n.url, "/api/tables", newTable("Hole"))
			return code != http.StatusConflict
		})
		if code != http.StatusCreated {
			t.Fatalf("open Hole again through %s: %d %v", n.c.Name(), code, out)
		}
		again, err := n.lobby.Table("Hole")
		if err != nil {
			t.Fatalf("Hole opened through %s runs elsewhere: %v", n.c.Name(), err)
		}
		heldTo(t, ctx, again, alice, 2000)
		if err := again.Stand(ctx, alice); err != nil {
			t.Fatal(err)
		}
		closePlayerTable(t, ctx, n, "Hole")
	}
}

// TestRatholeAcrossAReopenedHouseTable: alice sits down at the house table
// Main on node a with 2000 and stands up; Main closes in a's log and a is
// lost before paying anyone out. Node b opens Main again afresh, and holds
// alice to the 2000 she left with. Before, the fresh Main forgot her
// departure with the closed log.
func TestRatholeAcrossAReopenedHouseTable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	// Main without bots: no hand is dealt, alice leaves with her buy-in.
	a, b, closeAndLose := closingNodesWith(t, ctx, nodeOptions{main: func(c *table.Config) { c.Bots = nil }})
	alice := a.player(t, ctx, "alice")
	ta, err := a.lobby.Table("Main")
	if err != nil {
		t.Fatal(err)
	}
	standRich(t, ctx, ta, alice)
	waitFor(t, "alice's departure kept in the store", func() bool {
		ds, err := a.h.Departures(ctx, "Main", time.Now(), 10)
		return err == nil && len(ds) == 1 && ds[0].UserID == alice.ID && ds[0].Stack == 2000
	})
	closeAndLose(ta) // Main closed in a's log
	waitFor(t, "b runs Main again", func() bool { return b.c.Owns("Main") })
	tb, err := b.lobby.Table("Main")
	if err != nil {
		t.Fatal(err)
	}
	heldTo(t, ctx, tb, alice, 2000)
}
