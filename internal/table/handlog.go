package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/felt-poker/felt/internal/chat"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/history"
	"github.com/felt-poker/felt/internal/store"
)

// A table of a house on several nodes writes each hand ahead of playing it to
// a HandLog (package cluster's write-ahead log on NATS JetStream): the engine's
// configuration and the seats at the hand's start, every action before it is
// applied, the seats at the hand's end. The engine is deterministic, so another
// node that takes the table over (its node lost) rebuilds the hand in play from
// the log and resumes it (Config.Resume) from the action where it stopped.
//
// A write the log refuses means the table is no longer this node's (its lease
// lost, another node fenced the log) or cannot be made safe: the table stops at
// once without paying anyone out (abandon), for the seats now belong to the
// table's new owner.

// HandLog is where a table writes each hand ahead of play; *cluster.WAL is one.
// A table calls it from its goroutine, each call bounded by logTimeout.
type HandLog interface {
	// Opened logs a new table's state (its reference and its bots) before
	// anyone sits: a new owner takes the table up at the same reference, and
	// returns the buy-ins of players seated before the first hand (Orphans).
	Opened(ctx context.Context, state any) error
	StartHand(ctx context.Context, hand int64, cfg engine.Config, state any) error
	Action(ctx context.Context, a engine.Action) error
	EndHand(ctx context.Context, state any) error
	// Note logs a change to what the table keeps of its own beside the hands
	// (a LogNote: its seats' clocks and connections, its players' options,
	// its waiting list...), to be read back after the table's last state.
	Note(ctx context.Context, note any) error
	// Closed logs that the table closes for good, before it pays anyone out:
	// a node that takes it over then finds it closed, not to be opened again.
	Closed(ctx context.Context) error
}

// logTimeout bounds each write to the HandLog.
const logTimeout = 5 * time.Second

// ErrMoved refuses a command at a table that has stopped on this node because
// another node has taken it over: the player reconnects to find it there.
var ErrMoved = errors.New("the table has moved to another node of the house: reconnect")

// LogState is the table as its HandLog holds it at a hand's start and end:
// enough, with the store's seats, to seat everyone again on another node.
type LogState struct {
	Ref    string    `json:"ref"`
	Hand   int64     `json:"hand"`
	Button int       `json:"button"`
	Level  int       `json:"level"`
	Seats  []LogSeat `json:"seats"`
	// Last, in the state logged at a hand's end, is that hand as the store
	// records it (with its key): a node taking the table over from that
	// state records it, in case the lost owner had not (the key keeps it from
	// being recorded twice).
	Last *store.Hand `json:"last,omitempty"`
	// Waiting is the waiting list, Admitted the players who gave a locked
	// table's key, Chat the room chat's last lines (notes.go).
	Waiting  []LogPlayer `json:"waiting,omitempty"`
	Admitted []int64     `json:"admitted,omitempty"`
	Chat     []chat.Line `json:"chat,omitempty"`
	// Departed are the players' last departures from a seat still
	// remembered (departures.go).
	Departed []LogDeparture `json:"departed,omitempty"`
}

// LogPlayer is a player of a LogState's waiting list, with the address
// they joined it from (MaxWaitingFrom).
type LogPlayer struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	From string `json:"from,omitempty"`
}

// LogSeat is one seat of a LogState.
type LogSeat struct {
	Occupied   bool   `json:"occupied,omitempty"`
	ID         int64  `json:"id,omitempty"`
	Name       string `json:"name,omitempty"`
	Bot        bool   `json:"bot,omitempty"`
	Stack      int64  `json:"stack,omitempty"`
	SittingOut bool   `json:"sitting_out,omitempty"`
	Leaving    bool   `json:"leaving,omitempty"`
	Left       bool   `json:"left,omitempty"`
	BankMS     int64  `json:"bank_ms,omitempty"`
	OwesBB     bool   `json:"owes_bb,omitempty"`
	Timeouts   int    `json:"timeouts,omitempty"`
	Straddle   bool   `json:"straddle,omitempty"`
	RunTwice   bool   `json:"run_twice,omitempty"`
	// Away is a player whose connection is gone, for AwayMS when the record
	// was written; SitOutMS is how long the seat had sat out then.
	Away     bool  `json:"away,omitempty"`
	AwayMS   int64 `json:"away_ms,omitempty"`
	SitOutMS int64 `json:"sit_out_ms,omitempty"`
	// Basis is seat.basis: the stack above it is the player's winnings
	// (0 in records written before it was kept: all of it).
	Basis int64 `json:"basis,omitempty"`
}

