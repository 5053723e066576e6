package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/felt-poker/felt/internal/cfr"
	"github.com/felt-poker/felt/internal/cfr/curve"
)

// trainCmd is "felt train": CFR training with checkpoints, curves and strategy files.
type trainCmd struct {
	Game            string        `arg:"" enum:"kuhn,leduc,hulhe" help:"The game: kuhn, leduc or hulhe (heads-up limit Hold'em)."`
	Algo            string        `help:"vanilla, cfr+, dcfr or mccfr (default dcfr, or the checkpoint's when resuming)." placeholder:"ALGO"`
	Iterations      int           `xor:"stop" help:"Train until this many iterations in all (a resumed run counts the checkpoint's); default 1000." placeholder:"N"`
	Time            time.Duration `xor:"stop" help:"Train for this long in this run (30s, 2m)." placeholder:"D"`
	JSON            bool          `name:"json" help:"Print one JSON object (keys below) instead of a sentence."`
	Out             string        `help:"Write the average strategy to this file (JSON, see docs/cfr.md)." placeholder:"FILE" type:"path"`
	Resume          string        `help:"Continue from this checkpoint." placeholder:"FILE" type:"path"`
	Checkpoint      string        `help:"Where checkpoints go (default: the --resume file, else GAME-ALGO.ckpt)." placeholder:"FILE" type:"path"`
	CheckpointEvery time.Duration `help:"Also write a checkpoint this often (0: only when done or interrupted)." placeholder:"D"`
	Curve           string        `help:"Append exploitability measurements, at iterations spaced by 1.25x, to this CSV file." placeholder:"FILE" type:"path"`
	Chart           string        `help:"After training, draw every run in the --curve file to this .svg or .png." placeholder:"FILE" type:"path"`
	Seed            string        `help:"MCCFR's seed, a decimal number (default 0)."`
	NoProgress      bool          `help:"Draw no progress bar."`
	Buckets         string        `help:"hulhe: flop, turn and river bucket counts (the 169 starting hands are kept), or preflop, flop, turn and river (the starting hands grouped by equity); default 50,50,50." placeholder:"[P,]F,T,R"`
	ExactBoards     int           `name:"exact-boards" help:"hulhe: boards of the abstract game in which the exploitability is exact (default 2000); only when the buckets make at most 4096 sequences a player (e.g. 8,8,8,8)." placeholder:"N"`
	Abstraction     string        `help:"hulhe: the card abstraction file, built (a few minutes) and written if missing (default hulhe-F-T-R.abs)." placeholder:"FILE" type:"path"`
	Deals           int           `help:"hulhe: deals sampled to fit and to measure the best-response estimate (default 50000; 0 skips it)." default:"50000" placeholder:"N"`
	Threads         int           `help:"hulhe: parallel traversal streams (default 2); the result depends on it and the seed only." placeholder:"N"`
	Averaging       string        `help:"hulhe: how iterations weigh: uniform (alike), linear (iteration t by t in the average strategy) or lcfr (by t in the regrets too); default uniform, or the checkpoint's when resuming." placeholder:"uniform|linear|lcfr"`
}

// Help is the long help of "felt train".
func (c *trainCmd) Help() string {
	return `Runs counterfactual regret minimisation on Kuhn poker or Leduc Hold'em and reports the
average strategy's exploitability, exactly, in milli-chips per game: the mean of what a
best response to each player's strategy wins (OpenSpiel's NashConv/2).

Ctrl-C stops at the next iteration boundary and writes a checkpoint; run the same command
with --resume FILE to go on (--iterations counts the checkpoint's iterations too).

--json prints one object: "game", "algo", "iterations", "seconds" (training time, all runs
of a resumed training included), "exploitability_mchips", "value" (player 0's expected
winnings per game in chips), and "out", "checkpoint" when written.`
}

// Run is called by kong.
func (c *trainCmd) Run(ctx context.Context) error {
	return c.run(ctx, os.Stdout, os.Stderr)
}

