// Package node runs one node's share of the tables of a house on several nodes
// (felt serve --nats): it registers the house's own tables in the cluster,
// and the tables its players open here under names unique across the house
// (players.go), opens on this node those whose lease it gets, writes their hands ahead to
// the cluster's log, adopts the tables of lost nodes (taking the hand in play
// up from the log and the seats from the store), keeps their lobby entries
// fresh, and hands its tables over when it stops. docs/scaling.md tells the
// whole story.
package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/cluster"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/lobby"
	"github.com/felt-poker/felt/internal/table"
)

// Config is what a node's tables need.
type Config struct {
	Cluster *cluster.Node
	House   *house.House
	Lobby   *lobby.Lobby
	// Names are the house's own tables, which every node knows the settings
	// of (the same house config on every node).
	Names []string
	// Table returns the settings of the house table called name, or false.
	Table func(name string) (table.Config, bool)
	// PlayerTable returns the owner and the settings of a player's table from
	// what its registration holds (web.Server.PlayerTableConfig), for the
	// node that takes it over (players.go).
	PlayerTable func(reg json.RawMessage) (owner int64, cfg table.Config, err error)
	Log         *slog.Logger

	// beforeOpen, for tests, is called with a table's name between its
	// lease's acquisition and its opening.
	beforeOpen func(table string)
	// handLog, for tests, wraps the log of each table this node opens.
	handLog func(table.HandLog) table.HandLog
	// awaitStop, for tests, is called with a table's name when its adoption
	// waits for its former instance on this node to stop.
	awaitStop func(table string)
}

// Tables is one node's share of the house's tables.
type Tables struct {
	cfg Config

	mu    sync.Mutex
	owned map[string]*owned // by cluster.TableKey
	// tourney are the tournaments' tables open on this node (tourney.go), by
	// cluster.TableKey.
	tourney map[string]*tourneyTable
	stop    context.CancelFunc // ends Run (HandOver)
	running chan struct{}      // closed when Run has returned: no adoption under way
	leaving bool               // HandOver: no table of this node closes for good, none opens
	wg      sync.WaitGroup
	load    load // the other nodes' tables, for placing players' tables (placement.go)
}

type owned struct {
	lease *cluster.Lease
	t     *table.Table
}

// registration is a table's entry in the cluster's registry: a house table's
// name, or what a player's table opens again from (players.go).
type registration struct {
	House  string          `json:"house_table,omitempty"`
	Player json.RawMessage `json:"player_table,omitempty"`
	// Tourney is the tournament whose table it is (tourney.go).
	Tourney int64 `json:"tournament,omitempty"`
	// Owner is the ID of the player whose table it is, for the count of
	// their tables (owners.go).
	Owner int64 `json:"owner,omitempty"`
}

// errClosed refuses to open a player's table whose log says it closed.
var errClosed = errors.New("the table closed for good")

// errLeaving refuses to open a table on a node that is handing its tables
// over (HandOver): busy, try again (on another node).
var errLeaving = fmt.Errorf("this node is leaving the house: %w", house.ErrBusy)

// spec is how a table opens on this node.
type spec struct {
	cfg table.Config
	// owner is the player whose table it is (0: the house's). How many a
	// player may own is counted across the house (cluster.Node.Claim).
	owner int64
	// fresh is a table just made: the log of an earlier table of its name, if
	// any, is purged, not resumed.
	fresh bool
	// renewed is a table whose lease the keeper renews already (Own, as
	// OpenPlayerTable does before it registers the table): its opening's wait
	// for a closed table of its name needs no bound of the lease's.
	renewed bool
}

// New returns a node's tables; Start opens them.
func New(cfg Config) *Tables {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &Tables{cfg: cfg, owned: map[string]*owned{}, tourney: map[string]*tourneyTable{}, load: newLoad(cfg.Cluster.LeaseTTL())}
}

