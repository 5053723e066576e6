package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/felt-poker/felt/internal/lbr"
)

// lbrCmd is "felt lbr": Local Best Response against one no-limit bot.
type lbrCmd struct {
	Bot     string `arg:"" name:"bot" help:"The no-limit bot to measure (as for felt match)."`
	Sizes   string `default:"1,allin" help:"Bets and raises LBR considers: fractions of the pot (the raise over the call) and allin, comma-separated."`
	Samples int    `default:"2" help:"For a bot that cannot state its strategy: calls of its Act per hand of its range at each of its decisions (1-100)."`
	Runouts int    `default:"1000" help:"Runouts sampled for an equity on the flop (and before it with --preflop); turn and river are exact."`
	Preflop bool   `help:"Let LBR bet and fold before the flop too (default: it checks or calls there, as in the paper)."`
	arenaFlags
	farmFlags
}

// Help is the long help of "felt lbr".
func (c *lbrCmd) Help() string {
	return `Local Best Response (Lisý and Bowling 2017) against a bot in heads-up no-limit Hold'em
(the arena's nl game: blinds 50/100, stacks of 200 big blinds reset each hand). LBR tracks
the bot's range over the 1,326 two-card hands by Bayes' rule, asking the bot what it would
do with each: bots that can state their strategy answer exactly (fold, call, raise,
maniac, and chart and tag before the flop); for the others LBR calls Act --samples times
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
"cv" (as felt match --cv prints it), "misses" (bot actions the sampled range could not explain), "workers", "elapsed_ns".`
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
	if c.Trace || c.History != "" || c.Variant != "nl" {
		return usageError("felt lbr plays no-limit Hold'em (--variant nl) and has no --trace or --history")
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
	r, err := run(ctx, lbr.Config{Bot: c.Bot, Hands: c.Hands, Seed: s.seed, Workers: c.Workers, Sizes: sizes,
		Samples: c.Samples, Runouts: c.Runouts, Preflop: c.Preflop, Progress: bar.add})
	bar.finish()
	if err != nil {
		return err
	}
	out := lbrOutput{Bot: r.Bot, Hands: r.Hands, Deals: r.Deals, Seed: r.Seed, Samples: c.Samples, Runouts: c.Runouts,
		Preflop: c.Preflop, Chips: r.Chips, MBBPerGame: r.MBBPerGame, MBBCI95: r.MBBCI95, BBPer100: r.BBPer100, CI95: r.CI95,
		CV: newCVOutput(r.CV), Misses: r.Misses, Workers: r.Workers, ElapsedNS: r.Elapsed.Nanoseconds()}
	for _, z := range sizes {
		out.Sizes = append(out.Sizes, z.String())
	}
	if c.JSON {
		return writeArenaJSON(stdout, out)
	}
	preflop := "checks or calls before the flop"
	if c.Preflop {
		preflop = "decides before the flop too"
	}
	fmt.Fprintf(stdout, "LBR vs %s: no-limit Hold'em, %s hands (%s deals, LBR in each seat), seed %d\n",
		r.Bot, thousands(int64(r.Hands)), thousands(int64(r.Deals)), r.Seed)
	fmt.Fprintf(stdout, "bets %v, %d samples per hand for a bot without a strategy, %d runouts; LBR %s\n",
		out.Sizes, c.Samples, c.Runouts, preflop)
	fmt.Fprintf(stdout, "LBR wins %+.0f mbb/g ± %.0f (95%%), %+.1f bb/100 ± %.1f, %s chips\n",
		r.MBBPerGame, r.MBBCI95, r.BBPer100, r.CI95, signedThousands(r.Chips))
	cvLine(stdout, "LBR", r.MBBCI95, r.CV)
	if r.Misses > 0 {
		fmt.Fprintf(stdout, "%d actions of the bot its sampled range could not explain (range kept)\n", r.Misses)
	}
	_, err = fmt.Fprintf(stdout, "%v on %d workers\n", r.Elapsed.Round(time.Millisecond), r.Workers)
	return err
}
