package table

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/felt-poker/felt/internal/chat"
)

// What a table keeps of its own beside the hands (its seats' clocks, time
// banks and connections, its players' options, its waiting list, the players
// let in to a locked table, its room chat) is in the state it logs at each
// hand's start and end (LogState); what changes between those records is
// written to its HandLog as a note (LogNote), once per command or step that
// changed it, with only what changed. A node that takes the table over
// applies the notes to the last state (Resume.Fold), so that a takeover
// resets none of it (docs/scaling.md, "What a takeover keeps"; the clock's
// rule is docs/rules.md's "Clocks across a takeover").

// clockNoteEvery is how often the clock of a player to act is noted while
// their turn lasts: a node that takes the table over charges the player the
// time up to the last record of the lost node, so a player gains at most this
// much (plus Config.TakeoverGrace) from a takeover.
const clockNoteEvery = 5 * time.Second

// maxNotes is how many notes may follow the table's last state between hands
// before the table logs its whole state again (the log then drops what came
// before it).
const maxNotes = 256

// LogNote is one note of a table's HandLog: what changed since the record
// before it. An empty field changed nothing.
type LogNote struct {
	// Seats are the seats that changed, by number, as they are now.
	Seats map[int]LogSeat `json:"seats,omitempty"`
	// Waiting, when WaitingSet, is the waiting list now.
	Waiting    []LogPlayer `json:"waiting,omitempty"`
	WaitingSet bool        `json:"waiting_set,omitempty"`
	// Admitted are the players let in to the locked table since.
	Admitted []int64 `json:"admitted,omitempty"`
	// Chat are the room chat's lines said since.
	Chat []chat.Line `json:"chat,omitempty"`
	// Departed are the players' departures from a seat since (a later one
	// of a player replaces theirs).
	Departed []LogDeparture `json:"departed,omitempty"`
	// Clock is the clock of the player to act.
	Clock *LogClock `json:"clock,omitempty"`
}

// LogClock is the clock of the seat to act: the time it has used of its turn
// (ActionTime, then its time bank) when the note was written.
type LogClock struct {
	Seat   int   `json:"seat"`
	UsedMS int64 `json:"used_ms"`
}

// LoggedNote is a note as the log gives it back: when its writer wrote it,
// after how many of the hand's logged actions, and the note (a LogNote).
type LoggedNote struct {
	At      time.Time
	Actions int
	Note    json.RawMessage
}

// clockMark is the last clock a Resume's notes hold.
type clockMark struct {
	seat    int
	used    time.Duration
	at      time.Time
	actions int
}

// Fold applies r's notes to r.State, once: the state is then the table as its
// lost owner last logged it. It returns how many notes it could not read
// (skipped).
func (r *Resume) Fold() (skipped int) {
	if r.folded {
		return 0
	}
	r.folded = true
	st := &r.State
	st.Seats = slices.Clone(st.Seats)
	r.asOf = make([]time.Time, len(st.Seats))
	for i := range r.asOf {
		r.asOf[i] = r.StateAt
	}
	r.foldDeparted(st.Departed, r.StateAt)
	for _, n := range r.Notes {
		var ln LogNote
		if err := json.Unmarshal(n.Note, &ln); err != nil {
			skipped++
			continue
		}
		for i, ls := range ln.Seats {
			if i >= 0 && i < len(st.Seats) {
				st.Seats[i], r.asOf[i] = ls, n.At
			}
		}
		if ln.WaitingSet {
			st.Waiting = ln.Waiting
		}
		st.Admitted = append(st.Admitted, ln.Admitted...)
		r.foldDeparted(ln.Departed, n.At)
		if st.Chat = append(st.Chat, ln.Chat...); len(st.Chat) > roomChatLog {
			st.Chat = st.Chat[len(st.Chat)-roomChatLog:]
		}
		if c := ln.Clock; c != nil {
			r.clock = &clockMark{seat: c.Seat, used: time.Duration(c.UsedMS) * time.Millisecond, at: n.At, actions: n.Actions}
		}
	}
	return skipped
}