// Resume is a table taken over from a node that was lost: its last logged
// state, the hand in play rebuilt from the log (nil when none was), and the
// stacks the store holds at the table for its registered players, by user (the
// store's seats: buy-ins, then each recorded hand and top-up).
type Resume struct {
	State   LogState
	Hand    *engine.Hand
	HandCfg engine.Config
	Stacks  map[int64]int64
	// Notes are the notes logged after State, in order (Fold applies them).
	Notes []LoggedNote
	// StateAt is when State was written and LastAt when the lost owner wrote
	// its last record; TurnAt is when the turn of the seat to act began,
	// after TurnActions of the hand's logged actions. Zero times leave the
	// clocks as they were before notes: a fresh turn.
	StateAt, LastAt, TurnAt time.Time
	TurnActions             int

	folded bool
	asOf   []time.Time // when each seat of State was written
	clock  *clockMark  // the last clock noted, if any
	// departed are the players' last departures, by player, as logged.
	departed map[int64]loggedDeparture
}

// Orphans returns the users with a seat in the store at the table whom the log
// does not seat (they bought in after the last state was logged): their node
// was lost before it seated them, and their buy-in goes back to their credits.
func (r *Resume) Orphans() []int64 {
	seated := map[int64]bool{}
	for _, s := range r.State.Seats {
		if s.Occupied && !s.Bot {
			seated[s.ID] = true
		}
	}
	var out []int64
	for id := range r.Stacks {
		if !seated[id] {
			out = append(out, id)
		}
	}
	return out
}

// logState returns the table as its log keeps it at now, and counts it as
// logged (the notes that follow say what changes after it).
func (t *Table) logState(now time.Time) LogState {
	s := LogState{Ref: t.ref, Hand: t.handNo, Button: t.button, Level: t.level, Seats: make([]LogSeat, len(t.seats)),
		Admitted: slices.Clone(t.admitOrder)}
	t.loggedSeats = make([]LogSeat, len(t.seats))
	for i := range t.seats {
		s.Seats[i] = t.logSeat(i, now)
		t.loggedSeats[i] = s.Seats[i].key()
	}
	s.Waiting = t.logWaiting()
	t.loggedWaiting, t.loggedAdmits = s.Waiting, len(t.admitOrder)
	if t.chatSaid > 0 {
		s.Chat = t.chatLog.Lines()
	}
	t.loggedChat, t.notes = t.chatSaid, 0
	s.Departed, t.loggedDepartSeq = t.logDeparted(now, 0), t.departSeq
	return s
}

// logSeat returns seat i as the log keeps it at now.
func (t *Table) logSeat(i int, now time.Time) LogSeat {
	st := &t.seats[i]
	if !st.occupied {
		return LogSeat{}
	}
	ls := LogSeat{Occupied: true, ID: st.p.ID, Name: st.p.Name, Bot: st.bot != nil, Stack: st.stack,
		SittingOut: st.sittingOut, Leaving: st.leaving, Left: st.left, BankMS: st.bank.Milliseconds(), OwesBB: st.owesBB,
		Timeouts: st.timeouts, Straddle: st.straddle, RunTwice: st.runTwice, Away: st.away && st.bot == nil, Basis: st.basis}
	if ls.Away {
		ls.AwayMS = max(0, now.Sub(st.awaySince).Milliseconds())
	}
	if st.sittingOut && st.bot == nil {
		ls.SitOutMS = max(0, now.Sub(st.sitOutSince).Milliseconds())
	}
	return ls
}

// key returns ls without what changes by itself as time passes.
func (ls LogSeat) key() LogSeat {
	ls.AwayMS, ls.SitOutMS = 0, 0
	return ls
}

// logged runs one write to the HandLog, if the table has one; a refused write
// abandons the table and returns ErrMoved.
func (t *Table) logged(write func(ctx context.Context, l HandLog) error) error {
	if t.cfg.HandLog == nil {
		return nil
	}
	if t.closed {
		return ErrMoved
	}
	ctx, cancel := context.WithTimeout(context.Background(), logTimeout)
	defer cancel()
	if err := write(ctx, t.cfg.HandLog); err != nil {
		t.abandon(err)
		return ErrMoved
	}
	return nil
}

// apply logs a and then applies it to the hand in play. An action the engine
// refuses is logged too: the log's reader skips it as the engine did.
func (t *Table) apply(a engine.Action) error {
	if err := t.logged(func(ctx context.Context, l HandLog) error { return l.Action(ctx, a) }); err != nil {
		return err
	}
	return t.hand.Apply(a)
}

// abandon stops the table on this node at once, because its log refused a
// write or its node hands it over: another node owns it now (or will, once the
// lease expires), with its seats and the hand in play. Nothing is paid out or
// recorded here.
func (t *Table) abandon(err error) {
	t.log.Warn("table stopped on this node: another node takes it over", "err", err)
	t.endThought()
	t.handLive = false
	t.clockSeat = -1
	for i := range t.seats {
		t.seats[i] = seat{}
	}
	t.reserved = map[int]int64{}
	t.broadcast(NoticeMsg{Type: "notice", Table: t.cfg.Name, Code: "table_moved", Text: ErrMoved.Error()})
	t.closed, t.moved = true, true
	t.version++
}