// runTrain parses args as "felt train" would and runs the command: the entry point
// for tests. Bad arguments give an exitError with code 2.
func runTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c struct {
		Train trainCmd `cmd:""`
	}
	if err := parseCommand(&c, "train", args, stdout); err != nil {
		return err
	}
	return c.Train.run(ctx, stdout, stderr)
}

// trainOutput is what --json prints.
type trainOutput struct {
	Game                 string  `json:"game"`
	Algo                 string  `json:"algo"`
	Iterations           int     `json:"iterations"`
	Seconds              float64 `json:"seconds"`
	ExploitabilityMChips float64 `json:"exploitability_mchips"`
	Value                float64 `json:"value"`
	Out                  string  `json:"out,omitempty"`
	Checkpoint           string  `json:"checkpoint,omitempty"`
}

// trainRun is one training run's state.
type trainRun struct {
	c       *trainCmd
	s       *cfr.Solver
	elapsed time.Duration // training time, earlier runs included
	ckpt    string
	points  []curve.Point
}

func (c *trainCmd) run(ctx context.Context, stdout, stderr io.Writer) error {
	if c.Game == "hulhe" {
		return c.runHoldem(ctx, stdout, stderr)
	}
	if c.Iterations < 0 || c.Time < 0 || c.CheckpointEvery < 0 {
		return usageError("--iterations, --time and --checkpoint-every cannot be negative")
	}
	if c.Iterations == 0 && c.Time == 0 {
		c.Iterations = 1000
	}
	if c.Chart != "" && c.Curve == "" {
		return usageError("--chart draws the --curve file: give both")
	}
	r := &trainRun{c: c}
	if c.Resume != "" {
		f, err := os.Open(c.Resume)
		if err != nil {
			return usageError("--resume: %v", err)
		}
		r.s, r.elapsed, err = cfr.ReadCheckpoint(f)
		f.Close()
		if err != nil {
			return usageError("--resume %s: %v", c.Resume, err)
		}
		if g := r.s.Game().Name(); g != c.Game {
			return usageError("--resume %s: the checkpoint is for %s, not %s", c.Resume, g, c.Game)
		}
		if c.Algo != "" && c.Algo != r.s.Algorithm().String() {
			return usageError("--resume %s: the checkpoint was trained by %s, not %s", c.Resume, r.s.Algorithm(), c.Algo)
		}
	} else {
		if c.Algo == "" {
			c.Algo = "dcfr"
		}
		algo, err := cfr.ParseAlgorithm(c.Algo)
		if err != nil {
			return usageError("--algo: %v", err)
		}
		var seed uint64
		if c.Seed != "" {
			if seed, err = strconv.ParseUint(c.Seed, 10, 64); err != nil {
				return usageError("--seed: %q is not a decimal number", c.Seed)
			}
		}
		g, err := cfr.NewGame(c.Game)
		if err != nil {
			return usageError("%v", err)
		}
		o := cfr.Options{Algorithm: algo}
		binary.LittleEndian.PutUint64(o.Seed[:], seed)
		if r.s, err = cfr.NewSolver(g, o); err != nil {
			return err
		}
	}
	r.ckpt = c.Checkpoint
	if r.ckpt == "" {
		r.ckpt = c.Resume
	}
	if r.ckpt == "" {
		r.ckpt = fmt.Sprintf("%s-%s.ckpt", c.Game, r.s.Algorithm())
	}
	interrupted := r.train(ctx, stderr)

	avg := r.s.Average()
	out := trainOutput{Game: c.Game, Algo: r.s.Algorithm().String(), Iterations: r.s.Iterations(),
		Seconds: r.elapsed.Seconds(), ExploitabilityMChips: avg.Exploitability() * 1000, Value: avg.Value()}
	if interrupted || c.Checkpoint != "" || c.Resume != "" || c.CheckpointEvery > 0 {
		if err := r.checkpoint(); err != nil {
			return err
		}
		out.Checkpoint = r.ckpt
	}
	if c.Out != "" {
		f := avg.StrategyFile()
		f.Algo, f.Iterations, f.Seconds = out.Algo, out.Iterations, out.Seconds
		f.ExploitabilityMChips = &out.ExploitabilityMChips
		if err := writeFileAtomic(c.Out, f.Write); err != nil {
			return err
		}
		out.Out = c.Out
	}
	if err := r.writeCurve(); err != nil {
		return err
	}
	if c.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "%s %s: %d iterations in %.3f s, exploitability %.4g milli-chips per game, player 0's value %.7f\n",
			out.Game, out.Algo, out.Iterations, out.Seconds, out.ExploitabilityMChips, out.Value)
		if out.Out != "" {
			fmt.Fprintf(stdout, "strategy written to %s\n", out.Out)
		}
		if out.Checkpoint != "" {
			fmt.Fprintf(stdout, "checkpoint written to %s\n", out.Checkpoint)
		}
	}
	if interrupted {
		return &exitError{code: 130, err: fmt.Errorf("interrupted at iteration %d; go on with --resume %s", r.s.Iterations(), r.ckpt)}
	}
	return nil
}