// Start registers the house's own tables in the cluster and opens on this node
// those no other node holds.
func (ts *Tables) Start(ctx context.Context) error {
	for _, name := range ts.cfg.Names {
		if ok, err := ts.registerHouse(ctx, name); err != nil || !ok {
			if err != nil {
				return err
			}
			continue
		}
		l, err := ts.cfg.Cluster.Acquire(ctx, name)
		if errors.Is(err, cluster.ErrHeld) {
			continue // another node runs it
		}
		if err != nil {
			return err
		}
		sp, err := ts.houseSpec(name)
		if err == nil {
			_, err = ts.open(ctx, l, sp)
		}
		if err != nil {
			_ = l.Release(ctx)
			return fmt.Errorf("table %s: %w", name, err)
		}
	}
	return nil
}

// registerHouse enters the house table name in the registry, unless it is
// there already; it reports false when a player's table has the name (the
// house table does not open while it does).
func (ts *Tables) registerHouse(ctx context.Context, name string) (bool, error) {
	err := ts.cfg.Cluster.RegisterNew(ctx, name, registration{House: name})
	if !errors.Is(err, cluster.ErrRegistered) {
		return err == nil, err
	}
	reg, ok, err := ts.cfg.Cluster.Lookup(ctx, name)
	if err != nil || !ok {
		return ok, err
	}
	var r registration
	if json.Unmarshal(reg.Config, &r) != nil || r.House == "" {
		ts.cfg.Log.Warn("a player's table has the name of a house table: the house table does not open", "table", name)
		return false, nil
	}
	return true, nil
}

// houseSpec returns how the house table name opens.
func (ts *Tables) houseSpec(name string) (spec, error) {
	cfg, ok := ts.cfg.Table(name)
	if !ok {
		return spec{}, fmt.Errorf("the house has no table %q", name)
	}
	return spec{cfg: cfg}, nil
}

// Run keeps the node's leases and lobby entries and adopts the tables of lost
// nodes, until ctx is done.
func (ts *Tables) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	running := make(chan struct{})
	defer close(running)
	ts.mu.Lock()
	if ts.leaving { // handed over before it began: it adopts nothing
		ts.mu.Unlock()
		return nil
	}
	ts.stop, ts.running = cancel, running
	ts.mu.Unlock()
	go ts.listAll(ctx)
	go ts.mirrorLobby(ctx)
	go ts.watchNodes(ctx)
	return ts.cfg.Cluster.Run(ctx, ts.adopt, ts.lost)
}

// mirrorLobby lists in this node's lobby the tables of the other nodes, as
// the cluster's lobby has them, until ctx is done.
func (ts *Tables) mirrorLobby(ctx context.Context) {
	names := map[string]string{} // key -> name
	for ctx.Err() == nil {
		err := ts.cfg.Cluster.WatchLobby(ctx, func(l cluster.Listing) {
			ts.load.list(cluster.TableKey(l.Table), l.Node)
			var in table.Info
			if l.Node == ts.cfg.Cluster.Name() || json.Unmarshal(l.Info, &in) != nil || in.Name == "" {
				return
			}
			names[cluster.TableKey(in.Name)] = in.Name
			ts.cfg.Lobby.SetRemote(in)
		}, func(key string) {
			ts.load.unlist(key)
			if name, ok := names[key]; ok {
				delete(names, key)
				ts.cfg.Lobby.RemoveRemote(name)
			}
		})
		again(ctx, ts.cfg.Log, ts.cfg.Cluster.LeaseTTL(), "the house's lobby is not mirrored", err)
	}
}

// again logs why a watch ended (what it leaves undone) and waits for wait
// before it starts again, unless ctx is done.
func again(ctx context.Context, log *slog.Logger, wait time.Duration, what string, err error) {
	if ctx.Err() != nil {
		return
	}
	log.Warn(what+": trying again", "err", err)
	select {
	case <-ctx.Done():
	case <-time.After(wait):
	}
}

// adopt opens a registered table this node has just acquired.
func (ts *Tables) adopt(ctx context.Context, l *cluster.Lease, reg cluster.Registration) error {
	if err := ts.awaitStopped(ctx, l); err != nil {
		return err
	}
	var r registration
	_ = json.Unmarshal(reg.Config, &r)
	var sp spec
	var err error
	switch {
	case r.House != "":
		sp, err = ts.houseSpec(l.Table())
	case r.Player != nil:
		sp, err = ts.playerSpec(ctx, l, r.Player)
	default:
		err = fmt.Errorf("registration of %q: not a table (%s)", reg.Table, reg.Config)
	}
	if err == nil {
		_, err = ts.open(ctx, l, sp)
	}
	return err
}

