package lbr

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/felt-poker/felt/internal/arena"
)

// Run plays LBR against the bot on all cores.
//
// When ctx ends (felt lbr on SIGINT or SIGTERM), Run stops soon: no new deal
// starts and the deals in flight are abandoned (Play). It then returns the
// partial result of the deals completed from the first up to the first one
// that was not (Result.Partial, Result.Dropped), together with ctx's error.
func Run(ctx context.Context, c Config) (Result, error) {
	deals, err := c.Prepare()
	if err != nil {
		return Result{}, err
	}
	workers := arena.WorkerCount(c.Workers, deals)
	start := time.Now()
	var next atomic.Int64
	prefix := c.NewPrefix()
	errs := arena.Parallel(workers, func(int) error { return runWorker(ctx, &c, deals, &next, prefix) })
	return c.Gather(ctx, prefix, workers, time.Since(start), errs...)
}

// NewPrefix returns the gathering of the run's deals: each deal handed in
// (arena.Prefix.Add, k counting from the run's first deal) is counted into the
// totals Gather reads once it joins the completed prefix.
func (c *Config) NewPrefix() *Prefix {
	p := &Prefix{}
	p.p = arena.NewPrefix(func(_ int, o Outcome) { p.total.Add(o) })
	return p
}

// Prefix gathers a run's deals, completed in any order, into the totals of
// the deals from the first up to the first one not completed (arena.Prefix).
type Prefix struct {
	p     *arena.Prefix[Outcome]
	total Totals
}

// Add hands in the outcome of the run's k-th deal (from 0).
func (p *Prefix) Add(k int, outs ...Outcome) { p.p.Add(k, outs) }

// Gather returns the result of a run whose deals were handed in to prefix,
// played on workers workers in elapsed, whose players stopped with errs. An
// error of errs other than ctx's end fails the run. Otherwise, when a deal was
// not handed in (ctx ended), the result is partial: it counts the deals before
// the first one not handed in, and it comes with ctx's error.
func (c *Config) Gather(ctx context.Context, prefix *Prefix, workers int, elapsed time.Duration, errs ...error) (Result, error) {
	if err := arena.Failed(ctx, errs...); err != nil {
		return Result{}, err
	}
	_, dropped, err := prefix.p.Stopped(ctx, c.FirstDeal, (c.Hands+1)/2)
	r := c.Result(&prefix.total, workers, elapsed)
	if err != nil {
		r.Dropped = dropped
	}
	return r, err
}

// runWorker plays the run's deals one at a time, in order of the deal taken
// from next, until none is left or ctx ends.
func runWorker(ctx context.Context, c *Config, deals int, next *atomic.Int64, prefix *Prefix) error {
	p, err := NewDealPlayer(c)
	if err != nil {
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		k := int(next.Add(1)) - 1
		if k >= deals {
			return nil
		}
		o, err := p.Play(ctx, k)
		if err != nil {
			return err
		}
		prefix.Add(k, o)
		if c.Deal != nil {
			c.Deal(c.FirstDeal+k, o)
		}
		if c.Progress != nil {
			c.Progress(2)
		}
	}
}

// Outcome is what one deal of a run gave LBR: all a Result is made of
// (Totals), so that deals played apart add up to the same run.
type Outcome struct {
	// Net is LBR's net chips over the deal's two hands.
	Net int64 `json:"net"`
	// CV is the deal pair's estimate with the control variate, in the fixed
	// point of arena.CVPair.
	CV int64 `json:"cv"`
	// Misses counts the bot's actions the range could not explain.
	Misses int64 `json:"misses,omitempty"`
}

// Totals adds up the outcomes of a run's deals, in integers, so the total does
// not depend on the order deals are added in; the zero Totals is empty.
type Totals struct {
	stats, cv arena.PairStats
	misses    int64
}

// Add counts outcome o of a deal.
func (t *Totals) Add(o Outcome) {
	t.stats.Add(arena.PairStats{N: 1, Sum: o.Net, SumSq: o.Net * o.Net})
	t.cv.Add(arena.PairStats{N: 1, Sum: o.CV, SumSq: o.CV * o.CV})
	t.misses += o.Misses
}

// Deals is the number of deals counted.
func (t *Totals) Deals() int { return int(t.stats.N) }

// Result returns the run's result from the totals of its deals, played on
// workers workers in elapsed: the deals counted are the first t.Deals() of the
// run, and fewer than the run has make it Partial. With fewer than two deals
// (a run stopped early) it has no rates: no interval can be made.
func (c *Config) Result(t *Totals, workers int, elapsed time.Duration) Result {
	deals := t.Deals()
	r := Result{Bot: c.Bot, Variant: c.Game.Name, Seed: c.Seed, FirstDeal: c.FirstDeal, Deals: deals, Hands: 2 * deals,
		Partial: deals < (c.Hands+1)/2, Sizes: c.Sizes, Samples: c.Samples, Runouts: c.Runouts, Preflop: c.Preflop,
		Workers: workers, Elapsed: elapsed, Misses: t.misses}
	r.Chips = t.stats.Sum
	if deals < 2 {
		return r
	}
	game := c.Game
	r.MBBPerGame, r.MBBCI95 = t.stats.Rate(game.Unit, 1000)
	r.BBPer100, r.CI95 = t.stats.Rate(game.Unit, 100)
	r.CV = t.cv.CVRate(game.Unit, r.CI95)
	return r
}