// lived returns how long the lost owner went on after it logged seat i's
// state: the time its away and sitting-out clocks ran on.
func (r *Resume) lived(i int) time.Duration {
	if i >= len(r.asOf) || r.asOf[i].IsZero() || r.LastAt.IsZero() {
		return 0
	}
	return max(0, r.LastAt.Sub(r.asOf[i]))
}

// resumeSeatOwn gives seat s what ls logged of its player's own: time bank,
// timeouts in a row and options.
func resumeSeatOwn(s *seat, ls LogSeat) {
	s.bank = time.Duration(ls.BankMS) * time.Millisecond
	s.timeouts, s.straddle, s.runTwice = ls.Timeouts, ls.Straddle, ls.RunTwice
}

// resumeSeatLocal gives seat s of a person (at a cash table or a
// tournament's) what ls logged of its own, lived after the record
// (Resume.lived): every player is away until they reconnect, those who were
// away already since then, and those sitting out since then.
func resumeSeatLocal(s *seat, ls LogSeat, lived time.Duration, now time.Time) {
	resumeSeatOwn(s, ls)
	s.away, s.awaySince = true, now
	if ls.Away {
		s.awaySince = now.Add(-(time.Duration(ls.AwayMS)*time.Millisecond + lived))
	}
	if ls.SittingOut {
		s.sitOutSince = now.Add(-(time.Duration(ls.SitOutMS)*time.Millisecond + lived))
	}
}

// resumeLocal takes up st's waiting list (its players not seated), the
// players let in and the room chat's lines, all counted as logged.
func (t *Table) resumeLocal(st *LogState) {
	for _, w := range st.Waiting {
		if t.seatOf(w.ID) < 0 && t.waitingAt(w.ID) < 0 && len(t.waiting) < MaxWaiting && !t.tourney() {
			t.waiting = append(t.waiting, Player{ID: w.ID, Name: w.Name})
			if w.From != "" {
				t.waitFrom[w.ID] = w.From
			}
		}
	}
	for _, id := range st.Admitted {
		if !t.admitted[id] {
			t.admitted[id] = true
			t.admitOrder = append(t.admitOrder, id)
		}
	}
	for _, l := range st.Chat {
		t.chatLog.Add(l)
	}
	t.chatSaid = len(st.Chat)
	t.loggedWaiting, t.loggedAdmits, t.loggedChat = t.logWaiting(), len(t.admitOrder), t.chatSaid
}

// resumeClock starts the clock of the player to act in r's hand with the
// time they had left when their lost node last wrote to the log (the time
// since their turn began, or since the clock was last noted), plus
// Config.TakeoverGrace, and never more than a fresh turn.
func (t *Table) resumeClock(r *Resume, now time.Time) {
	s := r.Hand.ToAct()
	if r.Hand.Over() || s < 0 || s >= len(t.seats) || !t.seats[s].occupied || t.seats[s].bot != nil {
		return
	}
	full := t.cfg.ActionTime + t.seats[s].bank
	var used time.Duration
	if !r.TurnAt.IsZero() && !r.LastAt.IsZero() {
		used = r.LastAt.Sub(r.TurnAt)
		if c := r.clock; c != nil && c.seat == s && c.actions >= r.TurnActions {
			used = c.used + r.LastAt.Sub(c.at)
		}
	}
	used = min(max(used, 0), full)
	left := min(full-used+t.cfg.TakeoverGrace, full)
	t.clockSeat, t.clockStart, t.clockNoted, t.botAt = s, now.Add(left-full), now, now
}

// logWaiting returns the waiting list as the log keeps it.
func (t *Table) logWaiting() []LogPlayer {
	var w []LogPlayer
	for _, p := range t.waiting {
		w = append(w, LogPlayer{ID: p.ID, Name: p.Name, From: t.waitFrom[p.ID]})
	}
	return w
}

