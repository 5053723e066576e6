package live

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/tournament"
)

// Info is a tournament as the lobby and its page show it.
type Info struct {
	ID          int64     `json:"id"`
	Name        string    `json:"name"`
	Kind        string    `json:"kind"`
	State       string    `json:"state"`
	Seats       int       `json:"seats"`
	BuyIn       int64     `json:"buy_in"`
	Stack       int64     `json:"stack"`
	MinEntrants int       `json:"min_entrants"`
	MaxEntrants int       `json:"max_entrants"`
	Start       time.Time `json:"start,omitzero"`
	StartedAt   time.Time `json:"started_at,omitzero"`
	Entrants    int       `json:"entrants"`
	Remaining   int       `json:"remaining"`
	// Pool is the prize pool (the buy-ins); Payouts the prizes by place as the
	// field stands (at the start, final).
	Pool    int64   `json:"pool"`
	Payouts []int64 `json:"payouts"`
	// Level (0-based) and its blinds; LevelLeftMS the time left in it (0 before
	// the start and at the last level).
	Level        int              `json:"level"`
	Blinds       tournament.Level `json:"blinds"`
	LevelLeftMS  int64            `json:"level_left_ms"`
	LevelSeconds int64            `json:"level_seconds"`
	// Registered says whether the asking player is an entrant; YourTable is
	// the table they play at, while they do.
	Registered bool   `json:"registered"`
	YourTable  string `json:"your_table,omitempty"`
	// BotFill says that bots fill a sit-and-go's empty places.
	BotFill bool `json:"bot_fill"`
	// The page's detail (Director.Info only).
	Levels    []tournament.Level `json:"levels,omitempty"`
	Tables    []TableInfo        `json:"tables,omitempty"`
	Standings []Standing         `json:"standings,omitempty"`
}

// TableInfo is one of a running tournament's tables.
type TableInfo struct {
	Name    string `json:"name"`
	Players int    `json:"players"`
}

// Standing is an entrant: chips while in play, place and prize once out.
type Standing struct {
	Name  string `json:"name"`
	Bot   bool   `json:"bot"`
	Stack int64  `json:"stack"`
	Table string `json:"table,omitempty"`
	Place int    `json:"place,omitempty"`
	Prize int64  `json:"prize,omitempty"`
}

// List returns the tournaments open or running, then the latest finished, as
// userID (0: anyone) sees them.
func (d *Director) List(userID int64) []Info {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]Info, 0, len(d.ts))
	for _, tr := range d.ts {
		out = append(out, d.infoLocked(tr, userID, false))
	}
	rank := map[string]int{store.TourneyRunning: 0, store.TourneyRegistering: 1, store.TourneyFinished: 2, store.TourneyCancelled: 3}
	sort.Slice(out, func(i, j int) bool {
		if rank[out[i].State] != rank[out[j].State] {
			return rank[out[i].State] < rank[out[j].State]
		}
		if out[i].State == store.TourneyRegistering {
			return out[i].ID < out[j].ID
		}
		return out[i].ID > out[j].ID
	})
	const maxEnded = 10
	for i, ended := range out {
		if ended.State == store.TourneyFinished || ended.State == store.TourneyCancelled {
			if len(out) > i+maxEnded {
				out = out[:i+maxEnded]
			}
			break
		}
	}
	return out
}

// Info returns tournament id with its levels, tables and standings; one that
// ended long ago (no longer kept in memory) is read from the store.
func (d *Director) Info(ctx context.Context, id, userID int64) (Info, error) {
	tr, err := d.get(id)
	if errors.Is(err, ErrNoTournament) && id > 0 {
		rec, rerr := d.cfg.House.TournamentByID(ctx, id)
		if rerr != nil {
			return Info{}, err
		}
		if tr, rerr = d.load(ctx, rec, map[int]bool{}); rerr != nil {
			return Info{}, rerr
		}
	} else if err != nil {
		return Info{}, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.infoLocked(tr, userID, true), nil
}

// maxEnded is how many ended tournaments the director keeps in memory.
const maxEnded = 50

// pruneLocked forgets the ended tournaments beyond the newest maxEnded (the
// store keeps them). d.mu is held.
func (d *Director) pruneLocked() {
	var ended []int64
	for id, tr := range d.ts {
		if tr.state == store.TourneyFinished || tr.state == store.TourneyCancelled {
			ended = append(ended, id)
		}
	}
	if len(ended) <= maxEnded {
		return
	}
	sort.Slice(ended, func(i, j int) bool { return ended[i] > ended[j] })
	for _, id := range ended[maxEnded:] {
		delete(d.ts, id)
	}
}

func (d *Director) infoLocked(tr *tourney, userID int64, detail bool) Info {
	s := tr.spec
	in := Info{ID: tr.id, Name: s.Name, Kind: s.Kind, State: tr.state, Seats: s.Seats, BuyIn: s.BuyIn, Stack: s.Stack,
		MinEntrants: s.MinEntrants, MaxEntrants: s.MaxEntrants, StartedAt: tr.rec.StartedAt, Entrants: len(tr.entrants),
		Remaining: tr.remaining, LevelSeconds: int64(s.LevelTime / time.Second), Blinds: s.Levels[0],
		BotFill: s.Kind == tournament.SitAndGo && len(d.cfg.Bots) > 0}
	if s.Kind == tournament.Scheduled {
		in.Start = s.Start
	}
	in.Pool, in.Payouts = tr.rec.Pool, tr.payouts
	if tr.state == store.TourneyRegistering {
		in.Pool = s.BuyIn * int64(len(tr.entrants))
		in.Payouts = tournament.Payouts(max(len(tr.entrants), s.MinEntrants), in.Pool)
	}
	if tr.state == store.TourneyRunning {
		level, left := s.LevelAt(time.Since(tr.clock))
		in.Level, in.Blinds, in.LevelLeftMS = level, s.Levels[level], left.Milliseconds()
	}
	for _, e := range tr.entrants {
		if userID != 0 && e.UserID == userID {
			in.Registered = true
			if run := tr.tables[e.Table]; run != nil && e.Place == 0 {
				in.YourTable = run.t.Name()
			}
		}
	}
	if !detail {
		return in
	}
	in.Levels = s.Levels
	for no, run := range tr.tables {
		in.Tables = append(in.Tables, TableInfo{Name: run.t.Name(), Players: d.countLocked(tr, no)})
	}
	sort.Slice(in.Tables, func(i, j int) bool { return in.Tables[i].Name < in.Tables[j].Name })
	for _, e := range tr.entrants {
		st := Standing{Name: e.Name, Bot: e.UserID == 0, Stack: e.Stack, Place: e.Place, Prize: e.Prize}
		if run := tr.tables[e.Table]; run != nil && e.Place == 0 {
			st.Table = run.t.Name()
		}
		in.Standings = append(in.Standings, st)
	}
	sort.SliceStable(in.Standings, func(i, j int) bool {
		a, b := in.Standings[i], in.Standings[j]
		if (a.Place == 0) != (b.Place == 0) {
			return a.Place == 0
		}
		if a.Place == 0 {
			return a.Stack > b.Stack
		}
		return a.Place < b.Place
	})
	return in
}
