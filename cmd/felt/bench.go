package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
	"github.com/felt-poker/felt/internal/eval"
)

// benchCmd groups the measurements of felt's hot paths.
type benchCmd struct {
	Eval   benchEvalCmd   `cmd:"" help:"Hand evaluation and equity speed (random7, enum7, exact_aa_kk, exact_ranges, mc6, mc6_1)."`
	Engine benchEngineCmd `cmd:"" help:"Rules engine speed: complete 6-max no-limit hands with random legal actions per second on one core, and allocations per hand."`
}

// benchEvalCmd measures the evaluator and equity workloads of docs/performance.md.
type benchEvalCmd struct {
	JSON    bool     `help:"Print one JSON object (see the command's help)."`
	Rounds  int      `default:"3" help:"Rounds: in each, every item runs once, in turn, so that a busy spell of the machine falls on every item alike."`
	Hands   int      `default:"10000000" help:"Random 7-card hands to generate for random7."`
	Samples int64    `default:"2000000" help:"Monte Carlo showdowns per round for mc6 and mc6_1."`
	Compare string   `placeholder:"OLD.json" type:"existingfile" help:"The --json output of an earlier run (another build, another machine): print each item's ratio to it."`
	Items   []string `placeholder:"NAME,..." help:"Run only these items (random7, enum7, exact_aa_kk, exact_ranges, mc6, mc6_1); all when empty."`
}

// Help is the long help of "felt bench eval".
func (c *benchEvalCmd) Help() string {
	return `Measures random7 (random 7-card hands evaluated from an array, one core), enum7 (every
7-card hand, one core), exact_aa_kk (AhAs vs KdKc pre-flop over every board, one core),
exact_ranges (AA vs KK pre-flop, the 36 assignments of the two ranges, one core), mc6
(Monte Carlo showdowns of 6 random hands, all cores) and mc6_1 (the same on one worker).
The rounds are interleaved: round 1 runs every item once, then round 2, ...
Each item reports its rate per wall-clock second and per CPU second of the process
(user + system, all threads), the median over the rounds and the spread (min-max).
On a shared machine the CPU rate is the figure to compare: it does not count the time
other processes took from felt. The load average is printed before and after.

--json prints one object: "random7", "enum7" (evaluations per second), "exact_aa_kk"
(seconds), "mc6" (showdowns per second), the best wall-clock figures as earlier builds
printed them; "rounds"; "load_before", "load_after"; and "items": [{"name", "unit",
"wall_rate", "wall_min", "wall_max", "cpu_rate", "cpu_min", "cpu_max"}] (rates are
units per second, medians; min and max over the rounds).

--compare OLD.json prints, for each item, this run's CPU rate over OLD's (its wall
rate when OLD has no CPU figure). For two builds measured fairly on one machine,
alternate them (A B A B) with --rounds 1 and compare the medians.`
}

// evalFigures are the results of "felt bench eval".
type evalFigures struct {
	Random7    float64       `json:"random7"`
	Enum7      float64       `json:"enum7"`
	ExactAAKK  float64       `json:"exact_aa_kk"`
	MC6        float64       `json:"mc6"`
	Rounds     int           `json:"rounds"`
	LoadBefore string        `json:"load_before,omitempty"`
	LoadAfter  string        `json:"load_after,omitempty"`
	Items      []benchFigure `json:"items"`
}

// benchFigure is one item's rates in "felt bench eval".
type benchFigure struct {
	Name     string  `json:"name"`
	Unit     string  `json:"unit"`
	WallRate float64 `json:"wall_rate"`
	WallMin  float64 `json:"wall_min"`
	WallMax  float64 `json:"wall_max"`
	CPURate  float64 `json:"cpu_rate"`
	CPUMin   float64 `json:"cpu_min"`
	CPUMax   float64 `json:"cpu_max"`
}

// benchItem is one workload of "felt bench eval": run does work units of it.
type benchItem struct {
	name, unit, what string
	work             float64
	run              func() error
}