// awaitStopped waits until the former instance of l's table on this node, if
// any, has stopped: a table whose lease this node lost and has acquired again
// while the table was still stopping (handing over). The table is then opened
// afresh from its log, as on any other node, instead of being refused as open
// and its lease released and acquired again in a loop. The wait is bounded by
// half the lease's TTL, since l is not renewed until the table is open: past
// that, the adoption fails, l is released, and the next pass tries again.
func (ts *Tables) awaitStopped(ctx context.Context, l *cluster.Lease) error {
	ts.mu.Lock()
	o := ts.owned[cluster.TableKey(l.Table())]
	ts.mu.Unlock()
	if o == nil || o.lease == l {
		return nil
	}
	if ts.cfg.awaitStop != nil {
		ts.cfg.awaitStop(l.Table())
	}
	ts.lost(o.lease) // its lease is gone, since l was acquired: it stops if it has not begun
	ctx, cancel := context.WithTimeout(ctx, ts.cfg.Cluster.LeaseTTL()/2)
	defer cancel()
	select {
	case <-o.t.Done():
		return nil
	case <-ctx.Done():
		return fmt.Errorf("the table's former instance on this node has not stopped: %w", ctx.Err())
	}
}

// open opens the table of lease l on this node as sp says, as its log left it
// (or afresh), and keeps its lease.
func (ts *Tables) open(ctx context.Context, l *cluster.Lease, sp spec) (*table.Table, error) {
	if ts.cfg.beforeOpen != nil {
		ts.cfg.beforeOpen(l.Table())
	}
	cfg := sp.cfg
	if sp.fresh {
		if err := ts.cfg.Cluster.ForgetWAL(ctx, l); err != nil {
			return nil, err
		}
	}
	w, hl, err := ts.cfg.Cluster.OpenWAL(ctx, l)
	if err != nil {
		return nil, err
	}
	if hl != nil && hl.Closed {
		// The table closed, its node lost before it paid its players out: their
		// stacks go back first, whether it opens again or not.
		if err := ts.returnStacks(ctx, l, cfg.RefPrefix); err != nil {
			return nil, err // kept, for the next pass
		}
		if sp.owner != 0 { // a player's table, not yet out of the registry
			ts.forget(ctx, l, sp.owner)
			return nil, errClosed
		}
		hl = nil // a house table opens again, afresh
	}
	if hl != nil {
		if cfg.Resume, err = ts.resume(ctx, hl, l.Token()); err != nil {
			return nil, err
		}
	}
	cfg.HandLog = w
	if ts.cfg.handLog != nil {
		cfg.HandLog = ts.cfg.handLog(w)
	}
	// Unless sp.renewed, l is not renewed until the table is open (Own): a
	// wait for a table of its name that closed on this node is then bounded
	// as awaitStopped's is, not by the lobby's ReopenWait (45 s), which is
	// longer than the lease holds.
	octx, cancel := ctx, context.CancelFunc(func() {})
	if !sp.renewed {
		octx, cancel = context.WithTimeout(ctx, ts.cfg.Cluster.LeaseTTL()/2)
	}
	t, err := ts.cfg.Lobby.OpenBy(octx, sp.owner, 0, cfg)
	cancel()
	if err != nil {
		return nil, err
	}
	if hl == nil { // a new table: its reference is new too, and fenced now
		if err := ts.cfg.House.Fence(ctx, t.Ref(), int64(l.Token())); err != nil {
			_ = t.HandOver(ctx, "not fenced")
			return nil, err
		}
	}
	ts.cfg.Cluster.Own(l)
	if !ts.keep(l, t, sp.owner) { // the caller gives the lease up
		hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_ = t.HandOver(hctx, "its node is leaving the house")
		return nil, errLeaving
	}
	resumed := hl != nil && hl.InPlay
	ts.cfg.Log.Info("table opened on this node", "table", l.Table(), "token", l.Token(), "hand_resumed", resumed)
	return t, nil
}

