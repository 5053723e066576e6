package table

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
)

// Cash-outs (a stack back to its player's credits) are booked by a ledger worker,
// one per table, in the order the table made them, so that the table's goroutine
// never waits for the database: it frees the seat, counts the chips out and
// queues the cash-out. The worker retries a failed booking with backoff until it
// succeeds; once the table has closed it keeps trying for ledgerFlushTimeout and
// then gives up with an error in the log (the house returns such stacks at its
// next start: house.Recover). A player's next buy-in at the table waits until
// their cash-outs there are booked (Sit), so the ledger sees them in order.
//
// A top-up's buy-in is booked while the table plays on, so the player may
// leave the seat (or bust, or see the table close) before its reply is back.
// The seat's cash-out deletes the player's seat record, which holds the
// top-up once booked, so it must carry the top-up's chips too: a cash-out of
// a player with top-ups in flight (startTopUp) is held until the last of them
// ends (endTopUp), which adds the chips it booked, and is booked then as one.

const (
	// ledgerRetryMin and ledgerRetryMax bound the wait between two attempts.
	ledgerRetryMin = 100 * time.Millisecond
	ledgerRetryMax = 5 * time.Second
	// ledgerFlushTimeout bounds the bookings still queued when the table closes.
	ledgerFlushTimeout = 30 * time.Second
)

// cashOutOp is one cash-out waiting to be booked, and the notice its player gets
// once it is.
type cashOutOp struct {
	user   int64
	amount int64
	code   string // the notice's code: "cashed_out", "busted" or "" for none
	text   string
	// dep, when not nil, is the departure of the seat cashed out, written to
	// the house's store (Table.keeper) before the cash-out is booked; forget
	// deletes the user's departure from the store instead of a cash-out, and
	// keep writes deps alone, in one write (the departures a log had and the
	// store lacked).
	dep          *store.Departure
	deps         []store.Departure
	forget, keep bool
}

type ledger struct {
	t *Table

	mu      sync.Mutex
	queue   []cashOutOp
	pending map[int64]int             // queued or being booked, by user
	topUps  map[int64]int             // top-ups being booked, by user
	held    map[int64]*cashOutOp      // a cash-out waiting for the user's top-ups
	waiters map[int64][]chan struct{} // closed when the user's pending or held cash-outs change
	closing bool
	flushBy time.Time // once closing, when the retries stop
	exited  bool      // the worker has ended

	wake chan struct{}
	done chan struct{}
}

