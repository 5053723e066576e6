package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"sync"
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
	// Breakdown prints where LBR won: by the round of a hand's last action, how
	// it ended and LBR's line (lbr.Breakdown).
	Breakdown bool `help:"Also print where LBR won: by the round of each hand's last action, how it ended (a fold or a showdown) and LBR's line (checks and calls, bets, all-in); not with --json or --nats."`
	// CPUProfile writes a pprof CPU profile of the run (where LBR's time goes).
	CPUProfile string `name:"cpuprofile" placeholder:"FILE" help:"Write a CPU profile of the run to FILE (go tool pprof reads it)."`
	pieceFlags
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

--json prints one object: "bot", "hands", "deals", "first_deal", "seed", "sizes", "samples",
"runouts", "preflop", "chips", "mbb_per_game", "mbb_ci95", "bb_per_100", "ci95",
"variant", "cv" (as felt match --cv prints it), "misses" (bot actions the sampled range could
not explain), "workers", "elapsed_ns", and for a stopped run "stopped" and "dropped"
(the deals completed after the first one that was not). With --pool, a list of the
measurements: "variant", "bot", "preflop", "sizes", "samples", "runouts", "hands",
"runs", "seeds", "builds", "mbb_per_game", "mbb_ci95", "cv_mbb_per_game", "cv_mbb_ci95",
"misses".

--deals FROM:TO plays deals FROM to TO-1 of the seed's sequence instead of the
first --hands/2: a deal's cards and streams depend only on the seed and its number
(not on --workers or FROM), so --seed 15 --deals 0:17 and then --deals 17:100 give
deal for deal what one run of --deals 0:100 gives (for a bot that does not learn
from its hands, as bayes and adaptive do). A measurement that takes days is made so
in pieces, in several processes or sessions, with --record.

--breakdown also prints where LBR won: LBR's net, plain and with the control variate,
in mbb/g of all the hands, split by the round of each hand's last action, how it ended
(the bot folds, LBR folds, a showdown) and LBR's most aggressive action (checks and calls,
a bet, all-in); the rows add up to the run's mean (not with --json or --nats).

Stopped (Ctrl-C, SIGINT or SIGTERM), felt lbr abandons the deals in flight at once
(a bot that re-solves is told to stop), prints and records the deals completed from
FROM up to the first one that was not, and exits with status 1, saying which deals
it counted: the next piece starts there. The deals completed after that one (with
several workers) are left out, so that a record is always a range of deals, and
not the quick deals of a stopped run without its slow ones.

