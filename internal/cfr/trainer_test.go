package cfr

import (
	"context"
	"slices"
	"testing"
	"time"
)

// counter is an Iterator that only counts, recording each step's size.
type counter struct {
	n     int
	steps []int
	sleep time.Duration
}

func (c *counter) Iterations() int { return c.n }
func (c *counter) Iterate(n int) {
	c.n += n
	c.steps = append(c.steps, n)
	time.Sleep(c.sleep)
}

// The trainer stops at the iteration target, measures exactly at its points,
// keeps a fixed batch whole but for the last step, and stops when its context
// ends.
func TestTrainer(t *testing.T) {
	var at []int
	c := &counter{}
	tr := &Trainer{Iterations: 100, Next: 1, ExactPoints: true, Measure: func(it int, _ time.Duration) int {
		at = append(at, it)
		return max(it+1, int(float64(it)*1.25))
	}}
	if tr.Run(context.Background(), c) || c.n != 100 {
		t.Fatalf("ran to %d", c.n)
	}
	if want := []int{1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 18, 22, 27, 33, 41, 51, 63, 78, 97}; !slices.Equal(at, want) {
		t.Errorf("measured at %v, want %v", at, want)
	}
	c = &counter{n: 10}
	tr = &Trainer{Iterations: 45, Batch: func() int { return 16 }}
	tr.Run(context.Background(), c)
	if !slices.Equal(c.steps, []int{16, 16, 3}) {
		t.Errorf("fixed batches %v", c.steps)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c = &counter{}
	tr = &Trainer{Iterations: 1 << 40, Progress: func(_, it int, _ time.Duration) {
		if it > 1000 {
			cancel()
		}
	}}
	if !tr.Run(ctx, c) {
		t.Error("a cancelled run was not interrupted")
	}
	c = &counter{sleep: time.Millisecond}
	checkpoints := 0
	tr = &Trainer{Time: 30 * time.Millisecond, CheckpointEvery: time.Nanosecond, Checkpoint: func(time.Duration) error { checkpoints++; return nil }}
	if tr.Run(context.Background(), c) || tr.Elapsed < 30*time.Millisecond || checkpoints == 0 {
		t.Errorf("time limit: elapsed %v, %d checkpoints", tr.Elapsed, checkpoints)
	}
}
