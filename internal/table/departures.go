package table

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/felt-poker/felt/internal/store"
)

// A player who leaves a seat at a cash table (stands up, leaves, is stood up
// after sitting out or after the disconnect grace) and sits down there again
// within Config.SitOutLimit of leaving is dealt in as a player back from
// sitting out: only at the big blind (seat.owesBB), if a hand was dealt
// without them since they left, if they owed the big blind already when they
// left, or if they sit in another seat than the one they left. Otherwise a
// player standing up whenever the blinds came to them and sitting down again
// once they had passed played every other orbit free (docs/rules.md, "Live
// tables"). A player who left busted, or comes back later than that, sits as
// a newcomer: dealt in at once.
//
// A player who sits down there again within Config.ReturnWindow of leaving
// brings back at least the stack they left with (buyInRange: leaving
// takes no chips off the table, "ratholing"), and finds the time bank and
// the count of timeouts in a row they left (not a full bank, no clean slate).
//
// The table remembers each player's last departure for the longer of the
// two windows (keepDeparted). It keeps it in the house's store (Config.Bank
// a DepartureKeeper), on one node or several, so that neither a restart nor
// a table closed and opened again forgets it: its ledger worker writes it
// before booking the cash-out, and deletes it when the table forgets it (the
// player sits down again, it expires, a flood pushes it out); a table of that
// name opening without a log to resume (a restart, a table opened again
// after it closed, on whatever node) reads them back (loadDeparted), bounded
// as the log's are (takeDeparted). A table of a house on several nodes keeps
// it in its log too (LogState.Departed, LogNote), so that the node taking
// the table over resumes it with the rest of the table's state, and makes
// the log and the store agree (loadDeparted); a fresh log (a table opened
// again) holds none. A seat the house closes itself (closeTable;
// House.Recover after a crash) is no departure (docs/rules.md).

// maxDeparted bounds the departures a table remembers. Past it the table
// first forgets those no rule reads any more (used), then the one worth
// least (forget): a player who left with winnings stays remembered however
// many others come and go with less (winnings need hands played here).
const maxDeparted = 1000

// departure is a player's last departure from a seat of the table.
type departure struct {
	at   time.Time
	seat int
	// hand is the table's hand number when they left: a later one was dealt
	// without them.
	hand int64
	// owes: they owed the big blind already (they sat out while hands were
	// dealt); busted: they left without chips, and come back as newcomers.
	owes, busted bool
	// stack is the chips they left with (top-up included), won the part of
	// it they won here (above seat.basis); bank and timeouts their time bank
	// and timeouts in a row then.
	stack, won int64
	bank       time.Duration
	timeouts   int
	// seq orders the departures as recorded, for the log's notes.
	seq uint64
}

// keepDeparted is how long the table remembers a departure: the longer of
// Config.SitOutLimit (the big blind owed) and Config.ReturnWindow (the stack
// and clock brought back).
func (t *Table) keepDeparted() time.Duration {
	return max(t.cfg.SitOutLimit, t.cfg.ReturnWindow)
}

// depart remembers that st's player left seat i at now (busted: without
// chips) with st.stack, forgetting what no rule reads any more and, at
// maxDeparted, what is worth least (forget).
func (t *Table) depart(i int, st *seat, busted bool, now time.Time) {
	if st.bot != nil || t.tourney() || st.p.ID == 0 {
		return
	}
	if t.departed == nil {
		t.departed = map[int64]departure{}
	}
	delete(t.departed, st.p.ID) // replaced below
	t.forget(now, maxDeparted-1)
	t.departSeq++
	t.departed[st.p.ID] = departure{at: now, seat: i, hand: t.handNo, owes: st.owesBB, busted: busted, seq: t.departSeq,
		stack: st.stack, won: max(0, st.stack-st.basis), bank: st.bank, timeouts: st.timeouts}
}

// basisOf is the seat.basis of player id sitting down with buyIn at now:
// all of it, but for the winnings they are bound to bring back (returning).
func (t *Table) basisOf(id, buyIn int64, now time.Time) int64 {
	if d, ok := t.returning(id, now); ok {
		return max(0, buyIn-d.won)
	}
	return buyIn
}

// used reports whether a rule still reads d at now: within
// Config.SitOutLimit, the big blind owed (in any other seat); within
// Config.ReturnWindow, a stack above the table's minimum or a clock short
// of a full one. A busted player's departure makes them a newcomer, as no
// departure does.
func (t *Table) used(d departure, now time.Time) bool {
	age := now.Sub(d.at)
	if d.busted || age >= t.keepDeparted() {
		return false
	}
	return age < t.cfg.SitOutLimit ||
		age < t.cfg.ReturnWindow && (d.stack > t.cfg.MinBuyIn || d.bank < t.cfg.TimeBank || d.timeouts > 0)
}

