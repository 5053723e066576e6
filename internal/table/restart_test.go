package table

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// oneNode is a house on one node as felt serve opens it: its database
// opened, claimed, and the stacks left at tables by a house killed returned
// (House.Recover).
type oneNode struct {
	st store.Store
	h  *house.House
}

func openOneNode(t *testing.T, dsn string) *oneNode {
	t.Helper()
	ctx := t.Context()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg := house.DefaultConfig()
	cfg.Argon2 = house.Argon2Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}
	h, err := house.New(st, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Claim(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	return &oneNode{st: st, h: h}
}

// table opens the house's table "Main" (MinBuyIn 200, MaxBuyIn 2000).
func (n *oneNode) table(t *testing.T) *Table {
	cfg := testConfig(n.h)
	cfg.Name = "Main"
	return mustNew(t, cfg)
}

func (n *oneNode) player(t *testing.T, name string) Player {
	t.Helper()
	u, err := n.h.Register(t.Context(), house.Registration{Username: name, Password: "correct horse", ConfirmedAdult: true})
	if err != nil {
		t.Fatal(err)
	}
	return Player{ID: u.ID, Name: name}
}

// credits waits until p has want credits (a cash-out booked), or fails.
func (n *oneNode) credits(t *testing.T, p Player, want int64) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		got, err := n.h.Credits(t.Context(), p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s has %d credits, want %d", p.Name, got, want)
		}
	}
}

// kept waits until the store keeps the departures of players want from
// table, and no other, or fails.
func (n *oneNode) kept(t *testing.T, table string, want []int64) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		ds, err := n.st.Departures(t.Context(), table, time.Now(), 1000)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, d := range ds {
			got = append(got, d.UserID)
		}
		slices.Sort(got)
		if slices.Equal(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the store keeps the departures of %v from %s, want %v", got, table, want)
		}
	}
}

// conserved checks that every chip the house granted is in its players'
// credits or at its tables.
func (n *oneNode) conserved(t *testing.T, players ...Player) {
	t.Helper()
	var sum int64
	for _, p := range players {
		c, err := n.h.Credits(t.Context(), p.ID)
		if err != nil {
			t.Fatal(err)
		}
		at, err := n.st.ChipsAtTables(t.Context(), p.ID)
		if err != nil {
			t.Fatal(err)
		}
		sum += c + at
	}
	if want := int64(len(players)) * house.DefaultConfig().SignupCredits; sum != want {
		t.Errorf("credits and chips at tables come to %d, want the %d granted", sum, want)
	}
}

// departureRestart: alice sits down at Main with 2000 and stands up (her
// 2000 back in her credits); carol sits down with 2000 and stays. The house
// stops (gracefully, or killed: crash), and starts again on the same
// database. At Main again alice may sit down only with the 2000 she left
// with; carol, whose seat the house itself closed, with the minimum.
// Before, the restart forgot alice's departure: she sat down with 200.
func departureRestart(t *testing.T, dsn string, crash bool) {
	n := openOneNode(t, dsn)
	tb := n.table(t)
	alice, carol := n.player(t, "alice"), n.player(t, "carol")
	if err := tb.Sit(t.Context(), alice, 1, 2000); err != nil {
		t.Fatal(err)
	}
	if err := tb.Stand(t.Context(), alice); err != nil {
		t.Fatal(err)
	}
	n.credits(t, alice, 10_000) // booked after her departure was written
	if err := tb.Sit(t.Context(), carol, 2, 2000); err != nil {
		t.Fatal(err)
	}
	checkChips(t, tb)
	n.kept(t, "main", []int64{alice.ID})
	if crash {
		// kill -9: nothing closes; the table is abandoned as it is.
		if err := n.h.Unclaim(); err != nil {
			t.Fatal(err)
		}
	} else {
		if err := tb.Close(t.Context(), "the house is shutting down"); err != nil {
			t.Fatal(err)
		}
		if err := n.h.Flush(t.Context()); err != nil {
			t.Fatal(err)
		}
		checkChips(t, tb)
		n.kept(t, "main", []int64{alice.ID}) // carol's seat closed by the house: no departure
		n.h.Unclaim()
		n.st.Close()
	}

	n = openOneNode(t, dsn)
	n.credits(t, carol, 10_000) // returned at the shutdown, or by Recover
	tb = n.table(t)
	err := tb.Sit(t.Context(), alice, 1, 200)
	var fe *house.FieldError
	if !errors.As(err, &fe) || fe.Field != "buy_in" || !strings.Contains(err.Error(), "2000") {
		t.Errorf("alice sits down again after the restart with 200: %v, want a buy_in error naming the 2000 she left with", err)
	}
	if err := tb.Sit(t.Context(), carol, 2, 200); err != nil {
		t.Errorf("carol, whose seat the house closed, sits down again with 200: %v", err)
	}
	if err := tb.Sit(t.Context(), alice, 1, 2000); err != nil {
		t.Errorf("alice sits down again with 2000: %v", err)
	}
	// Back with her stack, she is held to nothing by the next restart.
	n.kept(t, "main", nil)
	checkChips(t, tb)
	n.conserved(t, alice, carol)
}

