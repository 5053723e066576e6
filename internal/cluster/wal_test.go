package cluster

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cluster/natstest"
	"github.com/felt-poker/felt/internal/engine"
)

// testAction returns the k-th action of the hand dealt by cfg played with
// seed 7's random choices.
func testAction(t *testing.T, cfg engine.Config, k int) engine.Action {
	t.Helper()
	h, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 7))
	for i := 0; ; i++ {
		if h.Over() {
			t.Fatalf("the hand is over before action %d", k)
		}
		a := randomAction(h, r)
		if i == k {
			return a
		}
		if err := h.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
}

// seatsState is what a table might log beside a hand's configuration.
type seatsState struct {
	Players []string `json:"players"`
}

// TestRebuiltHandEqualsOriginal plays hands action by action, logging each
// before applying it; at every point a reader rebuilds the hand from the log,
// and it equals the original: events, stacks, chips in the pot, and at the end
// the result. An action the engine refuses is logged and skipped on both sides.
func TestRebuiltHandEqualsOriginal(t *testing.T) {
	url, _ := startNATS(t)
	a := connectTTL(t, url, "a", time.Minute)
	ctx := context.Background()
	l, err := a.Acquire(ctx, "Main")
	if err != nil {
		t.Fatal(err)
	}
	w, _, err := a.OpenWAL(ctx, l)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	state := seatsState{Players: []string{"ann", "bob", "cy", "dee", "", "eve"}}
	for hand := int64(1); hand <= 4; hand++ {
		cfg := testHandConfig(uint64(hand))
		if err := w.StartHand(ctx, hand, cfg, state); err != nil {
			t.Fatal(err)
		}
		orig, err := engine.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for !orig.Over() {
			a := randomAction(orig, r)
			if r.IntN(8) == 0 {
				a.Amount = -1 // refused: nothing changes
			}
			if err := w.Action(ctx, a); err != nil {
				t.Fatal(err)
			}
			_ = orig.Apply(a)
			checkRebuild(t, w, hand, orig, state)
		}
		if err := w.EndHand(ctx, state); err != nil {
			t.Fatal(err)
		}
		if hl, err := w.read(ctx); err != nil || hl != nil {
			t.Fatalf("after the hand's end the log holds %+v, %v; want no hand in play", hl, err)
		}
		// Reopened (a new owner, here the same node), the log has no hand in
		// play but the table's state after the last; the old writer is fenced.
		w2, hl, err := a.OpenWAL(ctx, l)
		if err != nil || hl == nil || hl.InPlay || hl.Hand != hand || string(hl.State) != `{"players":["ann","bob","cy","dee","","eve"]}` {
			t.Fatalf("reopened after the hand's end: %+v, %v; want its state and no hand in play", hl, err)
		}
		if err := w.StartHand(ctx, hand+1, cfg, state); !errors.Is(err, ErrFenced) {
			t.Fatalf("the old writer after a reopen: %v, want ErrFenced", err)
		}
		w = w2
	}
}

// checkRebuild reads the log as a new owner would and compares its hand with orig.
func checkRebuild(t *testing.T, w *WAL, hand int64, orig *engine.Hand, state seatsState) {
	t.Helper()
	hl, err := w.read(context.Background())
	if err != nil || hl == nil {
		t.Fatalf("read: %+v, %v", hl, err)
	}
	if hl.Hand != hand || string(hl.State) != `{"players":["ann","bob","cy","dee","","eve"]}` {
		t.Fatalf("hand %d, state %s", hl.Hand, hl.State)
	}
	re, _, err := hl.Rebuild()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(re.Events(), orig.Events()) {
		t.Fatalf("hand %d: rebuilt events differ:\n%v\n%v", hand, re.Events(), orig.Events())
	}
	if !reflect.DeepEqual(re.Result(), orig.Result()) || re.Over() != orig.Over() || re.ToAct() != orig.ToAct() {
		t.Fatalf("hand %d: rebuilt state differs: %+v vs %+v", hand, re.Result(), orig.Result())
	}
	v := re.SpectatorView()
	var sum int64
	for _, s := range v.Seats {
		sum += s.Stack
	}
	pot := v.Pot
	if v.Over {
		pot = 0 // awarded: back in the stacks
	}
	if sum+pot != 5500 {
		t.Fatalf("hand %d: %d chips in stacks and %d in the pot, want 5500 in all", hand, sum, pot)
	}
}