// worth is what forgetting d would let its player take off the table at
// now, of others' chips and of their own: the winnings and the stack they
// must bring back.
func (t *Table) worth(d departure, now time.Time) (won, stack int64) {
	if d.busted || now.Sub(d.at) >= t.cfg.ReturnWindow {
		return 0, 0
	}
	return d.won, d.stack
}

// forget drops the departures no rule reads at now (used) that the log has
// (a busted player's departure not logged yet must reach the log, to
// override there the one before it), then, while more than limit are left,
// the one worth least: the least won here, then the smallest stack, then
// the oldest. A flood of departures (many accounts sitting down and standing
// up) pushes out no winner's departure unless as many others won as much,
// each in hands dealt here.
func (t *Table) forget(now time.Time, limit int) {
	for id, d := range t.departed {
		if !t.used(d, now) && (t.cfg.HandLog == nil || d.seq <= t.loggedDepartSeq) {
			delete(t.departed, id)
			t.unkeep(id)
		}
	}
	for len(t.departed) > limit {
		var least int64
		var lk [3]int64
		first := true
		for id, d := range t.departed {
			won, stack := t.worth(d, now)
			k := [3]int64{won, stack, d.at.UnixNano()}
			if first || slices.Compare(k[:], lk[:]) < 0 || k == lk && id < least {
				least, lk, first = id, k, false
			}
		}
		delete(t.departed, least)
		t.unkeep(least)
	}
}

// returning returns player id's departure if they left within
// Config.ReturnWindow of now with chips.
func (t *Table) returning(id int64, now time.Time) (departure, bool) {
	d, ok := t.departed[id]
	if !ok || d.busted || t.tourney() || now.Sub(d.at) >= t.cfg.ReturnWindow {
		return departure{}, false
	}
	return d, true
}

// buyInRange returns the buy-ins player id may sit down with at now: the
// table's, or, back within Config.ReturnWindow, from the stack they left
// with (at least the table's minimum) to the larger of it and the table's
// maximum; until is then when the window ends (zero otherwise).
func (t *Table) buyInRange(id int64, now time.Time) (lo, hi int64, until time.Time) {
	lo, hi = t.cfg.MinBuyIn, t.cfg.MaxBuyIn
	if d, ok := t.returning(id, now); ok && d.stack > lo {
		lo, hi, until = d.stack, max(hi, d.stack), d.at.Add(t.cfg.ReturnWindow)
	}
	return lo, hi, until
}

// checkBuyIn refuses a buy-in of player id at now outside buyInRange.
func (t *Table) checkBuyIn(id, buyIn int64, now time.Time) error {
	lo, hi, until := t.buyInRange(id, now)
	if buyIn >= lo && buyIn <= hi {
		return nil
	}
	if until.IsZero() {
		return invalid("buy_in", "must be %d to %d", lo, hi)
	}
	want := fmt.Sprintf("%d to %d", lo, hi)
	if lo == hi {
		want = fmt.Sprint(lo)
	}
	return invalid("buy_in", "must be %s: you left this table less than %v ago with %d chips, "+
		"and may sit down here again only with at least as many until %s (%v from now)",
		want, t.cfg.ReturnWindow, lo, until.UTC().Format("15:04:05 UTC"), until.Sub(now).Round(time.Second))
}

// returnInfo is the State.Return of player id watching from seat vs at
// now, and when it ends: nil but for a player without a seat whose buy-in
// range is their own.
func (t *Table) returnInfo(vs int, id int64, now time.Time) (*Return, time.Time) {
	if vs >= 0 || id == 0 {
		return nil, time.Time{}
	}
	lo, hi, until := t.buyInRange(id, now)
	if until.IsZero() {
		return nil, until
	}
	return &Return{MinBuyIn: lo, MaxBuyIn: hi, RemainingMS: until.Sub(now).Milliseconds()}, until
}

// restoreClock gives st, player id sitting down again at now within
// Config.ReturnWindow, the time bank and timeouts in a row they left with.
func (t *Table) restoreClock(id int64, st *seat, now time.Time) {
	if d, ok := t.returning(id, now); ok {
		st.bank, st.timeouts = d.bank, d.timeouts
	}
}

