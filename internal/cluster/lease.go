package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Errors of leases and of the WAL.
var (
	// ErrHeld refuses a lease that another node holds (see HeldError).
	ErrHeld = errors.New("table lease held by another node")
	// ErrLeaseLost reports a lease that is no longer this node's: a renewal
	// refused (another node has acquired it since), a lease past its local
	// deadline (not renewed in time: a NATS outage, a long pause) or released.
	ErrLeaseLost = errors.New("table lease lost")
	// ErrFenced refuses a WAL write by a stale owner: another owner has written
	// to the table's log since this writer last did.
	ErrFenced = errors.New("fenced: a newer owner has written to the table's log")
)

// HeldError is Acquire's error when another node holds the lease. It unwraps to
// ErrHeld.
type HeldError struct {
	Table string
	Node  string // the holder, or "" if unknown
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("table %q: lease held by node %q", e.Table, e.Node)
}

// Unwrap returns ErrHeld.
func (e *HeldError) Unwrap() error { return ErrHeld }

// leaseValue is a lease key's value: who holds it and since when.
type leaseValue struct {
	Node  string    `json:"node"`
	Since time.Time `json:"since"`
}

// Lease is one table's ownership by this node. Its fencing token is the revision
// of the key's create: every owner's is greater than the last one's.
type Lease struct {
	n     *Node
	table string
	key   string
	token uint64
	value []byte

	mu    sync.Mutex
	rev   uint64    // the key's revision as last written by this lease
	until time.Time // the local deadline: held for sure until then
	lost  bool
	// opening: the lease counts in its node's opening (AwaitOpen) until Own
	// or Release.
	opening bool
}

// Table returns the name of the table the lease is for.
func (l *Lease) Table() string { return l.table }

// Token returns the lease's fencing token.
func (l *Lease) Token() uint64 { return l.token }

// Valid reports whether the lease is this node's for sure at now: not lost,
// not released and renewed recently enough. The local deadline is the time the
// last successful write was sent plus 4/5 of the TTL, so it falls before the
// bucket's expiry of the key, whose clock starts when the server stores it.
func (l *Lease) Valid(now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return !l.lost && now.Before(l.until)
}

func (l *Lease) check(now time.Time) error {
	if !l.Valid(now) {
		return fmt.Errorf("table %q: %w", l.table, ErrLeaseLost)
	}
	return nil
}

// margin is the local deadline's length after a write sent at sent.
func (n *Node) deadline(sent time.Time) time.Time { return sent.Add(n.cfg.LeaseTTL * 4 / 5) }

// Acquire takes table's lease for this node: it succeeds only if no node holds
// it (the key is missing, expired or released). Otherwise the error is a
// *HeldError.
func (n *Node) Acquire(ctx context.Context, table string) (*Lease, error) {
	if table == "" {
		return nil, errors.New("cluster: acquire: no table name")
	}
	key := TableKey(table)
	val, err := json.Marshal(leaseValue{Node: n.cfg.Node, Since: time.Now().UTC()})
	if err != nil {
		return nil, err
	}
	ctx, cancel := n.request(ctx)
	defer cancel()
	// The table counts as being opened here from before the key exists, so
	// that no node that reads this node's name in it finds the table missing
	// here (AwaitOpen).
	n.beginOpening(key)
	sent := time.Now()
	rev, err := n.leases.Create(ctx, key, val)
	if err != nil {
		n.endOpening(key)
	}
	if errors.Is(err, jetstream.ErrKeyExists) {
		return nil, &HeldError{Table: table, Node: n.holder(ctx, key)}
	}
	if err != nil {
		return nil, fmt.Errorf("cluster: acquire %q: %w", table, err)
	}
	return &Lease{n: n, table: table, key: key, token: rev, value: val, rev: rev, until: n.deadline(sent), opening: true}, nil
}

// holder returns the node named in key's lease, or "".
func (n *Node) holder(ctx context.Context, key string) string {
	e, err := n.leases.Get(ctx, key)
	if err != nil {
		return ""
	}
	var v leaseValue
	_ = json.Unmarshal(e.Value(), &v)
	return v.Node
}