// train iterates until the run's stop condition or ctx's end, which it reports.
func (r *trainRun) train(ctx context.Context, stderr io.Writer) (interrupted bool) {
	c := r.c
	bar := c.trainBar(stderr, fmt.Sprintf("%s %s", c.Game, r.s.Algorithm()), r.s.Iterations(), r.elapsed)
	defer bar.finish()
	t := &cfr.Trainer{Iterations: c.Iterations, Time: c.Time, Elapsed: r.elapsed, Progress: bar.step,
		CheckpointEvery: c.CheckpointEvery, Checkpoint: func(elapsed time.Duration) error {
			r.elapsed = elapsed
			return r.checkpoint()
		}}
	if c.Curve != "" {
		// Measured at iterations spaced by 1.25x, each exactly.
		t.Next, t.ExactPoints = r.s.Iterations()+1, true
		t.Measure = func(iterations int, elapsed time.Duration) int {
			r.points = append(r.points, curve.Point{Game: c.Game, Algo: r.s.Algorithm().String(),
				Iterations: iterations, Seconds: elapsed.Seconds(), MChips: r.s.Average().Exploitability() * 1000})
			return max(iterations+1, int(float64(iterations)*1.25))
		}
	}
	interrupted = t.Run(ctx, r.s)
	r.elapsed = t.Elapsed
	return interrupted
}

// trainingBar is the progress bar of a training run, or nothing.
type trainingBar struct {
	pb       *progressbar.ProgressBar
	desc     string
	time     time.Duration
	runStart time.Duration // the training time when the run started
}

// trainBar returns the bar of a run that starts at iteration start, after
// runStart of training: its time with --time, its iterations otherwise.
func (c *trainCmd) trainBar(stderr io.Writer, desc string, start int, runStart time.Duration) *trainingBar {
	b := &trainingBar{desc: desc, time: c.Time, runStart: runStart}
	if c.NoProgress {
		return b
	}
	opts := []progressbar.Option{progressbar.OptionSetWriter(stderr), progressbar.OptionSetDescription(desc),
		progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(100 * time.Millisecond), progressbar.OptionClearOnFinish()}
	if c.Time > 0 {
		b.pb = progressbar.NewOptions64(c.Time.Milliseconds(), opts...)
	} else {
		b.pb = progressbar.NewOptions64(int64(max(c.Iterations-start, 0)), append(opts, progressbar.OptionSetItsString("it"),
			progressbar.OptionShowIts(), progressbar.OptionShowCount())...)
	}
	return b
}

// step is the Trainer's Progress: the time of this run and the iterations with
// --time, else the iterations done.
func (b *trainingBar) step(ran, iterations int, elapsed time.Duration) {
	if b.pb == nil {
		return
	}
	if b.time > 0 {
		_ = b.pb.Set64(min((elapsed - b.runStart).Milliseconds(), b.time.Milliseconds()))
		b.pb.Describe(fmt.Sprintf("%s, %d it", b.desc, iterations))
		return
	}
	_ = b.pb.Add(ran)
}

