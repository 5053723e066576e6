package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/felt-poker/felt/internal/cfr"
	"github.com/felt-poker/felt/internal/cfr/curve"
)

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
	Pack            string   `json:"pack,omitempty"`
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
	if c.Algo != "" && c.Algo != "mccfr" {
		return usageError("--algo: hulhe is trained by mccfr only")
	}
	if c.Iterations == 0 && c.Time == 0 {
		c.Iterations = 1_000_000
	}
	a, err := c.holdemAbstraction(stderr)
	if err != nil {
		return err
	}
	s, elapsed, err := c.holdemSolver(a)
	if err != nil {
		return err
	}
	ckpt := c.checkpointPath("hulhe-mccfr.ckpt")
	m, err := c.holdemMeasures(stderr, a, s)
	if err != nil {
		return err
	}
	// The solver's batches make the curve's points (2x apart, from 65,536) fall at
	// batch ends; training is cut only at the --iterations target, so that the
	// same seed gives the same strategy however the run is interrupted and resumed.
	ts := trainSetup{solver: s, desc: "hulhe mccfr", elapsed: elapsed, curveFrom: max(s.Iterations()*2, 1<<16), growth: 2,
		algo: m.label, checkpoint: func(e time.Duration) error {
			return writeFileAtomic(ckpt, func(w io.Writer) error { return s.WriteCheckpoint(w, a.Fingerprint(), e) })
		}}
	if m.sampled != nil || m.exact != nil {
		ts.measure = m.curve
	}
	points, elapsed, interrupted, err := c.train(ctx, stderr, ts)
	if err != nil {
		return err
	}
	out := holdemOutput{Game: "hulhe", Algo: "mccfr", Averaging: s.Options().Averaging.String(), Iterations: s.Iterations(), Seconds: elapsed.Seconds(),
		Buckets: a.Sizes(), Infosets: s.Game().Infosets(), Abstraction: c.Abstraction, Fingerprint: a.Fingerprint()}
	if interrupted || c.checkpointAtEnd() {
		out.Checkpoint = ckpt
	}
	if err := c.writeHoldemStrategy(&out, a, s.Average()); err != nil {
		return err
	}
	if !interrupted {
		m.report(&out, points, s.Iterations())
	}
	if c.Curve != "" && len(points) > 0 {
		title := "Heads-up limit Hold'em, sampled best-response lower bound (chips = small blinds)"
		if m.exact != nil {
			title = fmt.Sprintf("Heads-up limit Hold'em, buckets %v: exact exploitability in the abstract game (chips = small blinds)", a.Sizes())
		}
		if err := appendCurve(c.Curve, c.Chart, points, title, ""); err != nil {
			return err
		}
	}
	if err := printHoldem(stdout, out, c.JSON); err != nil {
		return err
	}
	return interruptedError(interrupted, s.Iterations(), ckpt)
}

// holdemSolver returns the Hold'em solver: --resume's checkpoint (trained in a),
// or a new one.
func (c *trainCmd) holdemSolver(a *cfr.Abstraction) (*cfr.HoldemSolver, time.Duration, error) {
	avg := cfr.UniformAveraging
	if c.Averaging != "" {
		var err error
		if avg, err = cfr.ParseAveraging(c.Averaging); err != nil {
			return nil, 0, usageError("--averaging: %v", err)
		}
	}
	if c.Resume == "" {
		s, err := cfr.NewHoldemSolver(a, cfr.HoldemOptions{Seed: c.seed(), Threads: c.Threads, Averaging: avg})
		if err != nil {
			return nil, 0, usageError("%v", err)
		}
		return s, 0, nil
	}
	f, err := os.Open(c.Resume)
	if err != nil {
		return nil, 0, usageError("--resume: %v", err)
	}
	s, elapsed, err := cfr.ReadHoldemCheckpoint(f, a, a.Fingerprint())
	f.Close()
	if err != nil {
		return nil, 0, usageError("--resume %s: %v", c.Resume, err)
	}
	if got := s.Options().Averaging; c.Averaging != "" && got != avg {
		return nil, 0, usageError("--resume %s: the checkpoint was trained with %s averaging, not %s", c.Resume, got, avg)
	}
	return s, elapsed, nil
}

