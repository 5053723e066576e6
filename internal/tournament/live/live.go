// Package live runs the house's tournaments on real tables: it takes
// registrations and buy-ins through the house's ledger, starts sit-and-goes when
// full and scheduled tournaments at their time, opens tournament tables
// (internal/table in its tournament mode) through the lobby, places players as
// they bust and pays prizes, balances and breaks tables, and stores every step
// so that a restarted house resumes a running tournament from the last hand each
// table completed. The rules it applies are internal/tournament's.
package live

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/lobby"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/tournament"
)

// Errors callers branch on.
var (
	// ErrNoTournament reports an unknown tournament id.
	ErrNoTournament = fmt.Errorf("no such tournament: %w", store.ErrNotFound)
	// ErrClosed reports a registration, or an unregistration, once the
	// tournament has started (there is no late registration, and no refund).
	ErrClosed = errors.New("registration is closed: the tournament has started")
	// ErrFull reports a registration for a tournament with every place taken.
	ErrFull = errors.New("the tournament is full")
	// ErrNoBots reports a bot fill the house's operator does not allow.
	ErrNoBots = errors.New("this house does not seat bots in tournaments")
	// ErrMoved reports a write of a director that another node has replaced
	// (a house on several nodes: its lease lost, the store fenced by the new
	// director): the director stops, and the request may be tried again
	// (docs/scaling.md, "Tournaments").
	ErrMoved = errors.New("the tournaments have moved to another node of the house")
)

// Config is the director's configuration.
type Config struct {
	House *house.House
	Lobby *lobby.Lobby
	// Tables returns a table's configuration over the house's defaults (bank,
	// clocks, bot models); nil keeps the table package's defaults and needs
	// Bank set by the caller (tests).
	Tables func(table.Config) table.Config
	// SitAndGos are kept open: when one starts, another of the same spec opens.
	SitAndGos []tournament.Spec
	// Scheduled are the scheduled tournaments: each has one registering at a
	// time, and the next opens when it starts.
	Scheduled []Schedule
	// Bots may fill the empty seats of a sit-and-go (none: bots never play
	// tournaments); BotFill is how long after the first registration they do.
	Bots    []string
	BotFill time.Duration
	// Host opens the tournaments' tables (nil: Lobby.Open, on this process
	// alone). A house on several nodes writes them ahead and makes them
	// reachable from every node (docs/scaling.md, "Tournament tables"); each
	// step of a tournament is then stored before its table deals the next
	// hand.
	Host TableHost
	Log  *slog.Logger
}

// TableHost opens a tournament's tables and forgets those that close for good
// (a table broken, the tournament over).
type TableHost interface {
	// OpenTourneyTable opens cfg's table, or takes it up as its log left it
	// when a table of that name ran under an earlier director; a name another
	// table of the house has is lobby.ErrNameTaken.
	OpenTourneyTable(ctx context.Context, cfg table.Config) (*table.Table, error)
	// ForgetTourneyTable forgets t, closed for good: no director opens it
	// again.
	ForgetTourneyTable(ctx context.Context, t *table.Table)
}

// Schedule is a scheduled tournament that comes back: Spec.Start is its first
// start, then every Every (0: once).
type Schedule struct {
	Spec  tournament.Spec
	Every time.Duration
}

// next returns the schedule's first start after now, or false.
func (s Schedule) next(now time.Time) (time.Time, bool) {
	at := s.Spec.Start
	if s.Every > 0 && at.Before(now) {
		at = at.Add(s.Every * (now.Sub(at)/s.Every + 1))
	}
	return at, at.After(now)
}

// Director runs the house's tournaments. Its methods are safe for concurrent use.
//
// Lock order: a tourney's reg, then Director.mu. Nothing holds mu while it calls
// a table, the lobby or the house; the tables' hand-end hooks take mu.
type Director struct {
	cfg   Config
	log   *slog.Logger
	saver *saver

	mu     sync.Mutex
	ts     map[int64]*tourney
	closed bool
	// abandoned: another node directs the tournaments now (Abandon).
	abandoned bool
}

