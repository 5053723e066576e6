package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/kong"
	"github.com/schollz/progressbar/v3"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/history"
)

// matchCmd is "felt match": two bots heads-up in duplicate.
type matchCmd struct {
	A           string `arg:"" optional:"" name:"a" help:"Bot A, whose result is reported (a bot listed above; options after a colon: montecarlo:samples=200,bluff=false). Without bots, --chart redraws --record's chart and --pool prints it."`
	B           string `arg:"" optional:"" name:"b" help:"Bot B."`
	Stack       int64  `help:"Chips each seat starts every hand with (default: 200 big blinds). Seed 001's validation format: --stack 10000 --double-every N."`
	DoubleEvery int    `help:"Double the blinds every N hands (stopping once the big blind passes a quarter of the stack); 0 never does."`
	CV          bool   `name:"cv" help:"Also estimate A's win rate with the control variate (Hold'em): the luck of the cards and of strategists' dice taken out, the interval narrower."`
	// CPUProfile writes a pprof CPU profile of the match (where the bots' time goes).
	CPUProfile string `name:"cpuprofile" placeholder:"FILE" help:"Write a CPU profile of the match to FILE (go tool pprof reads it)."`
	pieceFlags
	arenaFlags
	decisionFlags
	farmFlags
}

// decisionFlags are the flags of "felt match" and "felt gauntlet" about the time
// bots take.
type decisionFlags struct {
	Budget time.Duration `help:"Time each bot may take per decision (e.g. 300ms; 0: no deadline). Bots that think for long (resolve) answer by then; the others ignore it."`
	Timing bool          `help:"Report each bot's decision times by street: p50, p90, p99 and the longest (wall clock; with --json in \"timing\")."`
}

// checkFarm checks the flags for a run shared out through nats (the --nats
// flag's value, "" to play here): decision times are measured where the
// decisions are made, so --timing is refused with --nats.
func (f *decisionFlags) checkFarm(nats string) error {
	if f.Budget < 0 {
		return usageError("--budget cannot be negative")
	}
	if f.Timing && nats != "" {
		return usageError("--timing measures the decisions made on this machine: not with --nats")
	}
	return nil
}

// timings returns where the match's decision times go: nil without --timing.
func (f *decisionFlags) timings() *bot.Timings {
	if !f.Timing {
		return nil
	}
	return new(bot.Timings)
}

// observer returns tm as a bot.DecisionObserver, nil (not a nil pointer in an
// interface) for nil.
func observer(tm *bot.Timings) bot.DecisionObserver {
	if tm == nil {
		return nil
	}
	return tm
}

// timingRows returns tm's rows for bots (all of them when bots is empty), nil
// for nil.
func timingRows(tm *bot.Timings, bots ...string) []bot.TimingRow {
	if tm == nil {
		return nil
	}
	var rows []bot.TimingRow
	for _, r := range tm.Rows() {
		if len(bots) == 0 || slices.Contains(bots, r.Bot) {
			rows = append(rows, r)
		}
	}
	return rows
}

// arenaFlags are the flags "felt match" and "felt league" share.
type arenaFlags struct {
	Hands      int    `default:"10000" help:"Hands to play (per pairing in a league), rounded up to an even number: each deal is played twice with the seats swapped."`
	Seed       string `help:"Seed (a decimal number) fixing every card and decision (default: random; printed)."`
	Variant    string `default:"nl" help:"Game: nl (no-limit Hold'em), pl (pot-limit), limit (fixed-limit) or stud (three card stud)."`
	Workers    int    `help:"Goroutines to use (default: all cores); the result for a seed does not depend on it."`
	JSON       bool   `name:"json" help:"Print one JSON object instead of text."`
	NoProgress bool   `help:"Do not draw the progress bar on standard error."`
	Trace      bool   `help:"Print every hand: each action with every player's cards, stack, decision and chance of winning (meant for small --hands; plays on one worker)."`
	History    string `placeholder:"DIR" help:"Write every hand as PHH to DIR, one .phhs file per pairing (plays on one worker)."`
}

