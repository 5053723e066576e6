package node

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/cluster"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/tournament/live"
)

// DirectorRole is the role of the node that directs the house's tournaments:
// its lease is the key cluster.RoleKey(DirectorRole) of the lease bucket, which
// no table name gives.
const DirectorRole = "tournaments"

// abandonTimeout bounds the closing of an abandoned director's tables.
const abandonTimeout = 30 * time.Second

// DirectorConfig is what a node needs to direct the house's tournaments when
// its turn comes.
type DirectorConfig struct {
	Cluster *cluster.Node
	House   *house.House
	// Direct starts a tournament director on this node, once it holds the
	// lease and has fenced the store with it (web.Server.DirectTournaments),
	// its tables opened by host, and returns how to abandon it when the
	// lease is lost.
	Direct func(ctx context.Context, host live.TableHost) (abandon func(context.Context), err error)
	// Tables are the node's tables: the tournaments' tables are opened among
	// them, under the director's lease (tourney.go).
	Tables *Tables
	Log    *slog.Logger

	// renew, for tests, renews the lease (default Lease.Renew): a test
	// freezes the director by blocking it.
	renew func(context.Context, *cluster.Lease) error
}

// Director competes with the other nodes for the director lease: the node that
// gets it fences the tournaments' writes in PostgreSQL with the lease's token
// (house.TournamentsRef), starts the director, renews the lease every TTL/3
// and abandons the director as soon as the lease is not valid (docs/scaling.md,
// "Tournaments").
type Director struct {
	cfg DirectorConfig

	mu    sync.Mutex
	lease *cluster.Lease // held while this node directs
}

// NewDirector returns a node's part in directing the tournaments; Run takes it.
func NewDirector(cfg DirectorConfig) *Director {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.renew == nil {
		cfg.renew = func(ctx context.Context, l *cluster.Lease) error { return l.Renew(ctx) }
	}
	return &Director{cfg: cfg}
}

// Directing reports whether this node directs the tournaments now.
func (d *Director) Directing() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.lease != nil && d.lease.Valid(time.Now())
}

// Run tries for the director lease every TTL/3 and directs the tournaments
// while it holds it, until ctx is done. A node stopping on purpose keeps the
// lease until the server has shut down (its director stores its last steps),
// then calls Release.
func (d *Director) Run(ctx context.Context) {
	tick := time.NewTicker(d.cfg.Cluster.LeaseTTL() / 3)
	defer tick.Stop()
	for ctx.Err() == nil {
		l, err := d.cfg.Cluster.AcquireRole(ctx, DirectorRole)
		switch {
		case err == nil:
			d.direct(ctx, l)
		case !errors.Is(err, cluster.ErrHeld):
			d.cfg.Log.Warn("the director lease was not tried", "err", err)
		}
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
	}
}

// direct fences the store, starts the director and keeps the lease l until it
// is lost (the director abandoned) or ctx is done (the director kept for the
// server's shutdown, the lease for Release).
func (d *Director) direct(ctx context.Context, l *cluster.Lease) {
	log := d.cfg.Log.With("token", l.Token())
	if err := d.cfg.House.Fence(ctx, house.TournamentsRef, int64(l.Token())); err != nil {
		log.Warn("the tournaments' store not fenced: not directing", "err", err)
		_ = l.Release(ctx)
		return
	}
	abandon, err := d.cfg.Direct(ctx, d.cfg.Tables.TourneyHost(l))
	if err != nil {
		log.Error("the tournaments' director did not start", "err", err)
		_ = l.Release(ctx)
		return
	}
	d.mu.Lock()
	d.lease = l
	d.mu.Unlock()
	log.Info("directing the house's tournaments")
	tick := time.NewTicker(d.cfg.Cluster.LeaseTTL() / 3)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if err := d.cfg.renew(ctx, l); err != nil && ctx.Err() == nil {
			log.Warn("the director lease not renewed", "err", err, "valid", l.Valid(time.Now()))
		}
		if ctx.Err() == nil && !l.Valid(time.Now()) {
			break
		}
	}
	d.mu.Lock()
	d.lease = nil
	d.mu.Unlock()
	log.Warn("the director lease is lost: another node directs the tournaments")
	actx, cancel := context.WithTimeout(context.Background(), abandonTimeout)
	defer cancel()
	abandon(actx)
}

// Release gives the director lease up, if this node holds it (a node leaving
// on purpose, once its server has shut down and its director stored its last
// steps): another node directs the tournaments within TTL/3.
func (d *Director) Release(ctx context.Context) error {
	d.mu.Lock()
	l := d.lease
	d.lease = nil
	d.mu.Unlock()
	if l == nil {
		return nil
	}
	return l.Release(ctx)
}
