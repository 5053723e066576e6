package live

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/tournament"
)

// checkResults checks a finished tournament: every entrant placed, places
// 1..n, prizes summing to the pool, and each player's credits moved by their
// prize less their buy-in and nothing else.
func checkResults(t *testing.T, r *rig, in Info, before map[string]int64, players []table.Player) {
	t.Helper()
	// The places are booked by the director's writer, after the state changes.
	if err := r.d.saver.flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	var prizes int64
	places := map[int]int{}
	for _, s := range in.Standings {
		if s.Place < 1 || s.Place > in.Entrants {
			t.Errorf("%s: place %d of %d", s.Name, s.Place, in.Entrants)
		}
		places[s.Place]++
		prizes += s.Prize
	}
	if places[1] != 1 {
		t.Errorf("winners: %d (%+v)", places[1], in.Standings)
	}
	if in.Pool != in.BuyIn*int64(in.Entrants) || prizes != in.Pool {
		t.Errorf("pool %d (%d entrants at %d), prizes %d", in.Pool, in.Entrants, in.BuyIn, prizes)
	}
	for _, p := range players {
		var prize int64
		for _, s := range in.Standings {
			if s.Name == p.Name {
				prize = s.Prize
			}
		}
		if got, want := r.credits(t, p), before[p.Name]-in.BuyIn+prize; got != want {
			t.Errorf("%s: credits %d, want %d (before %d, prize %d)", p.Name, got, want, before[p.Name], prize)
		}
	}
}

// TestSitAndGoPlaysToTheEnd registers two players, fills the sit-and-go with
// bots, plays it out (the players all-in every turn, levels of a second) and
// checks places, prizes, the ledger and the chips of its table.
func TestSitAndGoPlaysToTheEnd(t *testing.T) {
	r := newRig(t, storetest.SQLite(t), func(c *Config) { c.SitAndGos = []tournament.Spec{sng(4)} })
	ctx := context.Background()
	alice, bob := r.player(t, "alice"), r.player(t, "bob")
	before := map[string]int64{"alice": r.credits(t, alice), "bob": r.credits(t, bob)}
	id := r.openSNG(t)
	for _, p := range []table.Player{alice, bob} {
		if err := r.d.Register(ctx, id, p); err != nil {
			t.Fatalf("register %s: %v", p.Name, err)
		}
	}
	if got := r.credits(t, alice); got != before["alice"]-100 {
		t.Fatalf("alice's credits after registering: %d", got)
	}
	if err := r.d.FillWithBots(ctx, id, alice); err != nil {
		t.Fatal(err)
	}
	in := r.waitState(t, id, store.TourneyRunning, 5*time.Second)
	if len(in.Tables) != 1 || in.Entrants != 4 {
		t.Fatalf("started: %+v", in)
	}
	tbl, err := r.lobby.Table(in.Tables[0].Name)
	if err != nil {
		t.Fatal(err)
	}
	r.shove(t, id, alice)
	r.shove(t, id, bob)
	in = r.waitState(t, id, store.TourneyFinished, 60*time.Second)
	checkResults(t, r, in, before, []table.Player{alice, bob})
	if got := in.Payouts; len(got) != 2 || got[0] != 260 || got[1] != 140 {
		t.Errorf("payouts %v, want the published 65/35 of 400", got)
	}
	<-tbl.Done()
	onTable, chipsIn, chipsOut, err := tbl.Chips(ctx)
	if err != nil || onTable != 0 || chipsIn != 4*200 || chipsOut != chipsIn {
		t.Errorf("table chips: on %d, in %d, out %d, err %v", onTable, chipsIn, chipsOut, err)
	}
	// A new sit-and-go of the same kind is open.
	if next := r.openSNG(t); next == id {
		t.Errorf("no new sit-and-go after %d started", id)
	}
	r.stop(t)
	totals, err := r.st.LedgerTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var prizes int64
	for _, s := range in.Standings {
		if s.Name == "alice" || s.Name == "bob" {
			prizes += s.Prize
		}
	}
	if totals[store.KindBuyIn] != -200 || totals[store.KindCashOut] != prizes {
		t.Errorf("ledger: buy-ins %d, cash-outs %d; want -200 and the players' prizes %d", totals[store.KindBuyIn], totals[store.KindCashOut], prizes)
	}
	st, err := r.st.Stats(ctx, alice.ID)
	if err != nil || st.HandsPlayed == 0 || st.GamesPlayed != 1 {
		t.Errorf("alice's stats %+v, %v", st, err)
	}
	res, err := r.h.TournamentResults(ctx, alice.ID)
	if err != nil || res.Played != 1 || res.BuyIns != 100 {
		t.Errorf("alice's tournament results %+v, %v", res, err)
	}
	rk, err := r.h.TournamentRankings(ctx, 10, 0)
	if err != nil || len(rk) != 2 || rk[0].Prizes-rk[0].BuyIns < rk[1].Prizes-rk[1].BuyIns {
		t.Errorf("tournament rankings %+v, %v", rk, err)
	}
}

