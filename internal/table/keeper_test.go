package table

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/store"
)

// keeperBank is a bank that keeps departures (a DepartureKeeper) in memory,
// or fails to (broken: every write refused, the reads too).
type keeperBank struct {
	*bank
	mu     sync.Mutex
	kept   []store.Departure
	writes int
	broken bool
	// forgets are the ForgetDepartures calls, forgotten the players they
	// named; keeps the KeepDeparture calls.
	forgets, forgotten, keeps int
	// delay is how long each write takes.
	delay time.Duration
}

var errBroken = errors.New("the database is gone")

func (k *keeperBank) KeepDeparture(_ context.Context, ds ...store.Departure) error {
	time.Sleep(k.delay)
	k.mu.Lock()
	defer k.mu.Unlock()
	k.writes++
	k.keeps++
	if k.broken {
		return errBroken
	}
next:
	for _, d := range ds { // as the store: one a player, never replaced by an earlier one
		for i, o := range k.kept {
			if o.UserID == d.UserID {
				if !d.LeftAt.Before(o.LeftAt) {
					k.kept[i] = d
				}
				continue next
			}
		}
		k.kept = append(k.kept, d)
	}
	return nil
}

func (k *keeperBank) ForgetDepartures(_ context.Context, _ string, ids []int64) error {
	time.Sleep(k.delay)
	k.mu.Lock()
	defer k.mu.Unlock()
	k.writes++
	k.forgets++
	k.forgotten += len(ids)
	if k.broken {
		return errBroken
	}
	return nil
}

func (k *keeperBank) Departures(context.Context, string, time.Time, int) ([]store.Departure, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.broken {
		return nil, errBroken
	}
	return k.kept, nil
}

