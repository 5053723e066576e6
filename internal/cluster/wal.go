package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/engine"
	"github.com/nats-io/nats.go/jetstream"
)

// walMaxPerSubject bounds what one table's log keeps: far more records than a
// hand has (the log is purged below each hand's start as the hand starts).
const walMaxPerSubject = 100_000

// The kinds of WAL record.
const (
	recHand   = "hand"   // a hand starts: its configuration and the table's state
	recAction = "action" // an action, before the table applies it
	recEnd    = "end"    // the hand is over (and recorded by the table)
	recFence  = "fence"  // a new owner's first write
	recOpen   = "open"   // a new table's state, before its first hand
	recClosed = "closed" // the table closed for good
	recNote   = "note"   // the table's own state (its seats' clocks...) changed
)

// Record is one entry of a table's write-ahead log.
type Record struct {
	Kind  string `json:"kind"`
	Table string `json:"table"`
	Node  string `json:"node"`
	// Token is the writer's fencing token (its lease's).
	Token uint64 `json:"token"`
	// Hand is the table's hand number.
	Hand int64 `json:"hand,omitempty"`
	// HandSeq is the stream sequence of the hand record of the hand in play when
	// the record was written (0: none).
	HandSeq uint64 `json:"hand_seq,omitempty"`
	// Base, on a note or a fence with no hand in play, is the stream sequence
	// of the record holding the table's last state (an end, an open): the
	// notes since follow it.
	Base   uint64          `json:"base,omitempty"`
	Config *engine.Config  `json:"config,omitempty"`
	State  json.RawMessage `json:"state,omitempty"`
	Action *engine.Action  `json:"action,omitempty"`
	// Note is what the table wrote with a note (WAL.Note), as is.
	Note json.RawMessage `json:"note,omitempty"`
	// Closed, on a fence, carries a closed table's mark forward.
	Closed bool      `json:"closed,omitempty"`
	At     time.Time `json:"at"`
}

// HandLog is what a table's log holds for its new owner: the table's state as
// last written (at a hand's start or end) and the hand in play, if any, enough
// to rebuild it.
type HandLog struct {
	Table string
	// Hand is the number of the last hand logged.
	Hand int64
	// InPlay reports a hand in play: Config and Actions are set.
	InPlay bool
	// State is what the table last wrote beside a hand's start or end (its
	// seats and players), as is.
	State json.RawMessage
	// Config is the engine's configuration at the hand's start, seed included.
	Config engine.Config
	// Actions are the actions logged since, in order.
	Actions []engine.Action
	// Closed reports a table that closed for good: its last owner logged so
	// before paying its players out.
	Closed bool
	// Notes are what the table noted after State (WAL.Note), in order.
	Notes []Note
	// StateAt is when State was written, ActionAt when each action was, and
	// LastAt when the former owners wrote their last record (fences aside),
	// each by its writer's clock.
	StateAt  time.Time
	ActionAt []time.Time
	LastAt   time.Time
	// TurnActions and TurnAt, set by Rebuild, say when the turn of the seat
	// to act began: after that many of Actions (0: the hand's start), at
	// that time.
	TurnActions int
	TurnAt      time.Time
}

// Note is one note of a table's log.
type Note struct {
	// At is when it was written; Actions how many of the hand's actions
	// were logged before it.
	At      time.Time
	Actions int
	Data    json.RawMessage
}

// Rebuild deals the hand again and applies its actions: the engine is
// deterministic, so the hand is the one the log was written from, event for
// event. An action the engine refuses is skipped, as the table that logged it
// (it logs before applying) saw it refused and changed nothing; skipped says how
// many were.
func (h *HandLog) Rebuild() (hand *engine.Hand, skipped int, err error) {
	if !h.InPlay {
		return nil, 0, fmt.Errorf("cluster: rebuild: no hand in play at %q", h.Table)
	}
	hand, err = engine.New(h.Config)
	if err != nil {
		return nil, 0, fmt.Errorf("cluster: rebuild hand %d of %q: %w", h.Hand, h.Table, err)
	}
	h.TurnActions, h.TurnAt = 0, h.StateAt
	for i, a := range h.Actions {
		actor := hand.ToAct()
		if hand.Apply(a) != nil {
			skipped++
			continue
		}
		if a.Seat == actor || hand.ToAct() != actor {
			h.TurnActions = i + 1
			if i < len(h.ActionAt) {
				h.TurnAt = h.ActionAt[i]
			}
		}
	}
	return hand, skipped, nil
}