// read reads the log's hand in play without fencing it (a test's look).
func (w *WAL) read(ctx context.Context) (*HandLog, error) {
	last, rec, err := w.lastRecord(ctx)
	if err != nil {
		return nil, err
	}
	switch rec.Kind {
	case recHand:
		return w.readFrom(ctx, last, last)
	case recAction, recFence:
		if rec.HandSeq != 0 {
			return w.readFrom(ctx, rec.HandSeq, last)
		}
	}
	return nil, nil
}

// TestKilledNodeTakenOver kills the node that owns a table mid-hand (its
// connection closed, nothing released): another node's keeper adopts the table
// within the TTL, reads the log and resumes the hand from the action where it
// stopped; the hand then finishes with every chip accounted for, and the lobby
// lists the table under its new node.
func TestKilledNodeTakenOver(t *testing.T) {
	url, _ := startNATS(t)
	const ttl = 2 * time.Second // a's keeper must not lapse before the kill, even on a loaded machine
	a, b := connectTTL(t, url, "a", ttl), connectTTL(t, url, "b", ttl)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := a.Register(ctx, "Main", map[string]int{"seats": 6}); err != nil {
		t.Fatal(err)
	}
	la, err := a.Acquire(ctx, "Main")
	if err != nil {
		t.Fatal(err)
	}
	a.Own(la)
	go func() { _ = a.Run(ctx, nil, nil) }()
	if err := a.List(ctx, la, map[string]string{"name": "Main"}); err != nil {
		t.Fatal(err)
	}
	wa, _, err := a.OpenWAL(ctx, la)
	if err != nil {
		t.Fatal(err)
	}
	cfg := testHandConfig(9)
	orig, _ := engine.New(cfg)
	if err := wa.StartHand(ctx, 1, cfg, nil); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 3 {
		act := randomAction(orig, r)
		if err := wa.Action(ctx, act); err != nil {
			t.Fatal(err)
		}
		if err := orig.Apply(act); err != nil {
			t.Fatal(err)
		}
	}

	var adopted atomic.Pointer[engine.Hand]
	adopt := func(ctx context.Context, l *Lease, reg Registration) error {
		if string(reg.Config) != `{"seats":6}` {
			t.Errorf("registration %s", reg.Config)
		}
		w, hl, err := b.OpenWAL(ctx, l)
		if err != nil || hl == nil {
			return errors.Join(err, errors.New("no hand in play"))
		}
		h, _, err := hl.Rebuild()
		if err != nil {
			return err
		}
		// The hand goes on where it stopped, on b, logged by b.
		for !h.Over() {
			act := randomAction(h, r)
			if err := w.Action(ctx, act); err != nil {
				return err
			}
			_ = h.Apply(act)
		}
		adopted.Store(h)
		return b.List(ctx, l, map[string]string{"name": "Main"})
	}
	go func() { _ = b.Run(ctx, adopt, nil) }()
	if h, err := b.Holder(ctx, "Main"); err != nil || h != "a" {
		t.Fatalf("holder before the kill: %q, %v", h, err)
	}
	killed := time.Now()
	kill(a)
	waitFor(t, "b adopts the table", func() bool { return adopted.Load() != nil })
	t.Logf("taken over %v after the kill (TTL %v)", time.Since(killed).Round(time.Millisecond), ttl)
	h := adopted.Load()
	if !reflect.DeepEqual(h.Events()[:len(orig.Events())], orig.Events()) {
		t.Error("the resumed hand does not begin as the original")
	}
	res := h.Result()
	var sum, net int64
	for i := range res.Stacks {
		sum += res.Stacks[i]
		net += res.Net[i]
	}
	if sum != 5500 || net != 0 {
		t.Errorf("after the takeover: %d chips, net %d; want 5500, 0", sum, net)
	}
	// adopt has returned, or is about to: b owns the table once it has.
	waitFor(t, "b counts 1 takeover, 1 table owned", func() bool {
		st := b.Stats()
		return st.Takeovers == 1 && st.Owned == 1
	})
	waitFor(t, "the lobby lists Main under b", func() bool {
		ls, err := b.Lobby(ctx)
		return err == nil && len(ls) == 1 && ls[0].Node == "b"
	})
}