// Holder returns the node holding table's lease, or "" when none does.
func (n *Node) Holder(ctx context.Context, table string) (string, error) {
	ctx, cancel := n.request(ctx)
	defer cancel()
	e, err := n.leases.Get(ctx, TableKey(table))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("cluster: holder of %q: %w", table, err)
	}
	var v leaseValue
	if err := json.Unmarshal(e.Value(), &v); err != nil {
		return "", fmt.Errorf("cluster: holder of %q: %w", table, err)
	}
	return v.Node, nil
}

// Renew writes the lease again, on the condition that its key is still at the
// revision this lease last wrote: if another node has acquired it since (this
// one's expired), the renewal is refused with ErrLeaseLost and the lease is
// lost for good.
func (l *Lease) Renew(ctx context.Context) error {
	l.mu.Lock()
	lost, rev := l.lost, l.rev
	l.mu.Unlock()
	if lost {
		return fmt.Errorf("table %q: %w", l.table, ErrLeaseLost)
	}
	ctx, cancel := l.n.request(ctx)
	defer cancel()
	sent := time.Now()
	next, err := l.n.leases.Update(ctx, l.key, l.value, rev)
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case wrongLastSequence(err):
		l.lost = true
		return fmt.Errorf("table %q: renewal refused: %w", l.table, ErrLeaseLost)
	case err != nil:
		// Not refused, not done (NATS unreachable): the lease holds until its
		// local deadline.
		return fmt.Errorf("cluster: renew %q: %w", l.table, err)
	}
	l.rev, l.until = next, l.n.deadline(sent)
	return nil
}

// Release gives the lease up at once (a node leaving on purpose), if it is
// still this node's: another node may acquire it without waiting for the TTL.
// Releasing a lost lease does nothing.
func (l *Lease) Release(ctx context.Context) error {
	l.opened()
	l.mu.Lock()
	lost, rev := l.lost, l.rev
	l.lost = true
	l.mu.Unlock()
	if lost {
		return nil
	}
	ctx, cancel := l.n.request(ctx)
	defer cancel()
	err := l.n.leases.Delete(ctx, l.key, jetstream.LastRevision(rev))
	if err != nil && !wrongLastSequence(err) {
		return fmt.Errorf("cluster: release %q: %w", l.table, err)
	}
	return nil
}

// markLost marks the lease lost for good.
func (l *Lease) markLost() {
	l.mu.Lock()
	l.lost = true
	l.mu.Unlock()
}

// opening is the tables of one key being opened on this node: n leases, done
// closed when the last is owned or released.
type opening struct {
	n    int
	done chan struct{}
}

// beginOpening counts one more lease of key being acquired or opened.
func (n *Node) beginOpening(key string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	o := n.opening[key]
	if o == nil {
		o = &opening{done: make(chan struct{})}
		n.opening[key] = o
	}
	o.n++
}

// endOpening counts one lease of key less, and wakes AwaitOpen at the last.
func (n *Node) endOpening(key string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if o := n.opening[key]; o != nil {
		if o.n--; o.n == 0 {
			close(o.done)
			delete(n.opening, key)
		}
	}
}

// opened ends the lease's count in its node's opening, once.
func (l *Lease) opened() {
	l.mu.Lock()
	was := l.opening
	l.opening = false
	l.mu.Unlock()
	if was {
		l.n.endOpening(l.key)
	}
}

// AwaitOpen waits while table is being opened on this node (its lease
// acquired, or being acquired, and not yet handed to Own), until it is open
// (Own), given up (Release) or ctx is done. It reports whether it waited and
// the wait ended before ctx: the table's lookup is then worth doing again.
// Between a takeover's lease and its table's opening, the other nodes already
// read this node's name in the lease: a message they relay here waits for the
// table rather than finding none.
func (n *Node) AwaitOpen(ctx context.Context, table string) bool {
	n.mu.Lock()
	o := n.opening[TableKey(table)]
	n.mu.Unlock()
	if o == nil {
		return false
	}
	select {
	case <-o.done:
		return true
	case <-ctx.Done():
		return false
	}
}
