package lbr

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/bot/bottest"
)

// outcomes runs c and returns its result and every deal's outcome by number.
func outcomes(t *testing.T, ctx context.Context, c Config) (Result, map[int]Outcome, error) {
	t.Helper()
	var mu sync.Mutex
	got := map[int]Outcome{}
	c.Deal = func(d int, o Outcome) {
		mu.Lock()
		defer mu.Unlock()
		if _, ok := got[d]; ok {
			t.Errorf("deal %d reported twice", d)
		}
		got[d] = o
	}
	r, err := Run(ctx, c)
	return r, got, err
}

// Deals FROM:TO of a seed are the deals a run of the whole range plays there:
// two runs of adjacent ranges (on other numbers of workers) give, deal by deal,
// the outcomes of one run of their union, and their totals add up to its
// result. The bot is sampled (random) with few runouts, so that every stream
// must be seeded from the deal's number alone.
func TestDealRangesAddUp(t *testing.T) {
	c := Config{Bot: "random", Hands: 2 * 30, Seed: 15, Preflop: true, Runouts: 3, Workers: 2}
	whole, all, err := outcomes(t, context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if whole.FirstDeal != 0 || whole.Deals != 30 || whole.Partial || len(all) != 30 {
		t.Fatalf("whole run: %+v, %d outcomes", whole, len(all))
	}
	first, last := c, c
	first.Hands, first.Workers = 2*7, 1
	last.FirstDeal, last.Hands, last.Workers = 7, 2*23, 3
	a, got, err := outcomes(t, context.Background(), first)
	if err != nil {
		t.Fatal(err)
	}
	b, more, err := outcomes(t, context.Background(), last)
	if err != nil {
		t.Fatal(err)
	}
	if b.FirstDeal != 7 || b.Deals != 23 || !slices.Equal(slices.Sorted(maps.Keys(more)), seq(7, 30)) {
		t.Fatalf("deals 7:30: %+v, played %v", b, slices.Sorted(maps.Keys(more)))
	}
	maps.Copy(got, more)
	if !maps.Equal(got, all) {
		t.Fatalf("deals 0:7 and 7:30 played apart:\n%v\nin one run:\n%v", got, all)
	}
	if a.Chips+b.Chips != whole.Chips || a.Misses+b.Misses != whole.Misses {
		t.Fatalf("0:7 %+v and 7:30 %+v do not add up to 0:30 %+v", a, b, whole)
	}
}

// seq returns lo, lo+1, ..., hi−1.
func seq(lo, hi int) []int {
	var out []int
	for d := lo; d < hi; d++ {
		out = append(out, d)
	}
	return out
}

// A run stopped after some deals returns, with the context's error, the result
// of the deals completed from its first up to the first one that was not: with
// one worker exactly those played, with two the completed deals beyond the gap
// counted as dropped. The partial result is the full run's on those deals.
func TestStopReportsCompletedDeals(t *testing.T) {
	c := Config{Bot: "call", Hands: 2 * 40, Seed: 4, FirstDeal: 100, Runouts: 20}
	_, all, err := outcomes(t, context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		ctx, cancel := context.WithCancel(context.Background())
		var n atomic.Int32
		c := c
		c.Workers = workers
		c.Progress = func(int) {
			if n.Add(1) == 5 {
				cancel()
			}
		}
		r, got, err := outcomes(t, ctx, c)
		cancel()
		if !errors.Is(err, context.Canceled) || !r.Partial {
			t.Fatalf("%d workers, stopped after 5 deals: %+v, %v; want a partial result and context.Canceled", workers, r, err)
		}
		prefix := 0
		for hasDeal(got, c.FirstDeal+prefix) {
			prefix++
		}
		if workers == 1 && prefix != 5 || r.FirstDeal != 100 || r.Deals != prefix || r.Dropped != len(got)-prefix {
			t.Fatalf("%d workers: %+v; completed %v (the first %d in a row)", workers, r, slices.Sorted(maps.Keys(got)), prefix)
		}
		if _, err := c.Prepare(); err != nil {
			t.Fatal(err)
		}
		var want Totals
		for d := c.FirstDeal; d < c.FirstDeal+prefix; d++ {
			if got[d] != all[d] {
				t.Errorf("deal %d: %+v stopped, %+v in the full run", d, got[d], all[d])
			}
			want.Add(all[d])
		}
		if w := c.Result(&want, r.Workers, r.Elapsed); r.Chips != w.Chips || r.MBBPerGame != w.MBBPerGame || r.MBBCI95 != w.MBBCI95 {
			t.Errorf("%d workers: stopped %+v, the full run's first %d deals %+v", workers, r, prefix, w)
		}
	}
}

func hasDeal(m map[int]Outcome, d int) bool { _, ok := m[d]; return ok }

// Stopping abandons the deal in flight: a bot thinking for long is handed the
// run's context and told to hurry, and the deal is not counted. The run stops
// (the test would hang if it waited for the bot) with the deals before it.
func TestStopAbandonsTheDealInFlight(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stall atomic.Bool
	stalling := bottest.NewStall(t, &stall)
	newBot := func(string, bot.Options) (bot.Bot, error) { return stalling, nil }
	c := Config{Bot: "stall", Hands: 2 * 10, Seed: 9, Workers: 1, Runouts: 10, NewBot: newBot,
		Deal: func(d int, _ Outcome) {
			if d == 2 {
				stall.Store(true)
			}
		}}
	go func() { <-stalling.Stalled; cancel() }()
	r, err := Run(ctx, c)
	if !errors.Is(err, context.Canceled) || !r.Partial || r.Deals != 3 || r.Dropped != 0 {
		t.Fatalf("stopped in deal 3: %+v, %v; want deals 0 to 2", r, err)
	}
}