// owedOnSit reports whether player id, sitting down in seat i at now, is dealt
// in only at the big blind, and why (for the notice). At a cash table where a
// hand has been dealt and another player (not a bot) is seated, a player new
// to it waits for the big blind, as in card rooms: a player switching between
// accounts, each new to the table, skipped blinds at the others' expense
// otherwise (docs/rules.md, "Newcomers"). Among bots alone a newcomer is dealt
// in at once, so that a player who watches a bots' table and sits plays. A
// player back within Config.SitOutLimit of leaving with chips owes it when a
// hand was dealt without them since, when they sit in another seat, or when
// they owed it already; otherwise they owe nothing. A player who left busted,
// or longer ago, is new to the table. Either way the seat is dealt in at once
// while fewer than two others could play without it (dealtIn).
func (t *Table) owedOnSit(id int64, i int, now time.Time) (bool, string) {
	if t.tourney() {
		return false, ""
	}
	d, ok := t.departed[id]
	if !ok || d.busted || now.Sub(d.at) >= t.cfg.SitOutLimit {
		return t.handNo > 0 && t.otherPlayer(i), "hands are being dealt at this table, and a player new to it waits for the big blind"
	}
	return d.owes || t.handNo > d.hand || i != d.seat,
		fmt.Sprintf("you left this table less than %v ago, and sit down again in another seat or after a hand dealt without you", t.cfg.SitOutLimit)
}

// otherPlayer reports whether a seat other than i holds a player (not a bot).
func (t *Table) otherPlayer(i int) bool {
	for k, st := range t.seats {
		if k != i && st.occupied && st.bot == nil {
			return true
		}
	}
	return false
}

// noticeWaitBB tells seat i's player, back at the table owing the big blind,
// when they are dealt in.
func (t *Table) noticeWaitBB(i int, why string) {
	t.notice(t.seats[i].p.ID, NoticeMsg{Code: "wait_big_blind",
		Text: "you are dealt in when the big blind reaches your seat (at once while fewer than two others play): " + why})
}

// LogDeparture is a player's last departure from a seat (departure) as the
// log keeps it: AgoMS is how long before the record they left.
type LogDeparture struct {
	ID     int64 `json:"id"`
	Seat   int   `json:"seat"`
	Hand   int64 `json:"hand"`
	AgoMS  int64 `json:"ago_ms"`
	Owes   bool  `json:"owes,omitempty"`
	Busted bool  `json:"busted,omitempty"`
	// Stack is the chips they left with, Won the part of it won here;
	// BankMS and Timeouts their time bank and timeouts in a row then
	// (records written before these were kept read as 0: such a player may
	// come back with the minimum and an empty bank until the record
	// expires, and is forgotten first past maxDeparted).
	Stack    int64 `json:"stack,omitempty"`
	Won      int64 `json:"won,omitempty"`
	BankMS   int64 `json:"bank_ms,omitempty"`
	Timeouts int   `json:"timeouts,omitempty"`
}

// logDeparted returns the departures recorded after seq after, as the log
// keeps them at now, in the order they were recorded.
func (t *Table) logDeparted(now time.Time, after uint64) []LogDeparture {
	var ds []departure
	ids := map[uint64]int64{}
	for id, d := range t.departed {
		if d.seq > after {
			ds = append(ds, d)
			ids[d.seq] = id
		}
	}
	slices.SortFunc(ds, func(a, b departure) int { return cmp.Compare(a.seq, b.seq) })
	var out []LogDeparture
	for _, d := range ds {
		out = append(out, LogDeparture{ID: ids[d.seq], Seat: d.seat, Hand: d.hand, AgoMS: max(0, now.Sub(d.at).Milliseconds()),
			Owes: d.owes, Busted: d.busted, Stack: d.stack, Won: d.won, BankMS: d.bank.Milliseconds(), Timeouts: d.timeouts})
	}
	return out
}

// loggedDeparture is a LogDeparture read back, with when its record was
// written (its writer's clock).
type loggedDeparture struct {
	LogDeparture
	written time.Time
}

// foldDeparted keeps ds, written at written, as the players' last departures.
func (r *Resume) foldDeparted(ds []LogDeparture, written time.Time) {
	if r.departed == nil {
		r.departed = map[int64]loggedDeparture{}
	}
	for _, d := range ds {
		r.departed[d.ID] = loggedDeparture{d, written}
	}
}

