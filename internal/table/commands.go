package table

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/felt-poker/felt/internal/chat"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/house"
)

// The commands a table takes. Each runs on the table's goroutine; a refused one
// returns an error and changes nothing.

// Watch makes sink receive the table's messages as p may see them (p.ID 0: an
// anonymous spectator): the state now and after every change, room chat and p's
// notices. A seated player watching again is back (no longer away). It returns the
// id that Unwatch takes. A stranger to a private table gets ErrPrivate.
func (t *Table) Watch(ctx context.Context, p Player, sink Sink) (int, error) {
	var id int
	err := t.call(ctx, func() error {
		if err := t.mayEnter(p); err != nil {
			return err
		}
		id = t.nextWatcher
		t.nextWatcher++
		t.watchers[id] = &watcher{p: p, sink: sink}
		if s := t.seatOf(p.ID); s >= 0 && t.seats[s].away {
			t.seats[s].away = false
			t.log.Info("player back", "seat", s, "player", p.Name)
		}
		t.version++
		for _, l := range t.chatLog.Lines() {
			if b, err := json.Marshal(l); err == nil {
				sink.Send(b)
			}
		}
		return nil
	})
	return id, err
}

// Unwatch stops the messages of a Watch. A seated player with nothing watching
// any more is away: the grace period starts.
func (t *Table) Unwatch(ctx context.Context, id int) error {
	return t.call(ctx, func() error {
		w, ok := t.watchers[id]
		if !ok {
			return nil
		}
		delete(t.watchers, id)
		t.version++
		if s := t.seatOf(w.p.ID); s >= 0 {
			for _, o := range t.watchers {
				if o.p.ID == w.p.ID {
					return nil
				}
			}
			if st := &t.seats[s]; !st.away {
				st.away, st.awaySince = true, time.Now()
				t.log.Info("player away", "seat", s, "player", w.p.Name)
			}
		}
		return nil
	})
}

// Sit gives p a seat (seat -1: any free one) with buyIn chips taken from their
// credits now. The seat is dealt in from the next hand. The table keeps dealing
// while the buy-in is booked: the seat is held for p meanwhile, and the chips go
// back to p's credits if the table closes before p can sit.
func (t *Table) Sit(ctx context.Context, p Player, seatNo int, buyIn int64) error {
	seatNo, err := t.reserve(ctx, p, seatNo, buyIn)
	if err != nil {
		return err
	}
	release := func() {
		_ = t.callSure(func() error {
			if t.reserved[seatNo] == p.ID {
				delete(t.reserved, seatNo)
			}
			return nil
		})
	}
	// The player's last cash-out here is booked first, so that the ledger (and
	// its record of who sits where) sees the two in order.
	if err := t.ledger.wait(ctx, p.ID, true); err != nil {
		release()
		return err
	}
	bctx, cancel := context.WithTimeout(ctx, bankTimeout)
	_, err = t.cfg.Bank.BuyIn(bctx, p.ID, t.ref, buyIn)
	cancel()
	if err != nil {
		release()
		return err
	}
	err = t.callSure(func() error {
		if t.closed {
			return ErrClosed
		}
		delete(t.reserved, seatNo)
		t.chipsIn += buyIn
		now := time.Now()
		owes, why := t.owedOnSit(p.ID, seatNo, now)
		t.seats[seatNo] = seat{occupied: true, p: p, stack: buyIn, bank: t.cfg.TimeBank, owesBB: owes, basis: t.basisOf(p.ID, buyIn, now)}
		t.restoreClock(p.ID, &t.seats[seatNo], now)
		if _, ok := t.departed[p.ID]; ok {
			t.unkeep(p.ID) // back with what the rules asked: a restart holds them to nothing now
		}
		t.dropWaiter(p.ID) // seated: off the waiting list
		t.hadHuman = true
		t.version++
		t.log.Info("seated", "seat", seatNo, "player", p.Name, "buy_in", buyIn, "owes_bb", owes)
		if owes {
			t.noticeWaitBB(seatNo, why)
		}
		return nil
	})
	if err != nil { // the table closed meanwhile: the buy-in goes back
		t.ledger.add(cashOutOp{user: p.ID, amount: buyIn})
	}
	return err
}

