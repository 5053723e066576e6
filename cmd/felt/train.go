package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
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
	Pack            string        `help:"hulhe: also write the average strategy packed (probabilities in 255ths, gzip), the format of felt's built-in blueprint, which the cfr bot reads as well." placeholder:"FILE" type:"path"`
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

func (c *trainCmd) run(ctx context.Context, stdout, stderr io.Writer) error {
	if err := c.checkFlags(); err != nil {
		return err
	}
	if c.Game == "hulhe" {
		return c.runHoldem(ctx, stdout, stderr)
	}
	if c.Iterations == 0 && c.Time == 0 {
		c.Iterations = 1000
	}
	s, elapsed, err := c.solver()
	if err != nil {
		return err
	}
	ckpt := c.checkpointPath(fmt.Sprintf("%s-%s.ckpt", c.Game, s.Algorithm()))
	algo := s.Algorithm().String()
	// Measured at iterations spaced by 1.25x, each exactly.
	points, elapsed, interrupted, err := c.train(ctx, stderr, trainSetup{solver: s, desc: c.Game + " " + algo,
		elapsed: elapsed, curveFrom: s.Iterations() + 1, growth: 1.25, algo: algo,
		measure: func() float64 { return s.Average().Exploitability() * 1000 },
		checkpoint: func(e time.Duration) error {
			return writeFileAtomic(ckpt, func(w io.Writer) error { return s.WriteCheckpoint(w, e) })
		}})
	if err != nil {
		return err
	}
	avg := s.Average()
	out := trainOutput{Game: c.Game, Algo: algo, Iterations: s.Iterations(),
		Seconds: elapsed.Seconds(), ExploitabilityMChips: avg.Exploitability() * 1000, Value: avg.Value()}
	if interrupted || c.checkpointAtEnd() {
		out.Checkpoint = ckpt
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
	if c.Curve != "" {
		titles := map[string]string{"kuhn": "Kuhn poker", "leduc": "Leduc Hold'em"}
		if err := appendCurve(c.Curve, c.Chart, points, titles[c.Game], ""); err != nil {
			return err
		}
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
		printWritten(stdout, out.Out, out.Checkpoint)
	}
	return interruptedError(interrupted, s.Iterations(), ckpt)
}

// checkFlags checks the flags every game shares.
func (c *trainCmd) checkFlags() error {
	if c.Iterations < 0 || c.Time < 0 || c.CheckpointEvery < 0 || c.Deals < 0 || c.Threads < 0 || c.ExactBoards < 0 {
		return usageError("--iterations, --time, --checkpoint-every, --deals, --exact-boards and --threads cannot be negative")
	}
	if c.Chart != "" && c.Curve == "" {
		return usageError("--chart draws the --curve file: give both")
	}
	if c.Pack != "" && c.Game != "hulhe" {
		return usageError("--pack: only hulhe strategies are packed")
	}
	if c.Seed != "" {
		if _, err := strconv.ParseUint(c.Seed, 10, 64); err != nil {
			return usageError("--seed: %q is not a decimal number", c.Seed)
		}
	}
	return nil
}

// seed returns --seed (checked by checkFlags), 0 by default.
func (c *trainCmd) seed() uint64 {
	n, _ := strconv.ParseUint(c.Seed, 10, 64)
	return n
}

// solver returns the Kuhn or Leduc solver: --resume's checkpoint, or a new one.
func (c *trainCmd) solver() (*cfr.Solver, time.Duration, error) {
	if c.Resume != "" {
		f, err := os.Open(c.Resume)
		if err != nil {
			return nil, 0, usageError("--resume: %v", err)
		}
		s, elapsed, err := cfr.ReadCheckpoint(f)
		f.Close()
		if err != nil {
			return nil, 0, usageError("--resume %s: %v", c.Resume, err)
		}
		if g := s.Game().Name(); g != c.Game {
			return nil, 0, usageError("--resume %s: the checkpoint is for %s, not %s", c.Resume, g, c.Game)
		}
		if c.Algo != "" && c.Algo != s.Algorithm().String() {
			return nil, 0, usageError("--resume %s: the checkpoint was trained by %s, not %s", c.Resume, s.Algorithm(), c.Algo)
		}
		return s, elapsed, nil
	}
	if c.Algo == "" {
		c.Algo = "dcfr"
	}
	algo, err := cfr.ParseAlgorithm(c.Algo)
	if err != nil {
		return nil, 0, usageError("--algo: %v", err)
	}
	g, err := cfr.NewGame(c.Game)
	if err != nil {
		return nil, 0, usageError("%v", err)
	}
	o := cfr.Options{Algorithm: algo}
	binary.LittleEndian.PutUint64(o.Seed[:], c.seed())
	s, err := cfr.NewSolver(g, o)
	return s, 0, err
}

// checkpointPath is where checkpoints go: --checkpoint, else --resume, else def.
func (c *trainCmd) checkpointPath(def string) string {
	switch {
	case c.Checkpoint != "":
		return c.Checkpoint
	case c.Resume != "":
		return c.Resume
	}
	return def
}

// checkpointAtEnd reports whether a finished run writes a checkpoint (an
// interrupted one always does).
func (c *trainCmd) checkpointAtEnd() bool {
	return c.Checkpoint != "" || c.Resume != "" || c.CheckpointEvery > 0
}

// trainSetup is what train needs of a game: its solver, the training time so
// far, how to checkpoint it, and its curve's spacing, measure (milli-chips per
// game; nil: no curve) and label.
type trainSetup struct {
	solver     cfr.Iterator
	desc       string
	elapsed    time.Duration
	checkpoint func(elapsed time.Duration) error
	curveFrom  int
	growth     float64
	measure    func() float64
	algo       string
}

// train runs ts's solver under a cfr.Trainer with the command's stop condition,
// progress bar, checkpoints and --curve, and returns the curve's points, the
// training time and whether ctx interrupted it.
func (c *trainCmd) train(ctx context.Context, stderr io.Writer, ts trainSetup) (points []curve.Point, elapsed time.Duration, interrupted bool, err error) {
	bar := c.trainBar(stderr, ts.desc, ts.solver.Iterations(), ts.elapsed)
	defer bar.finish()
	t := &cfr.Trainer{Iterations: c.Iterations, Time: c.Time, Elapsed: ts.elapsed, Progress: bar.step,
		Checkpoint: ts.checkpoint, CheckpointEvery: c.CheckpointEvery, CheckpointAtEnd: c.checkpointAtEnd()}
	if c.Curve != "" && ts.measure != nil {
		t.CurveFrom, t.CurveGrowth = ts.curveFrom, ts.growth
		t.OnCurve = func(iterations int, e time.Duration) {
			points = append(points, curve.Point{Game: c.Game, Algo: ts.algo, Iterations: iterations,
				Seconds: e.Seconds(), MChips: ts.measure()})
		}
	}
	interrupted, err = t.Run(ctx, ts.solver)
	return points, t.Elapsed, interrupted, err
}

// printWritten prints where the strategy and the checkpoint went, if anywhere.
func printWritten(stdout io.Writer, files ...string) {
	for i, f := range files {
		if f != "" {
			fmt.Fprintf(stdout, "%s written to %s\n", []string{"strategy", "checkpoint", "packed strategy"}[i], f)
		}
	}
}

// interruptedError is the error of a run ctx interrupted at iteration it: exit
// code 130 and how to go on.
func interruptedError(interrupted bool, it int, ckpt string) error {
	if !interrupted {
		return nil
	}
	return &exitError{code: 130, err: fmt.Errorf("interrupted at iteration %d; go on with --resume %s", it, ckpt)}
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