// WAL writes one table's log on behalf of its lease's holder. Each write
// expects the subject's last sequence to be the one this writer last wrote (or
// read when it opened the log): a write after another owner's fence is refused
// with ErrFenced, and one after the lease's local deadline with ErrLeaseLost.
// Its methods are safe for concurrent use but a table calls them from its one
// goroutine.
type WAL struct {
	n       *Node
	lease   *Lease
	table   string
	subject string

	mu      sync.Mutex
	last    uint64 // the subject's last sequence, as written by this writer
	handSeq uint64 // the hand record of the hand in play, 0 none
	base    uint64 // with no hand in play, the record of the table's state
	hand    int64
	fenced  bool
}

// subject returns the WAL subject of a table.
func (n *Node) walSubject(table string) string {
	return n.cfg.Prefix + ".wal." + TableKey(table)
}

// OpenWAL opens the log of the table of lease, for its new owner: it fences the
// log (every later write of a former owner is refused) and returns the hand in
// play it holds with the table's last state, or nil when the log is empty.
func (n *Node) OpenWAL(ctx context.Context, lease *Lease) (*WAL, *HandLog, error) {
	return n.OpenTableWAL(ctx, lease, lease.table)
}

// OpenTableWAL opens the log of table for the holder of lease, which may be a
// role's (AcquireRole): the tables a role's holder runs (a tournament's,
// RegisterRoleTable) are written under the role's lease and token, and every
// write stops being accepted once that lease is not valid. Otherwise it is
// OpenWAL.
func (n *Node) OpenTableWAL(ctx context.Context, lease *Lease, table string) (*WAL, *HandLog, error) {
	w := &WAL{n: n, lease: lease, table: table, subject: n.walSubject(table)}
	for range 20 {
		if err := lease.check(time.Now()); err != nil {
			return nil, nil, err
		}
		last, rec, err := w.lastRecord(ctx)
		if err != nil {
			return nil, nil, err
		}
		handSeq, base, hand, closed := rec.HandSeq, rec.Base, rec.Hand, false
		switch rec.Kind {
		case recHand:
			handSeq = last
		case recEnd, recOpen:
			handSeq, base = 0, last
		case recFence:
			closed = rec.Closed
			if handSeq == 0 && base == 0 && rec.State != nil {
				base = last // a fence that carries the state itself
			}
		case recClosed:
			handSeq, closed = 0, true
		}
		// A fence with no hand in play points at the table's last state, and
		// so does every note after it.
		fence := Record{Kind: recFence, Hand: hand, HandSeq: handSeq, Closed: closed}
		if handSeq == 0 && !closed {
			fence.Base = base
		}
		seq, err := w.publish(ctx, &fence, last)
		if errors.Is(err, ErrFenced) {
			continue // another write came between: read again
		}
		if err != nil {
			return nil, nil, err
		}
		w.last, w.handSeq, w.hand, w.base = seq, handSeq, hand, fence.Base
		switch {
		case closed:
			return w, &HandLog{Table: table, Hand: hand, Closed: true}, nil
		case handSeq != 0:
			hl, err := w.readFrom(ctx, handSeq, last)
			return w, hl, err
		case base != 0:
			hl, err := w.readFrom(ctx, base, last)
			return w, hl, err
		}
		return w, nil, nil
	}
	return nil, nil, fmt.Errorf("cluster: open the log of %q: %w", table, ErrFenced)
}

// lastRecord returns the subject's last sequence and record (0 and a zero
// record when the log is empty).
func (w *WAL) lastRecord(ctx context.Context) (uint64, Record, error) {
	ctx, cancel := w.n.request(ctx)
	defer cancel()
	m, err := w.n.wal.GetLastMsgForSubject(ctx, w.subject)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return 0, Record{}, nil
	}
	if err != nil {
		return 0, Record{}, fmt.Errorf("cluster: read the log of %q: %w", w.table, err)
	}
	var r Record
	if err := json.Unmarshal(m.Data, &r); err != nil {
		return 0, Record{}, fmt.Errorf("cluster: the log of %q, record %d: %w", w.table, m.Sequence, err)
	}
	return m.Sequence, r, nil
}