// holdemMeasures are the measures of a Hold'em strategy: the exact
// exploitability in an abstract game (when the abstraction is small enough) and
// the sampled best-response lower bound (unless --deals 0).
type holdemMeasures struct {
	exact   func() float64        // milli-chips; nil when the abstraction is too large
	sampled func() cfr.BREstimate // nil with --deals 0
	boards  int
	label   string // the curve's
}

// holdemMeasures builds the abstract game, once, when the abstraction fits
// (boards seeded apart from training).
func (c *trainCmd) holdemMeasures(stderr io.Writer, a *cfr.Abstraction, s *cfr.HoldemSolver) (*holdemMeasures, error) {
	seed := c.seed()
	m := &holdemMeasures{label: fmt.Sprintf("mccfr, %s average (sampled BR lower bound)", s.Options().Averaging)}
	if c.Deals > 0 {
		m.sampled = func() cfr.BREstimate {
			return s.Average().EstimateBestResponse(a, c.Deals, seed+1_000_003, runtime.GOMAXPROCS(0))
		}
	}
	if !cfr.AbstractGameFits(a.Sizes()) {
		return m, nil
	}
	t0 := time.Now()
	ag, err := cfr.NewHoldemAbstractGame(a, cfr.AbstractGameOptions{Boards: c.ExactBoards, Seed: seed + 2_000_003})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "abstract game of %d boards built in %s\n", ag.Boards(), time.Since(t0).Round(time.Millisecond))
	m.exact = func() float64 { return ag.Exploitability(s.Average()) * 1000 }
	m.boards = ag.Boards()
	m.label = fmt.Sprintf("mccfr, %s average (exact, abstract game)", s.Options().Averaging)
	return m, nil
}

// curve is the measure a curve point takes: the exact one if there is one, else
// the sampled bound (in milli-chips: a chip is half a big blind).
func (m *holdemMeasures) curve() float64 {
	if m.exact != nil {
		return m.exact()
	}
	return m.sampled().MBB * 2
}

// report fills in out's measures of the final strategy (iteration it), taking
// the exact figure from the curve's last point when it is there.
func (m *holdemMeasures) report(out *holdemOutput, points []curve.Point, it int) {
	if m.exact != nil {
		var mchips float64
		if n := len(points); n > 0 && points[n-1].Iterations == it {
			mchips = points[n-1].MChips
		} else {
			mchips = m.exact()
		}
		mbb := mchips / 2
		out.ExploitabilityMChips, out.ExploitabilityMBB, out.ExactBoards = &mchips, &mbb, m.boards
	}
	if m.sampled != nil {
		e := m.sampled()
		out.BRLowerBoundMBB, out.BRCI95MBB, out.BRDeals = &e.MBB, &e.CI95, e.Deals
	}
}

// writeHoldemStrategy writes --out (JSON) and --pack (packed) when asked.
func (c *trainCmd) writeHoldemStrategy(out *holdemOutput, a *cfr.Abstraction, p *cfr.HoldemProfile) error {
	if c.Out != "" {
		f := p.StrategyFile(a)
		f.Algo, f.Iterations, f.Seconds = "mccfr", out.Iterations, out.Seconds
		if err := writeFileAtomic(c.Out, f.Write); err != nil {
			return err
		}
		out.Out = c.Out
	}
	if c.Pack != "" {
		h := cfr.PackHeader{Algo: "mccfr, " + out.Averaging + " average", Iterations: out.Iterations, Seconds: out.Seconds}
		if err := writeFileAtomic(c.Pack, func(w io.Writer) error { return p.WritePacked(w, a, h) }); err != nil {
			return err
		}
		out.Pack = c.Pack
	}
	return nil
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
	printWritten(stdout, out.Out, out.Checkpoint, out.Pack)
	return nil
}
