package live

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/tournament"
)

// mtt is a fast scheduled tournament of six-seat tables starting in a moment.
func mtt() tournament.Spec {
	return tournament.Spec{Name: "Nightly", Kind: tournament.Scheduled, Seats: 6, BuyIn: 50, Stack: 300,
		LevelTime: tournament.MinLevelTime, Start: time.Now().Add(300 * time.Millisecond)}
}

// addBots enters n bots in tournament id (the house's bots fill sit-and-goes
// only; a test fills a scheduled one so).
func (r *rig) addBots(t *testing.T, id int64, n int) {
	t.Helper()
	tr, err := r.d.get(id)
	if err != nil {
		t.Fatal(err)
	}
	tr.reg.Lock()
	defer tr.reg.Unlock()
	for k := 0; k < n; k++ {
		e := store.TournamentEntry{TournamentID: id, Name: fmt.Sprintf("%sraise-%d", house.BotPrefix, k), Bot: []string{"raise", "call"}[k%2],
			Stack: tr.spec.Stack, RegisteredAt: time.Now()}
		if _, err := r.h.EnterTournament(context.Background(), tr.ref, e); err != nil {
			t.Fatal(err)
		}
		r.d.entered(tr, e)
	}
}

// watchChips polls tournament id until it ends and checks, at every look, that
// the chips in play are the entrants' starting chips; it returns the most
// tables seen and whether a final table (one table, two or more players) was.
func (r *rig) watchChips(t *testing.T, id int64, within time.Duration) (Info, int, bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	most, final := 0, false
	for {
		in, err := r.d.Info(context.Background(), id, 0)
		if err != nil {
			t.Fatal(err)
		}
		if in.State == store.TourneyFinished {
			return in, most, final
		}
		if in.State == store.TourneyRunning {
			var sum int64
			for _, s := range in.Standings {
				sum += s.Stack
			}
			if sum != in.Stack*int64(in.Entrants) {
				t.Fatalf("chips in play %d, want %d: %+v", sum, in.Stack*int64(in.Entrants), in.Standings)
			}
			most = max(most, len(in.Tables))
			final = final || (len(in.Tables) == 1 && in.Remaining > 1)
		}
		if time.Now().After(deadline) {
			t.Fatalf("tournament %d is %s after %v: %+v", id, in.State, within, in)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestScheduledTournamentBalancesAndBreaks plays a 26-player tournament of
// six-seat tables (five tables) down to its winner: tables break as players
// bust until the final table; chips are conserved throughout, every entrant is
// placed, the prizes make the pool, the two players' credits move by their
// prize less their buy-in.
func TestScheduledTournamentBalancesAndBreaks(t *testing.T) {
	r := newRig(t, storetest.SQLite(t), nil)
	ctx := context.Background()
	id, err := r.d.Create(ctx, mtt())
	if err != nil {
		t.Fatal(err)
	}
	alice, bob := r.player(t, "alice"), r.player(t, "bob")
	for _, p := range []table.Player{alice, bob} {
		if err := r.d.Register(ctx, id, p); err != nil {
			t.Fatal(err)
		}
	}
	r.addBots(t, id, 24)
	r.waitState(t, id, store.TourneyRunning, 5*time.Second)
	r.shove(t, id, alice)
	r.shove(t, id, bob)
	in, most, final := r.watchChips(t, id, 90*time.Second)
	tr, _ := r.d.get(id)
	r.d.mu.Lock()
	opened, left := tr.nextTable-1, len(tr.tables)
	r.d.mu.Unlock()
	if opened != 5 || most < 2 || !final || left != 0 {
		t.Errorf("tables: %d opened (want 5), at most %d seen, final table seen: %v, %d left open", opened, most, final, left)
	}
	checkResults(t, r, in, map[string]int64{"alice": 10_000, "bob": 10_000}, []table.Player{alice, bob})
	if len(in.Payouts) != 7 {
		t.Errorf("26 entrants: %d places paid, want the published 7", len(in.Payouts))
	}
}

// TestScheduledTournamentCancelledShort: fewer than its minimum at the start,
// the tournament is cancelled and every buy-in refunded.
func TestScheduledTournamentCancelledShort(t *testing.T) {
	r := newRig(t, storetest.SQLite(t), nil)
	ctx := context.Background()
	spec := mtt()
	spec.MinEntrants = 3
	id, err := r.d.Create(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	alice := r.player(t, "alice")
	if err := r.d.Register(ctx, id, alice); err != nil {
		t.Fatal(err)
	}
	r.waitState(t, id, store.TourneyCancelled, 5*time.Second)
	if got := r.credits(t, alice); got != 10_000 {
		t.Errorf("alice's credits after the cancellation: %d", got)
	}
}

// TestTournamentSurvivesARestart stops the house in the middle of a
// tournament (the hands in play cancelled) and starts another over the same
// store: the tournament resumes from the last hand each table completed with
// the chips and places stored, plays to its end, and books each buy-in and
// prize once.
func TestTournamentSurvivesARestart(t *testing.T) {
	st := storetest.SQLite(t)
	r := newRig(t, st, nil)
	ctx := context.Background()
	spec := mtt()
	spec.LevelTime = 2 * time.Second
	id, err := r.d.Create(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	alice := r.player(t, "alice")
	if err := r.d.Register(ctx, id, alice); err != nil {
		t.Fatal(err)
	}
	r.addBots(t, id, 11)
	r.waitState(t, id, store.TourneyRunning, 5*time.Second)
	// alice never comes to her table: she is blinded out, slowly (a timeout
	// takes the action time), so the tournament is still running at the stop.
	deadline := time.Now().Add(30 * time.Second)
	for {
		in, _ := r.d.Info(context.Background(), id, 0)
		if in.Remaining < in.Entrants || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.stop(t)
	before, entries, err := r.h.Tournament(ctx, id)
	if err != nil || before.State != store.TourneyRunning {
		t.Fatalf("stored after the stop: %+v %v", before, err)
	}
	var stored int64
	alive := 0
	for _, e := range entries {
		stored += e.Stack
		if e.Place == 0 {
			alive++
		}
	}
	if stored != 12*spec.Stack || alive < 2 {
		t.Fatalf("stored chips %d (want %d), %d alive", stored, 12*spec.Stack, alive)
	}

	h2, err := house.New(st, r.h.Config())
	if err != nil {
		t.Fatal(err)
	}
	r2 := startRig(t, st, h2, nil)
	in, err := r2.d.Info(context.Background(), id, 0)
	if err != nil || in.State != store.TourneyRunning || in.Remaining != alive || len(in.Tables) == 0 {
		t.Fatalf("resumed: %+v %v", in, err)
	}
	r2.shove(t, id, alice)
	in, _, _ = r2.watchChips(t, id, 90*time.Second)
	checkResults(t, r2, in, map[string]int64{"alice": 10_000}, []table.Player{alice})
	r2.stop(t)
	totals, err := st.LedgerTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var prize int64
	for _, s := range in.Standings {
		if s.Name == "alice" {
			prize = s.Prize
		}
	}
	if totals[store.KindBuyIn] != -spec.BuyIn || totals[store.KindCashOut] != prize {
		t.Errorf("ledger: buy-ins %d, cash-outs %d; want -%d and %d", totals[store.KindBuyIn], totals[store.KindCashOut], spec.BuyIn, prize)
	}
}

// TestFullSitAndGoStartsAtRestart: a sit-and-go whose last registration was
// stored just before the house stopped (not its start) starts at the next start.
func TestFullSitAndGoStartsAtRestart(t *testing.T) {
	st := storetest.SQLite(t)
	withSNG := func(c *Config) { c.SitAndGos = []tournament.Spec{sng(2)} }
	r := newRig(t, st, withSNG)
	ctx := context.Background()
	id := r.openSNG(t)
	alice, bob := r.player(t, "alice"), r.player(t, "bob")
	if err := r.d.Register(ctx, id, alice); err != nil {
		t.Fatal(err)
	}
	e := store.TournamentEntry{TournamentID: id, Name: bob.Name, UserID: bob.ID, BuyIn: 100, Stack: 200, RegisteredAt: time.Now()}
	if _, err := r.h.EnterTournament(ctx, fmt.Sprintf("tourney:%d", id), e); err != nil {
		t.Fatal(err)
	}
	r.stop(t)
	h2, err := house.New(st, r.h.Config())
	if err != nil {
		t.Fatal(err)
	}
	r2 := startRig(t, st, h2, withSNG)
	in := r2.waitState(t, id, store.TourneyRunning, 5*time.Second)
	if in.Entrants != 2 || len(in.Tables) != 1 {
		t.Errorf("started at the restart: %+v", in)
	}
	if next := r2.openSNG(t); next == id {
		t.Errorf("no sit-and-go open after %d started", id)
	}
}

// TestBotsFillASitAndGo: where the operator allows bots, they fill a
// sit-and-go bot_fill after its first registration, across a restart too.
func TestBotsFillASitAndGo(t *testing.T) {
	st := storetest.SQLite(t)
	slow := func(c *Config) { c.SitAndGos, c.BotFill = []tournament.Spec{sng(3)}, time.Hour }
	r := newRig(t, st, slow)
	ctx := context.Background()
	id := r.openSNG(t)
	alice := r.player(t, "alice")
	if err := r.d.Register(ctx, id, alice); err != nil {
		t.Fatal(err)
	}
	r.stop(t)
	h2, err := house.New(st, r.h.Config())
	if err != nil {
		t.Fatal(err)
	}
	r2 := startRig(t, st, h2, func(c *Config) { c.SitAndGos, c.BotFill = []tournament.Spec{sng(3)}, 10*time.Millisecond })
	in := r2.waitState(t, id, store.TourneyRunning, 5*time.Second)
	if in.Entrants != 3 {
		t.Errorf("after the fill: %+v", in)
	}
	// Without bots in the house's config, nobody fills.
	r3 := newRig(t, storetest.SQLite(t), func(c *Config) { c.SitAndGos, c.Bots = []tournament.Spec{sng(3)}, nil })
	id3 := r3.openSNG(t)
	bob := r3.player(t, "bob")
	if err := r3.d.Register(ctx, id3, bob); err != nil {
		t.Fatal(err)
	}
	if err := r3.d.FillWithBots(ctx, id3, bob); !errors.Is(err, ErrNoBots) {
		t.Errorf("fill without bots: %v", err)
	}
}

// TestEndedTournamentsArePruned: the director keeps the newest ended
// tournaments in memory; an older one is still shown, from the store.
func TestEndedTournamentsArePruned(t *testing.T) {
	r := newRig(t, storetest.SQLite(t), nil)
	ctx := context.Background()
	var first int64
	for i := 0; i <= maxEnded; i++ {
		spec := mtt()
		spec.Start = time.Now()
		id, err := r.d.Create(ctx, spec) // nobody registers: cancelled at once
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = id
		}
		r.waitState(t, id, store.TourneyCancelled, 5*time.Second)
	}
	r.d.mu.Lock()
	_, kept := r.d.ts[first]
	n := len(r.d.ts)
	r.d.mu.Unlock()
	if kept || n != maxEnded {
		t.Errorf("kept the oldest: %v, %d in memory", kept, n)
	}
	if err := r.d.saver.flush(ctx); err != nil {
		t.Fatal(err)
	}
	in, err := r.d.Info(ctx, first, 0)
	if err != nil || in.State != store.TourneyCancelled || in.Name != "Nightly" {
		t.Errorf("an old tournament: %+v %v", in, err)
	}
	if len(r.d.List(0)) != 10 {
		t.Errorf("list: %d", len(r.d.List(0)))
	}
}