// TestRestartCountsHandsDealtWithout: alice left seat 1 at hand 3 of Main a
// minute before the house restarted. The table opened again numbers its
// hands from 1, so her departure's hand says nothing of the hands dealt
// since: back in seat 1 within sit_out_limit, she waits for the big blind.
// Before, the new table's hand 0 came before her hand 3, and she owed
// nothing though hands had been dealt without her.
func TestRestartCountsHandsDealtWithout(t *testing.T) {
	now := time.Now()
	k := &keeperBank{bank: newBank(1, 2), kept: []store.Departure{{Table: "test", UserID: 1, Seat: 1, Hand: 3,
		LeftAt: now.Add(-time.Minute), ExpiresAt: now.Add(time.Hour), Stack: 200, Bank: time.Second}}}
	tb := mustNew(t, testConfig(k))
	err := tb.call(t.Context(), func() error {
		if owes, _ := tb.owedOnSit(1, 1, time.Now()); !owes {
			t.Error("alice, back in her seat a minute after leaving, before a restart, owes no big blind")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDepartureWriteFailsTablePlaysOn: with the database gone, the table
// opens without the departures it cannot read, and alice standing up gets
// her chips back though her departure is not written (logged); the table
// plays on and remembers it itself.
func TestDepartureWriteFailsTablePlaysOn(t *testing.T) {
	k := &keeperBank{bank: newBank(1), broken: true}
	tb := mustNew(t, testConfig(k))
	alice := Player{ID: 1, Name: "alice"}
	if err := tb.Sit(t.Context(), alice, 1, 2000); err != nil {
		t.Fatal(err)
	}
	if err := tb.Stand(t.Context(), alice); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		k.bank.mu.Lock()
		c := k.bank.credits[1]
		k.bank.mu.Unlock()
		if c == 10_000 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("alice has %d credits after standing up, want 10000", c)
		}
	}
	k.mu.Lock()
	if k.writes != 1 {
		t.Errorf("%d departure writes tried, want 1", k.writes)
	}
	k.mu.Unlock()
	if err := tb.Sit(t.Context(), alice, 1, 200); err == nil {
		t.Error("alice sat down again with 200: the table forgot the departure it could not write")
	}
	checkChips(t, tb)
}

// TestForgottenDeparturesDeletedTogether: the table forgetting 1,000
// departures at once (expired), with each write to the store taking 50 ms,
// has them deleted in a few writes (those queued while the last ran go
// together), not 1,000 in a row (50 s) ahead of the cash-outs queued after
// them.
func TestForgottenDeparturesDeletedTogether(t *testing.T) {
	k := &keeperBank{bank: newBank(), delay: 50 * time.Millisecond}
	tb := mustNew(t, testConfig(k))
	err := tb.call(t.Context(), func() error {
		now := time.Now()
		tb.departed = map[int64]departure{}
		for id := int64(1); id <= maxDeparted; id++ {
			tb.departed[id] = departure{at: now, stack: 1000}
		}
		tb.forget(now.Add(tb.keepDeparted()), maxDeparted)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		k.mu.Lock()
		calls, n := k.forgets, k.forgotten
		k.mu.Unlock()
		if n == maxDeparted {
			if calls > 3 {
				t.Errorf("%d departures forgotten in %d writes, want 3 at most", n, calls)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d departures forgotten in the store, want %d", n, maxDeparted)
		}
	}
}

// TestStaleDepartureRowsDeleted: the store keeps a departure written under
// a return window of a day, left an hour ago, and one left in year 1 that
// expires in a century (corrupt). The table opening again with a window of
// 30 minutes takes up neither, and has both deleted. Before, they were left
// in the store, read again at every opening, the corrupt one forever.
func TestStaleDepartureRowsDeleted(t *testing.T) {
	now := time.Now()
	k := &keeperBank{bank: newBank(1, 2), kept: []store.Departure{
		{Table: "test", UserID: 1, LeftAt: now.Add(-time.Hour), ExpiresAt: now.Add(23 * time.Hour), Stack: 5000, Won: 3000},
		{Table: "test", UserID: 2, LeftAt: time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), ExpiresAt: now.AddDate(100, 0, 0), Stack: 1 << 40},
	}}
	cfg := testConfig(k)
	cfg.ReturnWindow = 30 * time.Minute
	tb := mustNew(t, cfg)
	err := tb.call(t.Context(), func() error {
		if len(tb.departed) != 0 {
			t.Errorf("departures taken up: %+v", tb.departed)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	awaitForgotten(t, k, 2)
}

// TestLoggedTableKeepsDeparturesInTheStore: a table with a log (a house on
// several nodes) keeps its departures in the store too. Alice stands up
// with 2000 and the table closes; a table of its name opens with a fresh
// log (a player's table opened again, on any node), which holds no
// departure, and holds her to the 2000 from the store. Before, a logged
// table kept them in its log alone, and the fresh table let her sit down
// with 200.
func TestLoggedTableKeepsDeparturesInTheStore(t *testing.T) {
	k := &keeperBank{bank: newBank(1)}
	cfg, _, tb, alice := aliceAtLoggedTable(t, k, 2000)
	if err := tb.Stand(t.Context(), alice); err != nil {
		t.Fatal(err)
	}
	if err := tb.Close(t.Context(), "nobody left at the table"); err != nil {
		t.Fatal(err)
	}
	<-tb.Done() // its ledger has written what it had
	cfg.HandLog = &memLog{}
	again := mustNew(t, cfg)
	heldToStack(t, again, alice, "2000")
	checkChips(t, again)
}

// keptOf waits until k keeps a departure of player id, and returns it.
func keptOf(t *testing.T, k *keeperBank, id int64) store.Departure {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		k.mu.Lock()
		for _, d := range k.kept {
			if d.UserID == id {
				k.mu.Unlock()
				return d
			}
		}
		k.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no departure of player %d in the store", id)
		}
	}
}

// heldToStack checks that alice, sitting down at tb with 200, is refused
// with an error naming stack, and sits down with stack.
func heldToStack(t *testing.T, tb *Table, alice Player, stack string) {
	t.Helper()
	if err := tb.Sit(t.Context(), alice, 1, 200); err == nil || !strings.Contains(err.Error(), stack) {
		t.Fatalf("alice sits down with 200: %v, want an error naming the %s she left with", err, stack)
	}
	if err := tb.Sit(t.Context(), alice, 1, 2000); err != nil {
		t.Fatalf("alice sits down again with 2000: %v", err)
	}
}

// aliceAtLoggedTable opens a table with a log (a house on several nodes)
// whose bank is k, and sits alice (player 1) down there with buyIn.
func aliceAtLoggedTable(t *testing.T, k *keeperBank, buyIn int64) (Config, *memLog, *Table, Player) {
	t.Helper()
	log := &memLog{}
	cfg := testConfig(k)
	cfg.HandLog = log
	a := mustNew(t, cfg)
	alice := Player{ID: 1, Name: "alice"}
	if err := a.Sit(t.Context(), alice, 1, buyIn); err != nil {
		t.Fatal(err)
	}
	return cfg, log, a, alice
}

// TestTakeoverAddsTheStoresDepartures: alice stands up with 2000 as her
// table's log starts refusing writes (its node cut off): her departure and
// cash-out reach the store, her departure's note not the log. The node
// taking the table over finds her neither seated nor departed in the log,
// and holds her to the 2000 from the store. Before, a table taken over read
// its log's departures alone, and she sat down with 200.
func TestTakeoverAddsTheStoresDepartures(t *testing.T) {
	k := &keeperBank{bank: newBank(1)}
	cfg, log, a, alice := aliceAtLoggedTable(t, k, 2000)
	log.setRefuse()
	_ = a.Stand(t.Context(), alice) // the log refuses its note: the table stops
	keptOf(t, k, alice.ID)
	<-a.Done()
	bt := takeOver(t, cfg, log, 0, map[int64]int64{})
	heldToStack(t, bt, alice, "2000")
	checkChips(t, bt)
}

// TestTakeoverWritesTheLogsDepartures: alice stands up with 2000 while the
// store refuses writes: her departure is in the table's log alone. The node
// taking the table over (the store back) writes it to the store, so that
// the table, closed and opened again with a fresh log, holds her to it.
// Before, it stayed in the log, which the fresh table does not read, and
// she sat down with 200.
func TestTakeoverWritesTheLogsDepartures(t *testing.T) {
	k := &keeperBank{bank: newBank(1), broken: true}
	cfg, log, a, alice := aliceAtLoggedTable(t, k, 2000)
	if err := a.Stand(t.Context(), alice); err != nil {
		t.Fatal(err)
	}
	lose(t, a, log, false)
	<-a.Done()
	k.mu.Lock()
	k.broken = false
	k.mu.Unlock()
	bt := takeOver(t, cfg, log, 0, map[int64]int64{})
	if d := keptOf(t, k, alice.ID); d.Stack != 2000 {
		t.Fatalf("alice's departure written by the new owner with a stack of %d, want 2000", d.Stack)
	}
	if err := bt.Close(t.Context(), "nobody left at the table"); err != nil {
		t.Fatal(err)
	}
	<-bt.Done()
	cfg.HandLog = &memLog{}
	heldToStack(t, mustNew(t, cfg), alice, "2000")
}

// TestTakeoverDeletesTheRowsOfSeatedPlayers: the store has a departure of
// alice's though she is seated (the lost node's delete, as she sat down
// again, did not land); the table taken over seats her and deletes the
// row, so that a table of its name opened later does not hold her to it.
func TestTakeoverDeletesTheRowsOfSeatedPlayers(t *testing.T) {
	k := &keeperBank{bank: newBank(1)}
	cfg, log, a, alice := aliceAtLoggedTable(t, k, 1000)
	now := time.Now()
	k.mu.Lock()
	k.kept = append(k.kept, store.Departure{Table: "test", UserID: alice.ID, Seat: 1, LeftAt: now.Add(-time.Minute),
		ExpiresAt: now.Add(time.Hour), Stack: 2000})
	k.mu.Unlock()
	lose(t, a, log, false)
	<-a.Done()
	takeOver(t, cfg, log, 0, map[int64]int64{alice.ID: 1000})
	awaitForgotten(t, k, 1)
}

// awaitForgotten waits until the table has had k delete the departures of
// want players.
func awaitForgotten(t *testing.T, k *keeperBank, want int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		k.mu.Lock()
		n := k.forgotten
		k.mu.Unlock()
		if n == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d departures deleted from the store, want %d", n, want)
		}
	}
}

// TestTakeoverPrefersTheStoresLaterDeparture: alice stands up with 1000,
// then sits down again with 2000 (the table keeps her first departure, in
// memory and in every state it logs, while she is seated); she stands up
// with 2000 as the log starts refusing writes: her second departure and
// cash-out reach the store, its note not the log. The node taking the table
// over finds her first departure in the log and her second in the store,
// and holds her to the later one, 2000. Before, where both had one the log's
// won: she sat down with 1000 (at a real table, the 2000 is what she won in
// the hands dealt between the two departures: the state logged at each hand
// still holds her first departure).
func TestTakeoverPrefersTheStoresLaterDeparture(t *testing.T) {
	k := &keeperBank{bank: newBank(1)}
	cfg, log, a, alice := leftOnce(t, k)
	if err := a.Sit(t.Context(), alice, 1, 2000); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		k.mu.Lock()
		n := k.forgotten
		if n == 1 {
			k.kept = nil // the store deletes her row as she sits down again
		}
		k.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("alice's row not deleted as she sat down again")
		}
	}
	time.Sleep(20 * time.Millisecond)
	log.setRefuse()
	_ = a.Stand(t.Context(), alice) // the log refuses its note: the table stops
	if d := keptOf(t, k, alice.ID); d.Stack != 2000 {
		t.Fatalf("alice's second departure kept with %d, want 2000", d.Stack)
	}
	<-a.Done()
	bt := takeOver(t, cfg, log, 0, map[int64]int64{})
	if err := bt.Sit(t.Context(), alice, 1, 1000); err == nil || !strings.Contains(err.Error(), "2000") {
		t.Fatalf("alice sits down at the table taken over with 1000: %v, want an error naming the 2000 she left with last", err)
	}
	if err := bt.Sit(t.Context(), alice, 1, 2000); err != nil {
		t.Fatalf("alice sits down again with 2000: %v", err)
	}
	checkChips(t, bt)
}