// keep counts table t, open on lease l, as this node's and watches it
// (watch), unless the node is leaving (HandOver): it reports whether it did.
// A table that an adoption under way opens once HandOver has begun is thus
// either among those HandOver hands over and waits for, or refused here.
func (ts *Tables) keep(l *cluster.Lease, t *table.Table, owner int64) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.leaving {
		return false
	}
	ts.owned[cluster.TableKey(l.Table())] = &owned{lease: l, t: t}
	ts.wg.Go(func() { ts.watch(l, t, owner) })
	return true
}

// resume reads what the table's log left: the seats from the store, the hand
// in play rebuilt, and the buy-ins of players the lost owner had not seated
// returned to their credits.
func (ts *Tables) resume(ctx context.Context, hl *cluster.HandLog, token uint64) (*table.Resume, error) {
	r, err := resumeOf(hl, ts.cfg.Log)
	if err != nil {
		return nil, err
	}
	// The database's writes for the table are fenced first: a former owner's
	// writes begun before are in, and none comes after.
	if err := ts.cfg.House.Fence(ctx, r.State.Ref, int64(token)); err != nil {
		return nil, err
	}
	if err := ts.recordLast(ctx, hl.Table, &r.State); err != nil {
		return nil, err
	}
	stacks, err := ts.cfg.House.TableStacks(ctx, r.State.Ref)
	if err != nil {
		return nil, err
	}
	r.Stacks = stacks
	for _, u := range r.Orphans() {
		rf, err := ts.cfg.House.ReturnSeat(ctx, r.State.Ref, u)
		if err != nil {
			ts.cfg.Log.Warn("a buy-in not seated by the lost node was not returned", "table", hl.Table, "user", u, "err", err)
			continue
		}
		delete(r.Stacks, u)
		ts.cfg.Log.Warn("returned a buy-in the lost node had not seated", "table", hl.Table, "user", u, "amount", rf.Amount)
	}
	return r, nil
}

// resumeOf returns what the table's log hl left: its last state with the
// notes after it applied (table.Resume.Fold), and the hand in play rebuilt.
func resumeOf(hl *cluster.HandLog, log *slog.Logger) (*table.Resume, error) {
	r := &table.Resume{StateAt: hl.StateAt, LastAt: hl.LastAt}
	if err := json.Unmarshal(hl.State, &r.State); err != nil {
		return nil, fmt.Errorf("the log's table state: %w", err)
	}
	for _, n := range hl.Notes {
		r.Notes = append(r.Notes, table.LoggedNote{At: n.At, Actions: n.Actions, Note: n.Data})
	}
	if bad := r.Fold(); bad > 0 {
		log.Warn("notes of the table's log not read", "table", hl.Table, "notes", bad)
	}
	if hl.InPlay {
		h, skipped, err := hl.Rebuild()
		if err != nil {
			return nil, err
		}
		r.Hand, r.HandCfg, r.TurnAt, r.TurnActions = h, hl.Config, hl.TurnAt, hl.TurnActions
		log.Info("hand rebuilt from the log", "table", hl.Table, "hand", hl.Hand, "actions", len(hl.Actions), "refused", skipped, "notes", len(hl.Notes))
	}
	return r, nil
}

// recordLast records the hand the log says ended last, when its state is
// that hand's end: the lost owner logged the end before recording the hand,
// and may have died between. The hand's key keeps it from being recorded
// twice, so the players' stacks at the table (read next) hold its result once.
func (ts *Tables) recordLast(ctx context.Context, name string, st *table.LogState) error {
	if st.Last == nil || st.Last.Key == "" || st.Last.TableRef != st.Ref {
		return nil
	}
	id, err := ts.cfg.House.RecordHand(ctx, *st.Last)
	if err != nil {
		return fmt.Errorf("the hand the log ended last: %w", err)
	}
	ts.cfg.Log.Info("recorded the hand the log ended last", "table", name, "hand", st.Last.Key, "id", id)
	return nil
}