// Help is the long help of "felt match".
func (c *matchCmd) Help() string {
	return `Plays bot A against bot B heads-up. Every deal is played twice, the second time with
the bots' seats (and so their cards) swapped, which cancels most of the luck of the cards.
The result is A's win rate in big blinds per 100 hands (bb/100) and thousandths of a big
blind per hand (mbb/g), each with the half-width of its 95% confidence interval (from the
variance of the deal pairs' results, normal approximation).

` + arenaHelp() + `

--stack and --double-every play seed 001's validation format (--stack 10000
--double-every N): stacks still reset every hand, so every deal can be played twice,
and with doubling blinds each hand's result counts in its own big blinds. Every
result also gives bb/hand ± the spread (the standard deviation of one hand's result),
as seed 001 reported, and names the format it was played in.

--cv adds the estimate with a control variate (AIVAT-style, Hold'em only): each deal
of cards counts at its expectation (an all-in before the river at its equity) and
each decision of a bot that states its strategy (fold, call, raise, maniac; chart and
tag before the flop) at the mean over its actions. The mean is unchanged; the
interval is narrower, and the report says by how much.

--json prints one object: "bots" ([A, B]), "a", "b", "variant", "format", "stack",
"double_every", "hands", "deals", "first_deal", "seed", "chips" (A's net chips), "bb_per_100",
"ci95" (half-width, bb/100), "mbb_per_game", "mbb_ci95", "bb_per_hand", "bb_spread",
"workers", "elapsed_ns", "hands_per_second", "budget_ns"; with --cv "cv": {"bb_per_100", "ci95",
"mbb_per_game", "mbb_ci95", "narrowing"} (the plain half-width over this one's); with
--timing "timing": [{"bot", "street", "decisions", "p50_ms", "p90_ms", "p99_ms", "max_ms"}];
for a stopped match "stopped" and "dropped" (the deals completed after the first one that
was not).

--budget gives every decision a deadline (bots that think for long, resolve, answer by
it: its own budget= option still bounds it too); --timing prints each bot's decision
times by street (wall clock, so other jobs on the machine lengthen them).

` + matchPiecesHelp
}

// arenaHelp describes the games and lists the bots, for the help of match and league.
func arenaHelp() string {
	var b strings.Builder
	b.WriteString(`Stacks are reset before every hand: 200 big blinds in Hold'em (blinds 50/100; limit bets
100/200), 200 antes in three card stud (ante 1, raises 1 to 10; its "bb" is the ante).

Bots:`)
	for _, info := range bot.List() {
		fmt.Fprintf(&b, "\n  %-11s %s", info.Name, info.Description)
	}
	return b.String()
}

// Run is called by kong.
func (c *matchCmd) Run(ctx context.Context) error {
	return c.run(ctx, os.Stdout, os.Stderr)
}

// runMatch parses args as "felt match" would and runs the command: the entry point
// for tests. Bad arguments give an exitError with code 2.
func runMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c struct {
		Match matchCmd `cmd:""`
	}
	if err := parseCommand(&c, "match", args, stdout); err != nil {
		return err
	}
	return c.Match.run(ctx, stdout, stderr)
}

// parseCommand parses the arguments of one subcommand into c, a struct holding just
// it: the runX entry points of the tests. Bad arguments are a usage error (exit 2).
func parseCommand(c any, name string, args []string, stdout io.Writer) error {
	parser, err := kong.New(c, kong.Name("felt"), kong.Writers(stdout, io.Discard), kong.Exit(func(int) {}))
	if err != nil {
		return err
	}
	if _, err := parser.Parse(append([]string{name}, args...)); err != nil {
		return usageError("%v", err)
	}
	return nil
}