// reserve checks a Sit and holds the seat for p while the buy-in is booked; it
// returns the seat.
func (t *Table) reserve(ctx context.Context, p Player, seatNo int, buyIn int64) (int, error) {
	err := t.call(ctx, func() error {
		if p.ID == 0 {
			return ErrAnonymous
		}
		if t.tourney() {
			return ErrTourneySeat
		}
		if t.seatOf(p.ID) >= 0 {
			return ErrSeated
		}
		if t.cfg.Lock != nil && !t.admitted[p.ID] {
			return ErrLocked
		}
		for _, id := range t.reserved {
			if id == p.ID {
				return ErrSeated
			}
		}
		if err := t.checkBuyIn(p.ID, buyIn, time.Now()); err != nil {
			return err
		}
		free := func(i int) bool { return t.seatFree(i, p.ID) }
		if seatNo == -1 {
			seatNo = t.freeSeat(p.ID)
			if seatNo == -1 {
				return fmt.Errorf("%w: the table is full", ErrSeatTaken)
			}
		} else if seatNo < 0 || seatNo >= len(t.seats) {
			return invalid("seat", "must be 0 to %d", len(t.seats)-1)
		} else if !free(seatNo) {
			return fmt.Errorf("%w: seat %d", ErrSeatTaken, seatNo)
		}
		t.reserved[seatNo] = p.ID
		return nil
	})
	return seatNo, err
}

// seated runs f on p's seat.
func (t *Table) seated(ctx context.Context, p Player, f func(i int, st *seat) error) error {
	return t.call(ctx, func() error {
		i := t.seatOf(p.ID)
		if i < 0 {
			return ErrNotSeated
		}
		t.version++
		return f(i, &t.seats[i])
	})
}

// SitOut keeps p's seat and stack but deals them out from the next hand.
func (t *Table) SitOut(ctx context.Context, p Player) error {
	return t.seated(ctx, p, func(_ int, st *seat) error { st.sitOut(time.Now()); return nil })
}

// SitIn deals p in again from the next hand, or, at a cash table where
// hands were dealt while they sat out, when the big blind reaches their seat.
func (t *Table) SitIn(ctx context.Context, p Player) error {
	return t.seated(ctx, p, func(i int, st *seat) error {
		if st.sittingOut && st.owesBB && !t.tourney() {
			t.noticeWaitBB(i, "hands were dealt while you sat out")
		}
		st.sittingOut, st.timeouts = false, 0
		return nil
	})
}

// Stand frees p's seat after the hand in play (now if they are not in it) and
// returns their stack to their credits (booked by the table's ledger worker:
// the "cashed_out" notice follows). At a tournament's table it sits p out.
func (t *Table) Stand(ctx context.Context, p Player) error {
	return t.seated(ctx, p, func(i int, st *seat) error {
		if t.tourney() {
			st.sitOut(time.Now())
			return nil
		}
		if t.handLive && st.inHand {
			st.leaving = true
			return nil
		}
		t.cashOut(i, "cashed_out")
		return nil
	})
}

// Leave takes p out at once: a hand in play is folded (an all-in hand stays
// live) and the stack returns to their credits when it ends. At a tournament's
// table it sits p out: they are blinded out until they sit in or bust.
func (t *Table) Leave(ctx context.Context, p Player) error {
	return t.seated(ctx, p, func(i int, st *seat) error {
		if t.tourney() {
			st.sitOut(time.Now())
			return nil
		}
		t.leaveSeat(i)
		return nil
	})
}

// Act plays p's action: kind Fold, Check, Call, Bet or Raise; amount is the total
// a Bet or Raise brings the round's bet to. An illegal action returns the engine's
// error and changes nothing.
func (t *Table) Act(ctx context.Context, p Player, kind engine.ActionKind, amount int64) error {
	return t.call(ctx, func() error {
		i := t.seatOf(p.ID)
		if i < 0 {
			return ErrNotSeated
		}
		if !t.handLive {
			return fmt.Errorf("%w: no hand in play", engine.ErrHandOver)
		}
		if kind > engine.Raise {
			return fmt.Errorf("%w: %s", engine.ErrIllegalAction, kind)
		}
		if err := t.apply(engine.Action{Seat: i, Kind: kind, Amount: amount}); err != nil {
			return err
		}
		st := &t.seats[i]
		if over := time.Since(t.clockStart) - t.cfg.ActionTime; t.clockSeat == i && over > 0 {
			st.bank = max(0, st.bank-over)
		}
		st.timeouts = 0
		t.applied()
		return nil
	})
}

// Chat says text in the room, to everyone watching, for p connected from
// address from (a key of the caller's: "" when not known); only those who may
// watch may chat. At most roomChatLines lines a player and roomAddrChatLines
// an address pass in any roomChatWindow.
func (t *Table) Chat(ctx context.Context, p Player, from, text string) error {
	return t.call(ctx, func() error {
		if p.ID == 0 {
			return ErrAnonymous
		}
		if err := t.mayEnter(p); err != nil {
			return err
		}
		text, err := chat.Clean(text)
		if err != nil {
			return &house.FieldError{Field: "text", Message: err.Error(), Err: house.ErrInvalid}
		}
		now := time.Now()
		if !t.limiter.Allow(p.ID, now) || from != "" && !t.addrs.Allow(from, now) {
			return fmt.Errorf("%w: at most %d lines in %s, %d from one address", chat.ErrRateLimited, roomChatLines, roomChatWindow, roomAddrChatLines)
		}
		l := chat.NewLine(t.cfg.Name, p.Name, text, now)
		t.chatLog.Add(l)
		t.chatSaid++
		t.broadcast(l)
		return nil
	})
}

