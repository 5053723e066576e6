package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/tournament"
)

// tourney is one tournament. reg serialises its registrations, start and
// cancellation (held across their store calls); everything else is under
// Director.mu.
type tourney struct {
	id       int64
	ref      string // the ledger's reference: "tourney:<id>"
	spec     tournament.Spec
	template int // index in Config.SitAndGos, -1 for none
	reg      sync.Mutex

	rec       store.Tournament
	state     string
	clock     time.Time // the level clock's zero: the start less any time already played
	entrants  []*entrant
	payouts   []int64
	remaining int
	tables    map[int]*tableRun
	nextTable int
	timer     *time.Timer
}

type entrant struct {
	store.TournamentEntry
	moving bool // between two tables
}

// tableRun is a table of a running tournament.
type tableRun struct {
	no       int
	t        *table.Table
	incoming int // players on their way to it
}

func newTourney(rec store.Tournament, spec tournament.Spec, template int) *tourney {
	return &tourney{id: rec.ID, ref: fmt.Sprintf("tourney:%d", rec.ID), spec: spec, template: template,
		rec: rec, state: rec.State, tables: map[int]*tableRun{}, nextTable: 1}
}

func encodeSpec(s tournament.Spec) ([]byte, error) { return json.Marshal(s) }

func decodeSpec(b []byte) (tournament.Spec, error) {
	var s tournament.Spec
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("tournament spec: %w", err)
	}
	s.Defaults()
	return s, s.Validate()
}

func (tr *tourney) entrant(name string) *entrant {
	for _, e := range tr.entrants {
		if e.Name == name {
			return e
		}
	}
	return nil
}

func (tr *tourney) entrantOf(userID int64) *entrant {
	for _, e := range tr.entrants {
		if e.UserID == userID {
			return e
		}
	}
	return nil
}

// Register enters p in tournament id: the buy-in leaves their credits now. A
// sit-and-go starts as soon as its last seat is taken.
func (d *Director) Register(ctx context.Context, id int64, p table.Player) error {
	if p.ID == 0 {
		return table.ErrAnonymous
	}
	tr, err := d.get(id)
	if err != nil {
		return err
	}
	tr.reg.Lock()
	defer tr.reg.Unlock()
	if err := d.canEnter(tr, p); err != nil {
		return err
	}
	e := store.TournamentEntry{TournamentID: tr.id, Name: p.Name, UserID: p.ID, BuyIn: tr.spec.BuyIn, Stack: tr.spec.Stack, RegisteredAt: time.Now()}
	if _, err := d.cfg.House.EnterTournament(ctx, tr.ref, e); err != nil {
		return d.fenced(err)
	}
	d.log.Info("registered", "tournament", tr.id, "player", p.Name)
	d.entered(tr, e)
	return nil
}

// canEnter checks that one more may register, and that p has not.
func (d *Director) canEnter(tr *tourney, p table.Player) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case tr.state != store.TourneyRegistering:
		return &house.PlayerError{Message: "registration is closed: the tournament has started or ended", Err: ErrClosed}
	case len(tr.entrants) >= tr.spec.MaxEntrants:
		return &house.PlayerError{Message: "every place in this tournament is taken", Err: ErrFull}
	case p.ID != 0 && tr.entrantOf(p.ID) != nil:
		return &house.PlayerError{Message: "you are registered for this tournament already", Err: house.ErrEntered}
	}
	return nil
}

// entered adds a stored entry and starts a sit-and-go it fills. tr.reg is held.
func (d *Director) entered(tr *tourney, e store.TournamentEntry) {
	d.mu.Lock()
	tr.entrants = append(tr.entrants, &entrant{TournamentEntry: e})
	full := tr.spec.Kind == tournament.SitAndGo && len(tr.entrants) >= tr.spec.Seats
	if !full && len(tr.entrants) == 1 {
		d.armBotFillLocked(tr, d.cfg.BotFill)
	}
	d.mu.Unlock()
	if full {
		d.start(tr)
	}
}

