package blueprint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/felt-poker/felt/internal/cfr"
)

// TrainOptions configure Train.
type TrainOptions struct {
	// Depths are the stack depths in big blinds (default DefaultDepths).
	Depths []int
	// Iterations is the MCCFR iterations at each depth, in order (one number:
	// the same for all).
	Iterations []int
	// Seed seeds the traversals; Threads is the traversal streams (default 2).
	// The result depends on them and Iterations only.
	Seed    uint64
	Threads int
	// NoPrune turns regret-based pruning off (it is on from the 200,000th
	// iteration otherwise).
	NoPrune bool
	// Progress, when not nil, gets a line every ProgressEvery (default 15 s) with
	// the depth, iterations, rate and estimated time left.
	Progress      io.Writer
	ProgressEvery time.Duration
}

// Train trains the blueprint on abstraction a (which should have its tables, or
// each deal is bucketed on the fly, a thousand times slower): at each depth,
// external-sampling MCCFR with linear CFR weighting and regret-based pruning on
// that depth's Tree, for its iterations in batches of the solver's BatchSize (the
// Trainer's way with a cfr.Batcher), so that a seed gives the same blueprint however the run is timed. ctx ends it
// early with an error.
func Train(ctx context.Context, a *cfr.Abstraction, o TrainOptions) (*Blueprint, error) {
	if len(o.Depths) == 0 {
		o.Depths = DefaultDepths
	}
	if len(o.Iterations) == 1 {
		for len(o.Iterations) < len(o.Depths) {
			o.Iterations = append(o.Iterations, o.Iterations[0])
		}
	}
	if len(o.Iterations) != len(o.Depths) {
		return nil, fmt.Errorf("blueprint: %d iteration counts for %d depths", len(o.Iterations), len(o.Depths))
	}
	if o.ProgressEvery == 0 {
		o.ProgressEvery = 15 * time.Second
	}
	total := 0
	for _, n := range o.Iterations {
		if n < 1 {
			return nil, errors.New("blueprint: iterations must be positive")
		}
		total += n
	}
	bp := &Blueprint{abs: a}
	done, start := 0, time.Now()
	for i, bb := range o.Depths {
		d, err := trainDepth(ctx, a, bb, o.Iterations[i], o, func(n int) {
			el := time.Since(start)
			rate := float64(done+n) / el.Seconds()
			left := time.Duration(float64(total-done-n) / rate * float64(time.Second))
			fmt.Fprintf(o.Progress, "blueprint %d bb: %d/%d iterations, %.0f a second, %s elapsed, about %s left\n",
				bb, n, o.Iterations[i], rate, el.Round(time.Second), left.Round(time.Second))
		})
		if err != nil {
			return nil, err
		}
		done += o.Iterations[i]
		bp.depths = append(bp.depths, d)
	}
	return bp, nil
}

// trainDepth trains one depth's tree and returns its average strategy.
func trainDepth(ctx context.Context, a *cfr.Abstraction, bb, iters int, o TrainOptions, progress func(int)) (*Depth, error) {
	g, err := cfr.NewNoLimitGame(a.Sizes(), Tree(bb))
	if err != nil {
		return nil, fmt.Errorf("blueprint: %w", err)
	}
	ho := cfr.HoldemOptions{Seed: o.Seed + uint64(bb), Threads: o.Threads, Tree: g,
		Averaging: cfr.LinearCFR, PruneThreshold: -300 * float64(2*bb)}
	if o.NoPrune {
		ho.PruneAfter = -1
	}
	s, err := cfr.NewHoldemSolver(a, ho)
	if err != nil {
		return nil, fmt.Errorf("blueprint: %w", err)
	}
	last := time.Now()
	t := cfr.Trainer{Iterations: iters, Progress: func(_, n int, _ time.Duration) {
		if o.Progress != nil && (time.Since(last) >= o.ProgressEvery || n == iters) {
			last = time.Now()
			progress(n)
		}
	}}
	if interrupted, err := t.Run(ctx, s); interrupted || err != nil {
		return nil, fmt.Errorf("blueprint: %w", errors.Join(ctx.Err(), err))
	}
	return newDepth(bb, iters, g, s.Average()), nil
}

// Abstraction reads the abstraction file path (with tables) if it exists, else
// builds AbstractionConfig's with tables (a minute or two of CPU on two cores)
// and writes it there. A file of another configuration is an error.
func Abstraction(path string, progress io.Writer) (*cfr.Abstraction, error) {
	cfg := AbstractionConfig()
	if f, err := os.Open(path); err == nil {
		defer f.Close()
		a, err := cfr.ReadAbstraction(f)
		if err != nil {
			return nil, fmt.Errorf("blueprint: %s: %w", path, err)
		}
		if a.Config() != cfg || !a.HasTables() {
			return nil, fmt.Errorf("blueprint: %s is not the blueprint's abstraction with tables (%+v)", path, a.Config())
		}
		return a, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	stage := ""
	a, err := cfr.BuildAbstraction(cfg, cfr.BuildOptions{Tables: true, Progress: func(s string, done, total int) {
		if s != stage && progress != nil {
			stage = s
			fmt.Fprintf(progress, "abstraction: %s\n", s)
		}
	}})
	if err != nil {
		return nil, err
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return nil, err
	}
	if err := errors.Join(a.Write(f), f.Close()); err != nil {
		return nil, err
	}
	return a, os.Rename(tmp, path)
}
