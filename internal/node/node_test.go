package node

import (
	"cmp"
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/felt-poker/felt/internal/cluster"
	"github.com/felt-poker/felt/internal/cluster/natstest"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/lobby"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/tournament/live"
	"github.com/felt-poker/felt/internal/web"
)

// deadline bounds every wait: generous, never reached when all is well.
const deadline = 60 * time.Second

// sink keeps the last state and the notices a watcher received.
type sink struct {
	mu      sync.Mutex
	last    *table.State
	notices []string
}

func (s *sink) Send(b []byte) {
	var m struct {
		Type  string       `json:"type"`
		Code  string       `json:"code"`
		State *table.State `json:"state"`
	}
	if json.Unmarshal(b, &m) != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch m.Type {
	case "state":
		s.last = m.State
	case "notice":
		s.notices = append(s.notices, m.Code)
	}
}

// toAct returns the last state if it has the watcher to act, or nil.
func (s *sink) toAct() *table.State {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.last; st != nil && st.Hand != nil && st.Hand.Legal != nil && !st.Hand.Over {
		return st
	}
	return nil
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	stop := time.Now().Add(deadline)
	for !cond() {
		if time.Now().After(stop) {
			t.Fatalf("not after %v: %s", deadline, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// testNode is one node of the test's house.
type testNode struct {
	c      *cluster.Node
	h      *house.House
	srv    *web.Server
	lobby  *lobby.Lobby
	tables *Tables
	dir    *Director // with nodeOptions.tournaments
	url    string    // the node's HTTP address
}

// startNode starts a node on the database dsn and the NATS at url, running the
// house table "Main" if its lease is free.
func startNode(t *testing.T, ctx context.Context, dsn, url, name string) *testNode {
	t.Helper()
	return startNodeWith(t, ctx, dsn, url, name, nodeOptions{})
}

// nodeOptions change a test node.
type nodeOptions struct {
	// relay wraps the relay the node's web server uses.
	relay func(web.Relay) web.Relay
	// beforeOpen is Config.beforeOpen.
	beforeOpen func(table string)
	// ttl is the lease TTL (default 1 s): the same on every node of a test.
	ttl time.Duration
	// handLog is Config.handLog.
	handLog func(table.HandLog) table.HandLog
	// tournaments, when it has a sit-and-go, has the node compete for the
	// director lease (Director) with these tournaments; renew is
	// DirectorConfig.renew.
	tournaments live.Config
	renew       func(context.Context, *cluster.Lease) error
	// awaitStop is Config.awaitStop.
	awaitStop func(table string)
	// tables are house tables of the node's config besides Main, alike.
	tables []string
	// noRun leaves Tables.Run to the test.
	noRun bool
	// maxTables is web.Config.MaxTablesPerPlayer.
	maxTables int
	// place has players' new tables placed on the least loaded node
	// (web.TablePlacer), as felt serve does.
	place bool
	// main changes the house table Main's configuration.
	main func(*table.Config)
}

// startNodeWith is startNode with options.
func startNodeWith(t *testing.T, ctx context.Context, dsn, url, name string, opt nodeOptions) *testNode {
	t.Helper()
	st, err := store.OpenPostgres(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	hc := house.DefaultConfig()
	hc.Argon2.Memory, hc.Argon2.Time = 64, 1
	h, err := house.New(st, hc)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.ClaimNode(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Unclaim() })
	log := slog.New(slog.DiscardHandler)
	c, err := cluster.Connect(ctx, cluster.Config{URL: url, Node: name, LeaseTTL: cmp.Or(opt.ttl, time.Second), Timeout: time.Second, Log: log,
		Options: []nats.Option{nats.ReconnectWait(50 * time.Millisecond)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	relay := NewRelay(c, log)
	var wr web.Relay = relay
	if opt.relay != nil {
		wr = opt.relay(relay)
	}
	srv, err := web.New(web.Config{House: h, Log: log, Relay: wr, Tables: table.Config{BotDelay: time.Millisecond, HandPause: 10 * time.Millisecond},
		Tournaments: opt.tournaments, MaxTablesPerPlayer: opt.maxTables})
	if err != nil {
		t.Fatal(err)
	}
	if err := relay.Serve(ctx, srv); err != nil {
		t.Fatal(err)
	}
	ShareLobby(ctx, c, srv.Lobby(), log)
	ts := httptest.NewServer(srv.Handler())
	srv.SetReady()
	n := &testNode{c: c, h: h, srv: srv, lobby: srv.Lobby(), url: ts.URL}
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		ts.Close()
	})
	cfg := srv.TableDefaults(table.Config{Name: "Main", Variant: table.NoLimit, Seats: 2, SmallBlind: 10, BigBlind: 20, MinBuyIn: 200, MaxBuyIn: 2000,
		ActionTime: time.Minute, BotDelay: time.Millisecond, HandPause: 10 * time.Millisecond, Bots: []string{"call"}, Permanent: true})
	if opt.main != nil {
		opt.main(&cfg)
	}
	names := append([]string{"Main"}, opt.tables...)
	n.tables = New(Config{Cluster: c, House: h, Lobby: n.lobby, Names: names, Log: log,
		Table: func(name string) (table.Config, bool) {
			cfg := cfg
			cfg.Name = name
			return cfg, slices.Contains(names, name)
		},
		PlayerTable: srv.PlayerTableConfig, beforeOpen: opt.beforeOpen, handLog: opt.handLog, awaitStop: opt.awaitStop})
	srv.SetTableHost(n.tables)
	var dir *Director
	if len(opt.tournaments.SitAndGos) > 0 {
		dir = NewDirector(DirectorConfig{Cluster: c, House: h, Direct: srv.DirectTournaments, Tables: n.tables, Log: log, renew: opt.renew})
		tr := NewTournamentsRelay(dir, log)
		if err := tr.Serve(ctx, srv.DirectorHandler()); err != nil {
			t.Fatal(err)
		}
		srv.SetTournamentsHost(tr)
	}
	if opt.place {
		srv.SetTablePlacer(n.tables)
		if err := n.tables.ServePlacement(ctx, srv.PlacedHandler()); err != nil {
			t.Fatal(err)
		}
	}
	if err := n.tables.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if !opt.noRun {
		go func() { _ = n.tables.Run(ctx) }()
	}
	if dir != nil {
		n.dir = dir
		dctx, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); n.dir.Run(dctx) }()
		t.Cleanup(func() { stop(); <-done })
	}
	return n
}

// TestNATSDisconnectMovesTheTable cuts the node that runs a table off NATS
// while a player is to act: the node stops the table (paying nobody out), the
// other node takes it over with the hand in play, and the player finishes the
// hand there and stands up with every chip.
func TestNATSDisconnectMovesTheTable(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	srv := natstest.Start(t)
	relay := natstest.NewRelay(t, srv.Addr().String())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := startNode(t, ctx, dsn, relay.URL(), "a")
	b := startNode(t, ctx, dsn, srv.ClientURL(), "b")
	if got := a.tables.Owned(); len(got) != 1 || len(b.tables.Owned()) != 0 {
		t.Fatalf("a runs %v, b %v: want Main on a", got, b.tables.Owned())
	}
	alice, start, ta, sa := aliceToAct(t, ctx, a)
	before := sa.toAct()

	relay.SetCut(true)
	select {
	case <-ta.Done():
	case <-time.After(deadline):
		t.Fatal("a's table runs on after a lost NATS")
	}
	var tb *table.Table
	var err error
	waitFor(t, "b takes Main over", func() bool {
		tb, err = b.lobby.Table("Main")
		return err == nil
	})
	if c, _ := a.h.Credits(ctx, alice.ID); c != start-1000 {
		t.Fatalf("credits after a stopped: %d, want %d (the stack stays at the table)", c, start-1000)
	}
	sb := &sink{}
	if _, err := tb.Watch(ctx, alice, sb); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "alice to act on b", func() bool { return sb.toAct() != nil })
	after := sb.toAct()
	if after.Hand.HandKey != before.Hand.HandKey || after.Seats[after.You.Seat].Cards[0] != before.Seats[before.You.Seat].Cards[0] {
		t.Fatalf("the hand on b is not a's: %+v / %+v", before.Hand, after.Hand)
	}
	if err := tb.Act(ctx, alice, engine.Fold, 0); err != nil {
		t.Fatal(err)
	}
	if err := tb.Leave(ctx, alice); err != nil { // at once, even if the next hand has begun
		t.Fatal(err)
	}
	relay.SetCut(false)
	waitFor(t, "alice cashed out", func() bool {
		c, _ := b.h.Credits(ctx, alice.ID)
		return c != start-1000
	})
	tot, err := b.h.Totals(ctx, alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	if tot.Credits != start+tot.NetWon || tot.HandsPlayed < 1 {
		t.Fatalf("after the move: %d credits, want %d (start %d + net %d); %d hands", tot.Credits, start+tot.NetWon, start, tot.NetWon, tot.HandsPlayed)
	}
	if st := b.c.Stats(); st.Takeovers != 1 {
		t.Errorf("b's stats %+v, want 1 takeover", st)
	}
}

// aliceToAct registers alice on node n, sits her at n's Main with 1,000 chips
// and waits for her turn: her player, her credits before the buy-in, the table
// and what she is sent.
func aliceToAct(t *testing.T, ctx context.Context, n *testNode) (table.Player, int64, *table.Table, *sink) {
	t.Helper()
	u, err := n.h.Register(ctx, house.Registration{Username: "alice", Password: "correct horse", ConfirmedAdult: true})
	if err != nil {
		t.Fatal(err)
	}
	start, _ := n.h.Credits(ctx, u.ID)
	alice := table.Player{ID: u.ID, Name: "alice"}
	ta, err := n.lobby.Table("Main")
	if err != nil {
		t.Fatal(err)
	}
	sa := &sink{}
	if _, err := ta.Watch(ctx, alice, sa); err != nil {
		t.Fatal(err)
	}
	if err := ta.Sit(ctx, alice, -1, 1000); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "alice to act on a", func() bool { return sa.toAct() != nil })
	return alice, start, ta, sa
}