// matchOutput is what "felt match --json" prints.
type matchOutput struct {
	Bots           [2]string `json:"bots"`
	A              string    `json:"a"`
	B              string    `json:"b"`
	Variant        string    `json:"variant"`
	Format         string    `json:"format"`
	Stack          int64     `json:"stack"`
	DoubleEvery    int       `json:"double_every"`
	Hands          int       `json:"hands"`
	Deals          int       `json:"deals"`
	FirstDeal      int       `json:"first_deal"`
	Seed           uint64    `json:"seed"`
	Chips          int64     `json:"chips"`
	BBPer100       float64   `json:"bb_per_100"`
	CI95           float64   `json:"ci95"`
	MBBPerGame     float64   `json:"mbb_per_game"`
	MBBCI95        float64   `json:"mbb_ci95"`
	BBPerHand      float64   `json:"bb_per_hand"`
	BBSpread       float64   `json:"bb_spread"`
	CV             *cvOutput `json:"cv,omitempty"`
	Workers        int       `json:"workers"`
	ElapsedNS      int64     `json:"elapsed_ns"`
	HandsPerSecond float64   `json:"hands_per_second"`
	// BudgetNS is --budget (0: none); Timing the decision times, with --timing.
	BudgetNS int64              `json:"budget_ns"`
	Timing   []arena.TimingJSON `json:"timing,omitempty"`
	// Stopped is set for a match stopped (SIGINT, SIGTERM) before its last
	// deal, Dropped the deals completed after the first one that was not.
	Stopped bool `json:"stopped,omitempty"`
	Dropped int  `json:"dropped,omitempty"`
}

// cvOutput is the control variate's estimate in --json.
type cvOutput struct {
	BBPer100   float64 `json:"bb_per_100"`
	CI95       float64 `json:"ci95"`
	MBBPerGame float64 `json:"mbb_per_game"`
	MBBCI95    float64 `json:"mbb_ci95"`
	Narrowing  float64 `json:"narrowing"`
}

// newCVOutput returns r for --json, nil for nil.
func newCVOutput(r *arena.CVRate) *cvOutput {
	if r == nil {
		return nil
	}
	return &cvOutput{r.BBPer100, r.CI95, r.MBBPerGame, r.MBBCI95, r.Narrowing}
}

// cvLine writes the control variate's line of a report: the estimate and how
// much it narrows the plain interval.
func cvLine(w io.Writer, who string, plainMBBCI float64, r *arena.CVRate) {
	if r == nil {
		return
	}
	fmt.Fprintf(w, "%s with the control variate: %+.2f bb/100 ± %.2f, %+.1f mbb/g ± %.1f (95%% CI ±%.0f → ±%.0f mbb/g, %.2f× narrower)\n",
		who, r.BBPer100, r.CI95, r.MBBPerGame, r.MBBCI95, plainMBBCI, r.MBBCI95, r.Narrowing)
}

func (c *matchCmd) run(ctx context.Context, stdout, stderr io.Writer) error {
	if err := c.check(); err != nil {
		return err
	}
	switch {
	case c.Pool:
		return printMatchPools(stdout, stderr, c.Record, c.JSON)
	case c.A == "":
		return drawMatchChart(stderr, c.Record, c.Chart, c.Variant)
	}
	first, err := c.firstDeal(&c.arenaFlags)
	if err != nil {
		return err
	}
	s, err := c.settle([]string{c.A, c.B})
	if err != nil {
		return err
	}
	if c.NATS != "" && (c.Trace || c.History != "") {
		return usageError("--trace and --history play on one machine: not with --nats")
	}
	log, err := c.handLog(stdout)
	if err != nil {
		return err
	}
	format := arena.Format{Stack: c.Stack, DoubleEvery: c.DoubleEvery}
	if err := format.Check(s.game); err != nil {
		return usageError("--stack, --double-every: %v", err)
	}
	if c.CV {
		if err := arena.CheckControlVariate(s.game); err != nil {
			return usageError("--cv: %v", err)
		}
	}
	if err := c.checkFarm(c.NATS); err != nil {
		return err
	}
	tm := c.timings()
	mc := arena.MatchConfig{A: c.A, B: c.B, Game: s.game, Hands: c.Hands, Seed: s.seed, FirstDeal: first, Workers: c.Workers,
		Format: format, ControlVariate: c.CV, Budget: c.Budget, Timings: observer(tm)}
	if err := c.checkRecord(stderr, &mc); err != nil {
		return err
	}
	if log != nil {
		file, table := pairingFile(c.A, c.B), "felt match "+c.A+" vs "+c.B
		mc.Hand = func(cfg engine.Config, h *engine.Hand, players []string) error {
			return log.hand(file, table, cfg, h, players)
		}
	}
	conn, err := c.farm(ctx, stderr)
	if err != nil {
		return err
	}
	defer closeFarm(conn)
	stop, err := startCPUProfile(c.CPUProfile)
	if err != nil {
		return err
	}
	defer stop()
	bar := c.progress(stderr, int64(2*((c.Hands+1)/2)), c.A+" vs "+c.B)
	mc.Progress = bar.add
	r, err := matchFunc(conn)(ctx, mc)
	bar.finish()
	if err := log.close(); err != nil {
		return err
	}
	return endPiece(ctx, err, r.Partial, r.FirstDeal, r.Deals, mc.FirstDeal+(mc.Hands+1)/2,
		func() error { return c.report(stdout, stderr, &mc, r, tm) })
}

