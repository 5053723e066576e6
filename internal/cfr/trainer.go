package cfr

import (
	"context"
	"time"
)

// Iterator is a solver a Trainer runs: Solver and HoldemSolver are ones.
type Iterator interface {
	// Iterations is the number of iterations done so far.
	Iterations() int
	// Iterate runs n more.
	Iterate(n int)
}

// Batcher is an Iterator whose result depends on how its iterations are
// batched (HoldemSolver): the Trainer runs it in steps of BatchSize iterations,
// cut only at the Iterations target, so that it gives the same result however a
// run is interrupted and resumed.
type Batcher interface {
	Iterator
	BatchSize() int
}

// Trainer runs a solver until its stop condition or its context's end, in
// steps, calling its hooks between them: the one training loop of felt's CFR
// solvers, for every game (Kuhn, Leduc, heads-up limit Hold'em). felt train adds
// flags, a progress bar and printing.
type Trainer struct {
	// Iterations stops training at this many iterations in all (a resumed
	// solver's included), when Time is 0; Time stops it after this much training
	// time in this run, the last step sized to end close to it.
	Iterations int
	Time       time.Duration
	// Elapsed is the training time so far, earlier runs included; Run adds to it.
	// Hooks' time (measurements, checkpoints) is not counted.
	Elapsed time.Duration

	// OnCurve, if set, is called at the points of a training curve with the
	// iterations done and Elapsed: first once CurveFrom iterations are done, then
	// each time they reach CurveGrowth (> 1) times the last point's target, and
	// once more where training stops (unless interrupted) if that is not a point
	// already. The steps of an Iterator that is not a Batcher are cut to end at
	// the points exactly; a Batcher's point is the end of the batch reaching it.
	OnCurve     func(iterations int, elapsed time.Duration)
	CurveFrom   int
	CurveGrowth float64

	// Progress, if set, is called after each step with the iterations it ran,
	// the iterations done in all and Elapsed.
	Progress func(ran, iterations int, elapsed time.Duration)

	// Checkpoint, if set, is called every CheckpointEvery of wall time (0:
	// never; a failed periodic checkpoint is tried again at the next step), and
	// when Run stops: always after an interruption, with CheckpointAtEnd also
	// after a finished run. An error of the last one is Run's.
	Checkpoint      func(elapsed time.Duration) error
	CheckpointEvery time.Duration
	CheckpointAtEnd bool

	lastCurve int // the last curve point's iterations, −1 before the first
}

// Run trains s until the stop condition, and reports whether ctx ended it first.
// Its error is the final checkpoint's.
func (t *Trainer) Run(ctx context.Context, s Iterator) (interrupted bool, err error) {
	interrupted = t.loop(ctx, s)
	if t.OnCurve != nil && !interrupted && t.lastCurve != s.Iterations() {
		t.OnCurve(s.Iterations(), t.Elapsed)
	}
	if t.Checkpoint != nil && (interrupted || t.CheckpointAtEnd) {
		err = t.Checkpoint(t.Elapsed)
	}
	return interrupted, err
}

// loop is Run's steps.
func (t *Trainer) loop(ctx context.Context, s Iterator) (interrupted bool) {
	start, runStart := s.Iterations(), t.Elapsed
	batcher, fixed := s.(Batcher)
	next := t.CurveFrom
	t.lastCurve = -1
	lastCkpt := time.Now()
	chunk := 1
	for {
		if ctx.Err() != nil {
			return true
		}
		done := s.Iterations()
		if t.Time > 0 && t.Elapsed-runStart >= t.Time || t.Time == 0 && done >= t.Iterations {
			return false
		}
		n := chunk
		if fixed {
			n = batcher.BatchSize()
		}
		switch {
		case t.Time == 0:
			n = min(n, t.Iterations-done)
		case !fixed && done > start:
			// No more iterations than the time left allows at the rate so far.
			per := (t.Elapsed - runStart) / time.Duration(done-start)
			n = max(1, min(n, int((t.Time-(t.Elapsed-runStart))/max(per, 1))))
		}
		if t.OnCurve != nil && !fixed {
			n = max(1, min(n, next-done))
		}
		t0 := time.Now()
		s.Iterate(n)
		took := time.Since(t0)
		t.Elapsed += took
		if took < 20*time.Millisecond {
			chunk *= 2
		} else if took > 100*time.Millisecond && chunk > 1 {
			chunk /= 2
		}
		if it := s.Iterations(); t.OnCurve != nil && it >= next {
			t.OnCurve(it, t.Elapsed)
			t.lastCurve = it
			next = max(it+1, int(float64(next)*max(t.CurveGrowth, 1)))
		}
		if t.Progress != nil {
			t.Progress(n, s.Iterations(), t.Elapsed)
		}
		if t.Checkpoint != nil && t.CheckpointEvery > 0 && time.Since(lastCkpt) >= t.CheckpointEvery {
			if err := t.Checkpoint(t.Elapsed); err == nil {
				lastCkpt = time.Now()
			}
		}
	}
}