// finish removes the bar.
func (b *trainingBar) finish() {
	if b.pb != nil {
		_ = b.pb.Finish()
	}
}

// checkpoint writes the solver's state to the checkpoint file.
func (r *trainRun) checkpoint() error {
	return writeFileAtomic(r.ckpt, func(w io.Writer) error { return r.s.WriteCheckpoint(w, r.elapsed) })
}

// writeCurve appends the run's measurements to the --curve file (with a header if
// the file is new) and draws the --chart.
func (r *trainRun) writeCurve() error {
	c := r.c
	if c.Curve == "" {
		return nil
	}
	// The last point is where training stopped, whatever the spacing.
	avg := r.s.Average()
	if n := len(r.points); n == 0 || r.points[n-1].Iterations != r.s.Iterations() {
		r.points = append(r.points, curve.Point{Game: c.Game, Algo: r.s.Algorithm().String(),
			Iterations: r.s.Iterations(), Seconds: r.elapsed.Seconds(), MChips: avg.Exploitability() * 1000})
	}
	titles := map[string]string{"kuhn": "Kuhn poker", "leduc": "Leduc Hold'em"}
	return appendCurve(c.Curve, c.Chart, r.points, titles[c.Game], "")
}

// writeFileAtomic writes a file through a temporary file beside it and a rename, so
// that an interruption never leaves half a checkpoint or strategy.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return nil
}

// holdemOutput is what --json prints for hulhe. exploitability_mchips (and _mbb) is
// the exact exploitability in the abstract game (cfr.HoldemAbstractGame), only for
// abstractions small enough to build it; the sampled estimate has its own,
// labelled keys.
type holdemOutput struct {
	Game        string  `json:"game"`
	Algo        string  `json:"algo"`
	Averaging   string  `json:"averaging"` // linear or uniform
	Iterations  int     `json:"iterations"`
	Seconds     float64 `json:"seconds"`
	Buckets     [4]int  `json:"buckets"`
	Infosets    int     `json:"infosets"`
	Abstraction string  `json:"abstraction"`
	Fingerprint string  `json:"fingerprint"`
	// ExploitabilityMChips is the exact exploitability in the abstract game, in
	// milli-chips (a chip is a small blind), and ExploitabilityMBB the same in milli
	// big blinds per game; ExactBoards is the abstract game's board count.
	ExploitabilityMChips *float64 `json:"exploitability_mchips,omitempty"`
	ExploitabilityMBB    *float64 `json:"exploitability_mbb,omitempty"`
	ExactBoards          int      `json:"exact_boards,omitempty"`
	// BRLowerBoundMBB is the sampled in-abstraction best response's winnings
	// (cfr.BREstimate), a lower bound on the exploitability, in mbb/g.
	BRLowerBoundMBB *float64 `json:"br_lower_bound_mbb,omitempty"`
	BRCI95MBB       *float64 `json:"br_ci95_mbb,omitempty"`
	BRDeals         int      `json:"br_deals,omitempty"`
	Out             string   `json:"out,omitempty"`
	Checkpoint      string   `json:"checkpoint,omitempty"`
}

// parseBuckets reads "F,T,R" or "P,F,T,R" into preflop, flop, turn and river
// counts (preflop 169: the starting hands, lossless).
func parseBuckets(s string) (n [4]int, err error) {
	if s == "" {
		s = "50,50,50"
	}
	parts := strings.Split(s, ",")
	if len(parts) == 3 {
		parts = append([]string{strconv.Itoa(cfr.PreflopBuckets)}, parts...)
	}
	if len(parts) != 4 {
		return n, fmt.Errorf("--buckets %q: want [PREFLOP,]FLOP,TURN,RIVER", s)
	}
	for i, p := range parts {
		top := 256
		if i == 0 {
			top = cfr.PreflopBuckets
		}
		if n[i], err = strconv.Atoi(strings.TrimSpace(p)); err != nil || n[i] < 1 || n[i] > top {
			return n, fmt.Errorf("--buckets %q: counts are 1..256 (preflop 1..169)", s)
		}
	}
	return n, nil
}

