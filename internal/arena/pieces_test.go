package arena

import (
	"context"
	"errors"
	"math"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/bot/bottest"
)

// dealOutcomes plays the deals of mc one by one and returns their outcomes by
// deal number.
func dealOutcomes(t *testing.T, mc MatchConfig) map[int]Outcome {
	t.Helper()
	deals, err := mc.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewDealPlayer(&mc)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]Outcome{}
	for k := range deals {
		if out[mc.FirstDeal+k], err = p.Play(context.Background(), k); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// Deals FROM:TO of a seed are the deals a match of the whole range plays there:
// deals 0:17 and 17:40 (on other numbers of workers) give, deal by deal, the
// outcomes of deals 0:40, with the blinds doubling by the deal's number, and
// their results, recorded and pooled, are the whole match's (to the records'
// rounding), plain and with the control variate. The bots are sampled, so
// every stream must be seeded from the deal's number alone.
func TestMatchDealRangesAddUp(t *testing.T) {
	g, err := ParseGame("nl")
	if err != nil {
		t.Fatal(err)
	}
	whole := MatchConfig{A: "random", B: "maniac", Game: g, Hands: 2 * 40, Seed: 15, Workers: 2, ControlVariate: true,
		Format: Format{Stack: 10_000, DoubleEvery: 10}}
	first, last := whole, whole
	first.Hands, first.Workers = 2*17, 1
	last.FirstDeal, last.Hands, last.Workers = 17, 2*23, 3
	all := dealOutcomes(t, whole)
	got := dealOutcomes(t, first)
	for d, o := range dealOutcomes(t, last) {
		got[d] = o
	}
	if !reflect.DeepEqual(got, all) {
		t.Fatalf("deals 0:17 and 17:40 played apart:\n%v\nin one match:\n%v", got, all)
	}
	want, err := Match(context.Background(), whole)
	if err != nil {
		t.Fatal(err)
	}
	var recs []MatchRecord
	chips := int64(0)
	for _, mc := range []MatchConfig{first, last} {
		r, err := Match(context.Background(), mc)
		if err != nil {
			t.Fatal(err)
		}
		if r.FirstDeal != mc.FirstDeal || r.Deals != mc.Hands/2 || r.Partial {
			t.Fatalf("deals from %d: %+v", mc.FirstDeal, r)
		}
		chips += r.Chips
		recs = append(recs, NewMatchRecord(&mc, r, "test"))
	}
	pools, warnings := PoolMatchRecords(recs)
	if chips != want.Chips || len(pools) != 1 || len(warnings) != 0 || pools[0].Hands != want.Hands || !pools[0].HasCV {
		t.Fatalf("pieces %+v (%d chips), %q; one match %+v", pools, chips, warnings, want)
	}
	p := pools[0]
	for _, x := range [][2]float64{{p.MBBPerGame, want.MBBPerGame}, {p.MBBCI95, want.MBBCI95},
		{p.CVMBBPerGame, want.CV.MBBPerGame}, {p.CVMBBCI95, want.CV.MBBCI95}} {
		if math.Abs(x[0]-x[1]) > 1e-6*math.Abs(x[1]) {
			t.Errorf("pooled %+v, one match %+v", p, want)
		}
	}
}

// A match stopped after some deals returns, with the context's error, the
// result of the deals completed from its first up to the first one that was
// not: with one worker every deal completed, with two the deals completed
// beyond the gap counted as dropped. The partial result is the full match's on
// those deals.
func TestMatchStopReportsCompletedDeals(t *testing.T) {
	g, err := ParseGame("nl")
	if err != nil {
		t.Fatal(err)
	}
	base := MatchConfig{A: "random", B: "call", Game: g, Hands: 2 * 400, Seed: 4, FirstDeal: 100, ControlVariate: true}
	all := dealOutcomes(t, base)
	for _, workers := range []int{1, 2} {
		ctx, cancel := context.WithCancel(context.Background())
		var hands atomic.Int64
		mc := base
		mc.Workers = workers
		mc.Progress = func(n int) {
			if hands.Add(int64(n)) >= 10 {
				cancel()
			}
		}
		r, err := Match(ctx, mc)
		cancel()
		completed := int(hands.Load() / 2)
		if !errors.Is(err, context.Canceled) || !r.Partial || r.FirstDeal != 100 || r.Deals+r.Dropped != completed || r.Deals >= 400 {
			t.Fatalf("%d workers, stopped after 5 deals: %+v, %v; want a partial result of the %d deals completed and context.Canceled",
				workers, r, err, completed)
		}
		if workers == 1 && r.Dropped != 0 {
			t.Fatalf("one worker: %+v, dropped deals", r)
		}
		var want Totals
		for k := range r.Deals {
			want.Add(&mc, k, all[mc.FirstDeal+k])
		}
		w := mc.Result(&want, r.Workers, r.Elapsed)
		w.Partial, w.Dropped = true, r.Dropped
		if !reflect.DeepEqual(r, w) {
			t.Errorf("%d workers: stopped %+v, the full match's first %d deals %+v", workers, r, r.Deals, w)
		}
	}
}

// Stopping abandons the deal in flight: a bot thinking for long is handed the
// match's context and told to hurry, and the deal is not counted. The match
// stops (the test would hang if it waited for the bot) with the deals before
// it.
func TestMatchStopAbandonsTheDealInFlight(t *testing.T) {
	g, err := ParseGame("nl")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stall atomic.Bool
	stalling := bottest.NewStall(t, &stall)
	newBot := func(name string, o bot.Options) (bot.Bot, error) {
		if name == "stall" {
			return stalling, nil
		}
		return bot.New(name, o)
	}
	var hands atomic.Int32
	mc := MatchConfig{A: "stall", B: "call", Game: g, Hands: 2 * 40, Seed: 9, Workers: 1, NewBot: newBot, ControlVariate: true,
		Progress: func(n int) {
			if hands.Add(int32(n)) >= 6 {
				stall.Store(true)
			}
		}}
	go func() { <-stalling.Stalled; cancel() }()
	r, err := Match(ctx, mc)
	if played := int(hands.Load()) / 2; !errors.Is(err, context.Canceled) || !r.Partial || r.Deals != played || r.Deals < 3 || r.Dropped != 0 {
		t.Fatalf("stopped in deal %d: %+v, %v; want the deals before it", played, r, err)
	}
}

// Prefix counts the stretches handed in, in any order, up to the first deal
// not handed in; those beyond are dropped, and a stretch handed in part-way
// (a worker stopped in its chunk) ends the prefix where it ends.
func TestPrefix(t *testing.T) {
	var counted []int
	p := NewPrefix(func(k int, o int) {
		if k != o {
			t.Errorf("deal %d counted with the outcome of %d", k, o)
		}
		counted = append(counted, k)
	})
	p.Add(4, []int{4, 5})
	p.Add(8, []int{8})
	p.Add(0, nil)
	if n, dropped := p.Counted(); n != 0 || dropped != 3 {
		t.Fatalf("deals 4, 5 and 8: counted %d, dropped %d", n, dropped)
	}
	p.Add(0, []int{0, 1})
	p.Add(2, []int{2, 3})
	p.Add(6, []int{6}) // deal 7 never completes
	if n, dropped := p.Counted(); n != 7 || dropped != 1 || !reflect.DeepEqual(counted, []int{0, 1, 2, 3, 4, 5, 6}) {
		t.Fatalf("counted %d (%v), dropped %d; want deals 0 to 6, and 8 dropped", n, counted, dropped)
	}
}

// Bad deals are refused before a match is played.
func TestMatchBadFirstDeal(t *testing.T) {
	g, err := ParseGame("nl")
	if err != nil {
		t.Fatal(err)
	}
	for _, first := range []int{-1, MaxDeal, MaxDeal - 1} {
		mc := MatchConfig{A: "call", B: "call", Game: g, Hands: 4, FirstDeal: first}
		if _, err := Match(context.Background(), mc); err == nil {
			t.Errorf("first deal %d: no error", first)
		}
	}
}