// armBotFillLocked has the house's bots fill sit-and-go tr after wait, if the
// operator allows bots. d.mu is held.
func (d *Director) armBotFillLocked(tr *tourney, wait time.Duration) {
	if tr.spec.Kind != tournament.SitAndGo || len(d.cfg.Bots) == 0 || d.cfg.BotFill <= 0 || d.closed {
		return
	}
	tr.timer = time.AfterFunc(wait, func() {
		if err := d.FillWithBots(context.Background(), tr.id, table.Player{}); err != nil {
			d.log.Info("bot fill", "tournament", tr.id, "err", err)
		}
	})
}

// Unregister takes p out of tournament id before it starts and returns their
// buy-in; once it has started it is ErrClosed (no refund).
func (d *Director) Unregister(ctx context.Context, id int64, p table.Player) error {
	if p.ID == 0 {
		return table.ErrAnonymous
	}
	tr, err := d.get(id)
	if err != nil {
		return err
	}
	tr.reg.Lock()
	defer tr.reg.Unlock()
	d.mu.Lock()
	state, e := tr.state, tr.entrantOf(p.ID)
	d.mu.Unlock()
	if state != store.TourneyRegistering {
		return &house.PlayerError{Message: "the tournament has started: a registration is final", Err: ErrClosed}
	}
	if e == nil {
		return &house.PlayerError{Message: "you are not registered for this tournament", Err: house.ErrNotEntered}
	}
	if err := d.cfg.House.LeaveTournament(ctx, tr.ref, tr.id, p.ID, e.BuyIn, "unregistered"); err != nil {
		return d.fenced(err)
	}
	d.mu.Lock()
	for i, x := range tr.entrants {
		if x == e {
			tr.entrants = append(tr.entrants[:i], tr.entrants[i+1:]...)
			break
		}
	}
	d.mu.Unlock()
	d.log.Info("unregistered", "tournament", tr.id, "player", p.Name)
	return nil
}

// FillWithBots seats the house's bots (Config.Bots) in a sit-and-go's empty
// places, which starts it. It needs a player registered first; by, when not
// the house itself (ID 0), must be one of its entrants.
func (d *Director) FillWithBots(ctx context.Context, id int64, by table.Player) error {
	if len(d.cfg.Bots) == 0 {
		return &house.PlayerError{Message: "this house does not seat bots in tournaments", Err: ErrNoBots}
	}
	tr, err := d.get(id)
	if err != nil {
		return err
	}
	tr.reg.Lock()
	defer tr.reg.Unlock()
	d.mu.Lock()
	open, n := tr.state == store.TourneyRegistering && tr.spec.Kind == tournament.SitAndGo, len(tr.entrants)
	entrant := by.ID == 0 || tr.entrantOf(by.ID) != nil
	d.mu.Unlock()
	if !entrant {
		return &house.PlayerError{Message: "register first: only an entrant may call the bots in", Err: house.ErrNotEntered}
	}
	if !open {
		return &house.PlayerError{Message: "only a sit-and-go still registering takes bots", Err: ErrClosed}
	}
	if n == 0 {
		return &house.PlayerError{Message: "bots fill a sit-and-go once a player has registered", Err: house.ErrInvalid}
	}
	for k := n; k < tr.spec.Seats; k++ {
		kind := d.cfg.Bots[k%len(d.cfg.Bots)]
		base, _, _ := strings.Cut(kind, ":")
		e := store.TournamentEntry{TournamentID: tr.id, Name: fmt.Sprintf("%s%s-%d", house.BotPrefix, base, k+1), Bot: kind,
			BuyIn: 0, Stack: tr.spec.Stack, RegisteredAt: time.Now()}
		if _, err := d.cfg.House.EnterTournament(ctx, tr.ref, e); err != nil {
			return d.fenced(err)
		}
		d.entered(tr, e)
	}
	return nil
}

