package solver

import (
	"context"
	"math"
	"time"
)

// Limits say when Solve stops: at the first one reached. Zero fields do not limit.
type Limits struct {
	Accuracy      float64       // target exploitability, % of the pot
	MaxIterations int           // iterations
	MaxTime       time.Duration // wall time
	CheckEvery    int           // iterations between exploitability checks (default 10)
}

// Progress is Solve's state after an exploitability check.
type Progress struct {
	Iterations     int
	Exploitability float64       // % of the pot
	Elapsed        time.Duration // since Solve began
	Left           time.Duration // estimated time to the first limit; -1 when unknown
	Done           bool          // a limit is reached or ctx was cancelled
	// Interrupted: ctx ended an iteration before its end (IterateContext); the
	// decisions it had finished keep their update, Iterations does not count it.
	Interrupted bool
}

// Solve iterates until a limit is reached or ctx is cancelled or past its deadline,
// calling report after every check. Cancelled, it stops inside the iteration under way, soon after
// (IterateContext: the decisions that iteration finished keep their update, the rest
// of the tree is as before it), and returns ctx's error with the progress so far; the
// solve can then be read, saved and gone on with. Without any limit it stops after
// 1,000 iterations.
func (s *Solver) Solve(ctx context.Context, lim Limits, report func(Progress)) (Progress, error) {
	if lim.CheckEvery <= 0 {
		lim.CheckEvery = 10
	}
	if lim.Accuracy <= 0 && lim.MaxIterations <= 0 && lim.MaxTime <= 0 {
		lim.MaxIterations = 1000
	}
	began := time.Now()
	first := s.Iterations()
	var hist [2]Progress // the last two checks, for the estimate of the time left
	for {
		var err error
		cut := false
		for range lim.CheckEvery {
			if err = ended(ctx); err != nil {
				break
			}
			if lim.MaxIterations > 0 && s.Iterations()-first >= lim.MaxIterations {
				break
			}
			if lim.MaxTime > 0 && time.Since(began) >= lim.MaxTime {
				break
			}
			if cut = !s.IterateContext(ctx); cut {
				err = ctxErr(ctx)
				break
			}
		}
		pr := Progress{Iterations: s.Iterations(), Exploitability: s.Exploitability(), Elapsed: time.Since(began), Interrupted: cut}
		pr.Done = err != nil || (lim.Accuracy > 0 && pr.Exploitability <= lim.Accuracy) ||
			(lim.MaxIterations > 0 && s.Iterations()-first >= lim.MaxIterations) || (lim.MaxTime > 0 && pr.Elapsed >= lim.MaxTime)
		pr.Left = estimateLeft(lim, first, hist[1], pr)
		if pr.Done {
			pr.Left = 0
		}
		hist[0], hist[1] = hist[1], pr
		if report != nil {
			report(pr)
		}
		if pr.Done {
			return pr, err
		}
	}
}

// estimateLeft guesses the time to the first limit: the time limit, the iterations at
// the current pace, and the accuracy by fitting exploitability = c * time^-k through
// the last two checks.
func estimateLeft(lim Limits, first int, prev, cur Progress) time.Duration {
	left := time.Duration(-1)
	pick := func(d time.Duration) {
		if d >= 0 && (left < 0 || d < left) {
			left = d
		}
	}
	if lim.MaxTime > 0 {
		pick(lim.MaxTime - cur.Elapsed)
	}
	done := cur.Iterations - first
	if lim.MaxIterations > 0 && done > 0 {
		pick(time.Duration(float64(cur.Elapsed) / float64(done) * float64(lim.MaxIterations-done)))
	}
	if lim.Accuracy > 0 && prev.Elapsed > 0 && prev.Exploitability > cur.Exploitability && cur.Exploitability > 0 {
		k := math.Log(prev.Exploitability/cur.Exploitability) / math.Log(float64(cur.Elapsed)/float64(prev.Elapsed))
		if k > 0 && !math.IsInf(k, 0) {
			t := float64(cur.Elapsed) * math.Pow(cur.Exploitability/lim.Accuracy, 1/k)
			if t < float64(365*24*time.Hour) {
				pick(time.Duration(t) - cur.Elapsed)
			}
		}
	}
	return left
}
