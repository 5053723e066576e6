package live

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/tournament"
)

// maxRestored bounds the tournaments Start loads of each kind.
const maxRestored = 1000

// Start loads the stored tournaments: those registering take registrations
// again, those running resume from the last hand each of their tables completed
// (docs/rules.md, "Tournaments"; with a Config.Host, each table from its log,
// the hand in play included), the latest finished are shown; and each
// sit-and-go of the configuration gets one open for registration. Call it once,
// before serving.
func (d *Director) Start(ctx context.Context) error {
	recs, err := d.cfg.House.Tournaments(ctx, maxRestored, store.TourneyRegistering, store.TourneyRunning)
	if err != nil {
		return fmt.Errorf("tournaments: %w", err)
	}
	ended, err := d.cfg.House.Tournaments(ctx, 10, store.TourneyFinished, store.TourneyCancelled)
	if err != nil {
		return fmt.Errorf("tournaments: %w", err)
	}
	slices.Reverse(recs)
	open := map[int]bool{}
	for _, rec := range append(recs, ended...) {
		tr, err := d.load(ctx, rec, open)
		if err != nil {
			d.log.Error("restore a tournament", "tournament", rec.ID, "err", err)
			continue
		}
		d.mu.Lock()
		d.ts[tr.id] = tr
		d.mu.Unlock()
		switch tr.state {
		case store.TourneyRegistering:
			d.mu.Lock()
			d.scheduleLocked(tr)
			full := tr.spec.Kind == tournament.SitAndGo && len(tr.entrants) >= tr.spec.Seats
			if !full && len(tr.entrants) > 0 {
				// What is left of the wait since the first registration (none: at once).
				d.armBotFillLocked(tr, max(0, d.cfg.BotFill-time.Since(tr.entrants[0].RegisteredAt)))
			}
			d.mu.Unlock()
			if full { // filled just before the house stopped
				tr.reg.Lock()
				d.start(tr)
				tr.reg.Unlock()
			}
		case store.TourneyRunning:
			d.resume(tr)
		}
	}
	n := len(d.cfg.SitAndGos)
	for i, s := range d.templates() {
		if open[i] {
			continue
		}
		if i < n {
			_, err = d.create(ctx, s, i)
		} else {
			err = d.createNext(ctx, i-n)
		}
		if err != nil {
			return fmt.Errorf("tournament %q: %w", s.Name, err)
		}
	}
	return nil
}

// templates lists the sit-and-goes, then the scheduled tournaments.
func (d *Director) templates() []tournament.Spec {
	out := append([]tournament.Spec(nil), d.cfg.SitAndGos...)
	for _, s := range d.cfg.Scheduled {
		out = append(out, s.Spec)
	}
	return out
}

// load rebuilds a stored tournament; open records the sit-and-go templates
// that have one registering.
func (d *Director) load(ctx context.Context, rec store.Tournament, open map[int]bool) (*tourney, error) {
	spec, err := decodeSpec(rec.Spec)
	if err != nil {
		return nil, err
	}
	_, entries, err := d.cfg.House.Tournament(ctx, rec.ID)
	if err != nil {
		return nil, err
	}
	template := -1
	if rec.State == store.TourneyRegistering {
		for i, s := range d.templates() {
			if !open[i] && s.Name == spec.Name && s.Kind == spec.Kind {
				template, open[i] = i, true
				break
			}
		}
	}
	tr := newTourney(rec, spec, template)
	for _, e := range entries {
		tr.entrants = append(tr.entrants, &entrant{TournamentEntry: e})
	}
	if rec.State != store.TourneyRegistering {
		tr.payouts = tournament.Payouts(max(rec.Entrants, 1), rec.Pool)
	}
	return tr, nil
}

// resume reopens a running tournament's tables with the stacks stored after
// their last completed hands; the level clock resumes at the play time stored
// with them.
func (d *Director) resume(tr *tourney) {
	d.mu.Lock()
	tr.clock = time.Now().Add(-tr.rec.Elapsed)
	seats := map[int][]table.TourneySeat{}
	for _, e := range tr.entrants {
		if e.Place != 0 {
			continue
		}
		tr.remaining++
		if e.Table == 0 {
			e.Table = 1
		}
		seats[e.Table] = append(seats[e.Table], seatOf(e))
		tr.nextTable = max(tr.nextTable, e.Table+1)
	}
	if tr.remaining <= 1 {
		changed := map[string]*entrant{}
		d.finishLocked(tr, changed)
		var out []store.TournamentEntry
		for _, e := range changed {
			out = append(out, e.TournamentEntry)
		}
		d.saver.save(tr.ref, tr.rec, out)
		d.mu.Unlock()
		return
	}
	d.mu.Unlock()
	d.log.Info("tournament resumed", "tournament", tr.id, "players", tr.remaining, "tables", len(seats))
	for no, s := range seats {
		// A table holds at most its seats; should the store say otherwise, the
		// rest start another table (balancing evens them out).
		for len(s) > tr.spec.Seats {
			d.mu.Lock()
			extra := tr.nextTable
			tr.nextTable++
			for _, x := range s[tr.spec.Seats:] {
				tr.entrant(x.Player.Name).Table = extra
			}
			d.mu.Unlock()
			d.openTable(tr, extra, s[tr.spec.Seats:])
			s = s[:tr.spec.Seats]
		}
		d.openTable(tr, no, s)
	}
}
