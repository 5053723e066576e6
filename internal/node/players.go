package node

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/felt-poker/felt/internal/cluster"
	"github.com/felt-poker/felt/internal/lobby"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/web"
)

// Players' own tables (POST /api/tables) and heads-up games (POST
// /api/headsup) are the house's like its own tables: each holds a lease,
// writes its hands ahead and is entered in the house's registry, with what
// another node opens it again from (the web's registration of it). The
// registry makes a name unique across the house: of two nodes opening one
// name at once, exactly one registers it. A player's table that closes leaves
// the registry; one that moves (its node lost or leaving) stays in it, and
// the node that takes its lease opens it again from its log.

var _ web.TableHost = (*Tables)(nil)

// OpenPlayerTable opens cfg's table on this node for the player whose ID is
// owner, registered in the house with reg. The player may own maxOwned tables
// across the house (0: no bound), wherever they opened them: one more is
// refused with lobby.ErrTooManyTables. A name that a table of the house has,
// on any node, is refused with lobby.ErrNameTaken.
func (ts *Tables) OpenPlayerTable(ctx context.Context, owner int64, maxOwned int, cfg table.Config, reg []byte) (*table.Table, error) {
	if err := lobby.ValidName(cfg.Name); err != nil {
		return nil, err
	}
	// A name the registry has is refused before its lease is touched: a
	// table waiting to be taken over (its node lost) has a free lease, which
	// a player repeating this request would otherwise hold, again and again,
	// whenever a node tries to take the table up. The registration below
	// still decides between two new tables racing for a name.
	if taken, err := ts.cfg.Cluster.IsRegistered(ctx, cfg.Name); err != nil || taken {
		if err == nil {
			err = lobby.NameTaken(cfg.Name)
		}
		return nil, err
	}
	l, err := ts.cfg.Cluster.Acquire(ctx, cfg.Name)
	if errors.Is(err, cluster.ErrHeld) {
		return nil, lobby.NameTaken(cfg.Name)
	}
	if err != nil {
		return nil, err
	}
	// The keeper renews the lease from now on: the steps below take a few
	// round trips, which a loaded node may stretch past the lease's life.
	ts.cfg.Cluster.Own(l)
	if err := ts.registerPlayer(ctx, cfg.Name, owner, reg); err != nil {
		ts.undoOpen(ctx, l, 0)
		return nil, err
	}
	// Claimed once registered: a claim racing this one on another node, and
	// finding the player at their bound, sees this table registered as theirs.
	err = ts.claim(ctx, owner, cfg.Name, maxOwned)
	var t *table.Table
	if err == nil {
		t, err = ts.open(ctx, l, spec{cfg: cfg, owner: owner, fresh: true, renewed: true})
	}
	if err != nil {
		ts.undoOpen(ctx, l, owner)
		return nil, err
	}
	return t, nil
}

// undoTimeout bounds the clean-up of a table that failed to open.
const undoTimeout = 10 * time.Second

// undoOpen takes a player's table that failed to open out of the house (out
// of the registry and owner's count, if owner is not 0) and gives its lease
// l up. It does not run on the request's context: a player who hangs up
// while their table opens (the usual reason it fails) would otherwise leave
// its name registered and its place claimed for good.
func (ts *Tables) undoOpen(ctx context.Context, l *cluster.Lease, owner int64) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), undoTimeout)
	defer cancel()
	if owner != 0 {
		ts.forget(ctx, l, owner)
	}
	if err := ts.cfg.Cluster.Disown(ctx, l); err != nil {
		ts.cfg.Log.Warn("the lease of a table that did not open was not released", "table", l.Table(), "err", err)
	}
}

// RegisterPlayerTable enters a player's table in the house's registry without
// opening it: the first node to find it there without an owner opens it (the
// tables a house on one node kept, when it becomes several).
func (ts *Tables) RegisterPlayerTable(ctx context.Context, name string, reg []byte) error {
	return ts.registerPlayer(ctx, name, 0, reg)
}

// registerPlayer enters the table of the player whose ID is owner (0: not
// known) in the registry, if no table of its name is there.
func (ts *Tables) registerPlayer(ctx context.Context, name string, owner int64, reg []byte) error {
	if !json.Valid(reg) {
		return fmt.Errorf("table %q: registration is not JSON", name)
	}
	err := ts.cfg.Cluster.RegisterNew(ctx, name, registration{Player: reg, Owner: owner})
	if errors.Is(err, cluster.ErrRegistered) {
		return lobby.NameTaken(name)
	}
	return err
}

// playerSpec returns how the player's table of lease l, registered with reg,
// opens on this node that takes it over. Settings that no longer open a table
// (a bot gone, new bounds) take it out of the registry, as a house on one node
// forgets such a table when it starts.
func (ts *Tables) playerSpec(ctx context.Context, l *cluster.Lease, reg json.RawMessage) (spec, error) {
	if ts.cfg.PlayerTable == nil {
		return spec{}, fmt.Errorf("table %q: this node does not open players' tables", l.Table())
	}
	owner, cfg, err := ts.cfg.PlayerTable(reg)
	if err == nil && owner == 0 {
		err = errors.New("no owner")
	}
	if err != nil {
		ts.cfg.Log.Warn("a player's table does not open again: forgotten", "table", l.Table(), "err", err)
		if rerr := ts.returnStacks(ctx, l, cfg.RefPrefix); rerr != nil {
			return spec{}, errors.Join(err, rerr) // kept, for the next pass
		}
		ts.forget(ctx, l, owner)
		return spec{}, err
	}
	return spec{cfg: cfg, owner: owner}, nil
}

// returnStacks returns to their players' credits the stacks the store holds
// at the table of lease l (its references beginning with prefix,
// table.DefaultRefPrefix if ""), which this node takes over and does not
// open as it was: closed, its lost owner dying before it paid its players
// out (a house table then opens again afresh), or a player's table whose
// settings no longer open a table. Nobody else would: a node of several never
// runs house.Recover.
func (ts *Tables) returnStacks(ctx context.Context, l *cluster.Lease, prefix string) error {
	refs := table.RefsOf(cmp.Or(prefix, table.DefaultRefPrefix), l.Table())
	refunds, err := ts.cfg.House.ReturnSeatsOf(ctx, refs, int64(l.Token()))
	for _, r := range refunds {
		ts.cfg.Log.Warn("returned a stack left at a table that does not open again", "table", l.Table(), "user", r.UserID, "amount", r.Amount)
	}
	if err != nil {
		return fmt.Errorf("the stacks left at %q: %w", l.Table(), err)
	}
	return nil
}

// forget takes the table of lease l, owner's (0: not known), out of the house
// (it closed for good): out of the registry first, so that no node opens it
// again, then out of its owner's count and its log.
func (ts *Tables) forget(ctx context.Context, l *cluster.Lease, owner int64) {
	if !l.Valid(time.Now()) {
		return // not this node's to forget: its new owner has it
	}
	if err := ts.cfg.Cluster.Unregister(ctx, l.Table()); err != nil {
		ts.cfg.Log.Warn("a closed table was not taken out of the registry: it may open again", "table", l.Table(), "err", err)
		return
	}
	ts.unclaim(ctx, owner, l.Table())
	if err := ts.cfg.Cluster.ForgetWAL(ctx, l); err != nil {
		ts.cfg.Log.Warn("a closed table's log was not purged", "table", l.Table(), "err", err)
	}
}
