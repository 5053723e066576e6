package node

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

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
