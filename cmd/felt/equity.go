package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
)

// equityCmd is "felt equity": win, tie and equity of hands or ranges.
type equityCmd struct {
	Players []string      `arg:"" name:"hand" help:"Each player's hand (AhKd) or range (\"QQ+,AKs:0.5\"); 2 to 10 players."`
	Board   string        `help:"Board cards: none, a flop, a turn or a river (Kh7d2c)." placeholder:"CARDS"`
	Dead    string        `help:"Cards known to be out of play (3s4d)." placeholder:"CARDS"`
	JSON    bool          `name:"json" help:"Print one JSON object instead of a table (keys: see above)."`
	Exact   bool          `xor:"method" help:"Enumerate every deal, however long it takes."`
	MC      bool          `name:"mc" xor:"method" help:"Sample by Monte Carlo even when exact enumeration is affordable."`
	Samples int64         `help:"Monte Carlo: showdowns to sample (default 1000000 when no other stop is given)."`
	StdErr  float64       `name:"stderr" help:"Monte Carlo: stop once every equity's standard error is at most this fraction (0.001 = 0.1%)."`
	Time    time.Duration `help:"Monte Carlo: stop after about this long (2s)."`
	Seed    string        `help:"Monte Carlo seed: a decimal number or 64 hex digits (default: random; printed)."`
	Workers int           `help:"Goroutines to use (default: all cores). With --samples, the seed fixes the result whatever the count."`
}

// Help is the long help of "felt equity".
func (c *equityCmd) Help() string {
	return `Prints each player's win % (deals won alone), tie % (deals split) and equity % (average
share of the pot). Without --exact or --mc, felt enumerates exactly when that is cheap
and samples otherwise; --samples, --stderr and --time ask for Monte Carlo.

Ranges: QQ (6 combos), QQ+, 22-55, AKs, AKo, AK, ATo+, A2s+, KTs-K7s, AhKh, random;
separate tokens with commas; weight any token with ":w", 0 <= w <= 1 (AKs:0.5).

--json prints one object: "players" (list of {"hand", "win", "tie", "equity": fractions
0..1; "wins", "ties": deals counted, weighted; "stderr": standard error of equity, 0 when
exact}), "method" ("exact" or "monte carlo"), "showdowns" (showdowns evaluated), "deals"
(deals the fractions are over), "elapsed_ns", "board", "dead", and for Monte Carlo
"seed" and "workers".`
}

// Run is called by kong.
func (c *equityCmd) Run(ctx context.Context) error {
	return c.run(ctx, os.Stdout)
}

// runEquity parses args as "felt equity" would and runs the command: the entry point
// for tests. Bad arguments give an exitError with code 2.
func runEquity(ctx context.Context, args []string, stdout io.Writer) error {
	var c struct {
		Equity equityCmd `cmd:""`
	}
	if err := parseCommand(&c, "equity", args, stdout); err != nil {
		return err
	}
	return c.Equity.run(ctx, stdout)
}

// equityOutput is what --json prints.
type equityOutput struct {
	equity.Result
	Board   string `json:"board"`
	Dead    string `json:"dead"`
	Seed    string `json:"seed,omitempty"`
	Workers int    `json:"workers,omitempty"`
}

func (c *equityCmd) run(ctx context.Context, stdout io.Writer) error {
	players := make([]equity.Range, len(c.Players))
	for i, s := range c.Players {
		r, err := equity.ParseRange(s)
		if err != nil {
			return usageError("player %d: %v", i+1, err)
		}
		players[i] = r
	}
	board, err := cards.ParseList(c.Board)
	if err != nil {
		return usageError("--board: %v", err)
	}
	dead, err := cards.ParseList(c.Dead)
	if err != nil {
		return usageError("--dead: %v", err)
	}
	opts := equity.Options{Samples: c.Samples, TargetStdErr: c.StdErr, TimeLimit: c.Time, Workers: c.Workers}
	switch {
	case c.Samples < 0 || c.StdErr < 0 || c.Time < 0 || c.Workers < 0:
		return usageError("--samples, --stderr, --time and --workers cannot be negative")
	case c.Exact:
		opts.Method = equity.Exact
	case c.MC || c.Samples > 0 || c.StdErr > 0 || c.Time > 0:
		opts.Method = equity.MonteCarlo
	}
	opts.Seed = cards.RandomSeed()
	if c.Seed != "" {
		if opts.Seed, err = cards.ParseSeed(c.Seed); err != nil {
			return usageError("--seed: %v", err)
		}
	}
	if opts.Workers == 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	res, err := equity.CalculateContext(ctx, players, board, dead, opts)
	if errors.Is(err, equity.ErrBadInput) {
		return usageError("%v", err)
	}
	if err != nil {
		return err
	}
	out := equityOutput{Result: res, Board: cards.Format(board), Dead: cards.Format(dead)}
	if res.Method == equity.MonteCarlo {
		out.Seed, out.Workers = seedText(c.Seed, opts.Seed), opts.Workers
	}
	if c.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	return writeEquityTable(stdout, out)
}

// seedText is the seed as the user gave it, or the random one in full.
func seedText(given string, seed cards.Seed) string {
	if given != "" {
		return given
	}
	return seed.String()
}

func writeEquityTable(w io.Writer, out equityOutput) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	mc := out.Method == equity.MonteCarlo
	header := "hand\twin %\ttie %\tequity %\t"
	if mc {
		header += "± %\t"
	}
	fmt.Fprintln(tw, header)
	worst := 0.0
	for _, p := range out.Players {
		line := fmt.Sprintf("%s\t%.2f\t%.2f\t%.2f\t", p.Range, 100*p.Win, 100*p.Tie, 100*p.Equity)
		if mc {
			line += fmt.Sprintf("%.2f\t", 100*p.StdErr)
			worst = max(worst, p.StdErr)
		}
		fmt.Fprintln(tw, line)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if out.Board != "" || out.Dead != "" {
		fmt.Fprintf(w, "board %s", orNone(out.Board))
		if out.Dead != "" {
			fmt.Fprintf(w, ", dead %s", out.Dead)
		}
		fmt.Fprintln(w)
	}
	elapsed := out.Elapsed.Round(time.Microsecond)
	var err error
	if mc {
		_, err = fmt.Fprintf(w, "monte carlo: %s showdowns in %v, std error up to %.3f%%, seed %s, %d workers\n",
			thousands(out.Showdowns), elapsed, 100*worst, out.Seed, out.Workers)
	} else {
		_, err = fmt.Fprintf(w, "exact: %s deals from %s showdowns in %v\n",
			thousands(int64(out.Deals)), thousands(out.Showdowns), elapsed)
	}
	return err
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// thousands writes n with commas between groups of three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}