// logOpened writes a new table's state to its HandLog, if it has one.
func (t *Table) logOpened() error {
	if t.cfg.HandLog == nil || t.cfg.Resume != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), logTimeout)
	defer cancel()
	return t.cfg.HandLog.Opened(ctx, t.logState(time.Now()))
}

// resume seats everyone of r again and takes up the hand in play, if any. A
// registered player is seated only if the store still holds their seat (the
// others were cashed out after the state was logged); their stack is the
// store's between hands, the logged one during a hand (the difference, a top-up
// booked during the hand, waits beside it).
func (t *Table) resume(r *Resume, now time.Time) error {
	r.Fold()
	st := r.State
	if err := t.resumeCount(&st, now); err != nil {
		return err
	}
	t.chipsIn = 0
	for i, ls := range st.Seats {
		s := &t.seats[i]
		inHand := r.Hand != nil && i < len(r.HandCfg.Stacks) && r.HandCfg.Stacks[i] > 0
		if err := t.resumeSeat(i, ls, r, inHand, now); err != nil {
			return err
		}
		t.chipsIn += s.stack + s.topUp
	}
	t.resumeLocal(&st)
	t.resumeDeparted(r, now)
	// A heads-up game is its player's: taken over without them (they left, or
	// their buy-in was not logged and goes back), it is over.
	t.hadHuman = t.hadHuman || t.cfg.HeadsUp
	if r.Hand != nil {
		t.resumeHand(r, now)
	}
	return nil
}

// resumeHand takes up r's hand in play, its seats seated (inHand set).
func (t *Table) resumeHand(r *Resume, now time.Time) {
	t.hand, t.handCfg, t.handLive, t.handStart = r.Hand, r.HandCfg, true, now
	t.handPlayers = make([]Player, len(t.seats))
	for i := range t.seats {
		if t.seats[i].inHand {
			t.handPlayers[i] = t.seats[i].p
		}
	}
	t.handKey = fmt.Sprintf("%s/%d", t.ref, t.handNo)
	t.seedHash = history.SeedCommitment(t.handKey, r.HandCfg.Seed)
	t.clockSeat = -1
	t.resumeClock(r, now)
	t.seatNames() // the bots made again learn the hand in play of whom it is
}

// resumeSeat seats seat i of a resumed table as ls logged it.
func (t *Table) resumeSeat(i int, ls LogSeat, r *Resume, inHand bool, now time.Time) error {
	stacks := r.Stacks
	s := &t.seats[i]
	switch {
	case !ls.Occupied:
		if s.bot != nil {
			*s = seat{} // a bot the table no longer seats
		}
		return nil
	case ls.Bot:
		if s.bot == nil {
			return invalid("resume", "seat %d: the log has a bot the table's settings do not", i)
		}
		s.stack, s.inHand, s.sittingOut = ls.Stack, inHand, ls.SittingOut
		return nil
	}
	dbStack, held := stacks[ls.ID]
	if !held && !inHand {
		*s = seat{} // cashed out since the state was logged
		return nil
	}
	*s = seat{occupied: true, p: Player{ID: ls.ID, Name: ls.Name}, stack: ls.Stack, inHand: inHand,
		sittingOut: ls.SittingOut, leaving: ls.Leaving, left: ls.Left || !held, owesBB: ls.OwesBB, basis: max(0, ls.Basis)}
	resumeSeatLocal(s, ls, r.lived(i), now)
	switch {
	case !held:
		t.log.Error("resumed a player in the hand in play whose seat the store no longer holds: folded", "seat", i, "player", ls.Name)
	case !inHand:
		s.stack = dbStack
	case dbStack >= ls.Stack:
		s.topUp = dbStack - ls.Stack
	default:
		t.log.Error("the store holds less than the logged stack (a hand not recorded)", "seat", i, "player", ls.Name, "logged", ls.Stack, "stored", dbStack)
	}
	t.hadHuman = true
	return nil
}

// HandOver stops the table on this node without paying anyone out, for
// another node to take it over from its log: a node leaving on purpose, or one
// whose lease is lost. Its watchers are told the table moved. It returns once
// the table has stopped, or with ctx's error.
func (t *Table) HandOver(ctx context.Context, reason string) error {
	err := t.call(ctx, func() error {
		if !t.closed {
			// The seats' clocks and connections as they are now, for the
			// next owner (a refused note abandons the table already).
			_ = t.logNote(t.note(time.Now(), true))
		}
		if !t.closed {
			t.abandon(errors.New(reason))
		}
		return nil
	})
	return t.stopped(ctx, err)
}

// resumeCount checks that the log's seats fit the table and takes up its
// reference, hand number, button and level, the level's clock starting now.
func (t *Table) resumeCount(st *LogState, now time.Time) error {
	if len(st.Seats) != len(t.seats) {
		return invalid("resume", "the log has %d seats, the table %d", len(st.Seats), len(t.seats))
	}
	if st.Ref != "" {
		t.ref = st.Ref
	}
	t.handNo, t.button, t.level, t.firstHandAt = st.Hand, st.Button, st.Level, now
	return nil
}