// resumeDeparted takes up the departures of r's log still within
// keepDeparted at the lost owner's last record (the time the table was
// down is not counted).
func (t *Table) resumeDeparted(r *Resume, now time.Time) {
	var ds []LogDeparture
	t.loggedLeft = map[int64]time.Time{}
	for _, id := range slices.Sorted(maps.Keys(r.departed)) {
		d := r.departed[id]
		if !d.written.IsZero() {
			t.loggedLeft[id] = d.written.Add(-time.Duration(max(0, d.AgoMS)) * time.Millisecond)
		}
		if !d.written.IsZero() && !r.LastAt.IsZero() {
			d.AgoMS = max(0, d.AgoMS) + min(max(0, r.LastAt.Sub(d.written)).Milliseconds(), math.MaxInt64-max(0, d.AgoMS))
		}
		ds = append(ds, d.LogDeparture)
	}
	t.takeDeparted(ds, now)
	t.loggedDepartSeq = t.departSeq // read from the log
	t.forget(now, maxDeparted)
}

// takeDeparted takes up ds, departures AgoMS before now read from a log or
// the store, and so not trusted: those past keepDeparted and those of
// players seated are left out, a negative age or count reads as 0, the time
// bank as at most a full one, the part won as at most the stack. The caller
// then bounds them to maxDeparted (forget).
func (t *Table) takeDeparted(ds []LogDeparture, now time.Time) {
	for _, d := range ds {
		ago := max(0, d.AgoMS)
		if ago >= t.keepDeparted().Milliseconds() || t.seatOf(d.ID) >= 0 {
			continue
		}
		age := time.Duration(ago) * time.Millisecond
		if t.departed == nil {
			t.departed = map[int64]departure{}
		}
		t.departSeq++
		t.departed[d.ID] = departure{at: now.Add(-age), seat: d.Seat, hand: d.Hand, owes: d.Owes, busted: d.Busted, seq: t.departSeq,
			stack: max(0, d.Stack), won: min(max(0, d.Won), max(0, d.Stack)), timeouts: max(0, d.Timeouts),
			bank: time.Duration(min(max(0, d.BankMS), t.cfg.TimeBank.Milliseconds())) * time.Millisecond}
	}
}

// loadDeparted takes up, at a table opening, the departures the house's
// store keeps under its name (keeper), as a log's (takeDeparted) and bounded
// to maxDeparted; those older than keepDeparted it deletes. A table taken
// over has its log's already (resumeDeparted): the store's of players the
// log has none for are added (the lost node's note of the departure may not
// have reached the log), and the log's of players the store has none for are
// written to it (keepMissing). Where both have one, the later wins
// (storedLater, storedEarlier). A store that does not answer is logged, and
// the table opens without them.
func (t *Table) loadDeparted(now time.Time) {
	if t.keeper == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), bankTimeout)
	defer cancel()
	kept, err := t.keeper.Departures(ctx, t.cfg.Name, now, maxDeparted)
	if err != nil {
		t.log.Error("departures not read back from the store: the table opens without them", "err", err)
		return
	}
	logged := slices.Collect(maps.Keys(t.departed))
	stored := map[int64]bool{}
	ds := make([]LogDeparture, 0, len(kept))
	for _, d := range kept {
		stored[d.UserID] = true
		if ld, ok := t.departed[d.UserID]; ok {
			if t.storedEarlier(d, ld) {
				// The store's row outlived its delete (as they sat down
				// again) and the write of the log's later departure failed:
				// the log's is written over it.
				delete(stored, d.UserID)
			}
			if !t.storedLater(d) {
				continue
			}
			// A later departure than the log's: the lost node's note of it
			// did not reach the log (its first write refused).
			delete(t.departed, d.UserID)
		}
		if t.seatOf(d.UserID) >= 0 {
			// Seated again at the table taken over: the lost node's delete
			// of the row, as they sat down, did not land.
			t.unkeep(d.UserID)
			continue
		}
		if now.Sub(d.LeftAt) >= t.keepDeparted() {
			// Read by no rule of this table (its windows shorter than those
			// it was written under, or a corrupt row): deleted, not read at
			// every opening until its expiry.
			t.unkeep(d.UserID)
			continue
		}
		// The hands are counted again from 1 at a restart: the hands dealt
		// since the departure are unknown, and counted as some (Hand -1),
		// so that a player back within Config.SitOutLimit waits for the big
		// blind (owedOnSit) rather than dodge the hands dealt before the
		// restart.
		ds = append(ds, LogDeparture{ID: d.UserID, Seat: d.Seat, Hand: -1, AgoMS: now.Sub(d.LeftAt).Milliseconds(),
			Owes: d.Owes, Busted: d.Busted, Stack: d.Stack, Won: d.Won, BankMS: d.Bank.Milliseconds(), Timeouts: d.Timeouts})
	}
	slices.SortFunc(ds, func(a, b LogDeparture) int { return cmp.Compare(a.ID, b.ID) })
	t.takeDeparted(ds, now)
	t.forget(now, maxDeparted)
	t.keepMissing(logged, stored)
	t.loggedLeft = nil
}