// watch waits for the table to stop on this node and gives its lease up, so
// that a table whose log refused a write (NATS away) is taken up again, here
// or elsewhere. A player's table (owner not 0) that closed (not moved) leaves
// the house's registry and its owner's count first, so that no node opens it
// again.
func (ts *Tables) watch(l *cluster.Lease, t *table.Table, owner int64) {
	<-t.Done()
	key := cluster.TableKey(l.Table())
	ts.mu.Lock()
	if o := ts.owned[key]; o != nil && o.lease == l {
		delete(ts.owned, key)
	}
	leaving := ts.leaving
	ts.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if owner != 0 && !leaving && !t.Moved() {
		ts.forget(ctx, l, owner)
	}
	if err := ts.cfg.Cluster.Disown(ctx, l); err != nil {
		ts.cfg.Log.Warn("lease not released", "table", l.Table(), "err", err)
	}
}

// lost stops at once a table whose lease is lost: another node takes it.
func (ts *Tables) lost(l *cluster.Lease) {
	ts.mu.Lock()
	o := ts.owned[cluster.TableKey(l.Table())]
	ts.mu.Unlock()
	if o == nil || o.lease != l {
		return
	}
	ts.cfg.Log.Warn("lease lost: the table stops on this node", "table", l.Table())
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = o.t.HandOver(ctx, "the table's lease is lost")
	}()
}

// listAll writes the lobby entries of the node's tables (its tournaments'
// tables too) that changed, every third of the lease TTL, from the local
// lobby's listings (cluster.Node.List writes nothing for a listing unchanged:
// the keeper refreshes those after each renewal).
func (ts *Tables) listAll(ctx context.Context) {
	tick := time.NewTicker(ts.cfg.Cluster.LeaseTTL() / 3)
	defer tick.Stop()
	for {
		for _, o := range ts.ownedTables() {
			if in, ok := ts.cfg.Lobby.Info(o.lease.Table()); ok {
				_ = ts.cfg.Cluster.List(ctx, o.lease, in)
			}
		}
		for _, tt := range ts.tourneyTables() {
			if in, ok := ts.cfg.Lobby.Info(tt.t.Name()); ok {
				_ = ts.cfg.Cluster.ListTable(ctx, tt.role, tt.t.Name(), in)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func (ts *Tables) ownedTables() []*owned {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	out := make([]*owned, 0, len(ts.owned))
	for _, o := range ts.owned {
		out = append(out, o)
	}
	return out
}

func (ts *Tables) tourneyTables() []*tourneyTable {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	out := make([]*tourneyTable, 0, len(ts.tourney))
	for _, tt := range ts.tourney {
		out = append(out, tt)
	}
	return out
}

// Owned returns the names of the tables open on this node.
func (ts *Tables) Owned() []string {
	var out []string
	for _, o := range ts.ownedTables() {
		out = append(out, o.lease.Table())
	}
	return out
}

// HandOver stops every table of the node without paying anyone out and gives
// their leases up, for the other nodes to take them up from their logs at
// once: a node leaving on purpose (SIGTERM, a rolling upgrade). The node
// adopts nothing more: the adoptions under way end first, and a table one of
// them opens meanwhile is stopped at once and its lease released.
func (ts *Tables) HandOver(ctx context.Context) error {
	ts.mu.Lock()
	if ts.stop != nil {
		ts.stop() // the node adopts nothing more, not even what it releases now
	}
	ts.leaving = true
	running := ts.running
	ts.mu.Unlock()
	var errs []error
	if running != nil {
		// The adoptions under way end: each table they open now is refused
		// (keep) and its lease released, so none outlives the handover.
		select {
		case <-running:
		case <-ctx.Done():
			errs = append(errs, ctx.Err())
		}
	}
	for _, o := range ts.ownedTables() {
		errs = append(errs, o.t.HandOver(ctx, "its node is leaving the house"))
	}
	for _, tt := range ts.tourneyTables() {
		errs = append(errs, tt.t.HandOver(ctx, "its node is leaving the house"))
	}
	done := make(chan struct{})
	go func() { ts.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		errs = append(errs, ctx.Err())
	}
	return errors.Join(errs...)
}