// holdemAbstraction reads the abstraction file, or builds and writes it.
func (c *trainCmd) holdemAbstraction(stderr io.Writer) (*cfr.Abstraction, error) {
	n, err := parseBuckets(c.Buckets)
	if err != nil {
		return nil, usageError("%v", err)
	}
	p, f, t, r := n[0], n[1], n[2], n[3]
	if c.Abstraction == "" {
		c.Abstraction = fmt.Sprintf("hulhe-%d-%d-%d.abs", f, t, r)
		if p != cfr.PreflopBuckets {
			c.Abstraction = fmt.Sprintf("hulhe-%d-%d-%d-%d.abs", p, f, t, r)
		}
	}
	in, err := os.Open(c.Abstraction)
	if err == nil {
		a, err := cfr.ReadAbstraction(in)
		in.Close()
		if err != nil {
			return nil, usageError("--abstraction %s: %v", c.Abstraction, err)
		}
		// A file without tables (cfr.BuildAbstraction without BuildOptions.Tables)
		// works too, its buckets computed on the fly: slowly, unless a round has one.
		if a.Sizes() != n {
			return nil, usageError("--abstraction %s has buckets %v, not %v", c.Abstraction, a.Sizes(), n)
		}
		return a, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	cfg := cfr.DefaultAbstractionConfig()
	cfg.Flop, cfg.Turn, cfg.River = f, t, r
	if p != cfr.PreflopBuckets {
		cfg.Preflop = p
	}
	var bar *progressbar.ProgressBar
	stage := ""
	o := cfr.BuildOptions{Tables: true}
	if !c.NoProgress {
		o.Progress = func(s string, done, total int) {
			if s != stage {
				if bar != nil {
					_ = bar.Finish()
				}
				stage = s
				bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(stderr),
					progressbar.OptionSetDescription("abstraction: "+s), progressbar.OptionShowCount(),
					progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(100*time.Millisecond),
					progressbar.OptionClearOnFinish())
			}
			_ = bar.Set(done)
		}
	}
	start := time.Now()
	a, err := cfr.BuildAbstraction(cfg, o)
	if bar != nil {
		_ = bar.Finish()
	}
	if err != nil {
		return nil, err
	}
	if err := writeFileAtomic(c.Abstraction, a.Write); err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "abstraction %d,%d,%d,%d built in %s, written to %s\n", p, f, t, r, time.Since(start).Round(time.Second), c.Abstraction)
	return a, nil
}

