package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/felt-poker/felt/internal/arena"
)

// gauntletCmd is "felt gauntlet": one bot against every exploiter.
type gauntletCmd struct {
	Bot string `arg:"" name:"bot" help:"The bot to measure (as for felt match)."`
	CV  bool   `name:"cv" help:"Estimate every match with the control variate too (see felt match --cv) and judge by it."`
	arenaFlags
	decisionFlags
	farmFlags
}

// Help is the long help of "felt gauntlet".
func (c *gauntletCmd) Help() string {
	return `Plays the bot in duplicate (see felt match) against each exploiter, a simple player
that punishes one leak: always all-in (raise), the calling station (call), the pot-odds
caller (potodds), the min-raiser (minraise), the pot-size maniac (maniac) and the
tight-aggressive chart player (tag). Every match has the same seed, so every exploiter
sees the same deals. Prints the bot's bb/100 against each, ± the 95% half-width, and the
worst case: the bot survives when it loses to no exploiter by more than the interval
allows.

` + arenaHelp() + `

--json prints one object: "bot", "variant", "hands" (per match), "seed", "matches"
([{"exploiter", "bot", "bb_per_100", "ci95", "mbb_per_game", "chips", with --cv "cv"}]), "worst" (an
index into matches), "survives", "elapsed_ns", "budget_ns" and with --timing "timing" (the
bot's decision times over every match, as in felt match --json).

--budget and --timing as for felt match; --timing reports the measured bot's decision
times over all the matches (the exploiters' are not shown).`
}

// Run is called by kong.
func (c *gauntletCmd) Run(ctx context.Context) error {
	return c.run(ctx, os.Stdout, os.Stderr)
}

// runGauntlet parses args as "felt gauntlet" would and runs the command: the entry
// point for tests. Bad arguments give an exitError with code 2.
func runGauntlet(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c struct {
		Gauntlet gauntletCmd `cmd:""`
	}
	if err := parseCommand(&c, "gauntlet", args, stdout); err != nil {
		return err
	}
	return c.Gauntlet.run(ctx, stdout, stderr)
}

// gauntletMatch is one line of "felt gauntlet --json".
type gauntletMatch struct {
	Exploiter  string    `json:"exploiter"`
	Bot        string    `json:"bot"`
	BBPer100   float64   `json:"bb_per_100"`
	CI95       float64   `json:"ci95"`
	MBBPerGame float64   `json:"mbb_per_game"`
	Chips      int64     `json:"chips"`
	CV         *cvOutput `json:"cv,omitempty"`
}

// gauntletOutput is what "felt gauntlet --json" prints.
type gauntletOutput struct {
	Bot       string             `json:"bot"`
	Variant   string             `json:"variant"`
	Hands     int                `json:"hands"`
	Seed      uint64             `json:"seed"`
	Matches   []gauntletMatch    `json:"matches"`
	Worst     int                `json:"worst"`
	Survives  bool               `json:"survives"`
	ElapsedNS int64              `json:"elapsed_ns"`
	BudgetNS  int64              `json:"budget_ns"`
	Timing    []arena.TimingJSON `json:"timing,omitempty"`
}

func (c *gauntletCmd) run(ctx context.Context, stdout, stderr io.Writer) error {
	if c.Trace || c.History != "" {
		return usageError("--trace and --history are for felt match and felt league")
	}
	s, err := c.settle([]string{c.Bot})
	if err != nil {
		return err
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
	conn, err := c.farm(ctx, stderr)
	if err != nil {
		return err
	}
	defer closeFarm(conn)
	start := time.Now()
	bar := c.progress(stderr, int64(len(arena.Exploiters)*2*((c.Hands+1)/2)), c.Bot+" gauntlet")
	g, err := arena.PlayGauntlet(ctx, arena.GauntletConfig{Bot: c.Bot, Game: s.game, Hands: c.Hands, Seed: s.seed,
		Workers: c.Workers, Progress: bar.add, ControlVariate: c.CV, Match: matchFunc(conn), Budget: c.Budget, Timings: observer(tm)})
	bar.finish()
	if err != nil {
		return err
	}
	out := gauntletOutput{Bot: c.Bot, Variant: s.game.Name, Seed: s.seed, Worst: g.Worst, Survives: g.Survives(),
		ElapsedNS: time.Since(start).Nanoseconds(), BudgetNS: c.Budget.Nanoseconds(), Timing: arena.TimingsJSON(timingRows(tm, c.Bot))}
	for k, r := range g.Matches {
		out.Hands = r.Hands
		out.Matches = append(out.Matches, gauntletMatch{Exploiter: arena.Exploiters[k].Name, Bot: r.B,
			BBPer100: r.BBPer100, CI95: r.CI95, MBBPerGame: r.MBBPerGame, Chips: r.Chips, CV: newCVOutput(r.CV)})
	}
	if c.JSON {
		return writeArenaJSON(stdout, out)
	}
	if err := writeGauntlet(stdout, out); err != nil || tm == nil {
		return err
	}
	return arena.WriteTimings(stdout, timingRows(tm, c.Bot), c.Budget)
}

// writeGauntlet prints the gauntlet's table and its worst case.
func writeGauntlet(w io.Writer, out gauntletOutput) error {
	fmt.Fprintf(w, "gauntlet: %s, %s, %s hands per match (duplicate), seed %d; bb/100 of %s, ± 95%%\n\n",
		out.Bot, arenaGameName(out.Variant), thousands(int64(out.Hands)), out.Seed, out.Bot)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	cv := out.Matches[0].CV != nil
	if cv {
		fmt.Fprintln(tw, "exploiter\tbot\tbb/100\t± 95%\twith the control variate\t± 95%\t")
	} else {
		fmt.Fprintln(tw, "exploiter\tbot\tbb/100\t± 95%\t")
	}
	for _, m := range out.Matches {
		fmt.Fprintf(tw, "%s\t%s\t%+.1f\t%.1f\t", m.Exploiter, m.Bot, m.BBPer100, m.CI95)
		if cv {
			fmt.Fprintf(tw, "%+.1f\t%.1f\t", m.CV.BBPer100, m.CV.CI95)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	worst := out.Matches[out.Worst]
	verdict := "survives: it loses to no exploiter by more than the interval allows"
	if !out.Survives {
		verdict = "does not survive: it loses to the " + worst.Exploiter
	}
	rate, ci := worst.BBPer100, worst.CI95
	if cv {
		rate, ci = worst.CV.BBPer100, worst.CV.CI95
		verdict += " (judged with the control variate)"
	}
	_, err := fmt.Fprintf(w, "\nworst: %s %+.1f ± %.1f bb/100; %s %s\n", worst.Exploiter, rate, ci, out.Bot, verdict)
	return err
}