func (c *benchEvalCmd) Run() error {
	return c.run(os.Stdout)
}

func (c *benchEvalCmd) run(w io.Writer) error {
	if c.Rounds < 1 || c.Hands < 1 || c.Samples < 1 {
		return usageError("--rounds, --hands and --samples must be at least 1")
	}
	var old *evalFigures
	if c.Compare != "" {
		var err error
		if old, err = readEvalFigures(c.Compare); err != nil {
			return usageError("--compare: %v", err)
		}
	}
	if !c.JSON {
		fmt.Fprintf(w, "generating %d random 7-card hands...\n", c.Hands)
	}
	f := evalFigures{Rounds: c.Rounds, LoadBefore: loadAverage()}
	items, err := selectItems(evalItems(eval.RandomSevens(c.Hands, 1), c.Samples), c.Items)
	if err != nil {
		return err
	}
	figs, err := measure(items, c.Rounds)
	if err != nil {
		return err
	}
	f.LoadAfter = loadAverage()
	f.Items = figs
	for _, g := range figs {
		switch g.Name {
		case "random7":
			f.Random7 = g.WallMax
		case "enum7":
			f.Enum7 = g.WallMax
		case "exact_aa_kk":
			f.ExactAAKK = 1 / g.WallMax
		case "mc6":
			f.MC6 = g.WallMax
		}
	}
	if c.JSON {
		return json.NewEncoder(w).Encode(f)
	}
	writeEvalFigures(w, f, items, old)
	return nil
}

// evalItems returns the workloads of "felt bench eval" over hands.
func evalItems(hands []eval.Seven, samples int64) []benchItem {
	aces, kings := equity.MustParseRange("AhAs"), equity.MustParseRange("KdKc")
	aa, kk := equity.MustParseRange("AA"), equity.MustParseRange("KK")
	six := make([]equity.Range, 6)
	for i := range six {
		six[i] = equity.MustParseRange("random")
	}
	mc := func(workers int) func() error {
		return func() error {
			_, err := equity.Calculate(six, nil, nil, equity.Options{
				Method: equity.MonteCarlo, Samples: samples, Seed: cards.SeedFromUint64(1), Workers: workers})
			return err
		}
	}
	return []benchItem{
		{"random7", "evaluations", "random 7-card hands from an array, one core", float64(len(hands)), func() error { eval.RankSevens(hands); return nil }},
		{"enum7", "evaluations", "all 133,784,560 7-card hands, one core", eval.NumSevens, func() error { eval.EnumerateSevens(); return nil }},
		{"exact_aa_kk", "calculations", "AhAs vs KdKc pre-flop, every board, one core", 1, func() error {
			_, err := equity.Calculate([]equity.Range{aces, kings}, nil, nil, equity.Options{Method: equity.Exact, Workers: 1})
			return err
		}},
		{"exact_ranges", "calculations", "AA vs KK (36 assignments) pre-flop, every board, one core", 1, func() error {
			_, err := equity.Calculate([]equity.Range{aa, kk}, nil, nil, equity.Options{Method: equity.Exact, Workers: 1})
			return err
		}},
		{"mc6", "showdowns", "Monte Carlo, 6 random hands, all cores", float64(samples), mc(runtime.GOMAXPROCS(0))},
		{"mc6_1", "showdowns", "Monte Carlo, 6 random hands, one worker", float64(samples), mc(1)},
	}
}

// selectItems returns the items named in names, in the order of all (all when names
// is empty), or a usage error naming an unknown item.
func selectItems(all []benchItem, names []string) ([]benchItem, error) {
	if len(names) == 0 {
		return all, nil
	}
	var out []benchItem
	for _, it := range all {
		if slices.Contains(names, it.name) {
			out = append(out, it)
		}
	}
	for _, n := range names {
		if !slices.ContainsFunc(all, func(it benchItem) bool { return it.name == n }) {
			return nil, usageError("--items: no item %q (random7, enum7, exact_aa_kk, exact_ranges, mc6, mc6_1)", n)
		}
	}
	return out, nil
}

