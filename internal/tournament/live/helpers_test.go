package live

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/lobby"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/tournament"
)

// rig is a house, a lobby and a director over a fresh store, with tables that
// deal at once and bots that act at once.
type rig struct {
	st    store.Store
	h     *house.House
	lobby *lobby.Lobby
	d     *Director
}

func fastTables(h *house.House) func(table.Config) table.Config {
	return func(c table.Config) table.Config {
		c.Bank = h
		c.BotDelay, c.HandPause = time.Millisecond, time.Millisecond
		c.ActionTime, c.TimeBank, c.Grace = table.MinActionTime, time.Millisecond, time.Millisecond
		return c
	}
}

func newRig(t *testing.T, st store.Store, edit func(*Config)) *rig {
	t.Helper()
	cfg := house.DefaultConfig()
	cfg.Argon2 = house.Argon2Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}
	h, err := house.New(st, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return startRig(t, st, h, edit)
}

func startRig(t *testing.T, st store.Store, h *house.House, edit func(*Config)) *rig {
	t.Helper()
	quiet := slog.New(slog.DiscardHandler)
	l := lobby.New(quiet, nil)
	c := Config{House: h, Lobby: l, Tables: fastTables(h), Bots: []string{"raise", "call"}, Log: quiet}
	if edit != nil {
		edit(&c)
	}
	d, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := &rig{st: st, h: h, lobby: l, d: d}
	t.Cleanup(func() { r.stop(t) })
	return r
}

// stop closes the tables and writes what the director queued.
func (r *rig) stop(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := r.lobby.Shutdown(ctx); err != nil {
		t.Errorf("lobby shutdown: %v", err)
	}
	if err := r.d.Close(ctx); err != nil {
		t.Errorf("director close: %v", err)
	}
	if err := r.h.Flush(ctx); err != nil {
		t.Errorf("flush: %v", err)
	}
}

func (r *rig) player(t *testing.T, name string) table.Player {
	t.Helper()
	u, err := r.h.Register(context.Background(), house.Registration{Username: name, Password: "correct horse", ConfirmedAdult: true})
	if err != nil {
		t.Fatalf("register %s: %v", name, err)
	}
	return table.Player{ID: u.ID, Name: u.Username}
}

func (r *rig) credits(t *testing.T, p table.Player) int64 {
	t.Helper()
	c, err := r.h.Credits(context.Background(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sng is a fast sit-and-go: levels of one second from blinds of a tenth of the stack.
func sng(seats int) tournament.Spec {
	return tournament.Spec{Name: "Turbo", Kind: tournament.SitAndGo, Seats: seats, BuyIn: 100, Stack: 200,
		LevelTime: tournament.MinLevelTime}
}

// waitState polls tournament id until it is in state or the deadline passes.
func (r *rig) waitState(t *testing.T, id int64, state string, within time.Duration) Info {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		in, err := r.d.Info(context.Background(), id, 0)
		if err != nil {
			t.Fatal(err)
		}
		if in.State == state {
			return in
		}
		if time.Now().After(deadline) {
			t.Fatalf("tournament %d is %s after %v, want %s: %+v", id, in.State, within, state, in)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// openSNG returns the id of the sit-and-go open for registration.
func (r *rig) openSNG(t *testing.T) int64 {
	t.Helper()
	for _, in := range r.d.List(0) {
		if in.Kind == tournament.SitAndGo && in.State == store.TourneyRegistering {
			return in.ID
		}
	}
	t.Fatal("no sit-and-go open")
	return 0
}

// shover plays p's turns at tournament id's tables all-in (or checks or calls)
// until p is out or the tournament ends, following p from table to table.
type shover struct {
	r    *rig
	p    table.Player
	id   int64
	mu   sync.Mutex
	tbl  *table.Table
	done chan struct{}
}

func (s *shover) Send(msg []byte) {
	var m struct {
		Type  string       `json:"type"`
		State *table.State `json:"state"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Type != "state" || m.State.Hand == nil || m.State.Hand.Legal == nil {
		return
	}
	s.mu.Lock()
	t := s.tbl
	s.mu.Unlock()
	l := *m.State.Hand.Legal
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		for _, a := range l.Actions {
			if a == "raise" || a == "bet" {
				kind := engine.Raise
				if a == "bet" {
					kind = engine.Bet
				}
				if t.Act(ctx, s.p, kind, l.MaxTo) == nil {
					return
				}
			}
		}
		if t.Act(ctx, s.p, engine.Call, 0) != nil {
			_ = t.Act(ctx, s.p, engine.Check, 0)
		}
	}()
}

func (r *rig) shove(t *testing.T, id int64, p table.Player) *shover {
	s := &shover{r: r, p: p, id: id, done: make(chan struct{})}
	go s.run()
	t.Cleanup(func() { <-s.done })
	return s
}

func (s *shover) run() {
	defer close(s.done)
	current := ""
	watch := -1
	for {
		in, err := s.r.d.Info(context.Background(), s.id, 0)
		if err != nil || in.State == store.TourneyFinished || in.State == store.TourneyCancelled {
			return
		}
		where := ""
		for _, st := range in.Standings {
			if st.Name == s.p.Name {
				if st.Place > 0 {
					return
				}
				where = st.Table
			}
		}
		if where != "" && where != current {
			if t, err := s.r.lobby.Table(where); err == nil {
				s.mu.Lock()
				old := s.tbl
				s.tbl = t
				s.mu.Unlock()
				if old != nil && watch >= 0 {
					_ = old.Unwatch(context.Background(), watch)
				}
				if watch, err = t.Watch(context.Background(), s.p, s); err == nil {
					current = where
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
}