--record FILE.csv appends the run as a line (variant, bot, preflop, hands, seed,
sizes, mbb_per_game, mbb_ci95, cv_mbb_per_game, cv_mbb_ci95, misses, deals,
samples, runouts, mbb_sd, cv_mbb_sd, build: the deals FROM:TO, the standard
deviation of one deal's result, in mbb/g, that pooling needs, and the commit felt
was built from, "+dirty" for a modified tree, or "unknown"); a file of felt before
the deals or the build column is rewritten once with the new header, its lines
kept (runs in several processes may record into one file: each takes the file's
lock file, .FILE.csv.lock beside it, to write). Lines of one
measurement (variant, bot with its options, --preflop, --sizes, --samples,
--runouts; a line written before the samples and runouts columns counts as run with
the defaults, as every run of docs/bots.md was) pool into one: their deals counted together, as one run of them all
would count them (the mean weighted by hands, the interval from each line's
deviation and mean), whether they are pieces of one seed or runs of several seeds.
A line whose deals overlap those of a later line of its measurement and seed is
left out, with a warning: a run repeated counts once, the later one. --pool prints
each measurement of the file pooled (with the control variate's figure), and
--chart FILE.svg draws each bot's LBR win in --variant as a bar with its 95%
interval: of the bot's latest measurement with and without --preflop, the larger
(both are lower bounds); without a bot, felt lbr only prints or draws.`
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
	FirstDeal  int       `json:"first_deal"`
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
	Stopped    bool      `json:"stopped,omitempty"`
	Dropped    int       `json:"dropped,omitempty"`
}

func (c *lbrCmd) run(ctx context.Context, stdout, stderr io.Writer) error {
	if err := c.check(); err != nil {
		return err
	}
	switch {
	case c.Pool:
		return printLBRPools(stdout, stderr, c.Record, c.JSON)
	case c.Bot == "":
		return drawLBRChart(stderr, c.Record, c.Chart, c.Variant)
	}
	lc, err := c.config()
	if err != nil {
		return err
	}
	if c.Record != "" {
		if _, err := checkRecordFile(c.Record, lbr.ReadRecords); err != nil {
			return err
		}
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
	var where lbr.Breakdown
	if c.Breakdown {
		lc.Hand = where.Add
	}
	stop, err := startCPUProfile(c.CPUProfile)
	if err != nil {
		return err
	}
	defer stop()
	bar := c.progress(stderr, int64(2*((c.Hands+1)/2)), "LBR vs "+c.Bot)
	lc.Progress, lc.Deal = bar.add, runningMean(&lc, bar)
	r, err := run(ctx, lc)
	bar.finish()
	return endPiece(ctx, err, r.Partial, r.FirstDeal, r.Deals, lc.FirstDeal+(lc.Hands+1)/2,
		func() error {
			if err := c.report(stdout, stderr, r); err != nil || !c.Breakdown {
				return err
			}
			where.Write(stdout, lc.Game.Unit)
			return nil
		})
}

// startCPUProfile starts a CPU profile written to path (none when path is
// empty) and returns the function that stops it and closes the file.
func startCPUProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// check refuses bad flags that need no bot.
func (c *lbrCmd) check() error {
	switch {
	case c.Trace || c.History != "":
		return usageError("felt lbr has no --trace or --history")
	case c.Variant == "stud":
		return usageError("felt lbr plays Hold'em (--variant nl, pl or limit), not stud")
	case c.Breakdown && (c.JSON || c.NATS != ""):
		return usageError("--breakdown prints text, of hands played here: not with --json or --nats")
	}
	return c.pieceFlags.check(c.Bot != "", "felt lbr: a bot is")
}

// config returns the run the flags ask for, c.Hands set from --deals.
func (c *lbrCmd) config() (lbr.Config, error) {
	first, err := c.firstDeal(&c.arenaFlags)
	if err != nil {
		return lbr.Config{}, err
	}
	s, err := c.settle([]string{c.Bot})
	if err != nil {
		return lbr.Config{}, err
	}
	sizes, err := lbr.ParseSizes(c.Sizes)
	if err != nil {
		return lbr.Config{}, usageError("--sizes: %v", err)
	}
	if c.Samples < 1 || c.Samples > lbr.MaxSamples || c.Runouts < 1 || c.Runouts > lbr.MaxRunouts {
		return lbr.Config{}, usageError("--samples must be 1 to %d and --runouts 1 to %d", lbr.MaxSamples, lbr.MaxRunouts)
	}
	return lbr.Config{Bot: c.Bot, Game: s.game, Hands: c.Hands, Seed: s.seed, FirstDeal: first, Workers: c.Workers, Sizes: sizes,
		Samples: c.Samples, Runouts: c.Runouts, Preflop: c.Preflop}, nil
}

// report records r (with --record, then draws --chart) and prints it.
func (c *lbrCmd) report(stdout, stderr io.Writer, r lbr.Result) error {
	if c.Record != "" {
		if err := lbr.AppendRecord(c.Record, lbr.NewRecord(r)); err != nil {
			return fmt.Errorf("--record %s: %w", c.Record, err)
		}
		if c.Chart != "" {
			if err := drawLBRChart(stderr, c.Record, c.Chart, c.Variant); err != nil {
				return err
			}
		}
	}
	out := lbrOutput{Bot: r.Bot, Variant: r.Variant, Hands: r.Hands, Deals: r.Deals, FirstDeal: r.FirstDeal, Seed: r.Seed,
		Samples: r.Samples, Runouts: r.Runouts, Preflop: r.Preflop, Chips: r.Chips, MBBPerGame: r.MBBPerGame, MBBCI95: r.MBBCI95,
		BBPer100: r.BBPer100, CI95: r.CI95, CV: newCVOutput(r.CV), Misses: r.Misses, Workers: r.Workers,
		ElapsedNS: r.Elapsed.Nanoseconds(), Stopped: r.Partial, Dropped: r.Dropped}
	for _, z := range r.Sizes {
		out.Sizes = append(out.Sizes, z.String())
	}
	if c.JSON {
		return writeArenaJSON(stdout, out)
	}
	return writeLBR(stdout, out, r.CV)
}

// runningMean returns a Config.Deal that shows on bar, as deals complete, LBR's
// win so far ± its 95% interval (nil without a bar).
func runningMean(lc *lbr.Config, bar arenaBar) func(int, lbr.Outcome) {
	if bar.pb == nil {
		return nil
	}
	var mu sync.Mutex
	var t lbr.Totals
	return func(_ int, o lbr.Outcome) {
		mu.Lock()
		defer mu.Unlock()
		t.Add(o)
		if t.Deals() >= 2 {
			r := lc.Result(&t, 0, 0)
			bar.pb.Describe(fmt.Sprintf("LBR vs %s %+.0f ± %.0f mbb/g", lc.Bot, r.MBBPerGame, r.MBBCI95))
		}
	}
}

// writeLBR prints a run of felt lbr as text.
func writeLBR(w io.Writer, out lbrOutput, cv *arena.CVRate) error {
	preflop := "checks or calls before the flop"
	if out.Preflop {
		preflop = "decides before the flop too"
	}
	fmt.Fprintf(w, "LBR vs %s: %s, %s hands (%s deals, LBR in each seat), seed %d",
		out.Bot, arenaGameName(out.Variant), thousands(int64(out.Hands)), thousands(int64(out.Deals)), out.Seed)
	if out.FirstDeal != 0 || out.Stopped {
		fmt.Fprintf(w, ", deals %s", arena.FormatDeals(out.FirstDeal, out.FirstDeal+out.Deals))
	}
	fmt.Fprintln(w)
	if out.Stopped {
		fmt.Fprintf(w, "Stopped: the deals completed from deal %d up to the first one that was not (%d completed after it left out)\n",
			out.FirstDeal, out.Dropped)
	}
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
