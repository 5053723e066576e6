package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/kong"
	"github.com/schollz/progressbar/v3"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
)

// matchCmd is "felt match": two bots heads-up in duplicate.
type matchCmd struct {
	A string `arg:"" name:"a" help:"Bot A, whose result is reported (a bot listed above; options after a colon: montecarlo:samples=200,bluff=false)."`
	B string `arg:"" name:"b" help:"Bot B."`
	arenaFlags
}

// arenaFlags are the flags "felt match" and "felt league" share.
type arenaFlags struct {
	Hands      int    `default:"10000" help:"Hands to play (per pairing in a league), rounded up to an even number: each deal is played twice with the seats swapped."`
	Seed       string `help:"Seed (a decimal number) fixing every card and decision (default: random; printed)."`
	Variant    string `default:"nl" help:"Game: nl (no-limit Hold'em), pl (pot-limit), limit (fixed-limit) or stud (three card stud)."`
	Workers    int    `help:"Goroutines to use (default: all cores); the result for a seed does not depend on it."`
	JSON       bool   `name:"json" help:"Print one JSON object instead of text."`
	NoProgress bool   `help:"Do not draw the progress bar on standard error."`
}

// Help is the long help of "felt match".
func (c *matchCmd) Help() string {
	return `Plays bot A against bot B heads-up. Every deal is played twice, the second time with
the bots' seats (and so their cards) swapped, which cancels most of the luck of the cards.
The result is A's win rate in big blinds per 100 hands (bb/100) and thousandths of a big
blind per hand (mbb/g), each with the half-width of its 95% confidence interval (from the
variance of the deal pairs' results, normal approximation).

` + arenaHelp() + `

--json prints one object: "bots" ([A, B]), "a", "b", "variant", "hands", "deals", "seed",
"chips" (A's net chips), "bb_per_100", "ci95" (half-width, bb/100), "mbb_per_game",
"mbb_ci95", "workers", "elapsed_ns", "hands_per_second".`
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
func (c *matchCmd) Run() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return c.run(ctx, os.Stdout, os.Stderr)
}

// runMatch parses args as "felt match" would and runs the command: the entry point
// for tests. Bad arguments give an exitError with code 2.
func runMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c struct {
		Match matchCmd `cmd:""`
	}
	if err := parseArenaArgs(&c, "match", args, stdout); err != nil {
		return err
	}
	return c.Match.run(ctx, stdout, stderr)
}

// parseArenaArgs parses the arguments of one subcommand into c, a struct holding just it.
func parseArenaArgs(c any, name string, args []string, stdout io.Writer) error {
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
	Hands          int       `json:"hands"`
	Deals          int       `json:"deals"`
	Seed           uint64    `json:"seed"`
	Chips          int64     `json:"chips"`
	BBPer100       float64   `json:"bb_per_100"`
	CI95           float64   `json:"ci95"`
	MBBPerGame     float64   `json:"mbb_per_game"`
	MBBCI95        float64   `json:"mbb_ci95"`
	Workers        int       `json:"workers"`
	ElapsedNS      int64     `json:"elapsed_ns"`
	HandsPerSecond float64   `json:"hands_per_second"`
}

func (c *matchCmd) run(ctx context.Context, stdout, stderr io.Writer) error {
	s, err := c.settle([]string{c.A, c.B})
	if err != nil {
		return err
	}
	bar := c.progress(stderr, int64(2*((c.Hands+1)/2)), c.A+" vs "+c.B)
	r, err := arena.Match(ctx, arena.MatchConfig{A: c.A, B: c.B, Game: s.game, Hands: c.Hands, Seed: s.seed,
		Workers: c.Workers, Progress: bar.add})
	bar.finish()
	if err != nil {
		return err
	}
	out := matchOutput{Bots: [2]string{r.A, r.B}, A: r.A, B: r.B, Variant: r.Game, Hands: r.Hands, Deals: r.Deals,
		Seed: r.Seed, Chips: r.Chips, BBPer100: r.BBPer100, CI95: r.CI95, MBBPerGame: r.MBBPerGame, MBBCI95: r.MBBCI95,
		Workers: r.Workers, ElapsedNS: r.Elapsed.Nanoseconds(), HandsPerSecond: float64(r.Hands) / r.Elapsed.Seconds()}
	if c.JSON {
		return writeArenaJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "%s vs %s: %s, %s hands (%s duplicate deals), seed %d\n",
		r.A, r.B, arenaGameName(r.Game), thousands(int64(r.Hands)), thousands(int64(r.Deals)), r.Seed)
	fmt.Fprintf(stdout, "%s: %+.2f bb/100 ± %.2f (95%%), %+.1f mbb/g ± %.1f, %s chips\n",
		r.A, r.BBPer100, r.CI95, r.MBBPerGame, r.MBBCI95, signedThousands(r.Chips))
	_, err = fmt.Fprintf(stdout, "%v on %d workers, %s hands/s\n",
		r.Elapsed.Round(time.Millisecond), r.Workers, thousands(int64(out.HandsPerSecond)))
	return err
}

// arenaSettings is what the shared flags mean once checked.
type arenaSettings struct {
	game arena.Game
	seed uint64
}

// settle checks the bots and the shared flags; every problem is a usage error.
func (f *arenaFlags) settle(bots []string) (arenaSettings, error) {
	var s arenaSettings
	for _, name := range bots {
		if _, err := bot.New(name, bot.Options{}); err != nil {
			return s, usageError("%v", err)
		}
	}
	g, err := arena.ParseGame(f.Variant)
	if err != nil {
		return s, usageError("--variant: %v", err)
	}
	s.game = g
	if f.Hands < arena.MinHands {
		return s, usageError("--hands: at least %d, not %d", arena.MinHands, f.Hands)
	}
	if f.Workers < 0 {
		return s, usageError("--workers cannot be negative")
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
