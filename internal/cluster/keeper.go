package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/sync/errgroup"
)

// Stats counts a node's lease work, for its metrics.
type Stats struct {
	// Owned is the number of tables whose lease the node holds.
	Owned int
	// Takeovers counts tables the node adopted after their lease expired.
	Takeovers int64
	// Renewals counts lease renewals done; RenewalErrors those that failed
	// without being refused (NATS unreachable); Lost the leases lost.
	Renewals, RenewalErrors, Lost int64
	// LogWrites counts the WAL records written, LogRefused the writes refused
	// (lease lost, log fenced).
	LogWrites, LogRefused int64
}

// Stats returns the node's counts.
func (n *Node) Stats() Stats {
	n.mu.Lock()
	defer n.mu.Unlock()
	s := n.stats
	s.Owned = len(n.owned)
	return s
}

// ownedTable is a lease the keeper renews and the lobby listing it refreshes.
type ownedTable struct {
	lease   *Lease
	listing []byte // the lobby entry's value, nil before the first List
}

// Listing is a table's entry in the lobby: the node that runs it and what the
// table says of itself (its lobby info).
type Listing struct {
	Table string          `json:"table"`
	Node  string          `json:"node"`
	Info  json.RawMessage `json:"info"`
}

// Registration is a table in the house's registry: its name and the settings
// a node opens it with.
type Registration struct {
	Table string `json:"table"`
	// Role, when set, says the table runs on the node that holds that
	// role's lease (AcquireRole: a tournament's tables run on the
	// director's node), which opens it again itself: no keeper adopts it.
	Role   string          `json:"role,omitempty"`
	Config json.RawMessage `json:"config"`
}

// Own hands lease to the keeper (Run): renewed every TTL/3 until Disown, lost or
// the node closes. Call it once the lease's table is open on this node: the
// table counts as owned from then on (Stats.Owned), and AwaitOpen stops
// waiting for it.
func (n *Node) Own(l *Lease) {
	n.mu.Lock()
	if o := n.owned[l.key]; o == nil || o.lease != l {
		n.owned[l.key] = &ownedTable{lease: l}
	}
	n.mu.Unlock()
	l.opened()
}

// Owns reports whether the node holds a valid lease of table.
func (n *Node) Owns(table string) bool {
	n.mu.Lock()
	o := n.owned[TableKey(table)]
	n.mu.Unlock()
	return o != nil && o.lease.Valid(time.Now())
}

// Disown releases lease and removes its table's lobby entry (a table closed, or
// handed over by a node leaving).
func (n *Node) Disown(ctx context.Context, l *Lease) error {
	n.mu.Lock()
	o := n.owned[l.key]
	if o != nil && o.lease == l {
		delete(n.owned, l.key)
	}
	n.mu.Unlock()
	var err error
	if l.Valid(time.Now()) {
		rctx, cancel := n.request(ctx)
		err = n.lobby.Delete(rctx, l.key)
		cancel()
	}
	return errors.Join(err, l.Release(ctx))
}

func (n *Node) ownedTables() []*ownedTable {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([]*ownedTable, 0, len(n.owned))
	for _, o := range n.owned {
		out = append(out, o)
	}
	return out
}

// List writes the lobby entry of lease's table with info, the table's lobby
// listing, unless the entry was last written with this very listing: the
// keeper refreshes it at every renewal (Run), so that a caller listing its
// tables every TTL/3 writes only those that changed.
func (n *Node) List(ctx context.Context, l *Lease, info any) error {
	if err := l.check(time.Now()); err != nil {
		return err
	}
	raw, err := json.Marshal(info)
	if err != nil {
		return err
	}
	b, err := json.Marshal(Listing{Table: l.table, Node: n.cfg.Node, Info: raw})
	if err != nil {
		return err
	}
	n.mu.Lock()
	if o := n.owned[l.key]; o != nil && o.lease == l {
		if bytes.Equal(o.listing, b) {
			n.mu.Unlock()
			return nil
		}
		o.listing = b
	}
	n.mu.Unlock()
	ctx, cancel := n.request(ctx)
	defer cancel()
	if _, err := n.lobby.Put(ctx, l.key, b); err != nil {
		return fmt.Errorf("cluster: list %q: %w", l.table, err)
	}
	return nil
}

