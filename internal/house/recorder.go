package house

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/store"
)

// Finished hands are written by one goroutine, the recorder, which takes the hands
// queued since its last write and writes them in one transaction: a thousand tables
// then cost the database a few transactions a second instead of a thousand writers
// queueing for SQLite's one, and a table never waits for the database to deal its
// next hand (RecordHandAsync).
//
// The stacks kept for crash recovery (table_seats) stay exact: a hand's change to
// them is written in the transaction of the hand itself, and the other writers of a
// table's seats (BuyIn, CashOut, Recover) first wait until the table's queued hands
// are written (flushTable), so that the seats see every change in the order the
// table made it. A hand still queued when the house is killed is as if never dealt,
// like a hand in play: its chips are in the stacks of the hand before.

const (
	// maxBatch bounds the hands written in one transaction.
	maxBatch = 256
	// recordTimeout bounds one batch's transaction.
	recordTimeout = 30 * time.Second
)

// handJob is a hand waiting for the recorder, or (hand.TableRef == "") a flush
// marker whose done is called once everything queued before it is written.
type handJob struct {
	hand  store.Hand
	users []int64 // its registered players, sorted
	done  func(id int64, err error)
}

type recorder struct {
	mu      sync.Mutex
	queue   []handJob
	pending map[string]int // queued or being written, by table
	running bool
	wake    chan struct{}
}

// RecordHandAsync queues a finished hand (checked as RecordHand checks it) for
// the recorder and returns at once; done, if not nil, is called from the
// recorder's goroutine with the hand's id once it is stored, or with the error
// that refused it. Hands of one table are stored in the order they were queued.
func (h *House) RecordHandAsync(hand store.Hand, done func(id int64, err error)) {
	users, err := h.checkHand(&hand)
	if err != nil {
		if done != nil {
			done(0, err)
		}
		return
	}
	h.enqueue(handJob{hand: hand, users: users, done: done})
}

// RecordHand stores a finished hand (its PHH text and each player's result) and
// adds it to the registered players' totals and to the stacks the table holds for
// them (see Recover), in one transaction, and returns the hand's id. The players'
// nets must sum to zero (play money has no rake). Chips stay at the table: only
// buy-ins and cash-outs touch the credits. A hand with a key stored already
// (store.Hand.Key) is not stored or counted again: its id is returned. It
// waits for the recorder (see RecordHandAsync); if ctx ends first the hand
// may still be stored.
func (h *House) RecordHand(ctx context.Context, hand store.Hand) (int64, error) {
	type result struct {
		id  int64
		err error
	}
	ch := make(chan result, 1)
	h.RecordHandAsync(hand, func(id int64, err error) { ch <- result{id, err} })
	select {
	case r := <-ch:
		return r.id, r.err
	case <-ctx.Done():
		return 0, fmt.Errorf("record hand at %s: %w", hand.TableRef, ctx.Err())
	}
}

// Flush waits until every hand queued so far is stored (or refused). Call it
// after the tables have closed and before closing the store.
func (h *House) Flush(ctx context.Context) error {
	return h.flush(ctx, "")
}

// flushTable waits until the hands queued so far at table ref are stored; it
// returns at once when there are none.
func (h *House) flushTable(ctx context.Context, ref string) error {
	return h.flush(ctx, ref)
}

func (h *House) flush(ctx context.Context, ref string) error {
	r := &h.rec
	r.mu.Lock()
	none := len(r.queue) == 0 && !r.running
	if ref != "" {
		none = r.pending[ref] == 0
	}
	r.mu.Unlock()
	if none {
		return nil
	}
	ch := make(chan struct{})
	h.enqueue(handJob{done: func(int64, error) { close(ch) }})
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waiting for the hands of %q to be stored: %w", ref, ctx.Err())
	}
}

func (h *House) enqueue(j handJob) {
	r := &h.rec
	r.mu.Lock()
	r.queue = append(r.queue, j)
	if j.hand.TableRef != "" {
		if r.pending == nil {
			r.pending = make(map[string]int)
		}
		r.pending[j.hand.TableRef]++
	}
	if !r.running {
		r.running = true
		go h.recordLoop()
	}
	r.mu.Unlock()
}

