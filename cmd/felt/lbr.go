package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/lbr"
)

// lbrCmd is "felt lbr": Local Best Response against one Hold'em bot.
type lbrCmd struct {
	Bot     string `arg:"" optional:"" name:"bot" help:"The bot to measure (as for felt match); without it, --chart redraws --record's chart."`
	Sizes   string `default:"1,allin" help:"Bets and raises LBR considers: fractions of the pot (the raise over the call) and allin, comma-separated."`
	Samples int    `default:"2" help:"For a bot that cannot state its strategy: calls of its Act per hand of its range at each of its decisions (1-100)."`
	Runouts int    `default:"1000" help:"Runouts sampled for an equity on the flop (and before it with --preflop); turn and river are exact."`
	Preflop bool   `help:"Let LBR bet and fold before the flop too (default: it checks or calls there, as in the paper)."`
	Record  string `placeholder:"FILE.csv" help:"Append the result to this CSV file (created with a header if missing)."`
	Chart   string `placeholder:"FILE.svg" help:"Draw --record's LBR win per bot in this --variant (.svg or .png), after the run if a bot is given."`
	arenaFlags
	farmFlags
}

// Help is the long help of "felt lbr".
func (c *lbrCmd) Help() string {
	return `Local Best Response (Lisý and Bowling 2017) against a bot in heads-up Hold'em (the
arena's nl game by default: blinds 50/100, stacks of 200 big blinds reset each hand;
--variant pl or limit plays pot-limit or fixed-limit, where the one raise the rules allow
is LBR's only size: it folds, calls or raises). LBR tracks
the bot's range over the 1,326 two-card hands by Bayes' rule, asking the bot what it would
do with each: bots that can state their strategy answer exactly (fold, call, raise,
maniac, bayes in Hold'em, cfr, resolve, and chart and tag before the flop); for the others LBR calls Act --samples times
per hand with that hand in place of the bot's cards, so each decision of the bot costs up
to 1,326 × samples decisions, and each bet LBR considers as many again (a slow bot such
as montecarlo makes LBR play a few hands a second). At each decision LBR picks, of fold,
check or call and each --sizes bet, the one worth the most if both players then only
check and call to the end: wp·pot − (1−wp)·call for a call, fp·pot + (1−fp)·(wp·(pot +
bet + answer) − bet) for a bet (fp the range's chance to fold to it, wp the equity
against the hands that do not). Every deal is played twice, LBR in each seat. Reports
LBR's win in mbb/g (thousandths of a big blind per hand) and bb/100, ± the 95%
half-width; a lower bound on what a best response wins against the bot. It also
reports the same win with the control variate of felt match --cv (the luck of the
cards and of a strategist bot's dice taken out): the same mean, a narrower interval.

--json prints one object: "bot", "hands", "deals", "seed", "sizes", "samples",
"runouts", "preflop", "chips", "mbb_per_game", "mbb_ci95", "bb_per_100", "ci95",
"variant", "cv" (as felt match --cv prints it), "misses" (bot actions the sampled range could
not explain), "workers", "elapsed_ns".

--record FILE.csv appends the run as a line (variant, bot, preflop, hands, seed, sizes,
mbb_per_game, mbb_ci95, cv_mbb_per_game, cv_mbb_ci95, misses). --chart FILE.svg draws,
from --record's file, each bot's LBR win in --variant as a bar with its 95% interval: of
the bot's latest run with and without --preflop, the larger (both are lower bounds);
without a bot, felt lbr only draws.`
}

// Run is called by kong.
func (c *lbrCmd) Run(ctx context.Context) error { return c.run(ctx, os.Stdout, os.Stderr) }

// runLBR parses args as "felt lbr" would and runs the command: the entry point
// for tests. Bad arguments give an exitError with code 2.
func runLBR(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c struct {
		LBR lbrCmd `cmd:"" name:"lbr"`
	}
	if err := parseCommand(&c, "lbr", args, stdout); err != nil {
		return err
	}
	return c.LBR.run(ctx, stdout, stderr)
}

// lbrOutput is what "felt lbr --json" prints.
type lbrOutput struct {
	Bot        string    `json:"bot"`
	Variant    string    `json:"variant"`
	Hands      int       `json:"hands"`
	Deals      int       `json:"deals"`
	Seed       uint64    `json:"seed"`
	Sizes      []string  `json:"sizes"`
	Samples    int       `json:"samples"`
	Runouts    int       `json:"runouts"`
	Preflop    bool      `json:"preflop"`
	Chips      int64     `json:"chips"`
	MBBPerGame float64   `json:"mbb_per_game"`
	MBBCI95    float64   `json:"mbb_ci95"`
	BBPer100   float64   `json:"bb_per_100"`
	CI95       float64   `json:"ci95"`
	CV         *cvOutput `json:"cv"`
	Misses     int64     `json:"misses"`
	Workers    int       `json:"workers"`
	ElapsedNS  int64     `json:"elapsed_ns"`
}