// ListTable writes (or refreshes) the lobby entry of table, which runs under
// lease (a role's: a tournament's table, OpenTableWAL), with info; the entry
// expires a TTL after its last write, so its node refreshes it every TTL/3.
func (n *Node) ListTable(ctx context.Context, l *Lease, table string, info any) error {
	if err := l.check(time.Now()); err != nil {
		return err
	}
	raw, err := json.Marshal(info)
	if err != nil {
		return err
	}
	b, err := json.Marshal(Listing{Table: table, Node: n.cfg.Node, Info: raw})
	if err != nil {
		return err
	}
	ctx, cancel := n.request(ctx)
	defer cancel()
	if _, err := n.lobby.Put(ctx, TableKey(table), b); err != nil {
		return fmt.Errorf("cluster: list %q: %w", table, err)
	}
	return nil
}

// Unlist removes table's lobby entry (a table ListTable listed, closed).
func (n *Node) Unlist(ctx context.Context, table string) error {
	ctx, cancel := n.request(ctx)
	defer cancel()
	if err := n.lobby.Delete(ctx, TableKey(table)); err != nil {
		return fmt.Errorf("cluster: unlist %q: %w", table, err)
	}
	return nil
}

// Lobby returns every table listed by a live node, by name.
func (n *Node) Lobby(ctx context.Context) ([]Listing, error) {
	var out []Listing
	err := n.each(ctx, n.lobby, func(e jetstream.KeyValueEntry) {
		var l Listing
		if json.Unmarshal(e.Value(), &l) == nil {
			out = append(out, l)
		}
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Table < out[j].Table })
	return out, err
}

// WatchLobby calls put with every lobby listing, those already written first
// and then each as it is written, and gone with the key (TableKey) of each one
// removed or expired, until ctx is done or the watch fails.
func (n *Node) WatchLobby(ctx context.Context, put func(Listing), gone func(key string)) error {
	return n.watch(ctx, n.lobby, func(_ string, v []byte) {
		var l Listing
		if json.Unmarshal(v, &l) == nil {
			put(l)
		}
	}, gone)
}

// watch calls put with every entry of kv, those already written first and
// then each as it is written, and gone with the key of each one removed or
// expired, until ctx is done or the watch fails.
func (n *Node) watch(ctx context.Context, kv jetstream.KeyValue, put func(key string, v []byte), gone func(key string)) error {
	w, err := kv.WatchAll(ctx)
	if err != nil {
		return fmt.Errorf("cluster: watch %s: %w", kv.Bucket(), err)
	}
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case e, ok := <-w.Updates():
			if !ok {
				return fmt.Errorf("cluster: the watch of %s ended", kv.Bucket())
			}
			if e == nil {
				continue // the entries already written are all in
			}
			if e.Operation() != jetstream.KeyValuePut {
				gone(e.Key())
				continue
			}
			put(e.Key(), e.Value())
		}
	}
}

// Register enters table in the house's registry with the settings it opens
// with: if its node is lost, another node adopts it (Run).
func (n *Node) Register(ctx context.Context, table string, config any) error {
	b, err := registration(table, "", config)
	if err != nil {
		return err
	}
	ctx, cancel := n.request(ctx)
	defer cancel()
	if _, err := n.tables.Put(ctx, TableKey(table), b); err != nil {
		return fmt.Errorf("cluster: register %q: %w", table, err)
	}
	return nil
}

// ErrRegistered refuses to register a table whose name the house's registry
// has already (ignoring case): a table of that name is open somewhere.
var ErrRegistered = errors.New("a table of this name is registered")

// RegisterNew enters table in the house's registry if no table of that name
// is there: of any number of nodes registering one name at once, exactly one
// succeeds and the others get ErrRegistered.
func (n *Node) RegisterNew(ctx context.Context, table string, config any) error {
	return n.RegisterRoleTable(ctx, table, "", config)
}

