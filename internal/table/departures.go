package table

import (
	"cmp"
	"maps"
	"slices"
	"time"
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
// a newcomer: dealt in at once. The table remembers each player's last
// departure for that long, in its log too (LogState.Departed, LogNote), so
// that a node taking the table over keeps it.

// maxDeparted bounds the departures a table remembers: past it the oldest is
// forgotten (its player would sit again as a newcomer).
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
	// seq orders the departures as recorded, for the log's notes.
	seq uint64
}

// depart remembers that st's player left seat i at now (busted: without
// chips), forgetting the departures older than Config.SitOutLimit.
func (t *Table) depart(i int, st *seat, busted bool, now time.Time) {
	if st.bot != nil || t.tourney() || st.p.ID == 0 {
		return
	}
	if t.departed == nil {
		t.departed = map[int64]departure{}
	}
	oldest, first := int64(0), time.Time{}
	for id, d := range t.departed {
		if now.Sub(d.at) >= t.cfg.SitOutLimit {
			delete(t.departed, id)
		} else if first.IsZero() || d.at.Before(first) {
			oldest, first = id, d.at
		}
	}
	if _, again := t.departed[st.p.ID]; !again && len(t.departed) >= maxDeparted {
		delete(t.departed, oldest)
	}
	t.departSeq++
	t.departed[st.p.ID] = departure{at: now, seat: i, hand: t.handNo, owes: st.owesBB, busted: busted, seq: t.departSeq}
}

// owedOnReturn reports whether player id, sitting down in seat i at now, is
// dealt in only at the big blind for having left the table lately.
func (t *Table) owedOnReturn(id int64, i int, now time.Time) bool {
	d, ok := t.departed[id]
	if !ok || d.busted || t.tourney() || now.Sub(d.at) >= t.cfg.SitOutLimit {
		return false
	}
	return d.owes || t.handNo > d.hand || i != d.seat
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
			Owes: d.owes, Busted: d.busted})
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
// Config.SitOutLimit at the lost owner's last record (the time the table was
// down is not counted).
func (t *Table) resumeDeparted(r *Resume, now time.Time) {
	for _, id := range slices.Sorted(maps.Keys(r.departed)) {
		d := r.departed[id]
		age := time.Duration(d.AgoMS) * time.Millisecond
		if !d.written.IsZero() && !r.LastAt.IsZero() {
			age += max(0, r.LastAt.Sub(d.written))
		}
		if age >= t.cfg.SitOutLimit || t.seatOf(id) >= 0 {
			continue
		}
		if t.departed == nil {
			t.departed = map[int64]departure{}
		}
		t.departSeq++
		t.departed[id] = departure{at: now.Add(-age), seat: d.Seat, hand: d.Hand, owes: d.Owes, busted: d.Busted, seq: t.departSeq}
	}
	t.loggedDepartSeq = t.departSeq
}
