package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
	"github.com/felt-poker/felt/internal/solver"
)

// solveCmd is "felt solve": a heads-up no-limit postflop subgame solved by DCFR.
type solveCmd struct {
	Input          string        `arg:"" optional:"" help:"A spot file instead of the spot flags: felt's TOML (.toml) or JSON (.json), or a TexasSolver command file (set_pot, set_board, set_range_oop, set_bet_sizes ...)." type:"path"`
	Pot            float64       `help:"Chips in the pot when the spot starts."`
	Stack          float64       `help:"Effective stack behind, each player."`
	Board          string        `help:"Board: a flop (3 cards), a turn (4) or a river (5), e.g. QsJh2h8d." placeholder:"CARDS"`
	OOP            string        `name:"oop" help:"Out-of-position range (\"QQ+,AKs,A5s:0.5\"), or @FILE: 1,326 weights (docs/solver.md)." placeholder:"RANGE"`
	IP             string        `name:"ip" help:"In-position range, or @FILE." placeholder:"RANGE"`
	Bet            string        `help:"Bet sizes, % of the pot, both players, every street (\"33,75\")." default:"100" placeholder:"LIST"`
	Raise          string        `help:"Raise sizes, % of the pot after calling, or multiples of the bet faced (\"50,3x\"), both players, every street." default:"50" placeholder:"LIST"`
	AllIn          bool          `name:"allin" help:"All-in is always an option." default:"true" negatable:""`
	Sizes          []string      `sep:"none" help:"TexasSolver-style override, repeatable: player,street,kind[,sizes] (\"oop,river,donk,50\", \"ip,turn,raise,60,100\")." placeholder:"SPEC"`
	AllInThreshold float64       `name:"allin-threshold" help:"A bet putting in more than this share of the stack becomes all-in (1: off; default 1, or the file's)." placeholder:"X"`
	RaiseCap       int           `name:"raise-cap" help:"Most bets and raises a street (default 4)." placeholder:"N"`
	Rake           float64       `help:"Rake, % of the pot taken at showdowns and folds (5 for 5%)." placeholder:"PCT"`
	RakeCap        float64       `name:"rake-cap" help:"Most rake in chips (0: no cap)." placeholder:"CHIPS"`
	Accuracy       float64       `help:"Stop at this exploitability, % of the pot (default 0.3 when no limit is given, or the file's)." placeholder:"PCT"`
	Iterations     int           `help:"Stop after this many iterations (or the file's set_max_iteration)." placeholder:"N"`
	Time           time.Duration `help:"Stop after this long (30s, 2m)." placeholder:"D"`
	Workers        int           `help:"Goroutines over the chance cards (default: all cores, or the file's set_thread_num)." placeholder:"N"`
	Compress       bool          `help:"Keep regrets and strategy sums in 16-bit floats: half the memory of the arrays."`
	NoIso          bool          `name:"no-isomorphism" help:"Solve every card dealt, even those that are another's with the suits renamed (slower, bigger; for checking)."`
	MaxMemory      int64         `name:"max-memory" help:"Refuse spots needing more than this many MiB." default:"4096" placeholder:"MIB"`
	Node           string        `help:"The node to show: actions from the root separated by spaces (\"x b10 c 3c\": check, bet 10, call, river 3c)." placeholder:"PATH"`
	Hands          bool          `help:"Also list every hand's strategy and EV at the node."`
	JSON           string        `name:"json" help:"Write the node and the decisions under it on its street as JSON to this file (- for stdout)." placeholder:"FILE"`
	JSONDepth      int           `name:"json-depth" help:"Actions below the node in the JSON export." default:"4" placeholder:"N"`
	Save           string        `help:"Save the solve to this file when it stops (at the limit, or on Ctrl-C inside the iteration under way)." placeholder:"FILE"`
	Load           string        `help:"Load a solve saved by --save instead of a spot: show it, or go on solving with --accuracy, --iterations or --time." placeholder:"FILE"`
	Curve          string        `help:"Record exploitability against CPU time: FILE.svg or .png draws this solve's curve, FILE.csv appends its points (see --chart)." placeholder:"FILE"`
	Chart          string        `help:"With a .csv --curve: draw every run in it of the same spot (other solvers' too) to this .svg or .png." placeholder:"FILE"`
	NoColor        bool          `name:"no-color" help:"Draw the grid without colours."`
	NoProgress     bool          `help:"Draw no progress line."`
}