// RegisterRoleTable is RegisterNew for a table that runs on the holder of
// role's lease (Registration.Role): the keepers leave it to that node.
func (n *Node) RegisterRoleTable(ctx context.Context, table, role string, config any) error {
	b, err := registration(table, role, config)
	if err != nil {
		return err
	}
	ctx, cancel := n.request(ctx)
	defer cancel()
	_, err = n.tables.Create(ctx, TableKey(table), b)
	if errors.Is(err, jetstream.ErrKeyExists) {
		return fmt.Errorf("table %q: %w", table, ErrRegistered)
	}
	if err != nil {
		return fmt.Errorf("cluster: register %q: %w", table, err)
	}
	return nil
}

// Lookup returns table's registration, or ok false when the registry has none.
func (n *Node) Lookup(ctx context.Context, table string) (reg Registration, ok bool, err error) {
	ctx, cancel := n.request(ctx)
	defer cancel()
	e, err := n.tables.Get(ctx, TableKey(table))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Registration{}, false, nil
	}
	if err == nil {
		err = json.Unmarshal(e.Value(), &reg)
	}
	if err != nil {
		return Registration{}, false, fmt.Errorf("cluster: look %q up: %w", table, err)
	}
	return reg, true, nil
}

// registration returns the registry's value for table, role and config.
func registration(table, role string, config any) ([]byte, error) {
	raw, err := json.Marshal(config)
	if err != nil {
		return nil, err
	}
	return json.Marshal(Registration{Table: table, Role: role, Config: raw})
}

// Unregister takes table out of the registry (it closed for good).
func (n *Node) Unregister(ctx context.Context, table string) error {
	ctx, cancel := n.request(ctx)
	defer cancel()
	if err := n.tables.Delete(ctx, TableKey(table)); err != nil {
		return fmt.Errorf("cluster: unregister %q: %w", table, err)
	}
	return nil
}

// IsRegistered reports whether table is in the house's registry: a table of
// the house that some node runs or will take over.
func (n *Node) IsRegistered(ctx context.Context, table string) (bool, error) {
	ctx, cancel := n.request(ctx)
	defer cancel()
	_, err := n.tables.Get(ctx, TableKey(table))
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("cluster: registry of %q: %w", table, err)
	}
	return true, nil
}

// Registered returns the house's registry, by name.
func (n *Node) Registered(ctx context.Context) ([]Registration, error) {
	var out []Registration
	err := n.each(ctx, n.tables, func(e jetstream.KeyValueEntry) {
		var r Registration
		if json.Unmarshal(e.Value(), &r) == nil {
			out = append(out, r)
		}
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Table < out[j].Table })
	return out, err
}

// each calls f with every live entry of kv.
func (n *Node) each(ctx context.Context, kv jetstream.KeyValue, f func(e jetstream.KeyValueEntry)) error {
	ctx, cancel := context.WithTimeout(ctx, 4*n.cfg.Timeout)
	defer cancel()
	w, err := kv.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return fmt.Errorf("cluster: list %s: %w", kv.Bucket(), err)
	}
	defer w.Stop()
	for e := range w.Updates() {
		if e == nil {
			return nil // the initial values are all in
		}
		f(e)
	}
	return fmt.Errorf("cluster: list %s: %w", kv.Bucket(), ctx.Err())
}

// Adopter opens on this node a registered table whose lease the node has just
// acquired (its former node lost or gone): typically it opens the table's WAL
// (OpenWAL) and resumes the hand in play. On an error the lease is released;
// otherwise the node owns the table (Own) once it returns, if it did not say so
// itself.
type Adopter func(ctx context.Context, l *Lease, reg Registration) error

// Run keeps the node's leases until ctx is done: every TTL/3 it renews each
// lease it owns and then refreshes its lobby entry, calls lost with each lease
// lost (refused, or not renewed before its local deadline: the table must stop
// at once), and, if adopt is not nil, acquires the registered tables that no
// node holds and hands each to adopt, adopters at a time and up to this
// node's share (adoptOrphans): the surviving nodes of a lost one share its
// tables out rather than the quickest taking them all. adopt is called from
// several goroutines at once. A role's tables (Registration.Role) are not
// adopted so: the role's holder opens them.
//
// The renewals run on their own goroutine and ticker, renewers at a time: an
// adoption, however slow (a WAL to read, a hand to resume), never delays them,
// and a node short of CPU renews hundreds of leases in a few round trips' time.
// lost may be called from several goroutines at once.
//
// A lease released on purpose (a node leaving hands its tables over) or
// expired is adopted at once: the keeper watches the bucket for the deletes
// and the markers the server leaves at an expiry. Once ctx is done, the node
// acquires nothing more; Run returns when the adoptions under way have ended.
func (n *Node) Run(ctx context.Context, adopt Adopter, lost func(*Lease)) error {
	ctx, cancel := context.WithCancel(ctx)
	renewing := make(chan struct{})
	go func() {
		defer close(renewing)
		n.keep(ctx, lost)
	}()
	defer func() {
		cancel()
		<-renewing
	}()
	if adopt == nil {
		<-ctx.Done()
		return ctx.Err()
	}
	tick := time.NewTicker(n.cfg.LeaseTTL / 3)
	defer tick.Stop()
	released := n.watchReleases(ctx)
	for {
		if n.adoptOrphans(ctx, adopt) {
			continue // stopped at its share: the others' leavings next
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		case <-released:
		}
	}
}