// TestTakeoverWritesTheLogsDeparturesTogether: the log of a table taken
// over holds 1,000 departures the store lacks (its writes refused while they
// were made), and each write to the store takes 50 ms. The new owner writes
// them in one write, and bob, standing up at once, has his chips back
// within seconds. Before, it wrote them one by one ahead of every cash-out:
// 50 s before bob's (with a database slow to the 10 s timeout of each
// write, near three hours).
func TestTakeoverWritesTheLogsDeparturesTogether(t *testing.T) {
	k, log := &keeperBank{bank: newBank(2), broken: true}, &memLog{}
	cfg := testConfig(k)
	cfg.HandLog = log
	a := mustNew(t, cfg)
	lose(t, a, log, false)
	<-a.Done()
	log.mu.Lock()
	for id := int64(100); id < 100+maxDeparted; id++ {
		log.base.Departed = append(log.base.Departed, LogDeparture{ID: id, Seat: 1, AgoMS: 1000, Stack: 5000})
	}
	log.mu.Unlock()
	k.mu.Lock()
	k.broken, k.delay, k.writes = false, 50*time.Millisecond, 0
	k.mu.Unlock()
	bt := takeOver(t, cfg, log, 0, map[int64]int64{})
	bob := Player{ID: 2, Name: "bob"}
	if err := bt.Sit(t.Context(), bob, 2, 1000); err != nil {
		t.Fatal(err)
	}
	if err := bt.Stand(t.Context(), bob); err != nil {
		t.Fatal(err)
	}
	creditsBack(t, k, bob.ID, 5*time.Second) // not behind the new owner's writes of the log's departures
	k.mu.Lock()
	defer k.mu.Unlock()
	if n := len(k.kept); n < maxDeparted {
		t.Errorf("%d departures in the store, want the log's %d and bob's", n, maxDeparted)
	}
	if k.keeps > 3 {
		t.Errorf("the log's departures written in %d writes, want 3 at most", k.keeps)
	}
}