// report records r, the result of mc (with --record, then draws --chart), and
// prints it, with the decision times tm.
func (c *matchCmd) report(stdout, stderr io.Writer, mc *arena.MatchConfig, r arena.Result, tm *bot.Timings) error {
	if err := c.record(stderr, mc, r); err != nil {
		return err
	}
	out := matchOutput{Bots: [2]string{r.A, r.B}, A: r.A, B: r.B, Variant: r.Game, Format: r.Format.String(),
		Stack: r.Format.Stack, DoubleEvery: r.Format.DoubleEvery, Hands: r.Hands, Deals: r.Deals, FirstDeal: r.FirstDeal,
		Seed: r.Seed, Chips: r.Chips, BBPer100: r.BBPer100, CI95: r.CI95, MBBPerGame: r.MBBPerGame, MBBCI95: r.MBBCI95,
		BBPerHand: r.BBPerHand, BBSpread: r.BBSpread, CV: newCVOutput(r.CV),
		Workers: r.Workers, ElapsedNS: r.Elapsed.Nanoseconds(), HandsPerSecond: float64(r.Hands) / r.Elapsed.Seconds(),
		BudgetNS: c.Budget.Nanoseconds(), Timing: arena.TimingsJSON(timingRows(tm)), Stopped: r.Partial, Dropped: r.Dropped}
	if c.JSON {
		return writeArenaJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "%s vs %s: %s, %s hands (%s duplicate deals), seed %d",
		r.A, r.B, arenaGameName(r.Game), thousands(int64(r.Hands)), thousands(int64(r.Deals)), r.Seed)
	if r.FirstDeal != 0 || r.Partial {
		fmt.Fprintf(stdout, ", deals %s", arena.FormatDeals(r.FirstDeal, r.FirstDeal+r.Deals))
	}
	fmt.Fprintln(stdout)
	if r.Partial {
		fmt.Fprintf(stdout, "Stopped: the deals completed from deal %d up to the first one that was not (%d completed after it left out)\n",
			r.FirstDeal, r.Dropped)
	}
	fmt.Fprintf(stdout, "format: %s\n", r.Format)
	fmt.Fprintf(stdout, "%s: %+.2f bb/100 ± %.2f (95%%), %+.1f mbb/g ± %.1f, %s chips\n",
		r.A, r.BBPer100, r.CI95, r.MBBPerGame, r.MBBCI95, signedThousands(r.Chips))
	fmt.Fprintf(stdout, "%s: %+.3f bb/hand, spread %.2f bb (standard deviation of a hand)\n", r.A, r.BBPerHand, r.BBSpread)
	cvLine(stdout, r.A, r.MBBCI95, r.CV)
	_, err := fmt.Fprintf(stdout, "%v on %d workers, %s hands/s\n",
		r.Elapsed.Round(time.Millisecond), r.Workers, thousands(int64(out.HandsPerSecond)))
	if err != nil || tm == nil {
		return err
	}
	return arena.WriteTimings(stdout, timingRows(tm), c.Budget)
}

// arenaSettings is what the shared flags mean once checked.
type arenaSettings struct {
	game arena.Game
	seed uint64
}

