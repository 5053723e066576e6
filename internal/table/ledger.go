package table

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/house"
)

// Cash-outs (a stack back to its player's credits) are booked by a ledger worker,
// one per table, in the order the table made them, so that the table's goroutine
// never waits for the database: it frees the seat, counts the chips out and
// queues the cash-out. The worker retries a failed booking with backoff until it
// succeeds; once the table has closed it keeps trying for ledgerFlushTimeout and
// then gives up with an error in the log (the house returns such stacks at its
// next start: house.Recover). A player's next buy-in at the table waits until
// their cash-outs there are booked (Sit), so the ledger sees them in order.

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
}

type ledger struct {
	t *Table

	mu      sync.Mutex
	queue   []cashOutOp
	pending map[int64]int             // queued or being booked, by user
	waiters map[int64][]chan struct{} // closed when the user has nothing pending
	closing bool
	flushBy time.Time // once closing, when the retries stop
	exited  bool      // the worker has ended

	wake chan struct{}
	done chan struct{}
}

func newLedger(t *Table) *ledger {
	l := &ledger{t: t, pending: map[int64]int{}, waiters: map[int64][]chan struct{}{},
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	go l.run()
	return l
}

// add queues a cash-out. It never blocks, except once the worker has ended (a
// refund of a Sit that lost its race with Close): it books op itself then.
func (l *ledger) add(op cashOutOp) {
	l.mu.Lock()
	if l.exited {
		l.mu.Unlock()
		l.book(op)
		return
	}
	l.queue = append(l.queue, op)
	l.pending[op.user]++
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// wait returns once user has no cash-out queued at the table, or ctx's error.
func (l *ledger) wait(ctx context.Context, user int64) error {
	l.mu.Lock()
	if l.pending[user] == 0 {
		l.mu.Unlock()
		return nil
	}
	ch := make(chan struct{})
	l.waiters[user] = append(l.waiters[user], ch)
	l.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *ledger) run() {
	defer close(l.done)
	for {
		l.mu.Lock()
		if len(l.queue) == 0 {
			closing := l.closing
			l.exited = closing
			l.mu.Unlock()
			if closing {
				return
			}
			<-l.wake
			continue
		}
		op := l.queue[0]
		l.mu.Unlock()
		l.book(op)
		l.mu.Lock()
		l.queue = l.queue[1:]
		if l.pending[op.user]--; l.pending[op.user] == 0 {
			delete(l.pending, op.user)
			for _, ch := range l.waiters[op.user] {
				close(ch)
			}
			delete(l.waiters, op.user)
		}
		l.mu.Unlock()
	}
}

// book books op, retrying until it succeeds or the final flush's time is up,
// then tells its player.
func (l *ledger) book(op cashOutOp) {
	t := l.t
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
		l.mu.Lock()
		giveUp := l.closing && time.Now().After(l.flushBy)
		l.mu.Unlock()
		if giveUp {
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