// Help is the long help of "felt solve".
func (c *solveCmd) Help() string {
	return `Solves a heads-up no-limit Hold'em spot that starts on the flop, turn or river by
Discounted CFR, then prints the strategy at a node as a 13x13 grid (see docs/solver.md).

The spot comes from the flags (--pot --stack --board --oop --ip, sizes with --bet,
--raise, --allin and --sizes) or from a TexasSolver command file. Solving stops at
--accuracy (exploitability, % of the pot: the mean of both players' best-response
gains), --iterations or --time, whichever comes first; Ctrl-C stops soon, inside the
iteration under way (the decisions it finished keep their update; it is not counted),
and still prints the result (and saves it with --save; --load goes on).

Node paths name actions by their labels: x check, c call, f fold, b<chips> bet,
r<chips> raise to (chips: the player's total on this street), and a card where one is
dealt. The grid shows each hand class's most played action and its frequency.`
}

// Run is called by kong.
func (c *solveCmd) Run(ctx context.Context) error { return c.run(ctx, os.Stdout, os.Stderr) }

// runSolve parses args as "felt solve" would and runs it: the entry point for tests.
func runSolve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c struct {
		Solve solveCmd `cmd:""`
	}
	if err := parseCommand(&c, "solve", args, stdout); err != nil {
		return err
	}
	return c.Solve.run(ctx, stdout, stderr)
}

// script turns the file or the flags into a spot and limits.
func (c *solveCmd) script() (solver.Script, error) {
	if c.Input != "" {
		if c.Pot != 0 || c.Stack != 0 || c.Board != "" || c.OOP != "" || c.IP != "" {
			return solver.Script{}, errors.New("give the spot either in the file or with flags, not both")
		}
		f, err := os.Open(c.Input)
		if err != nil {
			return solver.Script{}, err
		}
		defer f.Close()
		switch strings.ToLower(filepath.Ext(c.Input)) {
		case ".toml":
			return solver.ReadSpotFile(f, false)
		case ".json":
			return solver.ReadSpotFile(f, true)
		}
		return solver.ReadScript(f)
	}
	sc := solver.Script{Spot: solver.Spot{Pot: c.Pot, Stack: c.Stack, Tree: solver.Tree{AllInThreshold: 1, RaiseCap: 4}}}
	var err error
	if sc.Spot.Board, err = cards.ParseList(c.Board); err != nil {
		return sc, fmt.Errorf("--board: %v", err)
	}
	if sc.Spot.Range[solver.OOP], err = flagRange(c.OOP); err != nil {
		return sc, fmt.Errorf("--oop: %v", err)
	}
	if sc.Spot.Range[solver.IP], err = flagRange(c.IP); err != nil {
		return sc, fmt.Errorf("--ip: %v", err)
	}
	bets, _, err := solver.ParseSizes(c.Bet, false)
	if err != nil {
		return sc, fmt.Errorf("--bet: %v", err)
	}
	raises, mult, err := solver.ParseSizes(c.Raise, true)
	if err != nil {
		return sc, fmt.Errorf("--raise: %v", err)
	}
	for p := range 2 {
		for st := range 3 {
			sc.Spot.Tree.Sizes[p][st] = solver.Sizes{Bet: bets, Raise: raises, RaiseX: mult, AllIn: c.AllIn}
		}
	}
	return sc, nil
}

// flagRange reads a range flag: a range, or @file for a file of 1,326 weights.
func flagRange(v string) (equity.Range, error) {
	name, ok := strings.CutPrefix(v, "@")
	if !ok {
		return equity.ParseRange(v)
	}
	f, err := os.Open(name)
	if err != nil {
		return equity.Range{}, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return equity.Range{}, err
	}
	return equity.ParseWeights(string(b))
}

// apply lays the flags that override the file (or the defaults) over sc.
func (c *solveCmd) apply(sc *solver.Script) (solver.Limits, error) {
	for _, spec := range c.Sizes {
		if err := sc.Spot.Tree.SetSizes(spec); err != nil {
			return solver.Limits{}, fmt.Errorf("--sizes %q: %v", spec, err)
		}
	}
	if c.AllInThreshold != 0 {
		sc.Spot.Tree.AllInThreshold = c.AllInThreshold
	}
	if c.RaiseCap != 0 {
		sc.Spot.Tree.RaiseCap = c.RaiseCap
	}
	if c.Rake != 0 {
		sc.Spot.Rake = c.Rake
	}
	if c.RakeCap != 0 {
		sc.Spot.RakeCap = c.RakeCap
	}
	lim := solver.Limits{Accuracy: sc.Accuracy, MaxIterations: sc.MaxIterations, MaxTime: c.Time}
	if c.Accuracy != 0 {
		lim.Accuracy = c.Accuracy
	}
	if c.Iterations != 0 {
		lim.MaxIterations = c.Iterations
	}
	switch {
	case lim.Accuracy < 0 || lim.MaxIterations < 0 || lim.MaxTime < 0 || c.Workers < 0 || c.JSONDepth < 0:
		return lim, errors.New("--accuracy, --iterations, --time, --workers and --json-depth cannot be negative")
	case lim.Accuracy == 0 && lim.MaxIterations == 0 && lim.MaxTime == 0:
		lim.Accuracy, lim.MaxIterations = 0.3, 10000
	}
	if c.Workers != 0 {
		sc.Threads = c.Workers
	}
	return lim, c.checkCurve()
}