// recordLoop writes the queue in batches until it is empty, then ends (the next
// enqueue starts another).
func (h *House) recordLoop() {
	r := &h.rec
	for {
		r.mu.Lock()
		if len(r.queue) == 0 {
			r.running = false
			r.mu.Unlock()
			return
		}
		n := 0
		for n < len(r.queue) && n < maxBatch {
			n++
			if r.queue[n-1].hand.TableRef == "" {
				break // a flush marker ends a batch
			}
		}
		batch := slices.Clone(r.queue[:n])
		clear(r.queue[:n])
		r.queue = r.queue[n:]
		if len(r.queue) == 0 {
			r.queue = nil
		}
		r.mu.Unlock()

		ids, errs := h.writeBatch(batch)

		r.mu.Lock()
		for _, j := range batch {
			if ref := j.hand.TableRef; ref != "" {
				if r.pending[ref]--; r.pending[ref] <= 0 {
					delete(r.pending, ref)
				}
			}
		}
		r.mu.Unlock()
		for i, j := range batch {
			if j.done != nil {
				j.done(ids[i], errs[i])
			}
		}
	}
}

// writeBatch stores the hands of batch (flush markers skipped) in one
// transaction; if that fails it stores them one by one, so that one refused hand
// does not refuse the others.
func (h *House) writeBatch(batch []handJob) ([]int64, []error) {
	ids := make([]int64, len(batch))
	errs := make([]error, len(batch))
	var hands []int
	for i, j := range batch {
		if j.hand.TableRef != "" {
			hands = append(hands, i)
		}
	}
	if len(hands) == 0 {
		return ids, errs
	}
	ctx, cancel := context.WithTimeout(context.Background(), recordTimeout)
	defer cancel()
	if len(hands) > 1 {
		var users []int64
		for _, i := range hands {
			users = append(users, batch[i].users...)
		}
		slices.Sort(users)
		users = slices.Compact(users)
		err := h.st.InTx(ctx, func(q store.Queries) error {
			// Lock players in id order so that concurrent writers never wait on each other in a cycle.
			for _, u := range users {
				if err := q.LockUser(ctx, u); err != nil {
					return err
				}
			}
			for _, i := range hands {
				id, err := h.saveHand(ctx, q, batch[i].hand)
				if err != nil {
					return err
				}
				ids[i] = id
			}
			return nil
		})
		if err == nil {
			return ids, errs
		}
		clear(ids)
	}
	for _, i := range hands {
		j := batch[i]
		err := h.st.InTx(ctx, func(q store.Queries) error {
			for _, u := range j.users {
				if err := q.LockUser(ctx, u); err != nil {
					return err
				}
			}
			var err error
			ids[i], err = h.saveHand(ctx, q, j.hand)
			return err
		})
		if err != nil {
			ids[i], errs[i] = 0, fmt.Errorf("record hand at %s: %w", j.hand.TableRef, err)
		}
	}
	return ids, errs
}

// saveHand writes one hand, its players' totals and their stacks at the table,
// unless a newer owner has fenced the table. A hand whose key is stored
// already (store.Hand.Key) changes nothing: its id is returned.
func (h *House) saveHand(ctx context.Context, q store.Queries, hand store.Hand) (int64, error) {
	if err := h.fenced(ctx, q, hand.TableRef); err != nil {
		return 0, err
	}
	id, err := q.SaveHand(ctx, hand)
	if errors.Is(err, store.ErrDuplicate) {
		return id, nil
	}
	if err != nil {
		return 0, err
	}
	for _, p := range hand.Players {
		if p.UserID == 0 {
			continue
		}
		d := handStats(p, hand.BigBlind)
		if hand.Tournament {
			d.NetWon, d.BBWonMilli = 0, 0
		}
		if err := q.AddStats(ctx, p.UserID, d); err != nil {
			return 0, err
		}
		if p.Net != 0 && !hand.Tournament {
			if err := q.AddToSeat(ctx, hand.TableRef, p.UserID, p.Net, false); err != nil {
				return 0, err
			}
		}
	}
	return id, nil
}

// checkHand validates a hand, sets its time if unset and returns its registered
// players, sorted.
func (h *House) checkHand(hand *store.Hand) ([]int64, error) {
	if len(hand.Players) == 0 {
		return nil, fieldError("players", "a hand has players")
	}
	if hand.TableRef == "" {
		return nil, fieldError("table", "is required")
	}
	var (
		sum   int64
		seats = make(map[int]bool)
		users []int64
	)
	for _, p := range hand.Players {
		sum += p.Net
		if seats[p.Seat] {
			return nil, fieldError("players", "seat %d appears twice", p.Seat)
		}
		seats[p.Seat] = true
		if p.UserID != 0 {
			if slices.Contains(users, p.UserID) {
				return nil, fieldError("players", "user %d appears twice", p.UserID)
			}
			users = append(users, p.UserID)
		}
	}
	if sum != 0 {
		return nil, fmt.Errorf("record hand at %s: %w: nets sum to %d", hand.TableRef, ErrUnbalancedHand, sum)
	}
	if hand.PlayedAt.IsZero() {
		hand.PlayedAt = h.now()
	}
	slices.Sort(users)
	return users, nil
}