// New returns a director; Start restores the stored tournaments.
func New(cfg Config) (*Director, error) {
	if cfg.House == nil || cfg.Lobby == nil {
		return nil, errors.New("tournaments: a house and a lobby are required")
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	for i := range cfg.SitAndGos {
		s := &cfg.SitAndGos[i]
		s.Kind = tournament.SitAndGo
		s.Defaults()
		if err := s.Validate(); err != nil {
			return nil, fmt.Errorf("sit-and-go %q: %w", s.Name, err)
		}
	}
	for i := range cfg.Scheduled {
		s := &cfg.Scheduled[i].Spec
		s.Kind = tournament.Scheduled
		s.Defaults()
		if err := s.Validate(); err != nil {
			return nil, fmt.Errorf("scheduled tournament %q: %w", s.Name, err)
		}
		if cfg.Scheduled[i].Every < 0 {
			return nil, fmt.Errorf("scheduled tournament %q: every must not be negative", s.Name)
		}
	}
	d := &Director{cfg: cfg, log: cfg.Log.With("part", "tournaments"), ts: map[int64]*tourney{}}
	d.saver = newSaver(cfg.House, d.log, d.fenced)
	return d, nil
}

// Abandon stops the director at once because another node directs the
// tournaments now (a house on several nodes whose director lease this node
// lost): its timers stop, what it queued for the store is dropped, and its
// tables stop on this node (handed over: table_moved to their watchers),
// paying nobody (a tournament's chips are not credits); it writes nothing
// more. The new director resumes the running tournaments from the store, and
// each table from its log (Config.Host), the hand in play included.
// Abandoning twice does nothing.
func (d *Director) Abandon(ctx context.Context) {
	d.mu.Lock()
	if d.abandoned {
		d.mu.Unlock()
		return
	}
	d.closed, d.abandoned = true, true
	var tables []*table.Table
	for _, tr := range d.ts {
		if tr.timer != nil {
			tr.timer.Stop()
		}
		for _, run := range tr.tables {
			tables = append(tables, run.t)
		}
	}
	d.mu.Unlock()
	d.saver.abandon()
	d.log.Warn("tournaments abandoned on this node: another node directs them", "tables", len(tables))
	for _, t := range tables {
		if err := t.HandOver(ctx, "the tournament moves to another node of the house"); err != nil {
			d.log.Error("stop a tournament table", "table", t.Name(), "err", err)
		}
	}
}

// fenced abandons the director when err says that another director has fenced
// the store (house.ErrFenced), and returns err as ErrMoved; it returns any
// other err as it is.
func (d *Director) fenced(err error) error {
	if !errors.Is(err, house.ErrFenced) {
		return err
	}
	go d.Abandon(context.Background())
	return fmt.Errorf("%w: %w", ErrMoved, err)
}

// Close stops the director: the timers stop and what is queued for the store is
// written (the tables close with the lobby; a running tournament resumes at the
// next Start).
func (d *Director) Close(ctx context.Context) error {
	d.mu.Lock()
	d.closed = true
	for _, tr := range d.ts {
		if tr.timer != nil {
			tr.timer.Stop()
		}
	}
	d.mu.Unlock()
	return d.saver.flush(ctx)
}

func (d *Director) get(id int64) (*tourney, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.abandoned {
		return nil, ErrMoved
	}
	tr, ok := d.ts[id]
	if !ok {
		return nil, ErrNoTournament
	}
	return tr, nil
}

// Create opens registration for a tournament of spec.
func (d *Director) Create(ctx context.Context, spec tournament.Spec) (int64, error) {
	return d.create(ctx, spec, -1)
}

// createNext opens schedule k's next tournament, if it has one.
func (d *Director) createNext(ctx context.Context, k int) error {
	sc := d.cfg.Scheduled[k]
	at, ok := sc.next(time.Now())
	if !ok {
		return nil
	}
	sc.Spec.Start = at
	_, err := d.create(ctx, sc.Spec, len(d.cfg.SitAndGos)+k)
	return err
}

// create opens registration for spec; template is its index in SitAndGos, or
// len(SitAndGos) plus its index in Scheduled, or -1.
func (d *Director) create(ctx context.Context, spec tournament.Spec, template int) (int64, error) {
	spec.Defaults()
	if err := spec.Validate(); err != nil {
		return 0, &house.FieldError{Field: "tournament", Message: err.Error(), Err: house.ErrInvalid}
	}
	if spec.Kind == tournament.Scheduled && spec.Seats < 3 {
		return 0, &house.FieldError{Field: "seats", Message: "a scheduled tournament's tables have 3 seats or more", Err: house.ErrInvalid}
	}
	raw, err := encodeSpec(spec)
	if err != nil {
		return 0, err
	}
	rec, err := d.cfg.House.CreateTournament(ctx, store.Tournament{Spec: raw, State: store.TourneyRegistering})
	if err != nil {
		return 0, d.fenced(err)
	}
	tr := newTourney(rec, spec, template)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.ts[tr.id] = tr
	d.scheduleLocked(tr)
	return tr.id, nil
}

// scheduleLocked arms a scheduled tournament's start. d.mu is held.
func (d *Director) scheduleLocked(tr *tourney) {
	if tr.spec.Kind != tournament.Scheduled || tr.state != store.TourneyRegistering || d.closed {
		return
	}
	tr.timer = time.AfterFunc(time.Until(tr.spec.Start), func() {
		tr.reg.Lock()
		defer tr.reg.Unlock()
		d.start(tr)
	})
}
