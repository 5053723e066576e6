package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/felt-poker/felt/internal/cluster"
	"github.com/felt-poker/felt/internal/lobby"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/tournament/live"
)

// A tournament's tables follow its director (docs/scaling.md, "Tournament
// tables"): they run on the node that holds the director lease and are written
// ahead under that lease, so that its token fences their logs and they stop
// with it. Each is registered in the house's registry under the director's role
// (cluster.RegisterRoleTable): its name is unique across the house, no keeper
// adopts it, and a message for it reaches the director's node through the
// relay. The next director, restoring the running tournaments, takes each table
// up from its log: the hand in play goes on from its last action.

// tourneyTable is a tournament's table open on this node, under the
// director's lease role.
type tourneyTable struct {
	t    *table.Table
	role *cluster.Lease
}

// tourneyHost opens the tournaments' tables of the director whose lease is
// role (live.TableHost).
type tourneyHost struct {
	ts   *Tables
	role *cluster.Lease
}

var _ live.TableHost = (*tourneyHost)(nil)

// TourneyHost returns the host of the tournaments' tables of this node's
// director, whose lease is role; nil for no tables (the director opens its
// tables in the lobby alone).
func (ts *Tables) TourneyHost(role *cluster.Lease) live.TableHost {
	if ts == nil {
		return nil
	}
	return &tourneyHost{ts: ts, role: role}
}

// OpenTourneyTable opens cfg's table on this node, or takes it up from its log
// if an earlier director ran it (live.TableHost).
func (h *tourneyHost) OpenTourneyTable(ctx context.Context, cfg table.Config) (*table.Table, error) {
	if cfg.Tourney == nil {
		return nil, errors.New("not a tournament's table")
	}
	if err := lobby.ValidName(cfg.Name); err != nil {
		return nil, err
	}
	fresh, err := h.register(ctx, cfg.Name, cfg.Tourney.ID)
	if err != nil {
		return nil, err
	}
	t, err := h.open(ctx, cfg, fresh)
	if err != nil && fresh {
		h.forget(ctx, cfg.Name)
	}
	return t, err
}

// register enters the table name of tournament id in the registry, under the
// director's role, and reports whether it is new; a name the registry has
// for this tournament already is a table an earlier director ran, and any
// other is lobby.ErrNameTaken.
func (h *tourneyHost) register(ctx context.Context, name string, id int64) (bool, error) {
	c := h.ts.cfg.Cluster
	err := c.RegisterRoleTable(ctx, name, DirectorRole, registration{Tourney: id})
	if !errors.Is(err, cluster.ErrRegistered) {
		return err == nil, err
	}
	reg, ok, err := c.Lookup(ctx, name)
	if err != nil {
		return false, err
	}
	var r registration
	if !ok || reg.Role != DirectorRole || json.Unmarshal(reg.Config, &r) != nil || r.Tourney != id {
		return false, lobby.NameTaken(name)
	}
	return false, nil
}

// open opens the table on this node under the director's lease, from its log
// unless it is fresh.
func (h *tourneyHost) open(ctx context.Context, cfg table.Config, fresh bool) (*table.Table, error) {
	c, ts := h.ts.cfg.Cluster, h.ts
	if fresh {
		if err := c.ForgetTableWAL(ctx, h.role, cfg.Name); err != nil {
			return nil, err
		}
	} else if err := h.awaitStopped(ctx, cfg.Name); err != nil {
		return nil, err
	}
	w, hl, err := c.OpenTableWAL(ctx, h.role, cfg.Name)
	if err != nil {
		return nil, err
	}
	if hl != nil && !hl.Closed && hl.State != nil {
		if cfg.Resume, err = h.resume(hl); err != nil {
			return nil, err
		}
	}
	cfg.HandLog = w
	if ts.cfg.handLog != nil {
		cfg.HandLog = ts.cfg.handLog(w)
	}
	t, err := ts.cfg.Lobby.Open(cfg)
	if err != nil {
		return nil, err
	}
	if err := ts.cfg.House.Fence(ctx, t.Ref(), int64(h.role.Token())); err != nil {
		_ = t.HandOver(ctx, "not fenced")
		return nil, err
	}
	key, tt := cluster.TableKey(cfg.Name), &tourneyTable{t: t, role: h.role}
	ts.mu.Lock()
	ts.tourney[key] = tt
	ts.mu.Unlock()
	if in, ok := ts.cfg.Lobby.Info(cfg.Name); ok {
		_ = c.ListTable(ctx, h.role, cfg.Name, in) // listAll refreshes it
	}
	ts.wg.Go(func() {
		<-t.Done()
		ts.mu.Lock()
		if ts.tourney[key] == tt {
			delete(ts.tourney, key)
		}
		ts.mu.Unlock()
	})
	resumed := cfg.Resume != nil && cfg.Resume.Hand != nil
	ts.cfg.Log.Info("tournament table opened on this node", "table", cfg.Name, "token", h.role.Token(), "hand_resumed", resumed)
	return t, nil
}

// awaitStopped waits until a former instance of the table on this node, if
// any, has stopped: this node directed before, lost the lease (its tables
// stopping) and directs again. The wait is bounded by half the lease's TTL.
func (h *tourneyHost) awaitStopped(ctx context.Context, name string) error {
	old, err := h.ts.cfg.Lobby.Table(name)
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, h.ts.cfg.Cluster.LeaseTTL()/2)
	defer cancel()
	select {
	case <-old.Done():
		return nil
	case <-ctx.Done():
		return fmt.Errorf("tournament table %q: its former instance on this node has not stopped: %w", name, ctx.Err())
	}
}

// resume reads what a tournament table's log left: its last state and the
// hand in play, rebuilt. Its players are the tournament's, placed by the
// director (table.Tourney.Seats).
func (h *tourneyHost) resume(hl *cluster.HandLog) (*table.Resume, error) {
	return resumeOf(hl, h.ts.cfg.Log)
}

// ForgetTourneyTable takes t, closed for good, out of the registry and purges
// its log, while this node directs (live.TableHost).
func (h *tourneyHost) ForgetTourneyTable(ctx context.Context, t *table.Table) {
	h.forget(ctx, t.Name())
}

func (h *tourneyHost) forget(ctx context.Context, name string) {
	if !h.role.Valid(time.Now()) {
		return // another director has the table now
	}
	if err := h.ts.cfg.Cluster.Unlist(ctx, name); err != nil {
		h.ts.cfg.Log.Warn("a closed tournament table's lobby entry was not removed: it expires", "table", name, "err", err)
	}
	if err := h.ts.cfg.Cluster.Unregister(ctx, name); err != nil {
		h.ts.cfg.Log.Warn("a closed tournament table was not taken out of the registry", "table", name, "err", err)
		return
	}
	if err := h.ts.cfg.Cluster.ForgetTableWAL(ctx, h.role, name); err != nil {
		h.ts.cfg.Log.Warn("a closed tournament table's log was not purged", "table", name, "err", err)
	}
}
