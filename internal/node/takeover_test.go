package node

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cluster/natstest"
	"github.com/felt-poker/felt/internal/store/storetest"
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