// runHoldem is "felt train hulhe".
func (c *trainCmd) runHoldem(ctx context.Context, stdout, stderr io.Writer) error {
	if c.Iterations < 0 || c.Time < 0 || c.CheckpointEvery < 0 || c.Deals < 0 || c.Threads < 0 || c.ExactBoards < 0 {
		return usageError("--iterations, --time, --checkpoint-every, --deals, --exact-boards and --threads cannot be negative")
	}
	if c.Algo != "" && c.Algo != "mccfr" {
		return usageError("--algo: hulhe is trained by mccfr only")
	}
	if c.Iterations == 0 && c.Time == 0 {
		c.Iterations = 1_000_000
	}
	if c.Chart != "" && c.Curve == "" {
		return usageError("--chart draws the --curve file: give both")
	}
	var seed uint64
	if c.Seed != "" {
		var err error
		if seed, err = strconv.ParseUint(c.Seed, 10, 64); err != nil {
			return usageError("--seed: %q is not a decimal number", c.Seed)
		}
	}
	avg := cfr.UniformAveraging
	if c.Averaging != "" {
		var err error
		if avg, err = cfr.ParseAveraging(c.Averaging); err != nil {
			return usageError("--averaging: %v", err)
		}
	}
	a, err := c.holdemAbstraction(stderr)
	if err != nil {
		return err
	}
	var s *cfr.HoldemSolver
	var elapsed time.Duration
	if c.Resume != "" {
		f, err := os.Open(c.Resume)
		if err != nil {
			return usageError("--resume: %v", err)
		}
		s, elapsed, err = cfr.ReadHoldemCheckpoint(f, a, a.Fingerprint())
		f.Close()
		if err != nil {
			return usageError("--resume %s: %v", c.Resume, err)
		}
		if got := s.Options().Averaging; c.Averaging != "" && got != avg {
			return usageError("--resume %s: the checkpoint was trained with %s averaging, not %s", c.Resume, got, avg)
		}
	} else if s, err = cfr.NewHoldemSolver(a, cfr.HoldemOptions{Seed: seed, Threads: c.Threads, Averaging: avg}); err != nil {
		return usageError("%v", err)
	}
	ckpt := c.Checkpoint
	if ckpt == "" {
		ckpt = c.Resume
	}
	if ckpt == "" {
		ckpt = "hulhe-mccfr.ckpt"
	}
	writeCkpt := func() error {
		return writeFileAtomic(ckpt, func(w io.Writer) error { return s.WriteCheckpoint(w, a.Fingerprint(), elapsed) })
	}
	workers := runtime.GOMAXPROCS(0)
	measure := func() cfr.BREstimate {
		return s.Average().EstimateBestResponse(a, c.Deals, seed+1_000_003, workers)
	}
	// The exact exploitability, in an abstract game built once (boards seeded apart
	// from training), when the abstraction is small enough.
	var ag *cfr.HoldemAbstractGame
	if cfr.AbstractGameFits(a.Sizes()) {
		t0 := time.Now()
		if ag, err = cfr.NewHoldemAbstractGame(a, cfr.AbstractGameOptions{Boards: c.ExactBoards, Seed: seed + 2_000_003}); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "abstract game of %d boards built in %s\n", ag.Boards(), time.Since(t0).Round(time.Millisecond))
	}
	exact := func() float64 { return ag.Exploitability(s.Average()) * 1000 } // milli-chips

	var points []curve.Point
	algo := fmt.Sprintf("mccfr, %s average (sampled BR lower bound)", s.Options().Averaging)
	if ag != nil {
		algo = fmt.Sprintf("mccfr, %s average (exact, abstract game)", s.Options().Averaging)
	}
	addPoint := func() {
		var mchips float64
		if ag != nil {
			mchips = exact()
		} else {
			mchips = measure().MBB * 2 // milli-chips: a chip is half a big blind
		}
		points = append(points, curve.Point{Game: "hulhe", Algo: algo, Iterations: s.Iterations(),
			Seconds: elapsed.Seconds(), MChips: mchips})
	}
	// Train in the solver's batches, cut only at the --iterations target, so that the
	// same seed gives the same strategy however the run is interrupted and resumed.
	bar := c.trainBar(stderr, "hulhe mccfr", s.Iterations(), elapsed)
	t := &cfr.Trainer{Iterations: c.Iterations, Time: c.Time, Elapsed: elapsed, Batch: s.BatchSize, Progress: bar.step,
		CheckpointEvery: c.CheckpointEvery, Checkpoint: func(e time.Duration) error { elapsed = e; return writeCkpt() }}
	if c.Curve != "" && (c.Deals > 0 || ag != nil) {
		t.Next = max(s.Iterations()*2, 1<<16)
		t.Measure = func(_ int, e time.Duration) int {
			elapsed = e
			addPoint()
			return t.Next * 2
		}
	}
	interrupted := t.Run(ctx, s)
	elapsed = t.Elapsed
	bar.finish()

	out := holdemOutput{Game: "hulhe", Algo: "mccfr", Averaging: s.Options().Averaging.String(), Iterations: s.Iterations(), Seconds: elapsed.Seconds(),
		Buckets: a.Sizes(), Infosets: s.Game().Infosets(), Abstraction: c.Abstraction, Fingerprint: a.Fingerprint()}
	if interrupted || c.Checkpoint != "" || c.Resume != "" || c.CheckpointEvery > 0 {
		if err := writeCkpt(); err != nil {
			return err
		}
		out.Checkpoint = ckpt
	}
	if c.Out != "" {
		f := s.Average().StrategyFile(a)
		f.Algo, f.Iterations, f.Seconds = "mccfr", out.Iterations, out.Seconds
		if err := writeFileAtomic(c.Out, f.Write); err != nil {
			return err
		}
		out.Out = c.Out
	}
	if n := len(points); c.Curve != "" && !interrupted && (c.Deals > 0 || ag != nil) && (n == 0 || points[n-1].Iterations != s.Iterations()) {
		addPoint()
	}
	if ag != nil && !interrupted {
		mchips := exact()
		if n := len(points); n > 0 && points[n-1].Iterations == s.Iterations() {
			mchips = points[n-1].MChips
		}
		mbb := mchips / 2
		out.ExploitabilityMChips, out.ExploitabilityMBB, out.ExactBoards = &mchips, &mbb, ag.Boards()
	}
	if c.Deals > 0 && !interrupted {
		e := measure()
		out.BRLowerBoundMBB, out.BRCI95MBB, out.BRDeals = &e.MBB, &e.CI95, e.Deals
	}
	if c.Curve != "" && len(points) > 0 {
		title := "Heads-up limit Hold'em, sampled best-response lower bound (chips = small blinds)"
		if ag != nil {
			title = fmt.Sprintf("Heads-up limit Hold'em, buckets %v: exact exploitability in the abstract game (chips = small blinds)", a.Sizes())
		}
		if err := appendCurve(c.Curve, c.Chart, points, title, ""); err != nil {
			return err
		}
	}
	if err := printHoldem(stdout, out, c.JSON); err != nil {
		return err
	}
	if interrupted {
		return &exitError{code: 130, err: fmt.Errorf("interrupted at iteration %d; go on with --resume %s", s.Iterations(), ckpt)}
	}
	return nil
}

