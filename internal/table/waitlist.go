package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/felt-poker/felt/internal/chat"
	"github.com/felt-poker/felt/internal/house"
)

// The waiting list of a full table (docs/house.md, "Waiting list"). Players
// join it while every seat is taken; when a seat frees, it is offered to the
// first in line, held for them for Config.OfferTime (nobody else may take it),
// and announced to them (notice "seat_offered"). They take it by sitting down
// as usual; if they do not in time, they leave the list (notice
// "offer_expired") and the seat goes to the next. A player leaves the list when
// they sit, or by LeaveWaitlist.

// MaxWaiting bounds a table's waiting list.
const MaxWaiting = 50

// MaxWaitingFrom bounds the players from one address on a table's waiting
// list: accounts are cheap (20 guests at once from one address), and each
// place ahead holds every freed seat for OfferTime, so a script's guests at
// the head of the list kept the seats of a full table from everyone else.
const MaxWaitingFrom = 2

// ErrSeatFree refuses to put a player on the waiting list of a table with a
// seat free for them: they sit down instead.
var ErrSeatFree = errors.New("a seat is free: sit down")

// offer is a free seat held for the first player on the waiting list.
type offer struct {
	p     Player
	seat  int
	until time.Time
}

// JoinWaitlist puts p, connected from address from (a key of the caller's:
// "" when not known), at the end of the full table's waiting list (where they
// stay if they are on it already) and returns their place, from 1. At most
// MaxWaitingFrom players from one address wait at once.
func (t *Table) JoinWaitlist(ctx context.Context, p Player, from string) (int, error) {
	var place int
	err := t.call(ctx, func() error {
		if p.ID == 0 {
			return ErrAnonymous
		}
		if t.tourney() {
			return ErrTourneySeat
		}
		if err := t.mayEnter(p); err != nil {
			return err
		}
		if t.seatOf(p.ID) >= 0 {
			return ErrSeated
		}
		if i := t.waitingAt(p.ID); i >= 0 {
			place = i + 1
			return nil
		}
		if t.freeSeat(p.ID) >= 0 {
			return ErrSeatFree
		}
		if len(t.waiting) >= MaxWaiting {
			return invalid("table", "the waiting list is full (%d players)", MaxWaiting)
		}
		if from != "" && t.waitingFrom(from) >= MaxWaitingFrom {
			return &house.PlayerError{Message: fmt.Sprintf("%d players from your address are on this table's waiting list already", MaxWaitingFrom), Err: chat.ErrRateLimited}
		}
		if from != "" {
			t.waitFrom[p.ID] = from
		}
		t.waiting = append(t.waiting, p)
		place = len(t.waiting)
		t.version++
		return nil
	})
	return place, err
}

// LeaveWaitlist takes p off the waiting list (a seat offered to them goes to
// the next in line); ErrNotSeated if they are not on it.
func (t *Table) LeaveWaitlist(ctx context.Context, p Player) error {
	return t.call(ctx, func() error {
		if t.waitingAt(p.ID) < 0 {
			return fmt.Errorf("%w: not on the waiting list", ErrNotSeated)
		}
		t.dropWaiter(p.ID)
		return nil
	})
}

// waitingAt returns p's index on the waiting list, or -1.
func (t *Table) waitingAt(id int64) int {
	return slices.IndexFunc(t.waiting, func(w Player) bool { return id != 0 && w.ID == id })
}

// waitingFrom returns how many players on the waiting list joined it from
// address from.
func (t *Table) waitingFrom(from string) int {
	n := 0
	for _, w := range t.waiting {
		if t.waitFrom[w.ID] == from {
			n++
		}
	}
	return n
}

// dropWaiter takes the player id off the waiting list, and their offer back.
func (t *Table) dropWaiter(id int64) {
	delete(t.waitFrom, id)
	if i := t.waitingAt(id); i >= 0 {
		t.waiting = slices.Delete(t.waiting, i, i+1)
		t.version++
	}
	if t.offer != nil && t.offer.p.ID == id {
		t.offer = nil
		t.version++
	}
}

// freeSeat returns a seat free for the player id (one offered to them, or one
// neither taken, nor held for a buy-in, nor offered to another), or -1.
func (t *Table) freeSeat(id int64) int {
	if o := t.offer; o != nil && o.p.ID == id {
		return o.seat
	}
	for i := range t.seats {
		if t.seatFree(i, id) {
			return i
		}
	}
	return -1
}

// seatFree reports whether seat i is free for the player id.
func (t *Table) seatFree(i int, id int64) bool {
	_, held := t.reserved[i]
	offered := t.offer != nil && t.offer.seat == i && t.offer.p.ID != id
	return !t.seats[i].occupied && !held && !offered
}

// checkWaitlist ends an offer not taken by now and offers a free seat to the
// first player waiting.
func (t *Table) checkWaitlist(now time.Time) {
	if o := t.offer; o != nil && !now.Before(o.until) {
		t.dropWaiter(o.p.ID)
		t.notice(o.p.ID, NoticeMsg{Code: "offer_expired", Text: "the seat offered to you went to the next player: you have left the waiting list"})
	}
	if t.offer != nil || len(t.waiting) == 0 {
		return
	}
	for i := range t.seats {
		if t.seatFree(i, 0) {
			p := t.waiting[0]
			t.offer = &offer{p: p, seat: i, until: now.Add(t.cfg.OfferTime)}
			t.version++
			t.notice(p.ID, NoticeMsg{Code: "seat_offered", Text: fmt.Sprintf("seat %d is yours if you sit down within %d s", i+1, int(t.cfg.OfferTime/time.Second))})
			return
		}
	}
}