// TestLobbyListsEveryNode has two nodes list their tables: either node's lobby
// shows all of them, and a lost node's tables leave the lobby within the TTL.
func TestLobbyListsEveryNode(t *testing.T) {
	url, _ := startNATS(t)
	a, b := connect(t, url, "a"), connect(t, url, "b")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, x := range []struct {
		n     *Node
		table string
	}{{a, "one"}, {a, "two"}, {b, "three"}} {
		l, err := x.n.Acquire(ctx, x.table)
		if err != nil {
			t.Fatal(err)
		}
		x.n.Own(l)
		if err := x.n.List(ctx, l, map[string]int{"seats": 6}); err != nil {
			t.Fatal(err)
		}
	}
	go func() { _ = a.Run(ctx, nil, nil) }()
	go func() { _ = b.Run(ctx, nil, nil) }()
	// Polled: on a loaded machine an entry may expire before its keeper's
	// first refresh, and come back with it.
	for _, n := range []*Node{a, b} {
		waitFor(t, n.Name()+"'s lobby lists every table", func() bool {
			ls, err := n.Lobby(ctx)
			return err == nil && len(ls) == 3 && ls[0].Table == "one" && ls[0].Node == "a" && ls[1].Node == "b" && string(ls[2].Info) == `{"seats":6}`
		})
	}
	time.Sleep(2 * testTTL) // the keepers refresh the listings past their TTL
	waitFor(t, "the lobby lists every table after 2 TTLs", func() bool {
		ls, _ := b.Lobby(ctx)
		return len(ls) == 3
	})
	kill(a)
	waitFor(t, "a's tables leave the lobby", func() bool {
		ls, err := b.Lobby(ctx)
		return err == nil && len(ls) == 1 && ls[0].Table == "three"
	})
}

// TestNATSDisconnect cuts a node off NATS (a network partition): its keeper
// reports the lease lost once its local deadline passes, another node takes
// the table, and when the connection comes back the old owner's renewal and
// writes are refused.
func TestNATSDisconnect(t *testing.T) {
	_, addr := startNATS(t)
	p := natstest.NewRelay(t, addr)
	a, b := connect(t, p.URL(), "a"), connect(t, "nats://"+addr, "b")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	la, err := a.Acquire(ctx, "Main")
	if err != nil {
		t.Fatal(err)
	}
	wa, _, err := a.OpenWAL(ctx, la)
	if err != nil {
		t.Fatal(err)
	}
	a.Own(la)
	var lost atomic.Bool
	go func() { _ = a.Run(ctx, nil, func(l *Lease) { lost.Store(l == la) }) }()
	p.SetCut(true)
	waitFor(t, "a's keeper reports the lease lost", lost.Load)
	if err := wa.StartHand(ctx, 1, testHandConfig(1), nil); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("a write once the lease is lost: %v, want ErrLeaseLost", err)
	}
	acquireWhenFree(t, b, "Main")
	p.SetCut(false)
	waitFor(t, "a reconnects", a.Connected)
	if err := la.Renew(ctx); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("renewal after the partition: %v, want ErrLeaseLost", err)
	}
	if a.Owns("Main") || a.Stats().Lost != 1 {
		t.Errorf("a still owns the table (stats %+v)", a.Stats())
	}
}

// TestClosedLogStaysClosed closes a table's log mid-hand: every later owner,
// each fencing the log in turn, finds the table closed, with no hand to
// resume; a new table of the same name opens afresh once the log is forgotten.
func TestClosedLogStaysClosed(t *testing.T) {
	url, _ := startNATS(t)
	n := connectTTL(t, url, "a", time.Minute)
	ctx := context.Background()
	l := acquireWhenFree(t, n, "Shut")
	w, _, err := n.OpenWAL(ctx, l)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.StartHand(ctx, 1, testHandConfig(4), map[string]int{"seats": 6}); err != nil {
		t.Fatal(err)
	}
	if err := w.Closed(ctx); err != nil {
		t.Fatal(err)
	}
	for owner := range 2 {
		if err := l.Release(ctx); err != nil {
			t.Fatal(err)
		}
		l = acquireWhenFree(t, n, "Shut")
		_, hl, err := n.OpenWAL(ctx, l)
		if err != nil || hl == nil || !hl.Closed || hl.InPlay {
			t.Fatalf("owner %d after the close: %+v, %v; want closed, no hand", owner+2, hl, err)
		}
	}
	if err := n.ForgetWAL(ctx, l); err != nil {
		t.Fatal(err)
	}
	if _, hl, err := n.OpenWAL(ctx, l); err != nil || hl != nil {
		t.Fatalf("a forgotten log: %+v, %v; want empty", hl, err)
	}
}