func (c *lbrCmd) run(ctx context.Context, stdout, stderr io.Writer) error {
	switch {
	case c.Trace || c.History != "":
		return usageError("felt lbr has no --trace or --history")
	case c.Variant == "stud":
		return usageError("felt lbr plays Hold'em (--variant nl, pl or limit), not stud")
	case c.Chart != "" && c.Record == "":
		return usageError("--chart draws the runs of a --record file: give one")
	case c.Chart != "" && !slices.Contains([]string{".svg", ".png"}, strings.ToLower(filepath.Ext(c.Chart))):
		return usageError("--chart %s: want a .svg or .png file", c.Chart)
	case c.Bot == "" && c.Chart == "":
		return usageError("felt lbr needs a bot (or --record and --chart to redraw a chart)")
	case c.Bot == "":
		return drawLBRChart(c.Record, c.Chart, c.Variant)
	}
	s, err := c.settle([]string{c.Bot})
	if err != nil {
		return err
	}
	sizes, err := lbr.ParseSizes(c.Sizes)
	if err != nil {
		return usageError("--sizes: %v", err)
	}
	if c.Samples < 1 || c.Samples > lbr.MaxSamples || c.Runouts < 1 || c.Runouts > lbr.MaxRunouts {
		return usageError("--samples must be 1 to %d and --runouts 1 to %d", lbr.MaxSamples, lbr.MaxRunouts)
	}
	conn, err := c.farm(ctx, stderr)
	if err != nil {
		return err
	}
	defer closeFarm(conn)
	run := lbr.Run
	if conn != nil {
		run = conn.LBR
	}
	bar := c.progress(stderr, int64(2*((c.Hands+1)/2)), "LBR vs "+c.Bot)
	r, err := run(ctx, lbr.Config{Bot: c.Bot, Game: s.game, Hands: c.Hands, Seed: s.seed, Workers: c.Workers, Sizes: sizes,
		Samples: c.Samples, Runouts: c.Runouts, Preflop: c.Preflop, Progress: bar.add})
	bar.finish()
	if err != nil {
		return err
	}
	if c.Record != "" {
		if err := appendLBRRecord(c.Record, lbr.NewRecord(r, sizes, c.Preflop)); err != nil {
			return err
		}
		if c.Chart != "" {
			if err := drawLBRChart(c.Record, c.Chart, c.Variant); err != nil {
				return err
			}
		}
	}
	out := lbrOutput{Bot: r.Bot, Variant: r.Variant, Hands: r.Hands, Deals: r.Deals, Seed: r.Seed, Samples: c.Samples, Runouts: c.Runouts,
		Preflop: c.Preflop, Chips: r.Chips, MBBPerGame: r.MBBPerGame, MBBCI95: r.MBBCI95, BBPer100: r.BBPer100, CI95: r.CI95,
		CV: newCVOutput(r.CV), Misses: r.Misses, Workers: r.Workers, ElapsedNS: r.Elapsed.Nanoseconds()}
	for _, z := range sizes {
		out.Sizes = append(out.Sizes, z.String())
	}
	if c.JSON {
		return writeArenaJSON(stdout, out)
	}
	return writeLBR(stdout, out, r.CV)
}

// writeLBR prints a run of felt lbr as text.
func writeLBR(w io.Writer, out lbrOutput, cv *arena.CVRate) error {
	preflop := "checks or calls before the flop"
	if out.Preflop {
		preflop = "decides before the flop too"
	}
	fmt.Fprintf(w, "LBR vs %s: %s, %s hands (%s deals, LBR in each seat), seed %d\n",
		out.Bot, arenaGameName(out.Variant), thousands(int64(out.Hands)), thousands(int64(out.Deals)), out.Seed)
	bets := fmt.Sprintf("bets %v", out.Sizes)
	if out.Variant == "limit" {
		bets = "the fixed bet"
	}
	fmt.Fprintf(w, "%s, %d samples per hand for a bot without a strategy, %d runouts; LBR %s\n",
		bets, out.Samples, out.Runouts, preflop)
	fmt.Fprintf(w, "LBR wins %+.0f mbb/g ± %.0f (95%%), %+.1f bb/100 ± %.1f, %s chips\n",
		out.MBBPerGame, out.MBBCI95, out.BBPer100, out.CI95, signedThousands(out.Chips))
	cvLine(w, "LBR", out.MBBCI95, cv)
	if out.Misses > 0 {
		fmt.Fprintf(w, "%d actions of the bot its sampled range could not explain (range kept)\n", out.Misses)
	}
	_, err := fmt.Fprintf(w, "%v on %d workers\n", time.Duration(out.ElapsedNS).Round(time.Millisecond), out.Workers)
	return err
}

// appendLBRRecord appends rec to the record file at path, with the header if the
// file is new or empty.
func appendLBRRecord(path string, rec lbr.Record) error {
	fresh := true
	if st, err := os.Stat(path); err == nil && st.Size() > 0 {
		fresh = false
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("--record: %w", err)
	}
	if err := lbr.WriteRecords(f, []lbr.Record{rec}, fresh); err != nil {
		f.Close()
		return fmt.Errorf("--record %s: %w", path, err)
	}
	return f.Close()
}

// drawLBRChart draws the leading run of each bot of variant in the record file
// to chart.
func drawLBRChart(record, chart, variant string) error {
	f, err := os.Open(record)
	if err != nil {
		return fmt.Errorf("--record: %w", err)
	}
	recs, err := lbr.ReadRecords(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("--record %s: %w", record, err)
	}
	lead := lbr.Leading(recs, variant)
	if len(lead) == 0 {
		return fmt.Errorf("--record %s: no run in %s to draw", record, arenaGameName(variant))
	}
	names := make([]string, len(lead))
	ys, ci := make([]float64, len(lead)), make([]float64, len(lead))
	for i, r := range lead {
		// A bot's options go on a line of their own, so that long names do not overlap.
		label := strings.ReplaceAll(r.Bot, ":", "\n") + "\n" + thousands(int64(r.Hands)) + " hands"
		names[i], ys[i], ci[i] = label, r.MBBPerGame, r.MBBCI95
	}
	title := "What Local Best Response wins, " + arenaGameName(variant)
	ch, err := arena.BarChart(title, "mbb/g (± 95%)", names, ys, ci)
	if err != nil {
		return err
	}
	return ch.Save(chart)
}