// readFrom reads the records from sequence from to last of the subject: one that
// holds the table's state (a hand's start or end, an open), then actions,
// notes and fences.
func (w *WAL) readFrom(ctx context.Context, from, last uint64) (*HandLog, error) {
	var hl *HandLog
	for seq := from; seq <= last; seq++ {
		rctx, cancel := w.n.request(ctx)
		m, err := w.n.wal.GetMsg(rctx, seq, jetstream.WithGetMsgSubject(w.subject))
		cancel()
		if err != nil {
			return nil, fmt.Errorf("cluster: read the log of %q at %d: %w", w.table, seq, err)
		}
		seq = m.Sequence
		var r Record
		if err := json.Unmarshal(m.Data, &r); err != nil {
			return nil, fmt.Errorf("cluster: the log of %q, record %d: %w", w.table, seq, err)
		}
		switch {
		case hl == nil && r.Kind == recHand && r.Config != nil:
			hl = &HandLog{Table: w.table, Hand: r.Hand, InPlay: true, Config: *r.Config, State: r.State, StateAt: r.At}
		case hl == nil && r.State != nil && r.Kind != recHand:
			hl = &HandLog{Table: w.table, Hand: r.Hand, State: r.State, StateAt: r.At}
		case hl == nil:
			return nil, fmt.Errorf("cluster: the log of %q: record %d is a %q, not the table's state", w.table, seq, r.Kind)
		case r.Kind == recAction && r.Action != nil:
			hl.Actions = append(hl.Actions, *r.Action)
			hl.ActionAt = append(hl.ActionAt, r.At)
		case r.Kind == recNote:
			hl.Notes = append(hl.Notes, Note{At: r.At, Actions: len(hl.Actions), Data: r.Note})
		}
		if r.Kind != recFence {
			hl.LastAt = r.At
		}
	}
	if hl == nil {
		return nil, fmt.Errorf("cluster: the log of %q: nothing at %d", w.table, from)
	}
	return hl, nil
}

// publish appends r to the log, expecting the subject's last sequence to be
// last, and returns r's sequence.
func (w *WAL) publish(ctx context.Context, r *Record, last uint64) (uint64, error) {
	r.Table, r.Node, r.Token, r.At = w.table, w.n.cfg.Node, w.lease.token, time.Now().UTC()
	b, err := json.Marshal(r)
	if err != nil {
		return 0, err
	}
	ctx, cancel := w.n.request(ctx)
	defer cancel()
	ack, err := w.n.js.Publish(ctx, w.subject, b, jetstream.WithExpectLastSequencePerSubject(last))
	if wrongLastSequence(err) {
		return 0, fmt.Errorf("table %q: %w", w.table, ErrFenced)
	}
	if err != nil {
		return 0, fmt.Errorf("cluster: write the log of %q: %w", w.table, err)
	}
	return ack.Sequence, nil
}

// append writes r after this writer's last record, if the lease is still
// valid and no other owner has written since.
func (w *WAL) append(ctx context.Context, r *Record) (uint64, error) {
	if w.fenced {
		return 0, fmt.Errorf("table %q: %w", w.table, ErrFenced)
	}
	err := w.lease.check(time.Now())
	var seq uint64
	if err == nil {
		seq, err = w.publish(ctx, r, w.last)
	}
	w.n.mu.Lock()
	if err == nil {
		w.n.stats.LogWrites++
	} else if errors.Is(err, ErrFenced) || errors.Is(err, ErrLeaseLost) {
		w.n.stats.LogRefused++
	}
	w.n.mu.Unlock()
	if errors.Is(err, ErrFenced) {
		w.fenced = true
	}
	if err != nil {
		return 0, err
	}
	w.last = seq
	return seq, nil
}

// StartHand logs the start of hand number hand: the engine's configuration
// (its seed deals every card) and state, the table's own record of its seats.
// Records of the hands before are purged.
func (w *WAL) StartHand(ctx context.Context, hand int64, cfg engine.Config, state any) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	st, err := json.Marshal(state)
	if err != nil {
		return fmt.Errorf("cluster: hand state: %w", err)
	}
	seq, err := w.append(ctx, &Record{Kind: recHand, Hand: hand, Config: &cfg, State: st})
	if err != nil {
		return err
	}
	w.handSeq, w.hand, w.base = seq, hand, 0
	pctx, cancel := w.n.request(ctx)
	defer cancel()
	if err := w.n.wal.Purge(pctx, jetstream.WithPurgeSubject(w.subject), jetstream.WithPurgeSequence(seq)); err != nil {
		w.n.cfg.Log.Warn("the log's earlier hands were not purged", "table", w.table, "err", err)
	}
	return nil
}