// TestNotesFollowTheState writes notes between a table's hand records and
// reopens the log, as new owners do, again and again: each new owner reads
// every note written since the table's last state (a hand's start or end, an
// open), by every owner before it, in order, with how many of the hand's
// actions came before each and when each was written; notes written before
// the last state are not read again; and the turn of the seat to act is
// found where it began.
func TestNotesFollowTheState(t *testing.T) {
	url, _ := startNATS(t)
	a := connectTTL(t, url, "a", time.Minute)
	ctx := context.Background()
	l, err := a.Acquire(ctx, "Main")
	if err != nil {
		t.Fatal(err)
	}
	w, _, err := a.OpenWAL(ctx, l)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Note(ctx, "before any state"); err != nil {
		t.Fatal(err)
	}
	state := seatsState{Players: []string{"ann", "bob"}}
	if err := w.Opened(ctx, state); err != nil {
		t.Fatal(err)
	}
	notes := func(hl *HandLog) (out []string) {
		for _, n := range hl.Notes {
			out = append(out, string(n.Data))
		}
		return out
	}
	// Between hands: notes after the open, read through two reopenings.
	for _, n := range []string{"one", "two"} {
		if err := w.Note(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	for k := range 2 {
		w2, hl, err := a.OpenWAL(ctx, l)
		if err != nil || hl == nil || hl.InPlay || string(hl.State) != `{"players":["ann","bob"]}` {
			t.Fatalf("reopened %d between hands: %+v, %v", k, hl, err)
		}
		want := []string{`"one"`, `"two"`}
		if k == 1 {
			want = append(want, `"three"`)
		}
		if got := notes(hl); !reflect.DeepEqual(got, want) || hl.LastAt.Before(hl.StateAt) {
			t.Fatalf("reopened %d between hands: notes %v, want %v (state at %v, last at %v)", k, got, want, hl.StateAt, hl.LastAt)
		}
		w = w2
		if k == 0 {
			if err := w.Note(ctx, "three"); err != nil {
				t.Fatal(err)
			}
		}
	}
	// In a hand: the notes of the hand, after their actions.
	cfg := testHandConfig(1)
	if err := w.StartHand(ctx, 1, cfg, state); err != nil {
		t.Fatal(err)
	}
	if err := w.Note(ctx, "dealt"); err != nil {
		t.Fatal(err)
	}
	if err := w.Action(ctx, testAction(t, cfg, 0)); err != nil {
		t.Fatal(err)
	}
	if err := w.Note(ctx, "acted"); err != nil {
		t.Fatal(err)
	}
	w2, hl, err := a.OpenWAL(ctx, l)
	if err != nil || hl == nil || !hl.InPlay {
		t.Fatalf("reopened in the hand: %+v, %v", hl, err)
	}
	if got := notes(hl); !reflect.DeepEqual(got, []string{`"dealt"`, `"acted"`}) || hl.Notes[0].Actions != 0 || hl.Notes[1].Actions != 1 {
		t.Fatalf("reopened in the hand: notes %+v", hl.Notes)
	}
	if _, _, err := hl.Rebuild(); err != nil || hl.TurnActions != 1 || !hl.TurnAt.Equal(hl.ActionAt[0]) {
		t.Fatalf("the turn after one action: after %d actions at %v (%v), want 1 at %v", hl.TurnActions, hl.TurnAt, err, hl.ActionAt)
	}
	if err := w.Note(ctx, "stale"); !errors.Is(err, ErrFenced) {
		t.Errorf("a note of the former owner: %v, want ErrFenced", err)
	}
	if err := w2.EndHand(ctx, state); err != nil {
		t.Fatal(err)
	}
	_, hl, err = a.OpenWAL(ctx, l)
	if err != nil || hl == nil || hl.InPlay || len(hl.Notes) != 0 {
		t.Fatalf("reopened after the hand's end: %+v, %v; want its state, no notes", hl, err)
	}
}