// settle checks the bots and the shared flags; every problem is a usage error.
func (f *arenaFlags) settle(bots []string) (arenaSettings, error) {
	var s arenaSettings
	g, err := arena.ParseGame(f.Variant)
	if err != nil {
		return s, usageError("--variant: %v", err)
	}
	s.game = g
	// Heads-up, as matches, leagues and gauntlets play; a tournament's bots are
	// told its seats when it makes them.
	for _, name := range bots {
		if _, err := bot.New(name, bot.Options{Game: g.Bot(2)}); err != nil {
			return s, usageError("%v", err)
		}
	}
	if f.Hands < arena.MinHands {
		return s, usageError("--hands: at least %d, not %d", arena.MinHands, f.Hands)
	}
	if f.Workers < 0 {
		return s, usageError("--workers cannot be negative")
	}
	if f.Trace && f.JSON {
		return s, usageError("--trace and --json both print on standard output: choose one")
	}
	if f.Seed == "" {
		rs := cards.RandomSeed()
		s.seed = binary.LittleEndian.Uint64(rs[:8])
	} else if s.seed, err = strconv.ParseUint(f.Seed, 10, 64); err != nil {
		return s, usageError("--seed: %q is not a decimal number from 0 to %d", f.Seed, uint64(1<<64-1))
	}
	return s, nil
}

// arenaBar is a progress bar on standard error, or nothing.
type arenaBar struct{ pb *progressbar.ProgressBar }

// progress returns a bar counting total hands, drawn on w unless turned off.
func (f *arenaFlags) progress(w io.Writer, total int64, what string) arenaBar {
	if f.NoProgress {
		return arenaBar{}
	}
	return arenaBar{progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionSetItsString("hands"),
		progressbar.OptionShowIts(),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}

// add counts finished hands; it is safe to call from many goroutines.
func (b arenaBar) add(n int) {
	if b.pb != nil {
		_ = b.pb.Add(n)
	}
}

// finish removes the bar.
func (b arenaBar) finish() {
	if b.pb != nil {
		_ = b.pb.Finish()
	}
}

// arenaGameName says a variant's name in words.
func arenaGameName(variant string) string {
	switch variant {
	case "nl":
		return "no-limit Hold'em"
	case "pl":
		return "pot-limit Hold'em"
	case "limit":
		return "fixed-limit Hold'em"
	case "stud":
		return "three card stud"
	}
	return variant
}

// writeArenaJSON prints v as indented JSON.
func writeArenaJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// signedThousands is thousands with a plus sign on positive numbers.
func signedThousands(n int64) string {
	if n > 0 {
		return "+" + thousands(n)
	}
	return thousands(n)
}

// handLog is what --trace and --history make of the hands played: a trace on
// standard output and PHH files in a directory, one file per pairing (the hands
// of a pairing arrive together, so one file is open at a time). A nil *handLog
// does nothing.
type handLog struct {
	tracer *arena.Tracer
	dir    string
	file   string // the open file's name
	f      *os.File
	w      *history.Writer
	n      int64 // hands written to the open file
}

// handLog returns the log the flags ask for, nil when neither --trace nor
// --history is given.
func (f *arenaFlags) handLog(stdout io.Writer) (*handLog, error) {
	if !f.Trace && f.History == "" {
		return nil, nil
	}
	l := &handLog{dir: f.History}
	if f.Trace {
		l.tracer = arena.NewTracer(stdout)
	}
	if l.dir != "" {
		if err := os.MkdirAll(l.dir, 0o755); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// hand traces hand h and writes it as PHH to DIR/file, the history naming table.
func (l *handLog) hand(file, table string, cfg engine.Config, h *engine.Hand, players []string) error {
	if l.tracer != nil {
		if err := l.tracer.Hand(cfg, h, players); err != nil {
			return err
		}
	}
	if l.dir == "" {
		return nil
	}
	if file != l.file {
		if err := l.close(); err != nil {
			return err
		}
		f, err := os.Create(filepath.Join(l.dir, file))
		if err != nil {
			return err
		}
		l.file, l.f, l.w, l.n = file, f, history.NewWriter(f), 0
	}
	l.n++
	p, err := history.FromHand(cfg, h, history.Info{Hand: l.n, Table: table, Players: players})
	if err != nil {
		return err
	}
	return l.w.Write(p)
}

// close closes the open history file, if any.
func (l *handLog) close() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.file, l.f, l.w = "", nil, nil
	return err
}

// pairingFile names the history file of bot a against bot b: "a-vs-b.phhs", every
// character of the names but letters, digits, '.', '_', '=' and '-' made '_'
// (bot options may hold ':', ',' and paths).
func pairingFile(a, b string) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', strings.ContainsRune("._=-", r):
				return r
			}
			return '_'
		}, s)
	}
	return clean(a) + "-vs-" + clean(b) + ".phhs"
}
