package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/felt-poker/felt/internal/cluster"
	"github.com/felt-poker/felt/internal/cluster/natstest"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// TestTablesPerPlayerAcrossTheHouse bounds a player to two tables and has
// them open one on node a, then two more at the same moment, one on each
// node, again and again: exactly one of the two opens each time, the other is
// refused 429 rate_limited. A claim left behind by a table no longer
// registered (its node lost before it released it) does not keep the player
// from their second table.
func TestTablesPerPlayerAcrossTheHouse(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	opt := nodeOptions{maxTables: 2}
	a := startNodeWith(t, ctx, dsn, url, "a", opt)
	b := startNodeWith(t, ctx, dsn, url, "b", opt)
	alice := register(t, a.url, "alice")
	u, _, err := a.h.Player(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if code, out := post(t, alice, a.url, "/api/tables", newTable("First")); code != http.StatusCreated {
		t.Fatalf("alice's first table: %d %v", code, out)
	}
	nodes := []*testNode{a, b}
	for i := range 4 {
		var codes [2]int
		var outs [2]map[string]any
		var wg sync.WaitGroup
		for k, n := range nodes {
			wg.Go(func() {
				codes[k], outs[k] = post(t, alice, n.url, "/api/tables", newTable(fmt.Sprintf("Race%d%c", i, 'a'+k)))
			})
		}
		wg.Wait()
		won, lost := 0, 1
		if codes[1] == http.StatusCreated {
			won, lost = 1, 0
		}
		if codes[won] != http.StatusCreated || codes[lost] != http.StatusTooManyRequests || errorCode(outs[lost]) != "rate_limited" {
			t.Fatalf("round %d, alice at one table of two opens one on each node at once: %d %v, %d %v; want one 201 and one 429",
				i, codes[0], outs[0], codes[1], outs[1])
		}
		// The winner closes: alice is at one table again, on every node.
		tb, err := nodes[won].lobby.Table(fmt.Sprintf("Race%d%c", i, 'a'+won))
		if err != nil {
			t.Fatal(err)
		}
		if err := tb.Close(ctx, "the test closes it"); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "alice's closed table released", func() bool {
			names, err := a.c.Claims(ctx, u.ID)
			return err == nil && len(names) == 1
		})
	}
	// A claim left behind: a table that is not registered.
	if err := b.c.Claim(ctx, u.ID, "Ghost", 0, nil); err != nil {
		t.Fatal(err)
	}
	if code, out := post(t, alice, b.url, "/api/tables", newTable("Second")); code != http.StatusCreated {
		t.Fatalf("alice's second table, a stale claim besides her first: %d %v", code, out)
	}
	if code, out := post(t, alice, a.url, "/api/tables", newTable("Third")); code != http.StatusTooManyRequests {
		t.Fatalf("alice's third table: %d %v, want 429", code, out)
	}
}

// TestStaleReleaseKeepsANewTablesPlace: a node that forgets a closed table
// late (paused past its lease's life after taking it out of the registry)
// releases its owner's place by name; if the owner has opened a new table of
// that name on another node meanwhile, that release must not free the new
// table's place, or the player owns one table more than the bound.
func TestStaleReleaseKeepsANewTablesPlace(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	opt := nodeOptions{maxTables: 2}
	a := startNodeWith(t, ctx, dsn, url, "a", opt)
	b := startNodeWith(t, ctx, dsn, url, "b", opt)
	alice := register(t, a.url, "alice")
	u, _, err := a.h.Player(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if code, out := post(t, alice, b.url, "/api/tables", newTable("Again")); code != http.StatusCreated {
		t.Fatalf("alice's table on b: %d %v", code, out)
	}
	a.tables.unclaim(ctx, u.ID, "again") // a's late release of an earlier table of that name
	if names, err := a.c.Claims(ctx, u.ID); err != nil || len(names) != 1 {
		t.Fatalf("alice's places after a stale release: %v %v, want her open table", names, err)
	}
	if code, out := post(t, alice, a.url, "/api/tables", newTable("Second")); code != http.StatusCreated {
		t.Fatalf("alice's second table: %d %v", code, out)
	}
	if code, out := post(t, alice, a.url, "/api/tables", newTable("Third")); code != http.StatusTooManyRequests {
		t.Fatalf("alice's third table, two open: %d %v, want 429", code, out)
	}
}

// TestNewTableLeavesAMovingTablesLeaseAlone: a table of the house waiting to
// be taken over (registered, its lease free: its node lost) keeps its name,
// and a player asking for a table of that name must not take its lease even
// for a moment: a player repeating the request would otherwise hold the
// lease whenever a node tries to take the table over, and keep its hand in
// play stopped.
func TestNewTableLeavesAMovingTablesLeaseAlone(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNodeWith(t, ctx, dsn, url, "a", nodeOptions{noRun: true}) // no keeper: the table stays unadopted
	reg := registration{Player: json.RawMessage(`{"owner":1}`), Owner: 1}
	if err := a.c.RegisterNew(ctx, "Moving", reg); err != nil {
		t.Fatal(err)
	}
	alice := register(t, a.url, "alice")
	if code, out := post(t, alice, a.url, "/api/tables", newTable("moving")); code != http.StatusConflict {
		t.Fatalf("a table named as one being taken over: %d %v, want 409", code, out)
	}
	js, err := jetstream.New(a.c.Conn())
	if err != nil {
		t.Fatal(err)
	}
	leases, err := js.KeyValue(ctx, "felt_leases")
	if err != nil {
		t.Fatal(err)
	}
	if h, err := leases.History(ctx, cluster.TableKey("Moving")); len(h) > 0 || !errors.Is(err, jetstream.ErrKeyNotFound) {
		t.Fatalf("the moving table's lease was written (%d entries, %v)", len(h), err)
	}
}

// TestAbortedOpenLeavesNothing: a player who hangs up while their new table
// opens (the request's context ends between its claim and its opening) must
// leave nothing behind: no name in the registry, no place among their claims,
// no lease held. Before, the clean-up ran on the ended context and failed at
// its first step: each aborted request kept a name and a place for good (a
// script repeating it reserved names and filled the registry), and the
// player's bound was reached by tables that do not exist.
func TestAbortedOpenLeavesNothing(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	reqCtx, hangUp := context.WithCancel(ctx)
	defer hangUp()
	a := startNodeWith(t, ctx, dsn, url, "a", nodeOptions{maxTables: 1, beforeOpen: func(name string) {
		if name == "Aborted" {
			hangUp()
		}
	}})
	alice := register(t, a.url, "alice")
	u, _, err := a.h.Player(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	reg, err := json.Marshal(map[string]any{"owner": u.ID, "table": newTable("Aborted")})
	if err != nil {
		t.Fatal(err)
	}
	_, cfg, err := a.srv.PlayerTableConfig(reg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.tables.OpenPlayerTable(reqCtx, u.ID, 1, cfg, reg); err == nil {
		t.Fatal("a table opened on a request that hung up")
	}
	if taken, err := a.c.IsRegistered(ctx, "Aborted"); err != nil || taken {
		t.Errorf("the aborted table's name is registered: %v %v", taken, err)
	}
	if names, err := a.c.Claims(ctx, u.ID); err != nil || len(names) != 0 {
		t.Errorf("alice's places after an aborted open: %v %v, want none", names, err)
	}
	if code, out := post(t, alice, a.url, "/api/tables", newTable("Aborted")); code != http.StatusCreated {
		t.Fatalf("alice's table of that name, asked again: %d %v", code, out)
	}
}