// appendCurve appends points to a curve CSV file (with a header if new) and, if
// chart is set, draws the file's points of the same game, the exploitability axis
// labelled ylabel ("" for milli-chips per game).
func appendCurve(path, chart string, points []curve.Point, title, ylabel string) error {
	fresh := true
	if st, err := os.Stat(path); err == nil && st.Size() > 0 {
		fresh = false
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("--curve: %w", err)
	}
	if err := curve.Write(f, points, fresh); err != nil {
		f.Close()
		return fmt.Errorf("--curve %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	if chart == "" {
		return nil
	}
	in, err := os.Open(path)
	if err != nil {
		return err
	}
	all, err := curve.Read(in)
	in.Close()
	if err != nil {
		return fmt.Errorf("--curve %s: %w", path, err)
	}
	var game []curve.Point
	for _, p := range all {
		if p.Game == points[0].Game {
			game = append(game, p)
		}
	}
	return writeFileAtomic(chart, func(w io.Writer) error { return curve.ChartAs(w, chart, title, ylabel, game) })
}

// printHoldem prints what felt train hulhe did, as JSON or a sentence.
func printHoldem(stdout io.Writer, out holdemOutput, asJSON bool) error {
	if asJSON {
		return writeArenaJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "hulhe mccfr: %d iterations in %.1f s, %d information sets (buckets %v)", out.Iterations, out.Seconds, out.Infosets, out.Buckets)
	if out.ExploitabilityMBB != nil {
		fmt.Fprintf(stdout, ", exploitability %.1f mbb/g in the abstract game of %d boards", *out.ExploitabilityMBB, out.ExactBoards)
	}
	if out.BRLowerBoundMBB != nil {
		fmt.Fprintf(stdout, ", sampled in-abstraction best response wins %.1f ± %.1f mbb/g (a lower bound on the exploitability)",
			*out.BRLowerBoundMBB, *out.BRCI95MBB)
	}
	fmt.Fprintln(stdout)
	if out.Out != "" {
		fmt.Fprintf(stdout, "strategy written to %s\n", out.Out)
	}
	if out.Checkpoint != "" {
		fmt.Fprintf(stdout, "checkpoint written to %s\n", out.Checkpoint)
	}
	return nil
}
