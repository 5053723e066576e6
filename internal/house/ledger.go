package house

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/felt-poker/felt/internal/store"
)

// Play money moves only through the ledger: a player's credits are the sum of
// their ledger rows. Grants (sign-up, refill, adjustment) bring chips into the
// house; a buy-in moves chips from credits to a table (a negative row) and a
// cash-out back (a positive row). So at any time the credits of all players plus
// the chips on all tables equal everything ever granted.

// Credits returns a player's credits: the chips not at a table.
func (h *House) Credits(ctx context.Context, userID int64) (int64, error) {
	c, err := h.st.Balance(ctx, userID)
	if err != nil {
		return 0, fmt.Errorf("credits of user %d: %w", userID, err)
	}
	return c, nil
}

// BuyIn moves amount chips from a player's credits to a table and returns the
// credits left. A buy-in larger than the credits fails with ErrInsufficientCredits
// and changes nothing.
func (h *House) BuyIn(ctx context.Context, userID int64, tableRef string, amount int64) (int64, error) {
	if amount <= 0 {
		return 0, fieldError("amount", "must be positive")
	}
	if tableRef == "" {
		return 0, fieldError("table", "is required")
	}
	if err := h.flushTable(ctx, tableRef); err != nil {
		return 0, fmt.Errorf("buy-in of user %d at %s: %w", userID, tableRef, err)
	}
	var left int64
	err := h.st.InTx(ctx, func(q store.Queries) error {
		// The player first, then the table's fence: the order of the
		// recorder's transactions, so that none waits on another in a cycle.
		if err := q.LockUser(ctx, userID); err != nil {
			return err
		}
		if err := h.fenced(ctx, q, tableRef); err != nil {
			return err
		}
		credits, err := q.Balance(ctx, userID)
		if err != nil {
			return err
		}
		if credits < amount {
			return &PlayerError{Message: fmt.Sprintf("you have %d credits, less than the buy-in of %d", credits, amount), Err: ErrInsufficientCredits}
		}
		if _, err := q.AddEntry(ctx, store.Entry{UserID: userID, Kind: store.KindBuyIn, Amount: -amount, TableRef: tableRef, CreatedAt: h.now()}); err != nil {
			return err
		}
		left = credits - amount
		return q.AddToSeat(ctx, tableRef, userID, amount, true)
	})
	if err != nil {
		return 0, fmt.Errorf("buy-in of user %d at %s: %w", userID, tableRef, err)
	}
	return left, nil
}

// ErrNoSeat is wrapped by CashOut for a player the table holds no seat for: a
// cash-out booked already (its reply lost, then tried again) or returned by
// Recover. Nothing is booked.
var ErrNoSeat = errors.New("no seat held at this table: already cashed out")