// checkCurve refuses --curve and --chart files of a kind they cannot write, before
// anything is solved.
func (c *solveCmd) checkCurve() error {
	ext := func(s string) string { return strings.ToLower(filepath.Ext(s)) }
	switch {
	case c.Curve != "" && ext(c.Curve) != ".svg" && ext(c.Curve) != ".png" && ext(c.Curve) != ".csv":
		return fmt.Errorf("--curve %s: want a .svg or .png chart or a .csv file", c.Curve)
	case c.Chart != "" && ext(c.Curve) != ".csv":
		return errors.New("--chart draws the runs of a .csv --curve file: give one")
	case c.Chart != "" && ext(c.Chart) != ".svg" && ext(c.Chart) != ".png":
		return fmt.Errorf("--chart %s: want a .svg or .png file", c.Chart)
	}
	return nil
}

func (c *solveCmd) run(ctx context.Context, stdout, stderr io.Writer) error {
	s, sc, lim, err := c.open(stdout)
	if err != nil {
		return err
	}
	defer s.Close()
	var path []string
	if c.Node != "" {
		path = strings.Fields(c.Node)
	}
	cpu0 := processCPU()
	rec := newCurveRecorder(sc.Spot, s.Compressed())
	pr := solver.Progress{Iterations: s.Iterations()}
	if c.Load == "" || c.Accuracy != 0 || c.Iterations != 0 || c.Time != 0 {
		report := func(p solver.Progress) {
			rec.add(p)
			if !c.NoProgress {
				fmt.Fprint(stderr, progressLine(p, lim))
			}
		}
		pr, err = s.Solve(ctx, lim, report)
		if !c.NoProgress {
			fmt.Fprintln(stderr)
		}
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	} else {
		pr.Exploitability = s.Exploitability()
	}
	ev := s.EV()
	fmt.Fprintf(stdout, "solved: %d iterations, exploitability %.3f%% of the pot, %.2fs (CPU %.2fs)\n",
		pr.Iterations, pr.Exploitability, pr.Elapsed.Seconds(), (processCPU() - cpu0).Seconds())
	if pr.Interrupted {
		fmt.Fprintf(stdout, "stopped inside iteration %d: the decisions it finished keep their update, it is not counted\n", pr.Iterations+1)
	}
	if c.Save != "" {
		if err := writeFileAtomic(c.Save, s.Save); err != nil {
			return fmt.Errorf("--save: %w", err)
		}
		fmt.Fprintf(stdout, "saved: %s (felt solve --load %s goes on from here)\n", c.Save, c.Save)
	}
	fmt.Fprintf(stdout, "EV: OOP %.3f, IP %.3f (chips of the pot of %g each ends with)\n", ev[0]+sc.Spot.Pot/2, ev[1]+sc.Spot.Pot/2, sc.Spot.Pot)
	info, err := s.Node(path)
	if err != nil {
		return usageError("--node: %v", err)
	}
	writeNode(stdout, info, c.Hands, !c.NoColor)
	if c.Curve != "" {
		if err := rec.write(c.Curve, c.Chart); err != nil {
			return fmt.Errorf("--curve: %w", err)
		}
	}
	return c.export(s, path, sc.Dump, stdout)
}

