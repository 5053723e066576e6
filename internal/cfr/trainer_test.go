package cfr

import (
	"bytes"
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

// batcher is a counter with fixed batches.
type batcher struct {
	counter
	batch int
}

func (b *batcher) BatchSize() int { return b.batch }

// The trainer stops at the iteration target, calls OnCurve exactly at its points
// and where it stops, keeps a Batcher's batches whole but for the last step, and
// stops when its context ends.
func TestTrainer(t *testing.T) {
	var at []int
	c := &counter{}
	tr := &Trainer{Iterations: 100, CurveFrom: 1, CurveGrowth: 1.25, OnCurve: func(it int, _ time.Duration) { at = append(at, it) }}
	if stopped, err := tr.Run(context.Background(), c); stopped || err != nil || c.n != 100 {
		t.Fatalf("ran to %d (%v, %v)", c.n, stopped, err)
	}
	if want := []int{1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 18, 22, 27, 33, 41, 51, 63, 78, 97, 100}; !slices.Equal(at, want) {
		t.Errorf("curve at %v, want %v", at, want)
	}
	b := &batcher{counter: counter{n: 10}, batch: 16}
	at = nil
	tr = &Trainer{Iterations: 45, CurveFrom: 20, CurveGrowth: 2, OnCurve: func(it int, _ time.Duration) { at = append(at, it) }}
	tr.Run(context.Background(), b)
	if !slices.Equal(b.steps, []int{16, 16, 3}) {
		t.Errorf("fixed batches %v", b.steps)
	}
	if want := []int{26, 42, 45}; !slices.Equal(at, want) {
		t.Errorf("a batcher's curve at %v, want %v", at, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c = &counter{}
	at = nil
	tr = &Trainer{Iterations: 1 << 40, CurveFrom: 1 << 30, OnCurve: func(it int, _ time.Duration) { at = append(at, it) },
		Progress: func(_, it int, _ time.Duration) {
			if it > 1000 {
				cancel()
			}
		}}
	if stopped, _ := tr.Run(ctx, c); !stopped || len(at) != 0 {
		t.Errorf("a cancelled run: interrupted %v, curve %v (none where it stopped)", stopped, at)
	}
	c = &counter{sleep: time.Millisecond}
	checkpoints := 0
	tr = &Trainer{Time: 30 * time.Millisecond, CheckpointEvery: time.Nanosecond, Checkpoint: func(time.Duration) error { checkpoints++; return nil }}
	if stopped, _ := tr.Run(context.Background(), c); stopped || tr.Elapsed < 30*time.Millisecond || checkpoints < 2 {
		t.Errorf("time limit: elapsed %v, %d checkpoints", tr.Elapsed, checkpoints)
	}
}

// The Trainer's final checkpoint: always after an interruption, after a finished
// run only with CheckpointAtEnd, and its error is Run's.
func TestTrainerFinalCheckpoint(t *testing.T) {
	for _, c := range []struct {
		cancel, atEnd bool
		want          int
	}{{false, false, 0}, {false, true, 1}, {true, false, 1}, {true, true, 1}} {
		ctx, cancel := context.WithCancel(context.Background())
		if c.cancel {
			cancel()
		}
		n := 0
		tr := &Trainer{Iterations: 10, CheckpointAtEnd: c.atEnd, Checkpoint: func(time.Duration) error { n++; return context.Canceled }}
		stopped, err := tr.Run(ctx, &counter{})
		cancel()
		if stopped != c.cancel || n != c.want || (n > 0) != (err != nil) {
			t.Errorf("%+v: interrupted %v, %d checkpoints, error %v", c, stopped, n, err)
		}
	}
}

// trainTo runs s to iterations under a Trainer that checkpoints into a buffer when
// interrupted after stopAt iterations (0: never), and returns the checkpoint.
func trainTo(t *testing.T, s Iterator, iterations, stopAt int, write func(*bytes.Buffer, time.Duration) error) *bytes.Buffer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var buf bytes.Buffer
	tr := &Trainer{Iterations: iterations, Checkpoint: func(e time.Duration) error { return write(&buf, e) },
		Progress: func(_, it int, _ time.Duration) {
			if stopAt > 0 && it >= stopAt {
				cancel()
			}
		}}
	stopped, err := tr.Run(ctx, s)
	if err != nil || stopped != (stopAt > 0) {
		t.Fatalf("interrupted %v, %v", stopped, err)
	}
	return &buf
}

// A run interrupted by its context, checkpointed by the Trainer and resumed from
// the checkpoint ends where an uninterrupted run ends, bit for bit: Leduc by
// MCCFR (whose random stream is in the checkpoint) and Hold'em in batches.
func TestTrainerResumeIsUninterrupted(t *testing.T) {
	leduc := func() *Solver {
		s, err := NewSolver(Leduc(), Options{Algorithm: MCCFR, Seed: [32]byte{7}})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	writeLeduc := func(s *Solver) func(*bytes.Buffer, time.Duration) error {
		return func(b *bytes.Buffer, e time.Duration) error { return s.WriteCheckpoint(b, e) }
	}
	whole := leduc()
	trainTo(t, whole, 5000, 0, writeLeduc(whole))
	half := leduc()
	buf := trainTo(t, half, 5000, 2000, writeLeduc(half))
	if half.Iterations() >= 5000 {
		t.Fatalf("not interrupted: %d iterations", half.Iterations())
	}
	resumed, _, err := ReadCheckpoint(buf)
	if err != nil {
		t.Fatal(err)
	}
	trainTo(t, resumed, 5000, 0, writeLeduc(resumed))
	if !slices.Equal(whole.Average().prob, resumed.Average().prob) || resumed.Iterations() != 5000 {
		t.Error("Leduc: a resumed run differs from an uninterrupted one")
	}

	bk := newCategoryBucketer([4]int{169, 5, 5, 5})
	holdem := func() *HoldemSolver {
		s, err := NewHoldemSolver(bk, HoldemOptions{Seed: 3, PruneAfter: 1000})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	writeHoldem := func(s *HoldemSolver) func(*bytes.Buffer, time.Duration) error {
		return func(b *bytes.Buffer, e time.Duration) error { return s.WriteCheckpoint(b, "fp", e) }
	}
	hw := holdem()
	trainTo(t, hw, 4000, 0, writeHoldem(hw))
	hh := holdem()
	buf = trainTo(t, hh, 4000, 1500, writeHoldem(hh))
	hr, _, err := ReadHoldemCheckpoint(buf, bk, "fp")
	if err != nil {
		t.Fatal(err)
	}
	trainTo(t, hr, 4000, 0, writeHoldem(hr))
	if !slices.Equal(hw.regret, hr.regret) || !slices.Equal(hw.sum, hr.sum) || hr.Iterations() != 4000 {
		t.Error("Hold'em: a resumed run differs from an uninterrupted one")
	}
}