// note returns what changed since the log last had it, counted as logged, or
// nil if nothing did; all notes every seat and the clock of the player to act
// whatever changed (a table taken up or handed over).
func (t *Table) note(now time.Time, all bool) *LogNote {
	if t.cfg.HandLog == nil || t.closed || (t.loggedSeats == nil && !all) {
		return nil
	}
	if t.loggedSeats == nil {
		t.loggedSeats = make([]LogSeat, len(t.seats))
	}
	n, some := &LogNote{}, false
	for i := range t.seats {
		if ls := t.logSeat(i, now); all || ls.key() != t.loggedSeats[i] {
			if n.Seats == nil {
				n.Seats = map[int]LogSeat{}
			}
			n.Seats[i], t.loggedSeats[i], some = ls, ls.key(), true
		}
	}
	if w := t.logWaiting(); !slices.Equal(w, t.loggedWaiting) {
		n.Waiting, n.WaitingSet, t.loggedWaiting, some = w, true, w, true
	}
	if len(t.admitOrder) > t.loggedAdmits {
		n.Admitted, t.loggedAdmits, some = slices.Clone(t.admitOrder[t.loggedAdmits:]), len(t.admitOrder), true
	}
	if all || t.departSeq > t.loggedDepartSeq {
		after := t.loggedDepartSeq
		if all {
			after = 0
		}
		n.Departed, t.loggedDepartSeq = t.logDeparted(now, after), t.departSeq
		some = some || len(n.Departed) > 0
	}
	if t.chatSaid > t.loggedChat {
		lines := t.chatLog.Lines()
		n.Chat = lines[len(lines)-min(t.chatSaid-t.loggedChat, len(lines)):]
		t.loggedChat, some = t.chatSaid, true
	}
	if t.handLive && t.clockSeat >= 0 && t.seats[t.clockSeat].bot == nil && (all || !now.Before(t.clockNoted.Add(clockNoteEvery))) {
		n.Clock = &LogClock{Seat: t.clockSeat, UsedMS: now.Sub(t.clockStart).Milliseconds()}
		t.clockNoted, some = now, true
	}
	if !some {
		return nil
	}
	return n
}

// logNote writes n (nil: nothing) to the HandLog; a refused write abandons the
// table (ErrMoved).
func (t *Table) logNote(n *LogNote) error {
	if n == nil {
		return nil
	}
	t.notes++
	return t.logged(func(ctx context.Context, l HandLog) error { return l.Note(ctx, *n) })
}

// logChanges notes what changed of the table's own state; between hands,
// after maxNotes notes, it logs the whole state again instead.
func (t *Table) logChanges(now time.Time) error {
	if t.cfg.HandLog == nil || t.closed || t.loggedSeats == nil {
		return nil
	}
	if !t.handLive && t.notes >= maxNotes {
		st := t.logState(now)
		st.Last = t.lastEnd // the hand a new owner records if this node did not
		return t.logged(func(ctx context.Context, l HandLog) error { return l.Opened(ctx, st) })
	}
	return t.logNote(t.note(now, false))
}

// noted logs what a command changed before its answer err goes back: a
// command that changed something the log then refused is ErrMoved.
func (t *Table) noted(err error) error {
	if lerr := t.logChanges(time.Now()); lerr != nil && err == nil {
		return lerr
	}
	return err
}

// logResumed notes, on a table taken up from its log, every seat and the
// clock of the player to act as the table now has them: a node that takes it
// over in turn counts from there, not the time it took to take it up.
func (t *Table) logResumed() error {
	if t.cfg.HandLog == nil || t.cfg.Resume == nil {
		return nil
	}
	n := t.note(time.Now(), true)
	if n == nil {
		return nil
	}
	t.notes++
	ctx, cancel := context.WithTimeout(context.Background(), logTimeout)
	defer cancel()
	return t.cfg.HandLog.Note(ctx, *n)
}