// open builds the solver from the spot (or loads a saved solve), prints the spot and
// the tree and refuses a solve over --max-memory.
func (c *solveCmd) open(stdout io.Writer) (*solver.Solver, solver.Script, solver.Limits, error) {
	var sc solver.Script
	var s *solver.Solver
	var err error
	if c.Load != "" {
		s, err = c.load()
		if err != nil {
			return nil, sc, solver.Limits{}, usageError("%v", err)
		}
		sc.Spot = s.Spot()
	} else if sc, err = c.script(); err != nil {
		return nil, sc, solver.Limits{}, usageError("%v", err)
	}
	lim, err := c.apply(&sc)
	if err == nil && s == nil {
		s, err = solver.New(sc.Spot, solver.Options{Workers: sc.Threads, Compress: c.Compress, NoIsomorphism: c.NoIso || sc.NoIsomorphism})
	}
	if err != nil {
		if s != nil {
			s.Close()
		}
		return nil, sc, lim, usageError("%v", err)
	}
	all, dec := s.Nodes()
	hands := s.Hands()
	fmt.Fprintf(stdout, "spot: board %s, pot %g, stack %g; %d hands OOP, %d IP\n", cards.Format(sc.Spot.Board), sc.Spot.Pot, sc.Spot.Stack, hands[0], hands[1])
	store := ""
	if s.Compressed() {
		store = " (16-bit store)"
	}
	fmt.Fprintf(stdout, "tree: %d nodes, %d decisions; memory about %.1f MiB%s\n", all, dec, float64(s.Memory())/(1<<20), store)
	if s.Memory() > c.MaxMemory<<20 {
		s.Close()
		return nil, sc, lim, usageError("the spot needs about %d MiB, over --max-memory %d", s.Memory()>>20, c.MaxMemory)
	}
	return s, sc, lim, nil
}

// load reads the --load file; the spot and its tree are the file's, so flags that
// would change them are refused.
func (c *solveCmd) load() (*solver.Solver, error) {
	if c.Input != "" || c.Pot != 0 || c.Stack != 0 || c.Board != "" || c.OOP != "" || c.IP != "" || len(c.Sizes) > 0 ||
		c.Rake != 0 || c.RakeCap != 0 || c.AllInThreshold != 0 || c.RaiseCap != 0 || c.Compress || c.NoIso {
		return nil, errors.New("--load takes the spot, its tree and its store from the file: give no spot, size, rake or store flags")
	}
	f, err := os.Open(c.Load)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return solver.Load(f, solver.Options{Workers: c.Workers})
}

// progressLine draws "[=====     ] it 120  exploitability 0.412% (target 0.3%)  3.2s, 2.1s left".
func progressLine(p solver.Progress, lim solver.Limits) string {
	frac := 1.0
	if p.Left > 0 {
		frac = float64(p.Elapsed) / float64(p.Elapsed+p.Left)
	} else if p.Left < 0 {
		frac = 0
	}
	n := int(frac * 20)
	left := "?"
	if p.Left >= 0 {
		left = p.Left.Round(100 * time.Millisecond).String()
	}
	target := ""
	if lim.Accuracy > 0 {
		target = fmt.Sprintf(" (target %g%%)", lim.Accuracy)
	}
	return fmt.Sprintf("\r[%s%s] it %d  exploitability %.3f%%%s  %s, %s left   ", strings.Repeat("=", n), strings.Repeat(" ", 20-n),
		p.Iterations, p.Exploitability, target, p.Elapsed.Round(100*time.Millisecond), left)
}

// writeNode prints a node: where it is, and for a decision the grid and the hands.
func writeNode(w io.Writer, info solver.NodeInfo, hands, colour bool) {
	where := "root"
	if len(info.Path) > 0 {
		where = strings.Join(info.Path, " ")
	}
	fmt.Fprintf(w, "node %s: %s on the %s, board %s, pot %g", where, info.Kind, info.Street, info.Board, info.Pot)
	if info.Kind != "decision" {
		fmt.Fprintln(w)
		if len(info.Deals) > 0 {
			fmt.Fprintf(w, "cards: %s\n", strings.Join(info.Deals, " "))
		}
		return
	}
	fmt.Fprintf(w, ", %s to act\n", info.Player)
	fmt.Fprint(w, solver.Grid(info, colour))
	if !hands {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "hand\treach\t%s\tEV\tequity\t\n", strings.Join(info.Actions, "\t"))
	for _, h := range info.Hands {
		fmt.Fprintf(tw, "%s\t%.3f\t", h.Hand, h.Reach)
		for _, f := range h.Strategy {
			fmt.Fprintf(tw, "%.3f\t", f)
		}
		fmt.Fprintf(tw, "%.3f\t%.3f\t\n", h.EV, h.Equity)
	}
	tw.Flush()
}

// export writes the JSON file asked for by --json or the file's dump_result.
func (c *solveCmd) export(s *solver.Solver, path []string, dump string, stdout io.Writer) error {
	dst := c.JSON
	if dst == "" {
		dst = dump
	}
	if dst == "" {
		return nil
	}
	t, err := s.Export(path, c.JSONDepth)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(t, "", " ")
	if err != nil {
		return err
	}
	if dst == "-" {
		_, err = stdout.Write(append(b, '\n'))
		return err
	}
	return os.WriteFile(dst, append(b, '\n'), 0o644)
}