// start starts a tournament whose registration closes (tr.reg is held): it
// seats the entrants at random at as few tables as they need, or cancels a
// tournament short of its minimum and refunds every buy-in.
func (d *Director) start(tr *tourney) {
	d.mu.Lock()
	if tr.state != store.TourneyRegistering || d.closed {
		d.mu.Unlock()
		return
	}
	if tr.timer != nil {
		tr.timer.Stop()
	}
	n := len(tr.entrants)
	if n < tr.spec.MinEntrants {
		d.mu.Unlock()
		d.cancel(tr)
		d.openNext(tr)
		return
	}
	now := time.Now()
	tr.state, tr.clock, tr.remaining = store.TourneyRunning, now, n
	tr.rec.State, tr.rec.StartedAt, tr.rec.Entrants = store.TourneyRunning, now, n
	tr.rec.Pool = tr.spec.BuyIn * int64(n)
	tr.payouts = tournament.Payouts(n, tr.rec.Pool)
	order := rand.Perm(n)
	tables := tournament.TablesFor(n, tr.spec.Seats)
	seats := map[int][]table.TourneySeat{}
	changed := make([]store.TournamentEntry, 0, n)
	for k, i := range order {
		e := tr.entrants[i]
		e.Table = k%tables + 1
		seats[e.Table] = append(seats[e.Table], seatOf(e))
		changed = append(changed, e.TournamentEntry)
	}
	tr.nextTable = tables + 1
	rec := tr.rec
	d.mu.Unlock()
	// The start is stored before any table deals (no step of the tournament is
	// queued before it): a restart finds it running, its players seated.
	ctx, cancel := context.WithTimeout(context.Background(), saveTimeout)
	err := d.cfg.House.SaveTournament(ctx, tr.ref, rec, changed)
	cancel()
	if err != nil {
		d.log.Error("store a tournament's start", "tournament", tr.id, "err", err)
		if errors.Is(d.fenced(err), ErrMoved) {
			return // another node directs it: it deals there
		}
	}
	d.log.Info("tournament started", "tournament", tr.id, "entrants", n, "tables", tables)
	for no := 1; no <= tables; no++ {
		d.openTable(tr, no, seats[no])
	}
	d.openNext(tr)
}

// openNext opens the next tournament of tr's sit-and-go or schedule.
func (d *Director) openNext(tr *tourney) {
	ctx := context.Background()
	var err error
	switch n := len(d.cfg.SitAndGos); {
	case tr.template < 0:
	case tr.template < n:
		_, err = d.create(ctx, d.cfg.SitAndGos[tr.template], tr.template)
	default:
		err = d.createNext(ctx, tr.template-n)
	}
	if err != nil {
		d.log.Error("open the next tournament", "after", tr.id, "err", err)
	}
}

// cancel ends a tournament short of players: every buy-in goes back.
func (d *Director) cancel(tr *tourney) {
	ctx := context.Background()
	d.mu.Lock()
	entrants := append([]*entrant(nil), tr.entrants...)
	d.mu.Unlock()
	for _, e := range entrants {
		if e.UserID == 0 {
			continue
		}
		if err := d.cfg.House.LeaveTournament(ctx, tr.ref, tr.id, e.UserID, e.BuyIn, "tournament cancelled"); err != nil {
			d.log.Error("refund", "tournament", tr.id, "player", e.Name, "err", d.fenced(err))
		}
	}
	d.mu.Lock()
	tr.state, tr.rec.State, tr.rec.FinishedAt = store.TourneyCancelled, store.TourneyCancelled, time.Now()
	d.saver.save(tr.ref, tr.rec, nil)
	d.pruneLocked()
	d.mu.Unlock()
	d.log.Info("tournament cancelled", "tournament", tr.id, "entrants", len(entrants))
}

func seatOf(e *entrant) table.TourneySeat {
	return table.TourneySeat{Player: table.Player{ID: e.UserID, Name: e.Name}, Bot: e.Bot, Stack: e.Stack}
}