func TestRestartKeepsTheStackLeft(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { departureRestart(t, filepath.Join(t.TempDir(), "felt.db"), false) })
	t.Run("postgres", func(t *testing.T) { departureRestart(t, storetest.PostgresDSN(t), false) })
}

func TestKillNineKeepsTheStackLeft(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { departureRestart(t, filepath.Join(t.TempDir(), "felt.db"), true) })
	t.Run("postgres", func(t *testing.T) { departureRestart(t, storetest.PostgresDSN(t), true) })
}

// leavingThenShutdown: dave, dealt in against a bot, stands up during the
// hand (he leaves at its end), and the house shuts down before it ends: the
// hand is cancelled and his 2000 paid back with the others' seats, but he
// had asked to leave. After the restart he may sit down at Main again only
// with those 2000. Before, the restart forgot his departure.
func leavingThenShutdown(t *testing.T, dsn string) {
	n := openOneNode(t, dsn)
	cfg := testConfig(n.h, "call")
	cfg.Name = "Main"
	tb := mustNew(t, cfg)
	dave, c := n.player(t, "dave"), &client{}
	if _, err := tb.Watch(t.Context(), dave, c); err != nil {
		t.Fatal(err)
	}
	if err := tb.Sit(t.Context(), dave, 1, 2000); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if s := c.last(t); s.Hand != nil && !s.Hand.Over && s.Seats[1].InHand {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no hand dealt to dave")
		}
	}
	if err := tb.Stand(t.Context(), dave); err != nil {
		t.Fatal(err)
	}
	if err := tb.Close(t.Context(), "the house is shutting down"); err != nil {
		t.Fatal(err)
	}
	checkChips(t, tb)
	if err := n.h.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	n.credits(t, dave, 10_000)
	n.kept(t, "main", []int64{dave.ID})
	n.h.Unclaim()
	n.st.Close()

	n = openOneNode(t, dsn)
	tb = n.table(t)
	err := tb.Sit(t.Context(), dave, 1, 200)
	var fe *house.FieldError
	if !errors.As(err, &fe) || fe.Field != "buy_in" || !strings.Contains(err.Error(), "2000") {
		t.Errorf("dave sits down again after the restart with 200: %v, want a buy_in error naming the 2000 he left with", err)
	}
	n.conserved(t, dave)
}

func TestLeavingBeforeTheShutdownKeepsTheStackLeft(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { leavingThenShutdown(t, filepath.Join(t.TempDir(), "felt.db")) })
	t.Run("postgres", func(t *testing.T) { leavingThenShutdown(t, storetest.PostgresDSN(t)) })
}

// TestClosedAndReopenedTableKeepsTheStackLeft: alice stands up from Main
// with 2000; Main is closed (as a player's table closes once nobody is
// left at it) and a table "MAIN" opens in its place with other stakes (buy-ins 100 to 400),
// with no restart. Alice is held to the 2000 she left with there, in any
// case of the name: closing a table and opening it again is no way round
// the rule (a table's name is its identity in the store, as in the lobby).
func TestClosedAndReopenedTableKeepsTheStackLeft(t *testing.T) {
	n := openOneNode(t, filepath.Join(t.TempDir(), "felt.db"))
	tb := n.table(t)
	alice := n.player(t, "alice")
	if err := tb.Sit(t.Context(), alice, 1, 2000); err != nil {
		t.Fatal(err)
	}
	if err := tb.Stand(t.Context(), alice); err != nil {
		t.Fatal(err)
	}
	if err := tb.Close(t.Context(), "nobody left at the table"); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(n.h)
	cfg.Name, cfg.MinBuyIn, cfg.MaxBuyIn = "MAIN", 100, 400
	again := mustNew(t, cfg)
	err := again.Sit(t.Context(), alice, 2, 400)
	var fe *house.FieldError
	if !errors.As(err, &fe) || fe.Field != "buy_in" || !strings.Contains(err.Error(), "2000") {
		t.Errorf("alice sits down at MAIN with 400: %v, want a buy_in error naming the 2000 she left Main with", err)
	}
	if err := again.Sit(t.Context(), alice, 2, 2000); err != nil {
		t.Errorf("alice sits down at MAIN with 2000: %v", err)
	}
	checkChips(t, again)
	n.conserved(t, alice)
}