// Opened logs a new table's state before its first hand (its reference and
// its bots): a player who buys in before it is seated again by a new owner.
// A table writes it again between hands when many notes have followed its
// last state: the records before it are purged.
func (w *WAL) Opened(ctx context.Context, state any) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	st, err := json.Marshal(state)
	if err != nil {
		return fmt.Errorf("cluster: table state: %w", err)
	}
	seq, err := w.append(ctx, &Record{Kind: recOpen, State: st})
	if err != nil {
		return err
	}
	w.handSeq, w.base = 0, seq
	pctx, cancel := w.n.request(ctx)
	defer cancel()
	if err := w.n.wal.Purge(pctx, jetstream.WithPurgeSubject(w.subject), jetstream.WithPurgeSequence(seq)); err != nil {
		w.n.cfg.Log.Warn("the log's earlier records were not purged", "table", w.table, "err", err)
	}
	return nil
}

// Note logs what the table keeps of its own beside the hands (its seats'
// clocks and connections, its players' options, its waiting list...), as
// note says: a new owner reads it back after the table's last state
// (HandLog.Notes). A table with no state logged yet has nothing to note.
func (w *WAL) Note(ctx context.Context, note any) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.handSeq == 0 && w.base == 0 {
		return nil
	}
	b, err := json.Marshal(note)
	if err != nil {
		return fmt.Errorf("cluster: note: %w", err)
	}
	r := &Record{Kind: recNote, Hand: w.hand, HandSeq: w.handSeq, Note: b}
	if w.handSeq == 0 {
		r.Base = w.base
	}
	_, err = w.append(ctx, r)
	return err
}

// Action logs a, to be applied to the hand in play once logged.
func (w *WAL) Action(ctx context.Context, a engine.Action) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.handSeq == 0 {
		return fmt.Errorf("cluster: the log of %q: an action with no hand in play", w.table)
	}
	_, err := w.append(ctx, &Record{Kind: recAction, Hand: w.hand, HandSeq: w.handSeq, Action: &a})
	return err
}

// EndHand logs that the hand in play is over, with the table's state after it:
// a new owner has no hand to resume.
func (w *WAL) EndHand(ctx context.Context, state any) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.handSeq == 0 {
		return nil
	}
	st, err := json.Marshal(state)
	if err != nil {
		return fmt.Errorf("cluster: hand state: %w", err)
	}
	seq, err := w.append(ctx, &Record{Kind: recEnd, Hand: w.hand, State: st})
	if err == nil {
		w.handSeq, w.base = 0, seq
	}
	return err
}

// Closed logs that the table closes for good (any hand in play cancelled): a
// new owner finds it closed (HandLog.Closed).
func (w *WAL) Closed(ctx context.Context) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.append(ctx, &Record{Kind: recClosed, Hand: w.hand}); err != nil {
		return err
	}
	w.handSeq, w.base = 0, 0
	return nil
}

// Forget purges the table's whole log (a table closed for good), if the lease
// is still valid.
func (w *WAL) Forget(ctx context.Context) error { return w.n.ForgetTableWAL(ctx, w.lease, w.table) }

// ForgetWAL purges the whole log of lease's table, if the lease is still
// valid: the table closed for good, or a new table of the same name opens
// (OpenWAL then finds nothing of the one before).
func (n *Node) ForgetWAL(ctx context.Context, lease *Lease) error {
	return n.ForgetTableWAL(ctx, lease, lease.table)
}

// ForgetTableWAL purges the whole log of table, written under lease (a
// role's, OpenTableWAL), if the lease is still valid.
func (n *Node) ForgetTableWAL(ctx context.Context, lease *Lease, table string) error {
	if err := lease.check(time.Now()); err != nil {
		return err
	}
	ctx, cancel := n.request(ctx)
	defer cancel()
	if err := n.wal.Purge(ctx, jetstream.WithPurgeSubject(n.walSubject(table))); err != nil {
		return fmt.Errorf("cluster: forget the log of %q: %w", table, err)
	}
	return nil
}