// keep renews the node's leases every TTL/3 until ctx is done.
func (n *Node) keep(ctx context.Context, lost func(*Lease)) {
	tick := time.NewTicker(n.cfg.LeaseTTL / 3)
	defer tick.Stop()
	for {
		n.renewAll(ctx, lost)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// watchReleases returns a channel that receives when a lease is released
// (deleted), or nil if the bucket cannot be watched (the ticks remain); it
// wakes AwaitHolder's waiters of each lease written.
func (n *Node) watchReleases(ctx context.Context) <-chan struct{} {
	w, err := n.leases.WatchAll(ctx, jetstream.UpdatesOnly())
	if err != nil {
		n.cfg.Log.Warn("lease releases not watched: tables are adopted at the keeper's ticks", "err", err)
		return nil
	}
	out := make(chan struct{}, 1)
	go func() {
		defer w.Stop()
		for e := range w.Updates() {
			if e != nil && e.Operation() == jetstream.KeyValuePut {
				n.leaseWaits.wake(e.Key()) // a lease acquired or renewed (AwaitHolder)
			}
			if e != nil && e.Operation() != jetstream.KeyValuePut {
				select {
				case out <- struct{}{}:
				default:
				}
			}
		}
	}()
	return out
}

// renewers bounds the renewals (and then the listings' refreshes) a node has
// in flight at once: a pass over 200 leases takes about 7 round trips, not 400.
const renewers = 32

// renewAll renews every owned lease, renewers at a time, and once they are all
// done refreshes the listings of those renewed: a listing's write never delays
// a lease's.
func (n *Node) renewAll(ctx context.Context, lost func(*Lease)) {
	owned := n.ownedTables()
	renewed := make([]bool, len(owned))
	var g errgroup.Group
	g.SetLimit(renewers)
	for i, o := range owned {
		g.Go(func() error {
			renewed[i] = n.renew(ctx, o, lost)
			return nil
		})
	}
	_ = g.Wait()
	for i, o := range owned {
		if !renewed[i] {
			continue
		}
		g.Go(func() error {
			n.mu.Lock()
			listing := o.listing
			n.mu.Unlock()
			if listing != nil {
				rctx, cancel := n.request(ctx)
				_, _ = n.lobby.Put(rctx, o.lease.key, listing)
				cancel()
			}
			return nil
		})
	}
	_ = g.Wait()
}

// renew renews o's lease and reports whether it did; a lease lost is dropped
// from the node's and handed to lost.
func (n *Node) renew(ctx context.Context, o *ownedTable, lost func(*Lease)) bool {
	err := o.lease.Renew(ctx)
	n.mu.Lock()
	switch {
	case err == nil:
		n.stats.Renewals++
	case errors.Is(err, ErrLeaseLost) || !o.lease.Valid(time.Now()):
		n.stats.Lost++
		if cur := n.owned[o.lease.key]; cur == o {
			delete(n.owned, o.lease.key)
		}
	default:
		n.stats.RenewalErrors++
	}
	n.mu.Unlock()
	if err == nil {
		return true
	}
	n.cfg.Log.Warn("lease not renewed", "table", o.lease.table, "err", err, "valid", o.lease.Valid(time.Now()))
	if !o.lease.Valid(time.Now()) {
		o.lease.markLost()
		if lost != nil {
			lost(o.lease)
		}
	}
	return false
}