// measure runs every item once a round, in turn, for rounds rounds, and returns
// each item's rates: per wall-clock second and per CPU second of the process.
func measure(items []benchItem, rounds int) ([]benchFigure, error) {
	wall := make([][]float64, len(items))
	cpu := make([][]float64, len(items))
	for range rounds {
		for i, it := range items {
			start, startCPU := time.Now(), processCPU()
			if err := it.run(); err != nil {
				return nil, fmt.Errorf("%s: %w", it.name, err)
			}
			d, dCPU := time.Since(start), processCPU()-startCPU
			wall[i] = append(wall[i], it.work/d.Seconds())
			if dCPU > 0 {
				cpu[i] = append(cpu[i], it.work/dCPU.Seconds())
			}
		}
	}
	out := make([]benchFigure, len(items))
	for i, it := range items {
		out[i] = benchFigure{Name: it.name, Unit: it.unit}
		out[i].WallRate, out[i].WallMin, out[i].WallMax = spread(wall[i])
		out[i].CPURate, out[i].CPUMin, out[i].CPUMax = spread(cpu[i])
	}
	return out, nil
}

// spread returns the median, the least and the greatest of xs (zeros when empty).
func spread(xs []float64) (median, lo, hi float64) {
	if len(xs) == 0 {
		return 0, 0, 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	median = s[len(s)/2]
	if len(s)%2 == 0 {
		median = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return median, s[0], s[len(s)-1]
}

// readEvalFigures reads the --json output of an earlier "felt bench eval".
func readEvalFigures(path string) (*evalFigures, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f evalFigures
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: not the output of felt bench eval --json: %v", path, err)
	}
	return &f, nil
}

// writeEvalFigures prints the figures, with the ratio to old's when there is one.
func writeEvalFigures(w io.Writer, f evalFigures, items []benchItem, old *evalFigures) {
	fmt.Fprintf(w, "%d interleaved rounds; load average %s before, %s after\n", f.Rounds, orNone(f.LoadBefore), orNone(f.LoadAfter))
	fmt.Fprintf(w, "%-12s %14s %14s %22s  %s\n", "item", "per CPU s", "per wall s", "CPU spread (min-max)", "unit, workload")
	for i, g := range f.Items {
		line := fmt.Sprintf("%-12s %14s %14s %22s  %s, %s", g.Name, si(g.CPURate), si(g.WallRate),
			si(g.CPUMin)+"-"+si(g.CPUMax), g.Unit, items[i].what)
		if old != nil {
			line += "  " + compareFigure(g, old)
		}
		fmt.Fprintln(w, line)
	}
}

// compareFigure says g's rate as a ratio to the same item's in old.
func compareFigure(g benchFigure, old *evalFigures) string {
	for _, o := range old.Items {
		if o.Name != g.Name {
			continue
		}
		if o.CPURate > 0 && g.CPURate > 0 {
			return fmt.Sprintf("%.2fx old (CPU)", g.CPURate/o.CPURate)
		}
		return fmt.Sprintf("%.2fx old (wall)", g.WallRate/o.WallRate)
	}
	legacy := map[string]float64{"random7": old.Random7, "enum7": old.Enum7, "mc6": old.MC6}
	if old.ExactAAKK > 0 {
		legacy["exact_aa_kk"] = 1 / old.ExactAAKK
	}
	if v := legacy[g.Name]; v > 0 {
		return fmt.Sprintf("%.2fx old (best wall)", g.WallMax/v)
	}
	return "(not in old)"
}

// si writes x with an SI prefix: 281.4M, 1.52k.
func si(x float64) string {
	switch {
	case x >= 1e9:
		return fmt.Sprintf("%.2fG", x/1e9)
	case x >= 1e6:
		return fmt.Sprintf("%.1fM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.2fk", x/1e3)
	}
	return fmt.Sprintf("%.2f", x)
}
