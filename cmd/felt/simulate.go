package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/schollz/progressbar/v3"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/history"
)

// simCmd is "felt simulate": hands of random legal actions written as histories.
type simCmd struct {
	Variant string     `enum:"nl,limit,pl,stud" default:"nl" help:"Game: nl, limit or pl Hold'em, or stud (three card stud)."`
	Players int        `default:"6" help:"Seats at the table, 2 to 10."`
	Hands   int        `default:"100" help:"Hands to play."`
	Seed    uint64     `default:"1" help:"Seed: hand i is shuffled by seed+i and the actions drawn from a stream keyed by the seed."`
	Stacks  stackRange `aliases:"stack" placeholder:"N|LO-HI" help:"Each seat's stack at the start of each hand: N for every seat, or LO-HI to draw every seat's stack uniformly from LO to HI each hand (default 1000 = 100 big blinds; stud 100)."`
	Out     string     `required:"" placeholder:"FILE.phhs" help:"File to write."`
	Format  string     `enum:"phh,pokerstars" default:"phh" help:"phh (a .phhs file) or pokerstars (text for hand trackers; Hold'em only)."`
}

// Help is the long help of "felt simulate".
func (c *simCmd) Help() string {
	return `Plays hands with random legal actions (engine.RandomAction) and writes them, so that
felt and other engines (PokerKit) can replay the same hands and be checked against each
other. No limit and pot limit are 5/10 blinds, limit 10/20 bets, stud the Casino Day
ante of 1. Stacks start afresh every hand and the button moves one seat each hand.
--stacks 20-1519 deals unequal stacks (side pots, short all-ins); they are drawn from
their own stream keyed by the seed, so the same seed writes the same file.`
}

// stackRange is the --stacks flag: every seat's stack from lo to hi (lo == hi: fixed).
// The zero value means the variant's default.
type stackRange struct{ lo, hi int64 }

// UnmarshalText reads "N" or "LO-HI" (kong calls it for the flag).
func (r *stackRange) UnmarshalText(b []byte) error {
	los, his, isRange := strings.Cut(string(b), "-")
	if !isRange {
		his = los
	}
	lo, err1 := strconv.ParseInt(los, 10, 64)
	hi, err2 := strconv.ParseInt(his, 10, 64)
	switch {
	case err1 != nil || err2 != nil:
		return fmt.Errorf("stacks %q: want a number N or a range LO-HI", b)
	case lo < 1 || hi < lo || hi > history.MaxChips:
		return fmt.Errorf("stacks %q: want 1 <= LO <= HI <= %d", b, history.MaxChips)
	}
	r.lo, r.hi = lo, hi
	return nil
}

// deal sets every stack for the next hand, drawing from r when the range is wide.
func (sr stackRange) deal(stacks []int64, r *rand.Rand) {
	for i := range stacks {
		stacks[i] = sr.lo
		if sr.hi > sr.lo {
			stacks[i] += r.Int64N(sr.hi - sr.lo + 1)
		}
	}
}

// Run is called by kong.
func (c *simCmd) Run() error { return c.run(os.Stderr) }

// runSimulate parses args as "felt simulate" would and runs it, drawing any progress
// bar on stderr: the entry point for tests. Bad arguments give an exitError with code 2.
func runSimulate(args []string, stderr io.Writer) error {
	var c struct {
		Simulate simCmd `cmd:""`
	}
	parser, err := kong.New(&c, kong.Name("felt"), kong.Writers(io.Discard, io.Discard), kong.Exit(func(int) {}))
	if err != nil {
		return err
	}
	if _, err := parser.Parse(append([]string{"simulate"}, args...)); err != nil {
		return usageError("%v", err)
	}
	return c.Simulate.run(stderr)
}

// simulateConfig is the configuration of the first hand.
func (c *simCmd) simulateConfig() (engine.Config, error) {
	var cfg engine.Config
	if c.Stacks == (stackRange{}) {
		c.Stacks = stackRange{1000, 1000}
		if c.Variant == "stud" {
			c.Stacks = stackRange{100, 100}
		}
	}
	switch c.Variant {
	case "nl":
		cfg = engine.Config{Structure: engine.NoLimit, SmallBlind: 5, BigBlind: 10}
	case "pl":
		cfg = engine.Config{Structure: engine.PotLimit, SmallBlind: 5, BigBlind: 10}
	case "limit":
		cfg = engine.Config{Structure: engine.FixedLimit, SmallBlind: 5, BigBlind: 10, SmallBet: 10, BigBet: 20}
	case "stud":
		cfg = engine.Config{Variant: engine.StudThree}
		if c.Format == "pokerstars" {
			return cfg, usageError("--format pokerstars is for Hold'em only")
		}
	}
	if c.Players < engine.MinSeats || c.Players > engine.MaxSeats {
		return cfg, usageError("--players %d: want %d to %d", c.Players, engine.MinSeats, engine.MaxSeats)
	}
	if c.Hands < 0 {
		return cfg, usageError("--hands must be positive")
	}
	cfg.Stacks = make([]int64, c.Players)
	for i := range cfg.Stacks {
		cfg.Stacks[i] = c.Stacks.lo // the first hand's are dealt in run
	}
	cfg.Button = c.Players - 1
	if err := cfg.Validate(); err != nil {
		return cfg, usageError("%v", err)
	}
	return cfg, nil
}

func (c *simCmd) run(stderr io.Writer) error {
	cfg, err := c.simulateConfig()
	if err != nil {
		return err
	}
	f, err := os.Create(c.Out)
	if err != nil {
		return usageError("%v", err)
	}
	defer f.Close()
	out := bufio.NewWriter(f)
	phhs := history.NewWriter(out)
	var bar *progressbar.ProgressBar
	if c.Hands >= 10_000 {
		bar = progressbar.NewOptions(c.Hands, progressbar.OptionSetWriter(stderr), progressbar.OptionSetDescription("hands"),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionThrottle(100_000_000))
	}
	r := rand.New(rand.NewPCG(c.Seed, 0x9e3779b97f4a7c15))
	stackRand := rand.New(rand.NewPCG(c.Seed, 0x5bd1e9955bd1e995)) // stacks apart from actions
	var h *engine.Hand
	for i := 0; i < c.Hands; i++ {
		cfg.Seed = cards.SeedFromUint64(c.Seed + uint64(i))
		c.Stacks.deal(cfg.Stacks, stackRand)
		if h == nil {
			h, err = engine.New(cfg)
		} else {
			err = h.Reset(cfg)
		}
		if err != nil {
			return fmt.Errorf("hand %d: %w", i+1, err)
		}
		if err := engine.PlayOut(h, r); err != nil {
			return fmt.Errorf("hand %d: %w", i+1, err)
		}
		info := history.Info{Hand: int64(i + 1), Table: "simulate"}
		if c.Format == "pokerstars" {
			if i > 0 {
				fmt.Fprint(out, "\n\n")
			}
			err = history.WritePokerStars(out, cfg, h, info)
		} else {
			var p *history.PHH
			if p, err = history.FromHand(cfg, h, info); err == nil {
				err = phhs.Write(p)
			}
		}
		if err != nil {
			return fmt.Errorf("hand %d: %w", i+1, err)
		}
		cfg.Button = (cfg.Button + 1) % len(cfg.Stacks)
		if bar != nil {
			_ = bar.Add(1)
		}
	}
	if bar != nil {
		_ = bar.Finish()
		fmt.Fprintln(stderr)
	}
	if err := out.Flush(); err != nil {
		return err
	}
	return f.Close()
}