// storedLater reports whether d, the store's departure of a player the log
// has one for too, is a later departure than the log's: written after the
// log's was made (by its writer's clock, the clock the log's records were
// written by). The table keeps a player's departure while they are seated
// again, and logs it with every state, so a log cut off as they left again
// holds their departure before: a player who stood up with 1000, sat down
// again, won 4000 and stood up as the node was cut off came back to the
// table taken over with 1000.
func (t *Table) storedLater(d store.Departure) bool {
	left, ok := t.loggedLeft[d.UserID]
	return ok && d.LeftAt.After(left.Add(sameDeparture))
}

// storedEarlier reports whether d, the store's departure of a player the log
// has ld for, is an earlier departure than ld: made before it, and not the
// same (the log's time of one departure is its record's, a moment after it
// was made).
func (t *Table) storedEarlier(d store.Departure, ld departure) bool {
	left, ok := t.loggedLeft[d.UserID]
	return ok && d.LeftAt.Before(left.Add(-sameDeparture)) &&
		(d.Stack != ld.stack || d.Won != ld.won || d.Busted != ld.busted || d.Owes != ld.owes || d.Seat != ld.seat ||
			d.Bank != ld.bank || d.Timeouts != ld.timeouts)
}

// sameDeparture is how far apart the store's and the log's times of one
// departure may be (the log's is counted from its record's time, in
// milliseconds): a departure later than that is another one.
const sameDeparture = 5 * time.Millisecond

// keepMissing has the ledger worker write to the store, once it is there,
// the departures of the players logged (read from the log) that it still
// remembers and the store has none for, or an earlier one (not stored).
func (t *Table) keepMissing(logged []int64, stored map[int64]bool) {
	slices.Sort(logged)
	for _, id := range logged {
		if _, ok := t.departed[id]; ok && !stored[id] {
			t.unstored = append(t.unstored, id)
		}
	}
}

// kept returns player id's departure as the house's store keeps it, or nil
// when the table keeps none there (keeper) or remembers none of theirs.
func (t *Table) kept(id int64) *store.Departure {
	d, ok := t.departed[id]
	if t.keeper == nil || !ok {
		return nil
	}
	return &store.Departure{Table: t.cfg.Name, UserID: id, Seat: d.seat, Hand: d.hand, LeftAt: d.at, ExpiresAt: d.at.Add(t.keepDeparted()),
		Owes: d.owes, Busted: d.busted, Stack: d.stack, Won: d.won, Bank: d.bank, Timeouts: d.timeouts}
}

// unkeep has the ledger worker delete player id's departure from the house's
// store (keeper), in turn with the departures it writes.
func (t *Table) unkeep(id int64) {
	switch {
	case t.keeper == nil:
	case t.ledger == nil: // opening: once the ledger is there
		t.unkept = append(t.unkept, id)
	default:
		t.ledger.add(cashOutOp{user: id, forget: true})
	}
}

// keepDepartures writes ds to the house's store in one write, from the
// ledger's worker, unless givenUp (the table closed, and its final flush's
// time is up). A write that fails is logged, and the table plays on: a
// restart would not find the departures.
func (t *Table) keepDepartures(ds []store.Departure, givenUp func() bool) {
	if givenUp() {
		t.log.Error("departures not kept in the store: the table closed, and its flush's time is up", "user", ds[0].UserID, "departures", len(ds))
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), bankTimeout)
	defer cancel()
	if err := t.keeper.KeepDeparture(ctx, ds...); err != nil {
		t.log.Error("departures not kept in the store: a restart of the house would not find them", "user", ds[0].UserID, "departures", len(ds), "err", err)
	}
}

// forgetDepartures deletes the departures of ops' users from the house's
// store in one write, from the ledger's worker, unless givenUp. A write that
// fails is logged: a restart would find those departures (bounded and
// expiring as any).
func (t *Table) forgetDepartures(ops []cashOutOp, givenUp func() bool) {
	ids := make([]int64, len(ops))
	for i, op := range ops {
		ids[i] = op.user
	}
	if givenUp() {
		t.log.Error("departures not forgotten in the store: the table closed, and its flush's time is up", "users", len(ids))
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), bankTimeout)
	defer cancel()
	if err := t.keeper.ForgetDepartures(ctx, t.cfg.Name, ids); err != nil {
		t.log.Error("departures not forgotten in the store: a restart of the house would find them", "users", len(ids), "err", err)
	}
}