func newLedger(t *Table) *ledger {
	l := &ledger{t: t, pending: map[int64]int{}, topUps: map[int64]int{}, held: map[int64]*cashOutOp{}, waiters: map[int64][]chan struct{}{},
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	go l.run()
	return l
}

// add queues a cash-out, or holds it while its player has top-ups in flight.
// It never blocks, except once the worker has ended (a refund of a Sit that
// lost its race with Close): it books op itself then.
func (l *ledger) add(op cashOutOp) {
	l.mu.Lock()
	if l.topUps[op.user] > 0 && !op.forget {
		l.holdLocked(op)
		l.mu.Unlock()
		return
	}
	if l.exited {
		l.mu.Unlock()
		l.book(op)
		return
	}
	l.queueLocked(op)
	l.mu.Unlock()
}

// queueLocked queues op for the worker. l.mu must be held.
func (l *ledger) queueLocked(op cashOutOp) {
	l.queue = append(l.queue, op)
	l.pending[op.user]++
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// holdLocked adds op to its player's held cash-out. l.mu must be held.
func (l *ledger) holdLocked(op cashOutOp) {
	h := l.held[op.user]
	if h == nil {
		l.held[op.user] = &op
		return
	}
	h.amount += op.amount
	h.code = cmp.Or(h.code, op.code)
	if op.dep != nil {
		h.dep = op.dep
	}
	if h.amount > 0 && h.code != "" {
		h.code, h.text = "cashed_out", fmt.Sprintf("%d chips returned to your credits", h.amount)
	}
}

// startTopUp counts a top-up of user in flight: their cash-outs are held
// until it ends. Only the table's goroutine calls it.
func (l *ledger) startTopUp(user int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.topUps[user]++
}

// endTopUp ends a top-up of user begun with startTopUp; back is what it booked
// that their seat did not take (it was gone): it goes back with the seat's
// cash-out, which is queued once no top-up of theirs is in flight.
func (l *ledger) endTopUp(user, back int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if back > 0 {
		l.holdLocked(cashOutOp{user: user, amount: back, code: "cashed_out",
			text: fmt.Sprintf("%d chips of your top-up returned to your credits", back)})
	}
	if l.topUps[user]--; l.topUps[user] > 0 {
		return
	}
	delete(l.topUps, user)
	if h := l.held[user]; h != nil {
		delete(l.held, user)
		l.queueLocked(*h)
	}
	l.wakeLocked(user)
	select { // a closing worker waits for the top-ups in flight
	case l.wake <- struct{}{}:
	default:
	}
}

// wakeLocked wakes user's waiters, to look again. l.mu must be held.
func (l *ledger) wakeLocked(user int64) {
	for _, ch := range l.waiters[user] {
		close(ch)
	}
	delete(l.waiters, user)
}

// wait returns once user has no cash-out queued at the table (nor held, if
// held), or ctx's error. A top-up waits for the queued ones only: a cash-out
// held is waiting for it.
func (l *ledger) wait(ctx context.Context, user int64, held bool) error {
	for {
		l.mu.Lock()
		if l.pending[user] == 0 && (!held || l.held[user] == nil) {
			l.mu.Unlock()
			return nil
		}
		ch := make(chan struct{})
		l.waiters[user] = append(l.waiters[user], ch)
		l.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (l *ledger) run() {
	defer close(l.done)
	for {
		l.mu.Lock()
		if len(l.queue) == 0 {
			closing := l.closing && len(l.topUps) == 0
			l.exited = closing
			l.mu.Unlock()
			if closing {
				return
			}
			<-l.wake
			continue
		}
		n := 1 // the forgets in a row go as one
		for l.queue[0].forget && n < len(l.queue) && n < maxForgets && l.queue[n].forget {
			n++
		}
		ops := slices.Clone(l.queue[:n])
		l.mu.Unlock()
		if ops[0].forget {
			l.t.forgetDepartures(ops, l.givenUp)
		} else {
			l.book(ops[0])
		}
		l.mu.Lock()
		clear(l.queue[:n])
		l.queue = l.queue[n:]
		for _, op := range ops {
			if l.pending[op.user]--; l.pending[op.user] == 0 {
				delete(l.pending, op.user)
				l.wakeLocked(op.user)
			}
		}
		l.mu.Unlock()
	}
}

// maxForgets bounds the departures deleted from the store in one write.
const maxForgets = 1000

// givenUp reports whether the final flush's time is up: what is still
// queued is not tried any more.
func (l *ledger) givenUp() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closing && time.Now().After(l.flushBy)
}

// book books op, retrying until it succeeds or the final flush's time is up,
// then tells its player.
func (l *ledger) book(op cashOutOp) {
	t := l.t
	if op.forget {
		t.forgetDepartures([]cashOutOp{op}, l.givenUp)
		return
	}
	if op.keep {
		t.keepDepartures(op.deps, l.givenUp)
		return
	}
	if op.dep != nil {
		t.keepDepartures([]store.Departure{*op.dep}, l.givenUp)
	}
	wait := ledgerRetryMin
	for attempt := 1; ; attempt++ {
		ctx, cancel := context.WithTimeout(context.Background(), bankTimeout)
		credits, err := t.cfg.Bank.CashOut(ctx, op.user, t.ref, op.amount)
		cancel()
		if errors.Is(err, house.ErrFenced) {
			// Another node runs the table now, with this seat (docs/scaling.md).
			t.log.Warn("cash-out refused: another node has taken the table over", "user", op.user, "amount", op.amount)
			return
		}
		if err == nil || errors.Is(err, house.ErrNoSeat) {
			// ErrNoSeat: an earlier attempt was booked though its reply was lost.
			if op.code != "" {
				amount := op.amount
				n := NoticeMsg{Code: op.code, Text: op.text, Amount: &amount}
				if err == nil {
					n.Credits = &credits
				}
				t.post(op.user, n)
			}
			return
		}
		if l.givenUp() {
			t.log.Error("CASH-OUT FAILED: chips not returned (the house returns them at its next start)",
				"user", op.user, "amount", op.amount, "attempts", attempt, "err", err)
			return
		}
		t.log.Warn("cash-out failed: retrying", "user", op.user, "amount", op.amount, "attempt", attempt, "in", wait, "err", err)
		time.Sleep(wait)
		wait = min(2*wait, ledgerRetryMax)
	}
}

// close books what is queued (trying for ledgerFlushTimeout at most) and ends
// the worker.
func (l *ledger) close() {
	l.mu.Lock()
	l.closing, l.flushBy = true, time.Now().Add(ledgerFlushTimeout)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
	<-l.done
}

// post sends notice n to player id's watchers: from the table's goroutine while
// it runs, else straight to the sinks that watched the table when it closed.
func (t *Table) post(id int64, n NoticeMsg) {
	select {
	case t.cmds <- func() { t.notice(id, n) }:
	case <-t.loopDone:
		n.Type, n.Table = "notice", t.cfg.Name
		b, err := json.Marshal(n)
		if err != nil {
			return
		}
		for _, w := range t.watchers { // the table's goroutine has ended: nothing else touches them
			if w.p.ID == id {
				w.sink.Send(b)
			}
		}
	}
}