// TestTakeoverRewritesTheStoresEarlierDeparture: alice stands up with 1000
// (kept in the store), sits down again (the delete of her row lost) and
// stands up with 2000 while the store refuses writes: the log has her
// departure with 2000, the store her earlier one with 1000. The node taking
// the table over holds her to 2000 and writes it over the store's, so that
// the table, closed and opened again with a fresh log, holds her to 2000
// too. Before, the store kept the earlier departure (it had one for her, so
// the log's was not written), and the fresh table let her sit down with
// 1000.
func TestTakeoverRewritesTheStoresEarlierDeparture(t *testing.T) {
	k := &keeperBank{bank: newBank(1)}
	cfg, log, a, alice := leftOnce(t, k)
	if err := a.Sit(t.Context(), alice, 1, 2000); err != nil { // the keeperBank deletes nothing
		t.Fatal(err)
	}
	setBroken(k, true)
	if err := a.Stand(t.Context(), alice); err != nil {
		t.Fatal(err)
	}
	lose(t, a, log, false)
	<-a.Done()
	setBroken(k, false)
	bt := takeOver(t, cfg, log, 0, map[int64]int64{})
	for deadline := time.Now().Add(10 * time.Second); keptOf(t, k, alice.ID).Stack != 2000; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("alice's departure in the store after the takeover: %+v, want the log's, with 2000", keptOf(t, k, alice.ID))
		}
	}
	if err := bt.Close(t.Context(), "nobody left at the table"); err != nil {
		t.Fatal(err)
	}
	<-bt.Done()
	cfg.HandLog = &memLog{}
	again := mustNew(t, cfg)
	if err := again.Sit(t.Context(), alice, 1, 1000); err == nil || !strings.Contains(err.Error(), "2000") {
		t.Fatalf("alice sits down at the table opened again with 1000: %v, want an error naming the 2000 she left with last", err)
	}
	checkChips(t, again)
}

