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

// Trainer runs an Iterator until its stop condition or its context's end, in
// steps, calling its hooks between them: the one training loop of felt's CFR
// solvers (the command line adds flags, a progress bar and printing).
type Trainer struct {
	// Iterations stops training at this many iterations in all (a resumed
	// solver's included), when Time is 0; Time stops it after this much training
	// time in this run, the last step sized to end close to it.
	Iterations int
	Time       time.Duration
	// Elapsed is the training time so far, earlier runs included; Run adds to it.
	Elapsed time.Duration
	// Batch is the iterations per step; 0 adapts them so that a step takes 20 to
	// 100 ms. A fixed batch is cut only at the Iterations target, so that a
	// solver whose result depends on its batches (HoldemSolver) gives the same
	// result however a run is interrupted and resumed.
	Batch func() int
	// Measure, if set, is called once the iteration count reaches Next (with the
	// count and Elapsed), and returns the next count to measure at. With
	// ExactPoints a step is cut to end at Next exactly.
	Measure     func(iterations int, elapsed time.Duration) (next int)
	Next        int
	ExactPoints bool
	// Progress, if set, is called after each step with the iterations it ran,
	// the iterations done in all and Elapsed.
	Progress func(ran, iterations int, elapsed time.Duration)
	// Checkpoint, if set, is called every CheckpointEvery of wall time (a
	// failed checkpoint is tried again at the next step).
	CheckpointEvery time.Duration
	Checkpoint      func(elapsed time.Duration) error
}

// Run trains s until the stop condition, and reports whether ctx ended it first.
func (t *Trainer) Run(ctx context.Context, s Iterator) (interrupted bool) {
	start, runStart := s.Iterations(), t.Elapsed
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
		if t.Batch != nil {
			n = t.Batch()
		}
		switch {
		case t.Time == 0:
			n = min(n, t.Iterations-done)
		case t.Batch == nil && done > start:
			// No more iterations than the time left allows at the rate so far.
			per := (t.Elapsed - runStart) / time.Duration(done-start)
			n = max(1, min(n, int((t.Time-(t.Elapsed-runStart))/max(per, 1))))
		}
		if t.Measure != nil && t.ExactPoints {
			n = max(1, min(n, t.Next-done))
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
		if t.Measure != nil && s.Iterations() >= t.Next {
			t.Next = t.Measure(s.Iterations(), t.Elapsed)
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