// TestRegistrationAdversaries: registering twice, without the credits, for a
// tournament that does not exist, unregistering after the start: each is
// refused with its error and moves no chip.
func TestRegistrationAdversaries(t *testing.T) {
	r := newRig(t, storetest.SQLite(t), func(c *Config) { c.SitAndGos = []tournament.Spec{sng(3)} })
	ctx := context.Background()
	alice, bob, poor, carol := r.player(t, "alice"), r.player(t, "bob"), r.player(t, "poor"), r.player(t, "carol")
	id := r.openSNG(t)
	if err := r.d.Register(ctx, id, alice); err != nil {
		t.Fatal(err)
	}
	if err := r.d.Register(ctx, id, alice); !errors.Is(err, house.ErrEntered) {
		t.Errorf("register twice: %v", err)
	}
	if got := r.credits(t, alice); got != 10_000-100 {
		t.Errorf("alice paid twice? credits %d", got)
	}
	if err := r.h.Adjust(ctx, poor.ID, -9_950, "test: poor"); err != nil {
		t.Fatal(err)
	}
	if err := r.d.Register(ctx, id, poor); !errors.Is(err, house.ErrInsufficientCredits) {
		t.Errorf("register without credits: %v", err)
	}
	if got := r.credits(t, poor); got != 50 {
		t.Errorf("poor's credits %d", got)
	}
	// A buy-in parked in a tournament not started earns no refill (unregistering
	// would give it back on top of the refill).
	// 1,050 credits: 950 after the buy-in, under the refill's 1,000.
	if err := r.h.Adjust(ctx, poor.ID, 1000, "test: just above the refill"); err != nil {
		t.Fatal(err)
	}
	if err := r.d.Register(ctx, id, poor); err != nil {
		t.Fatal(err)
	}
	if _, err := r.h.Refill(ctx, poor.ID); !errors.Is(err, house.ErrRefillNotNeeded) {
		t.Errorf("refill with a buy-in registered: %v", err)
	}
	if err := r.d.Unregister(ctx, id, poor); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []int64{0, -1, id + 1000, 1 << 62} {
		if err := r.d.Register(ctx, bad, bob); !errors.Is(err, ErrNoTournament) || !errors.Is(err, store.ErrNotFound) {
			t.Errorf("register for %d: %v", bad, err)
		}
		if err := r.d.Unregister(ctx, bad, alice); !errors.Is(err, ErrNoTournament) {
			t.Errorf("unregister from %d: %v", bad, err)
		}
		if _, err := r.d.Info(context.Background(), bad, 0); !errors.Is(err, ErrNoTournament) {
			t.Errorf("info of %d: %v", bad, err)
		}
	}
	if err := r.d.Register(ctx, id, table.Player{Name: "nobody"}); !errors.Is(err, table.ErrAnonymous) {
		t.Errorf("anonymous register: %v", err)
	}
	if err := r.d.Unregister(ctx, id, bob); !errors.Is(err, house.ErrNotEntered) {
		t.Errorf("unregister a stranger: %v", err)
	}
	if err := r.d.FillWithBots(ctx, id, bob); !errors.Is(err, house.ErrNotEntered) {
		t.Errorf("a stranger calls the bots in: %v", err)
	}
	// Unregistering before the start refunds.
	if err := r.d.Register(ctx, id, bob); err != nil {
		t.Fatal(err)
	}
	if err := r.d.Unregister(ctx, id, bob); err != nil {
		t.Fatal(err)
	}
	if got := r.credits(t, bob); got != 10_000 {
		t.Errorf("bob after unregistering: %d", got)
	}
	// Full: it starts; then unregistering is refused and refunds nothing.
	for _, p := range []table.Player{bob, carol} {
		if err := r.d.Register(ctx, id, p); err != nil {
			t.Fatal(err)
		}
	}
	r.waitState(t, id, store.TourneyRunning, 5*time.Second)
	if err := r.d.Unregister(ctx, id, alice); !errors.Is(err, ErrClosed) {
		t.Errorf("unregister after the start: %v", err)
	}
	if err := r.d.Register(ctx, id, poor); !errors.Is(err, ErrClosed) {
		t.Errorf("late registration: %v", err)
	}
	if got := r.credits(t, alice); got != 10_000-100 {
		t.Errorf("alice refunded after the start: %d", got)
	}
	// Nor can she delete her account mid-tournament (her prize would have nowhere to go).
	u, err := r.st.UserByID(ctx, alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.h.DeleteAccount(ctx, u, "correct horse", ""); !errors.Is(err, house.ErrHoldsSeat) {
		t.Errorf("delete the account mid-tournament: %v", err)
	}
	// Nobody can buy into a tournament's table either.
	in, _ := r.d.Info(context.Background(), id, 0)
	tbl, err := r.lobby.Table(in.Tables[0].Name)
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Sit(ctx, poor, -1, 40); !errors.Is(err, table.ErrTourneySeat) {
		t.Errorf("sit at a tournament's table: %v", err)
	}
	// Nor add chips from their credits to their tournament stack.
	if err := tbl.TopUp(ctx, alice, 100); !errors.Is(err, table.ErrTourneySeat) {
		t.Errorf("top up at a tournament's table: %v", err)
	}
	if got := r.credits(t, alice); got != 10_000-100 {
		t.Errorf("alice's credits after a top-up: %d", got)
	}
}

// TestDisconnectedPlayerIsBlindedOut: a player who registered and never comes
// to the table (or leaves it) stays in, is dealt every hand and blinded out;
// their buy-in is not refunded.
func TestDisconnectedPlayerIsBlindedOut(t *testing.T) {
	r := newRig(t, storetest.SQLite(t), func(c *Config) { c.SitAndGos = []tournament.Spec{sng(3)} })
	ctx := context.Background()
	alice, gone := r.player(t, "alice"), r.player(t, "gone")
	id := r.openSNG(t)
	for _, p := range []table.Player{alice, gone} {
		if err := r.d.Register(ctx, id, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.d.FillWithBots(ctx, id, alice); err != nil {
		t.Fatal(err)
	}
	in := r.waitState(t, id, store.TourneyRunning, 5*time.Second)
	tbl, err := r.lobby.Table(in.Tables[0].Name)
	if err != nil {
		t.Fatal(err)
	}
	// gone watches, then drops: the grace (a millisecond here) ends and the seat
	// sits out, and leaving the table changes nothing more.
	w, err := tbl.Watch(ctx, gone, discard{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Unwatch(ctx, w); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Leave(ctx, gone); err != nil {
		t.Fatal(err)
	}
	r.shove(t, id, alice)
	in = r.waitState(t, id, store.TourneyFinished, 90*time.Second)
	checkResults(t, r, in, map[string]int64{"alice": 10_000, "gone": 10_000}, []table.Player{alice, gone})
	r.stop(t)
	st, err := r.st.Stats(ctx, gone.ID)
	if err != nil || st.HandsPlayed == 0 {
		t.Errorf("gone was not dealt in: %+v, %v", st, err)
	}
}

type discard struct{}

func (discard) Send([]byte) {}
