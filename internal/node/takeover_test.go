package node

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cluster/natstest"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/web"
)

// awaitSpy is a relay that says when a message waits for a table being opened.
type awaitSpy struct {
	web.Relay
	waiting chan string
}

func (s *awaitSpy) AwaitOpen(ctx context.Context, name string) bool {
	select {
	case s.waiting <- name:
	default:
	}
	return s.Relay.AwaitOpen(ctx, name)
}

// nextReply returns the reply to the message of id on c, or an error.
func (c *wsClient) nextReply(ctx context.Context, id float64) (map[string]any, error) {
	for {
		_, b, err := c.ws.Read(ctx)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if json.Unmarshal(b, &m) == nil && reply(id)(m) {
			return m, nil
		}
	}
}

// TestWatchDuringTakeover watches a table in the moment between its new
// node's lease and its opening there (held open by a hook): the node does
// not count the table as its own yet, and a watch from a player on that node
// and one relayed from another node both wait for the table and find it,
// instead of being told there is no such table.
func TestWatchDuringTakeover(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	reached, proceed := make(chan struct{}), make(chan struct{})
	var once sync.Once
	spy := &awaitSpy{waiting: make(chan string, 8)}
	// A lease that outlives a slow test: the takeover comes from a's handover.
	const ttl = 30 * time.Second
	a := startNodeWith(t, ctx, dsn, url, "a", nodeOptions{ttl: ttl})
	b := startNodeWith(t, ctx, dsn, url, "b", nodeOptions{
		ttl:   ttl,
		relay: func(r web.Relay) web.Relay { spy.Relay = r; return spy },
		beforeOpen: func(string) {
			once.Do(func() { close(reached); <-proceed })
		}})
	if len(a.tables.Owned()) != 1 {
		t.Fatal("want Main on a")
	}
	onA := dial(t, ctx, a.url, "ann")
	onB := dial(t, ctx, b.url, "ben")
	if err := a.tables.HandOver(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-reached: // b holds Main's lease; the table is not open there
	case <-ctx.Done():
		t.Fatal("b did not take Main's lease")
	}
	if st := b.c.Stats(); st.Owned != 0 {
		t.Errorf("b counts %d tables owned before opening Main", st.Owned)
	}
	// Each watch waits on b until the table is open there (from a player on
	// b, and relayed from a player on a), unless it is answered at once.
	type answer struct {
		m   map[string]any
		err error
	}
	replies := make(chan answer, 2)
	for _, c := range []*wsClient{onB, onA} {
		c.send(ctx, `{"type":"watch","table":"Main","id":1}`)
		go func() {
			m, err := c.nextReply(ctx, 1)
			replies <- answer{m, err}
		}()
		select {
		case r := <-replies:
			t.Fatalf("a watch answered while Main is being opened: %v %v", r.m, r.err)
		case <-spy.waiting:
		case <-ctx.Done():
			t.Fatal("the watch neither waited nor was answered")
		}
	}
	close(proceed)
	for range 2 {
		if r := <-replies; r.err != nil || r.m["type"] != "ok" {
			t.Fatalf("a watch during the takeover: %v %v, want ok", r.m, r.err)
		}
	}
	if st := b.c.Stats(); st.Owned != 1 {
		t.Errorf("b counts %d tables owned after opening Main", st.Owned)
	}
}

// TestTakeoverKeepsTheSeatsState loses the node running Main (cut off NATS,
// or handing its tables over as on SIGTERM) while alice is to act, 4 s into
// her turn, after she chose to run it twice, bob joined the waiting list and
// she said a line in the room chat: on the node that takes the table over,
// her clock goes on from where her node's last record left it (4 s used, a
// takeover grace of 1 ms), not from a fresh turn; she still runs it twice,
// bob is still waiting, and a new watcher is sent her line.
func TestTakeoverKeepsTheSeatsState(t *testing.T) {
	for _, sigterm := range []bool{false, true} {
		t.Run(map[bool]string{false: "lost", true: "sigterm"}[sigterm], func(t *testing.T) { takeoverKeepsTheSeatsState(t, sigterm) })
	}
}

func takeoverKeepsTheSeatsState(t *testing.T, sigterm bool) {
	dsn := storetest.PostgresDSN(t)
	srv := natstest.Start(t)
	relay := natstest.NewRelay(t, srv.Addr().String())
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	// A TTL that a starved test process does not lose during the 4 s.
	opt := nodeOptions{ttl: 5 * time.Second, main: func(c *table.Config) { c.RunItTwice, c.TakeoverGrace = true, time.Millisecond }}
	a := startNodeWith(t, ctx, dsn, relay.URL(), "a", opt)
	b := startNodeWith(t, ctx, dsn, srv.ClientURL(), "b", opt)
	alice, _, ta, sa := aliceToAct(t, ctx, a)
	full := time.Duration(sa.toAct().Hand.Clock.RemainingMS) * time.Millisecond
	u, err := a.h.Register(ctx, house.Registration{Username: "bob", Password: "correct horse", ConfirmedAdult: true})
	if err != nil {
		t.Fatal(err)
	}
	bob, yes := table.Player{ID: u.ID, Name: "bob"}, true
	if _, err := ta.JoinWaitlist(ctx, bob, ""); err != nil {
		t.Fatal(err)
	}
	if err := ta.SetOptions(ctx, alice, table.Options{RunTwice: &yes}); err != nil {
		t.Fatal(err)
	}
	if err := ta.Chat(ctx, alice, "", "still thinking"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(4 * time.Second)
	if sigterm {
		if err := a.tables.HandOver(ctx); err != nil {
			t.Fatal(err)
		}
	} else {
		// Her node's last record before it is lost, 4 s into her turn.
		if err := ta.Chat(ctx, alice, "", "hmm"); err != nil {
			t.Fatal(err)
		}
		relay.SetCut(true)
		defer relay.SetCut(false)
	}
	select {
	case <-ta.Done():
	case <-ctx.Done():
		t.Fatal("a's table runs on")
	}
	var tb *table.Table
	waitFor(t, "b takes Main over", func() bool {
		tb, err = b.lobby.Table("Main")
		return err == nil
	})
	sb := &chatSink{}
	if _, err := tb.Watch(ctx, alice, sb); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "alice to act on b", func() bool { return sb.toAct() != nil })
	st := sb.toAct()
	if left := time.Duration(st.Hand.Clock.RemainingMS) * time.Millisecond; left > full-3*time.Second {
		t.Errorf("alice has %v to act after the takeover, %v at the start of her turn 4 s before: her clock began again", left, full)
	}
	if !st.You.RunTwice || !slices.Equal(st.Waitlist, []string{"bob"}) {
		t.Errorf("after the takeover: run it twice %v, waiting %v; want true, bob", st.You.RunTwice, st.Waitlist)
	}
	if got := sb.said(); len(got) == 0 || got[0] != "still thinking" {
		t.Errorf("the room chat after the takeover: %q, want alice's lines", got)
	}
}

// chatSink is a sink that keeps the room chat's lines too.
type chatSink struct {
	sink
	lines []string
}

func (s *chatSink) Send(b []byte) {
	var l struct{ Type, Text string }
	if json.Unmarshal(b, &l) == nil && l.Type == "chat" {
		s.mu.Lock()
		s.lines = append(s.lines, l.Text)
		s.mu.Unlock()
	}
	s.sink.Send(b)
}

func (s *chatSink) said() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.lines)
}