// CashOut ends a player's game at a table: their stack of amount chips (zero for
// a player who went broke) returns to their credits, their games played grow by
// one, and the table no longer holds a seat for them (see Recover). It returns the
// credits after the cash-out. A player without a seat there is ErrNoSeat.
func (h *House) CashOut(ctx context.Context, userID int64, tableRef string, amount int64) (int64, error) {
	if amount < 0 {
		return 0, fieldError("amount", "must not be negative")
	}
	if tableRef == "" {
		return 0, fieldError("table", "is required")
	}
	if err := h.flushTable(ctx, tableRef); err != nil {
		return 0, fmt.Errorf("cash-out of user %d at %s: %w", userID, tableRef, err)
	}
	var credits int64
	err := h.st.InTx(ctx, func(q store.Queries) error {
		// The player first, then the table's fence: the order of the
		// recorder's transactions, so that none waits on another in a cycle.
		if err := q.LockUser(ctx, userID); err != nil {
			return err
		}
		if err := h.fenced(ctx, q, tableRef); err != nil {
			return err
		}
		// The seat goes first: a cash-out whose reply was lost and that is tried
		// again finds none, and books nothing twice.
		if err := q.DeleteSeat(ctx, tableRef, userID); isNotFound(err) {
			return ErrNoSeat
		} else if err != nil {
			return err
		}
		if amount > 0 {
			if _, err := q.AddEntry(ctx, store.Entry{UserID: userID, Kind: store.KindCashOut, Amount: amount, TableRef: tableRef, CreatedAt: h.now()}); err != nil {
				return err
			}
		}
		if err := q.AddStats(ctx, userID, store.Stats{GamesPlayed: 1}); err != nil {
			return err
		}
		var err error
		credits, err = q.Balance(ctx, userID)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("cash-out of user %d at %s: %w", userID, tableRef, err)
	}
	return credits, nil
}

// Refill tops a nearly broke player's credits up to Config.RefillTo and returns
// the amount granted. It fails with ErrRefillNotNeeded when the credits are at or
// above Config.RefillBelow, and with ErrRefillTooSoon within Config.RefillInterval
// of the player's last refill.
func (h *House) Refill(ctx context.Context, userID int64) (int64, error) {
	var granted int64
	err := h.st.InTx(ctx, func(q store.Queries) error {
		if err := q.LockUser(ctx, userID); err != nil {
			return err
		}
		credits, err := q.Balance(ctx, userID)
		if err != nil {
			return err
		}
		// Chips at tables count: parking them there does not earn a refill; nor
		// do buy-ins for tournaments not started (an unregistration returns them).
		seated, err := q.ChipsAtTables(ctx, userID)
		if err != nil {
			return err
		}
		registered, err := q.RegisteredBuyIns(ctx, userID)
		if err != nil {
			return err
		}
		seated += registered
		if credits+seated >= h.cfg.RefillBelow {
			msg := fmt.Sprintf("you have %d credits: a refill is for players with fewer than %d", credits, h.cfg.RefillBelow)
			if seated > 0 {
				msg = fmt.Sprintf("you have %d credits and %d chips at tables or in tournament buy-ins: a refill is for players with fewer than %d in all", credits, seated, h.cfg.RefillBelow)
			}
			return &PlayerError{Message: msg, Err: ErrRefillNotNeeded}
		}
		now := h.now()
		last, err := q.LastEntry(ctx, userID, store.KindRefill)
		switch {
		case err == nil:
			if next := last.CreatedAt.Add(h.cfg.RefillInterval); now.Before(next) {
				return &PlayerError{Message: "your next refill is at " + next.Format("2006-01-02 15:04 MST"), RetryAfter: next.Sub(now), Err: ErrRefillTooSoon}
			}
		case !isNotFound(err):
			return err
		}
		granted = h.cfg.RefillTo - credits - seated
		_, err = q.AddEntry(ctx, store.Entry{UserID: userID, Kind: store.KindRefill, Amount: granted, CreatedAt: now})
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("refill of user %d: %w", userID, err)
	}
	return granted, nil
}

// Adjust books a correction of amount chips (either sign, not zero) to a player's
// credits, with a note saying why. It may leave the credits negative.
func (h *House) Adjust(ctx context.Context, userID, amount int64, note string) error {
	if amount == 0 {
		return fieldError("amount", "must not be zero")
	}
	err := h.st.InTx(ctx, func(q store.Queries) error {
		if err := q.LockUser(ctx, userID); err != nil {
			return err
		}
		_, err := q.AddEntry(ctx, store.Entry{UserID: userID, Kind: store.KindAdjustment, Amount: amount, Note: note, CreatedAt: h.now()})
		return err
	})
	if err != nil {
		return fmt.Errorf("adjust user %d by %d: %w", userID, amount, err)
	}
	return nil
}

// handStats is what one hand adds to a player's totals.
func handStats(p store.HandPlayer, bigBlind int64) store.Stats {
	d := store.Stats{HandsPlayed: 1, NetWon: p.Net}
	b := func(v bool) int64 {
		if v {
			return 1
		}
		return 0
	}
	d.HandsWon, d.VPIPHands, d.PFRHands = b(p.Won), b(p.VPIP), b(p.PFR)
	if bigBlind > 0 {
		d.BBWonMilli = p.Net * 1000 / bigBlind
	}
	return d
}

// Refund is one stack returned by Recover.
type Refund struct {
	TableRef string
	UserID   int64
	Amount   int64
}

// Recover returns to their players' credits the stacks of games that never
// cashed out: tables that were open when the house stopped without closing them
// (kill -9, a crash, a power cut). The store holds, for every registered player
// at a table, their buy-in and then their stack after each recorded hand, each
// written in the transaction of the ledger row or hand that changes it; so a hand
// unfinished when the house stopped is as if never dealt, and every chip returns.
// Call it at start, before any table opens, once the house has claimed its
// database (Claim): with one house per database every seat it finds belongs to a
// table that no longer runs. Without the claim it changes nothing and fails.
func (h *House) Recover(ctx context.Context) ([]Refund, error) {
	if !h.claimed() {
		return nil, fmt.Errorf("recover: %w", errNotClaimed)
	}
	if err := h.Flush(ctx); err != nil {
		return nil, fmt.Errorf("recover: %w", err)
	}
	seats, err := h.st.Seats(ctx)
	if err != nil {
		return nil, fmt.Errorf("recover: %w", err)
	}
	var out []Refund
	for _, s := range seats {
		if err := h.returnSeat(ctx, s, "returned at start: the house stopped during play"); err != nil {
			return out, fmt.Errorf("recover seat of user %d at %s: %w", s.UserID, s.TableRef, err)
		}
		out = append(out, Refund{TableRef: s.TableRef, UserID: s.UserID, Amount: s.Stack})
	}
	return out, nil
}

// returnSeat pays a seat's stack back to its player's credits and deletes the
// seat, in one transaction: a seat already deleted (the table's own cash-out
// came first) fails with store.ErrNotFound and books nothing.
func (h *House) returnSeat(ctx context.Context, s store.Seat, note string) error {
	return h.st.InTx(ctx, func(q store.Queries) error {
		if err := q.LockUser(ctx, s.UserID); err != nil {
			return err
		}
		if err := h.fenced(ctx, q, s.TableRef); err != nil {
			return err
		}
		if err := q.DeleteSeat(ctx, s.TableRef, s.UserID); err != nil {
			return err
		}
		if s.Stack > 0 {
			e := store.Entry{UserID: s.UserID, Kind: store.KindCashOut, Amount: s.Stack, TableRef: s.TableRef, Note: note, CreatedAt: h.now()}
			if _, err := q.AddEntry(ctx, e); err != nil {
				return err
			}
		}
		return q.AddStats(ctx, s.UserID, store.Stats{GamesPlayed: 1})
	})
}

// TableStacks returns the stacks the store holds at table ref, by player: what
// a node taking the table over seats them with (table.Resume). The caller must
// own the table (its lease) and have claimed the database (Claim, ClaimNode).
func (h *House) TableStacks(ctx context.Context, ref string) (map[int64]int64, error) {
	if !h.claimedAny() {
		return nil, fmt.Errorf("table stacks: %w", errNotClaimed)
	}
	if err := h.flushTable(ctx, ref); err != nil {
		return nil, err
	}
	seats, err := h.st.Seats(ctx)
	if err != nil {
		return nil, fmt.Errorf("table stacks of %s: %w", ref, err)
	}
	out := map[int64]int64{}
	for _, s := range seats {
		if s.TableRef == ref {
			out[s.UserID] = s.Stack
		}
	}
	return out, nil
}

// ReturnSeat pays back to user's credits the stack the store holds for them at
// table ref, and deletes the seat: a node taking a table over returns so the
// buy-ins of players its lost owner had not seated yet (table.Resume.Orphans).
// A seat already gone books nothing (store.ErrNotFound). The caller must own
// the table (its lease) and have claimed the database.
func (h *House) ReturnSeat(ctx context.Context, ref string, user int64) (Refund, error) {
	if !h.claimedAny() {
		return Refund{}, fmt.Errorf("return seat: %w", errNotClaimed)
	}
	stacks, err := h.TableStacks(ctx, ref)
	if err != nil {
		return Refund{}, err
	}
	stack, ok := stacks[user]
	if !ok {
		return Refund{}, fmt.Errorf("return seat of user %d at %s: %w", user, ref, store.ErrNotFound)
	}
	if err := h.returnSeat(ctx, store.Seat{TableRef: ref, UserID: user, Stack: stack}, "returned: the table's node was lost before seating the player"); err != nil {
		return Refund{}, fmt.Errorf("return seat of user %d at %s: %w", user, ref, err)
	}
	return Refund{TableRef: ref, UserID: user, Amount: stack}, nil
}

// ReturnSeatsOf pays back to their players' credits every stack the store
// holds at the tables whose references begin with refs (table.RefsOf: every
// table of one name, ignoring case), deleting the seats, each table fenced
// first with token: a node taking over a player's table that it does not open
// (closed for good, its lost owner having died before paying its players out;
// settings that no longer open a table) returns so what was left at it. A
// seat already gone (its table's own cash-out came first) books nothing. The
// caller must hold the table's lease and have claimed the database.
func (h *House) ReturnSeatsOf(ctx context.Context, refs string, token int64) ([]Refund, error) {
	if !h.claimedAny() {
		return nil, fmt.Errorf("return seats: %w", errNotClaimed)
	}
	seats, err := h.st.Seats(ctx)
	if err != nil {
		return nil, fmt.Errorf("return seats of %s: %w", refs, err)
	}
	var out []Refund
	fenced := map[string]bool{}
	for _, s := range seats {
		if len(s.TableRef) < len(refs) || !strings.EqualFold(s.TableRef[:len(refs)], refs) {
			continue
		}
		if !fenced[s.TableRef] {
			if err := h.Fence(ctx, s.TableRef, token); err != nil {
				return out, err
			}
			fenced[s.TableRef] = true
		}
		err := h.returnSeat(ctx, s, "returned: the table closed on a node lost before it paid out")
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return out, fmt.Errorf("return seat of user %d at %s: %w", s.UserID, s.TableRef, err)
		}
		out = append(out, Refund{TableRef: s.TableRef, UserID: s.UserID, Amount: s.Stack})
	}
	return out, nil
}

// Totals are a player's credits and running totals.
type Totals struct {
	Credits int64
	store.Stats
}

// Totals returns a player's credits, net won, games, hands played and hands won.
func (h *House) Totals(ctx context.Context, userID int64) (Totals, error) {
	var t Totals
	err := h.st.InTx(ctx, func(q store.Queries) error {
		var err error
		if t.Credits, err = q.Balance(ctx, userID); err != nil {
			return err
		}
		t.Stats, err = q.Stats(ctx, userID)
		return err
	})
	if err != nil {
		return Totals{}, fmt.Errorf("totals of user %d: %w", userID, err)
	}
	return t, nil
}
