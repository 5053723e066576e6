package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
	"github.com/felt-poker/felt/internal/eval"
)

// benchCmd groups the measurements of felt's hot paths.
type benchCmd struct {
	Eval   benchEvalCmd   `cmd:"" help:"Hand evaluation and equity speed (random7, enum7, exact_aa_kk, mc6)."`
	Engine benchEngineCmd `cmd:"" help:"Rules engine speed: complete 6-max no-limit hands with random legal actions per second on one core, and allocations per hand."`
}

// benchEvalCmd measures the evaluator and equity workloads of docs/performance.md.
type benchEvalCmd struct {
	JSON    bool  `help:"Print one JSON object: random7 and enum7 (evaluations per second), exact_aa_kk (seconds), mc6 (showdowns per second)."`
	Rounds  int   `default:"3" help:"Repeat each measurement this many times and keep the best."`
	Hands   int   `default:"10000000" help:"Random 7-card hands to generate for random7."`
	Samples int64 `default:"2000000" help:"Monte Carlo showdowns per round for mc6."`
}

// evalFigures are the results of "felt bench eval".
type evalFigures struct {
	Random7   float64 `json:"random7"`
	Enum7     float64 `json:"enum7"`
	ExactAAKK float64 `json:"exact_aa_kk"`
	MC6       float64 `json:"mc6"`
}

func (c *benchEvalCmd) Run() error {
	return c.run(os.Stdout)
}

func (c *benchEvalCmd) run(w io.Writer) error {
	if c.Rounds < 1 || c.Hands < 1 || c.Samples < 1 {
		return usageError("--rounds, --hands and --samples must be at least 1")
	}
	var f evalFigures
	say := func(format string, args ...any) {
		if !c.JSON {
			fmt.Fprintf(w, format, args...)
		}
	}
	say("generating %d random 7-card hands...\n", c.Hands)
	hands := eval.RandomSevens(c.Hands, 1)
	f.Random7 = float64(len(hands)) / best(c.Rounds, func() { eval.RankSevens(hands) }).Seconds()
	say("random7      %8.1f M evaluations/s  (random 7-card hands from an array, one core)\n", f.Random7/1e6)
	f.Enum7 = eval.NumSevens / best(c.Rounds, func() { eval.EnumerateSevens() }).Seconds()
	say("enum7        %8.1f M evaluations/s  (all 133,784,560 7-card hands, one core)\n", f.Enum7/1e6)
	var err error
	f.ExactAAKK, f.MC6, err = benchEquity(c.Rounds, c.Samples)
	if err != nil {
		return err
	}
	say("exact_aa_kk  %8.2f ms             (AhAs vs KdKc pre-flop, every board)\n", f.ExactAAKK*1e3)
	say("mc6          %8.1f M showdowns/s    (Monte Carlo, 6 random hands, all cores)\n", f.MC6/1e6)
	if c.JSON {
		return json.NewEncoder(w).Encode(f)
	}
	return nil
}

// best runs f rounds times and returns the shortest time.
func best(rounds int, f func()) time.Duration {
	var min time.Duration
	for i := 0; i < rounds; i++ {
		start := time.Now()
		f()
		if d := time.Since(start); i == 0 || d < min {
			min = d
		}
	}
	return min
}

// benchEquity returns the seconds of an exact AhAs vs KdKc pre-flop calculation (best
// of rounds, one goroutine) and the Monte Carlo showdowns per second with six random
// hands on all cores.
func benchEquity(rounds int, samples int64) (exactSeconds, mcShowdowns float64, err error) {
	aces, kings := equity.MustParseRange("AhAs"), equity.MustParseRange("KdKc")
	var calcErr error
	d := best(rounds, func() {
		_, calcErr = equity.Calculate([]equity.Range{aces, kings}, nil, nil, equity.Options{Method: equity.Exact, Workers: 1})
	})
	if calcErr != nil {
		return 0, 0, calcErr
	}
	six := make([]equity.Range, 6)
	for i := range six {
		six[i] = equity.MustParseRange("random")
	}
	var res equity.Result
	mc := best(rounds, func() {
		res, calcErr = equity.Calculate(six, nil, nil, equity.Options{
			Method: equity.MonteCarlo, Samples: samples, Seed: cards.SeedFromUint64(1), Workers: runtime.GOMAXPROCS(0),
		})
	})
	if calcErr != nil {
		return 0, 0, calcErr
	}
	return d.Seconds(), float64(res.Showdowns) / mc.Seconds(), nil
}
