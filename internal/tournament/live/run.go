package live

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/felt-poker/felt/internal/lobby"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/tournament"
)

// callTimeout bounds the director's calls to a table.
const callTimeout = 10 * time.Second

// tableName is the name of table no of tournament id (suffix: "" or a letter
// when a player's table has the name: one opened before players were refused
// these names, lobby.ValidPlayerName).
func tableName(id int64, no int, suffix string) string {
	return fmt.Sprintf("t%d-%d%s", id, no, suffix)
}

// openTable opens table no of a running tournament with seats.
func (d *Director) openTable(tr *tourney, no int, seats []table.TourneySeat) {
	l0 := tr.spec.Levels[0]
	cfg := table.Config{
		Variant: table.NoLimit, Seats: tr.spec.Seats, SmallBlind: l0.SmallBlind, BigBlind: l0.BigBlind,
		MinBuyIn: l0.BigBlind, MaxBuyIn: table.MaxBuyIn, RefPrefix: tr.ref + "/",
		Tourney: &table.Tourney{
			ID: tr.id, Seats: seats,
			Blinds:  func(now time.Time) (int, int64, int64, int64) { return d.blinds(tr, now) },
			HandEnd: func(h table.TourneyHand) []table.Player { return d.handEnd(tr, no, h) },
		},
	}
	if d.cfg.Tables != nil {
		cfg = d.cfg.Tables(cfg)
	}
	var (
		t   *table.Table
		err error
	)
	for _, suffix := range []string{"", "a", "b", "c", "d"} {
		cfg.Name = tableName(tr.id, no, suffix)
		if t, err = d.open(cfg); !errors.Is(err, lobby.ErrNameTaken) {
			break
		}
	}
	if err != nil {
		d.log.Error("open a tournament table", "tournament", tr.id, "table", no, "err", err)
		return
	}
	d.mu.Lock()
	tr.tables[no] = &tableRun{no: no, t: t}
	d.mu.Unlock()
}