// TestTakeoverOpensWithTheStoreDown: alice stands up with 1000 and the
// table's node is lost; the store refuses every read and write as the table
// is taken over. The table opens all the same, books bob's cash-out, and
// holds alice to the 1000 of its log.
func TestTakeoverOpensWithTheStoreDown(t *testing.T) {
	k := &keeperBank{bank: newBank(1, 2)}
	cfg, log, a, alice := leftOnce(t, k)
	bob := Player{ID: 2, Name: "bob"}
	lose(t, a, log, false)
	<-a.Done()
	setBroken(k, true)
	bt := takeOver(t, cfg, log, 0, map[int64]int64{})
	if err := bt.Sit(t.Context(), bob, 2, 1000); err != nil {
		t.Fatal(err)
	}
	if err := bt.Stand(t.Context(), bob); err != nil {
		t.Fatal(err)
	}
	creditsBack(t, k, bob.ID, 10*time.Second)
	heldToStack(t, bt, alice, "1000")
	checkChips(t, bt)
}

// leftOnce opens a logged table over k, seats alice with 1000 and stands
// her up, and waits until the store keeps her departure (and a little
// more, so that her next one is later by the clock).
func leftOnce(t *testing.T, k *keeperBank) (cfg Config, log *memLog, a *Table, alice Player) {
	t.Helper()
	cfg, log, a, alice = aliceAtLoggedTable(t, k, 1000)
	if err := a.Stand(t.Context(), alice); err != nil {
		t.Fatal(err)
	}
	if d := keptOf(t, k, alice.ID); d.Stack != 1000 {
		t.Fatalf("alice's first departure kept with %d, want 1000", d.Stack)
	}
	time.Sleep(20 * time.Millisecond)
	return cfg, log, a, alice
}

// setBroken breaks k (every write and read refused) or mends it.
func setBroken(k *keeperBank, broken bool) {
	k.mu.Lock()
	k.broken = broken
	k.mu.Unlock()
}

// creditsBack waits until player id has 10,000 credits again (their
// cash-out booked), failing past within.
func creditsBack(t *testing.T, k *keeperBank, id int64, within time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(within); ; time.Sleep(10 * time.Millisecond) {
		k.bank.mu.Lock()
		c := k.bank.credits[id]
		k.bank.mu.Unlock()
		if c == 10_000 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("player %d has %d credits %v after standing up, want 10000 (the cash-out not booked)", id, c, within)
		}
	}
}
