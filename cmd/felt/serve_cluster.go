package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/felt-poker/felt/internal/cluster"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/node"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/web"
	"github.com/prometheus/client_golang/prometheus"
)

// clusterFlags are felt serve's flags of a house on several nodes
// (docs/scaling.md).
type clusterFlags struct {
	NATS     string        `name:"nats" env:"FELT_NATS" placeholder:"URL" help:"Join a house on several nodes through this NATS server with JetStream (nats://host:4222; needs --db postgres://...). docs/scaling.md."`
	Node     string        `name:"node" env:"FELT_NODE" help:"This node's name in the house (default host-pid); with --nats."`
	LeaseTTL time.Duration `name:"lease-ttl" default:"10s" env:"FELT_LEASE_TTL" help:"How long a lost node's tables wait before another node takes them over; with --nats."`
}

// checkCluster checks the cluster flags: --nats needs PostgreSQL (every node
// shares its accounts and ledger) and a NATS URL.
func (f *clusterFlags) checkCluster(db string) error {
	if f.NATS == "" {
		if f.Node != "" {
			return usageError("--node goes with --nats")
		}
		return nil
	}
	if db == "" || !(strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")) {
		return usageError("--nats needs --db postgres://...: the nodes of a house share one PostgreSQL database (SQLite is one machine's)")
	}
	for _, u := range strings.Split(f.NATS, ",") {
		p, err := url.Parse(strings.TrimSpace(u))
		if err != nil || p.Host == "" || !(p.Scheme == "nats" || p.Scheme == "tls" || p.Scheme == "ws" || p.Scheme == "wss") {
			return usageError("--nats %q: want nats://host:port (or tls://, ws://, wss://), several separated by commas", u)
		}
	}
	cfg := cluster.Config{URL: f.NATS, Node: f.Node, LeaseTTL: f.LeaseTTL}
	if f.LeaseTTL < time.Second || f.LeaseTTL > 10*time.Minute {
		return usageError("--lease-ttl %v: want 1s to 10m", f.LeaseTTL)
	}
	if err := cfg.Validate(); err != nil {
		return usageError("%v", err)
	}
	return nil
}

// houseNode is this process's membership of a house on several nodes; nil
// for a house on one node, and every method then does nothing.
type houseNode struct {
	n      *cluster.Node
	tables *node.Tables
	relay  *node.Relay
	dir    *node.Director // competes for the tournaments' director lease
	log    *slog.Logger
}

// joinCluster connects to NATS when --nats is given.
func (f *clusterFlags) joinCluster(ctx context.Context, log *slog.Logger) (*houseNode, error) {
	if f.NATS == "" {
		return nil, nil
	}
	n, err := cluster.Connect(ctx, cluster.Config{URL: f.NATS, Node: f.Node, LeaseTTL: f.LeaseTTL, Log: log})
	if err != nil {
		return nil, err
	}
	log.Info("joined the house's cluster", "nats", f.NATS, "node", n.Name(), "lease_ttl", f.LeaseTTL)
	return &houseNode{n: n, relay: node.NewRelay(n, log), log: log}, nil
}

// claim claims the database for this process: alone, or as one of the nodes.
func (hn *houseNode) claim(ctx context.Context, h *house.House) error {
	if hn == nil {
		return h.Claim(ctx)
	}
	return h.ClaimNode(ctx)
}

// webConfig adds the node's health check and metrics to the server's.
func (hn *houseNode) webConfig(c web.Config) web.Config {
	if hn == nil {
		return c
	}
	c.Checks = map[string]func(context.Context) error{"NATS": hn.n.Ping}
	c.Collectors = append([]prometheus.Collector{}, hn.n.Collectors()...)
	c.Relay = hn.relay
	return c
}

// serveRelay answers the messages other nodes relay to this node's tables,
// and shares the lobby's chat and players online with the other nodes (once
// the chat's last lines are in).
func (hn *houseNode) serveRelay(ctx context.Context, srv *web.Server) error {
	if hn == nil {
		return nil
	}
	if err := hn.relay.Serve(ctx, srv); err != nil {
		return err
	}
	node.ShareLobby(ctx, hn.n, srv.Lobby(), hn.log)
	return nil
}

// openTables opens the house's own tables (none with --no-bots): every one on
// a single node; on a node of several, those whose lease it gets (the others
// run elsewhere), and the node takes part in the cluster's lobby and takeovers
// even with --no-bots.
func (hn *houseNode) openTables(ctx context.Context, hc *houseConfig, h *house.House, srv *web.Server, noBots bool) error {
	if hn == nil && noBots {
		return nil
	}
	configs := map[string]table.Config{}
	var names []string
	for i := range hc.Tables {
		tc, err := hc.table(i, h)
		if err != nil {
			return usageError("config: %v", err)
		}
		tc = srv.TableDefaults(tc)
		switch {
		case hn != nil:
			configs[strings.ToLower(tc.Name)] = tc
			if !noBots {
				names = append(names, tc.Name)
			}
		case !noBots:
			if _, err := srv.Lobby().Open(tc); err != nil {
				return fmt.Errorf("default table %s: %w", tc.Name, err)
			}
		}
	}
	if hn == nil {
		return nil
	}
	hn.tables = node.New(node.Config{Cluster: hn.n, House: h, Lobby: srv.Lobby(), Names: names, Log: hn.log,
		Table: func(name string) (table.Config, bool) {
			tc, ok := configs[strings.ToLower(name)]
			return tc, ok
		},
		PlayerTable: srv.PlayerTableConfig})
	srv.SetTableHost(hn.tables)   // players' tables are the house's too
	srv.SetTablePlacer(hn.tables) // and spread over its nodes
	if err := hn.tables.Start(ctx); err != nil {
		return err
	}
	hn.log.Info("house tables on this node", "tables", hn.tables.Owned(), "of", len(names))
	return nil
}

// run keeps the node's leases until ctx is done, and has the node compete
// for the tournaments' director lease: the node that holds it directs the
// house's tournaments (docs/scaling.md, "Tournaments").
func (hn *houseNode) run(ctx context.Context, h *house.House, srv *web.Server) error {
	if hn == nil || hn.tables == nil {
		return nil
	}
	go func() { _ = hn.tables.Run(ctx) }()
	if err := hn.tables.ServePlacement(ctx, srv.PlacedHandler()); err != nil {
		return err
	}
	hn.dir = node.NewDirector(node.DirectorConfig{Cluster: hn.n, House: h, Direct: srv.DirectTournaments, Tables: hn.tables, Log: hn.log})
	tr := node.NewTournamentsRelay(hn.dir, hn.log)
	if err := tr.Serve(ctx, srv.DirectorHandler()); err != nil {
		return err
	}
	srv.SetTournamentsHost(tr)
	go hn.dir.Run(ctx)
	return nil
}

// releaseDirector gives the director lease up once the server has shut down
// (its director stored its last steps): another node directs at once.
func (hn *houseNode) releaseDirector(ctx context.Context) error {
	if hn == nil || hn.dir == nil {
		return nil
	}
	return hn.dir.Release(ctx)
}

// handOver gives the node's tables to the other nodes before the house shuts
// down: no stack is paid out, the hands in play go on elsewhere.
func (hn *houseNode) handOver(ctx context.Context) error {
	if hn == nil || hn.tables == nil {
		return nil
	}
	hn.log.Info("handing this node's tables over to the other nodes")
	return hn.tables.HandOver(ctx)
}

// close leaves the cluster.
func (hn *houseNode) close() {
	if hn == nil {
		return
	}
	if err := hn.n.Close(); err != nil {
		hn.log.Warn("leaving the cluster", "err", err)
	}
}
