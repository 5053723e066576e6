package table

import (
	"context"
	"fmt"
)

// TopUp adds amount chips from p's credits to their stack, up to the table's
// maximum buy-in. Between hands (or while p sits out) the chips are on the
// stack at once; while p plays a hand they wait beside it and join it when the
// hand ends (Chips counts them on the table meanwhile). The table keeps dealing
// while the buy-in is booked; if p has left the seat by then, or the table has
// closed, the chips go back to p's credits with the seat's cash-out (ledger:
// a cash-out waits for the top-ups in flight).
func (t *Table) TopUp(ctx context.Context, p Player, amount int64) error {
	err := t.call(ctx, func() error {
		if t.tourney() {
			return ErrTourneySeat
		}
		i := t.seatOf(p.ID)
		if i < 0 {
			return ErrNotSeated
		}
		st := &t.seats[i]
		if st.left || st.leaving {
			return fmt.Errorf("%w: you are leaving the seat", ErrNotSeated)
		}
		room := t.cfg.MaxBuyIn - st.stack - st.topUp - st.booking
		if amount <= 0 || amount > room {
			return invalid("amount", "must be 1 to %d (your stack may hold %d chips at most)", max(room, 0), t.cfg.MaxBuyIn)
		}
		st.booking += amount
		t.ledger.startTopUp(p.ID) // ended below, whatever happens
		return nil
	})
	if err != nil {
		return err
	}
	// The player's last cash-out here is booked first, as for Sit.
	err = t.ledger.wait(ctx, p.ID, false)
	if err == nil {
		bctx, cancel := context.WithTimeout(ctx, bankTimeout)
		_, err = t.cfg.Bank.BuyIn(bctx, p.ID, t.ref, amount)
		cancel()
	}
	booked := err == nil
	err2 := t.callSure(func() error {
		i := t.seatOf(p.ID)
		if i < 0 || t.closed {
			return fmt.Errorf("%w: you left the seat before the top-up was booked", ErrNotSeated)
		}
		st := &t.seats[i]
		st.booking -= amount
		if !booked {
			return nil
		}
		t.chipsIn += amount
		st.basis += amount
		if t.handLive && st.inHand {
			st.topUp += amount
		} else {
			st.stack += amount
		}
		t.version++
		t.log.Info("topped up", "seat", i, "player", p.Name, "amount", amount)
		return nil
	})
	var back int64
	if booked && err2 != nil { // the seat or the table is gone: the chips go back with its cash-out
		back = amount
	}
	t.ledger.endTopUp(p.ID, back)
	if err != nil {
		return err
	}
	return err2
}