// open opens a tournament's table through the host, if any, or the lobby.
func (d *Director) open(cfg table.Config) (*table.Table, error) {
	if d.cfg.Host == nil {
		return d.cfg.Lobby.Open(cfg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	return d.cfg.Host.OpenTourneyTable(ctx, cfg)
}

// blinds is a tournament table's Tourney.Blinds.
func (d *Director) blinds(tr *tourney, now time.Time) (int, int64, int64, int64) {
	d.mu.Lock()
	clock := tr.clock
	d.mu.Unlock()
	level, _ := tr.spec.LevelAt(now.Sub(clock))
	l := tr.spec.Levels[level]
	return level, l.SmallBlind, l.BigBlind, l.Ante
}

// move is a player leaving one table for another.
type move struct {
	to   int
	seat table.TourneySeat
}

// handEnd is table no's Tourney.HandEnd: it places the players who busted,
// pays them, ends the tournament at its last player, balances the tables, and
// queues the new state for the store. It returns the players who leave the
// table now.
func (d *Director) handEnd(tr *tourney, no int, h table.TourneyHand) []table.Player {
	d.mu.Lock()
	if tr.state != store.TourneyRunning {
		d.mu.Unlock()
		return nil
	}
	changed := map[string]*entrant{}
	for _, s := range h.Seats {
		if e := tr.entrant(s.Player.Name); e != nil {
			e.Stack = s.Stack
			changed[e.Name] = e
		}
	}
	d.placeBusts(tr, h.Busted, changed)
	var (
		leave  []table.Player
		moves  []move
		closes []*table.Table
	)
	if tr.remaining <= 1 {
		leave, closes = d.finishLocked(tr, changed)
	} else {
		leave, moves = d.balanceLocked(tr, no, h.Seats, changed)
		if d.countLocked(tr, no) == 0 {
			if run := tr.tables[no]; run != nil && run.incoming == 0 {
				closes = append(closes, run.t)
				delete(tr.tables, no)
			}
		}
	}
	tr.rec.Elapsed = time.Since(tr.clock)
	out := make([]store.TournamentEntry, 0, len(changed))
	for _, e := range changed {
		out = append(out, e.TournamentEntry)
	}
	d.saver.save(tr.ref, tr.rec, out)
	idle := d.idleBreaksLocked(tr, no)
	d.mu.Unlock()
	d.stored()
	for _, m := range moves {
		go d.seatMoved(tr, m)
	}
	for _, t := range closes {
		go d.closeTable(t, "the tournament's table is broken")
	}
	for _, f := range idle {
		go f()
	}
	return leave
}

// placeBusts gives the players who busted in one hand their places and prizes.
func (d *Director) placeBusts(tr *tourney, busted []table.TourneySeat, changed map[string]*entrant) {
	if len(busted) == 0 {
		return
	}
	var busts []tournament.Bust
	var who []*entrant
	for _, b := range busted {
		if e := tr.entrant(b.Player.Name); e != nil && e.Place == 0 {
			busts = append(busts, tournament.Bust{ID: int64(len(who)), StartStack: b.Stack})
			who = append(who, e)
		}
	}
	fin := tournament.Finishes(tr.remaining, busts)
	for i := 0; i < len(fin); {
		j := i + fin[i].Tied
		prizes := tournament.SplitPrizes(tr.payouts, fin[i].Place, fin[i].Tied)
		for k := i; k < j; k++ {
			e := who[fin[k].ID]
			e.Place, e.Prize, e.Stack, e.Table = fin[k].Place, prizes[k-i], 0, 0
			changed[e.Name] = e
			d.log.Info("busted", "tournament", tr.id, "player", e.Name, "place", e.Place, "prize", e.Prize)
		}
		i = j
	}
	tr.remaining -= len(who)
}

// finishLocked ends a tournament down to its winner (or none, when the last
// players tied for first): it returns the winner, who leaves the table, and the
// tables to close. d.mu is held.
func (d *Director) finishLocked(tr *tourney, changed map[string]*entrant) ([]table.Player, []*table.Table) {
	var leave []table.Player
	for _, e := range tr.entrants {
		if e.Place == 0 {
			e.Place, e.Prize, e.Table = 1, tournament.Prize(tr.payouts, 1), 0
			changed[e.Name] = e
			leave = append(leave, table.Player{ID: e.UserID, Name: e.Name})
			d.log.Info("tournament won", "tournament", tr.id, "player", e.Name, "prize", e.Prize)
		}
	}
	tr.state, tr.rec.State, tr.rec.FinishedAt, tr.remaining = store.TourneyFinished, store.TourneyFinished, time.Now(), 0
	d.pruneLocked()
	var closes []*table.Table
	for no, run := range tr.tables {
		closes = append(closes, run.t)
		delete(tr.tables, no)
	}
	return leave, closes
}

// countLocked returns the players table no holds or is about to. d.mu is held.
func (d *Director) countLocked(tr *tourney, no int) int {
	n := 0
	for _, e := range tr.entrants {
		if e.Place == 0 && e.Table == no {
			n++
		}
	}
	return n
}

func (d *Director) countsLocked(tr *tourney) []tournament.TableCount {
	var out []tournament.TableCount
	for no := range tr.tables {
		out = append(out, tournament.TableCount{ID: no, Players: d.countLocked(tr, no)})
	}
	return out
}

// balanceLocked plans the tables and carries out the moves away from table no,
// which is between hands: its players in seats leave in the order they would
// pay the big blind, so that nobody skips one. A table that players are on
// their way to is not broken yet. d.mu is held.
func (d *Director) balanceLocked(tr *tourney, no int, seats []table.TourneySeat, changed map[string]*entrant) ([]table.Player, []move) {
	plan := tournament.Balance(d.countsLocked(tr), tr.spec.Seats)
	for _, b := range plan.Break {
		if b == no && tr.tables[no].incoming > 0 {
			return nil, nil
		}
	}
	var (
		leave []table.Player
		moves []move
		next  int
	)
	for _, m := range plan.Moves {
		if m.From != no {
			continue
		}
		for k := 0; k < m.N && next < len(seats); k++ {
			s := seats[next]
			next++
			e := tr.entrant(s.Player.Name)
			if e == nil || tr.tables[m.To] == nil {
				continue
			}
			e.Table, e.moving = m.To, true
			tr.tables[m.To].incoming++
			changed[e.Name] = e
			leave = append(leave, s.Player)
			moves = append(moves, move{to: m.To, seat: seatOf(e)})
		}
	}
	return leave, moves
}

// idleBreaksLocked returns the steps that move the lone player of a table the
// plan breaks (a table of one deals no hand, so it never reports one), for any
// table other than the reporting one. d.mu is held.
func (d *Director) idleBreaksLocked(tr *tourney, reporting int) []func() {
	if tr.state != store.TourneyRunning {
		return nil
	}
	plan := tournament.Balance(d.countsLocked(tr), tr.spec.Seats)
	var out []func()
	for _, b := range plan.Break {
		run := tr.tables[b]
		if b == reporting || run == nil || run.incoming > 0 || d.countLocked(tr, b) > 1 {
			continue
		}
		for _, m := range plan.Moves {
			if m.From != b {
				continue
			}
			for _, e := range tr.entrants {
				if e.Place == 0 && e.Table == b && !e.moving {
					e.moving = true
					p, to := table.Player{ID: e.UserID, Name: e.Name}, m.To
					tr.tables[to].incoming++
					out = append(out, func() { d.moveIdle(tr, run, p, to) })
				}
			}
		}
	}
	return out
}

// moveIdle takes p from the idle table run to table to, and closes run.
func (d *Director) moveIdle(tr *tourney, run *tableRun, p table.Player, to int) {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	_, err := run.t.UnseatTourney(ctx, p)
	d.mu.Lock()
	if err != nil {
		tr.tables[to].incoming--
		if e := tr.entrant(p.Name); e != nil {
			e.moving = false
		}
		d.mu.Unlock()
		d.log.Error("move a player from an idle table", "tournament", tr.id, "player", p.Name, "err", err)
		return
	}
	e := tr.entrant(p.Name)
	e.Table = to
	if tr.tables[run.no] == run && d.countLocked(tr, run.no) == 0 {
		delete(tr.tables, run.no)
	}
	d.saver.save(tr.ref, tr.rec, []store.TournamentEntry{e.TournamentEntry})
	s := seatOf(e)
	d.mu.Unlock()
	go d.closeTable(run.t, "the tournament's table is broken")
	d.stored()
	d.seatMoved(tr, move{to: to, seat: s})
}

// seatMoved seats a moving player at their new table, or, should it have
// closed meanwhile, at the open table with the fewest players.
func (d *Director) seatMoved(tr *tourney, m move) {
	for try := 0; try < 5; try++ {
		d.mu.Lock()
		run := tr.tables[m.to]
		d.mu.Unlock()
		err := errors.New("table gone")
		if run != nil {
			ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
			err = run.t.SeatTourney(ctx, m.seat)
			cancel()
		}
		d.mu.Lock()
		if run != nil {
			run.incoming--
		}
		e := tr.entrant(m.seat.Player.Name)
		if err == nil || e == nil || tr.state != store.TourneyRunning {
			if e != nil {
				e.moving = false
			}
			d.mu.Unlock()
			return
		}
		d.log.Error("seat a moved player", "tournament", tr.id, "player", e.Name, "table", m.to, "err", err)
		best := -1
		for no, r := range tr.tables {
			if best < 0 || d.countLocked(tr, no) < d.countLocked(tr, best) {
				best = no
			}
			_ = r
		}
		if best < 0 {
			d.mu.Unlock()
			return
		}
		e.Table, m.to = best, best
		tr.tables[best].incoming++
		d.saver.save(tr.ref, tr.rec, []store.TournamentEntry{e.TournamentEntry})
		d.mu.Unlock()
		d.stored()
	}
}

// closeTable closes t for good (broken, or its tournament over).
func (d *Director) closeTable(t *table.Table, reason string) {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	if err := t.Close(ctx, reason); err != nil {
		d.log.Error("close a tournament table", "table", t.Name(), "err", err)
		return
	}
	if d.cfg.Host != nil {
		d.cfg.Host.ForgetTourneyTable(ctx, t)
	}
}

// stored waits, on a house whose tables are written ahead (Config.Host), until
// the steps queued so far are stored: a table's next hand is dealt only once
// the store holds the stacks it deals, so that a director taking the tournament
// over finds in the store the players and stacks of the hand in play the
// table's log holds (docs/scaling.md, "Tournament tables"). It is called on the
// reporting table's goroutine, which waits as a cash table waits for its hand's
// record.
func (d *Director) stored() {
	if d.cfg.Host == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), saveTimeout)
	defer cancel()
	if err := d.saver.flush(ctx); err != nil {
		d.log.Error("a tournament's step not stored before the next hand", "err", err)
	}
}
