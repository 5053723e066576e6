package lbr

import (
	"context"
	"errors"
	"fmt"
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
	outs := make([]Outcome, deals)
	done := make([]bool, deals) // done[k]: outs[k] is deal k's outcome; each written by one worker
	errs := arena.Parallel(workers, func(int) error { return runWorker(ctx, &c, &next, outs, done) })
	return c.Gather(ctx, outs, done, workers, time.Since(start), errs...)
}

// Gather returns the result of a run whose k-th deal's outcome is outs[k] when
// done[k], played on workers workers in elapsed, whose players stopped with
// errs. An error of errs other than ctx's end fails the run. Otherwise, when a
// deal was not done (ctx ended), the result is partial: it counts the deals
// before the first one not done, and it comes with ctx's error.
func (c *Config) Gather(ctx context.Context, outs []Outcome, done []bool, workers int, elapsed time.Duration, errs ...error) (Result, error) {
	var real []error
	for _, err := range errs {
		if err != nil && (ctx.Err() == nil || !errors.Is(err, ctx.Err())) {
			real = append(real, err)
		}
	}
	if err := errors.Join(real...); err != nil {
		return Result{}, err
	}
	var total Totals
	k := 0
	for k < len(outs) && done[k] {
		total.Add(outs[k])
		k++
	}
	r := c.Result(&total, workers, elapsed)
	if k == len(outs) {
		return r, nil
	}
	for _, d := range done[k:] {
		if d {
			r.Dropped++
		}
	}
	err := ctx.Err()
	if err == nil {
		err = fmt.Errorf("lbr: deal %d was not played", c.FirstDeal+k)
	}
	return r, err
}

// runWorker plays the run's deals one at a time, in order of the deal taken
// from next, until none is left or ctx ends.
func runWorker(ctx context.Context, c *Config, next *atomic.Int64, outs []Outcome, done []bool) error {
	p, err := NewDealPlayer(c)
	if err != nil {
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		k := int(next.Add(1)) - 1
		if k >= len(outs) {
			return nil
		}
		o, err := p.Play(ctx, k)
		if err != nil {
			return err
		}
		outs[k], done[k] = o, true
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