// Close cancels the hand in play (every seat gets back the stack it was dealt in
// with), cashes everyone out and closes the table; it waits for the goroutine to
// end and the cash-outs to be booked (Done). The seats it closes are not
// departures (departures.go) but for those whose players had asked to leave.
// Closing a closed table does nothing.
func (t *Table) Close(ctx context.Context, reason string) error {
	err := t.call(ctx, func() error { t.closeTable(reason); return nil })
	return t.stopped(ctx, err)
}

// stopped waits, after a call that stops the table answered err, for the
// table's goroutine to end (a table closed already counts as stopped).
func (t *Table) stopped(ctx context.Context, err error) error {
	if err != nil && err != ErrClosed {
		return err
	}
	select {
	case <-t.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Players returns the people (not bots) holding a seat.
func (t *Table) Players(ctx context.Context) ([]Player, error) {
	var out []Player
	err := t.call(ctx, func() error {
		for i := range t.seats {
			if t.seats[i].occupied && t.seats[i].bot == nil {
				out = append(out, t.seats[i].p)
			}
		}
		return nil
	})
	return out, err
}

// Chips reports the chips on the table (every seat's stack, the pot of a hand in
// play counted at the stacks it was dealt with), and the chips that ever came in
// (buy-ins, bot stakes) and went out (cash-outs, bots leaving). Chips are
// conserved when onTable == in - out.
// After the table has closed it reports the final count.
func (t *Table) Chips(ctx context.Context) (onTable, in, out int64, err error) {
	count := func() error {
		for i := range t.seats {
			onTable += t.seats[i].stack + t.seats[i].topUp
		}
		in, out = t.chipsIn, t.chipsOut
		return nil
	}
	select {
	case <-t.loopDone: // the goroutine has ended: nothing else touches the fields
		return onTable, in, out, count()
	default:
	}
	err = t.call(ctx, count)
	if err == ErrClosed {
		<-t.loopDone
		onTable, in, out, err = 0, 0, 0, count()
	}
	return
}

// Info returns the table's listing as the lobby shows it, read on the table's
// goroutine (so it includes every command that returned before).
func (t *Table) Info(ctx context.Context) (Info, error) {
	var in Info
	err := t.call(ctx, func() error { in = t.info(); return nil })
	return in, err
}

// Options are a seated player's choices at a table whose settings allow them;
// a nil field is left as it is.
type Options struct {
	// Straddle: post a straddle when under the gun (Config.Straddle).
	Straddle *bool
	// RunTwice: agree to run the board twice (Config.RunItTwice).
	RunTwice *bool
}

// SetOptions sets p's choices from the next hand on. A choice the table does
// not allow is a *house.FieldError naming it; without a seat, ErrNotSeated.
func (t *Table) SetOptions(ctx context.Context, p Player, o Options) error {
	if o.Straddle != nil && *o.Straddle && !t.cfg.Straddle {
		return invalid("straddle", "this table has no straddle")
	}
	if o.RunTwice != nil && *o.RunTwice && !t.cfg.RunItTwice {
		return invalid("run_twice", "this table does not run it twice")
	}
	return t.seated(ctx, p, func(_ int, st *seat) error {
		if o.Straddle != nil {
			st.straddle = *o.Straddle
		}
		if o.RunTwice != nil {
			st.runTwice = *o.RunTwice
		}
		return nil
	})
}

// Admit lets p in at a locked table (Config.Lock) if key is its password or
// invitation token: p may then watch, sit and chat there until the table
// closes. A wrong key is ErrLocked; anonymous players are not admitted (they
// log in first: ErrAnonymous). At a table without a lock it does nothing.
func (t *Table) Admit(ctx context.Context, p Player, key string) error {
	l := t.cfg.Lock
	if l == nil {
		return nil
	}
	if p.ID == 0 {
		return ErrAnonymous
	}
	if !l.Opens(key) {
		return ErrLocked
	}
	return t.call(ctx, func() error {
		if !t.admitted[p.ID] {
			t.admitted[p.ID] = true
			t.admitOrder = append(t.admitOrder, p.ID)
		}
		return nil
	})
}
