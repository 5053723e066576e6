package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/lbr"
)

// evolveCmd is "felt evolve": neural bots evolved by play.
type evolveCmd struct {
	Population  int      `default:"16" help:"Networks in each generation."`
	Generations int      `default:"20" help:"Generations to run."`
	Hands       int      `default:"400" help:"Hands of each fitness match (duplicate)."`
	Hidden      int      `default:"8" help:"Hidden units of each network."`
	Rivals      int      `default:"2" help:"Members of its own generation each network plays."`
	Champions   int      `default:"3" help:"Past champions (hall of fame) each network plays."`
	Against     []string `help:"Fixed bots every network also plays for its fitness (comma-separated)."`
	Gauntlet    bool     `help:"Every network also plays every exploiter of felt gauntlet; its fitness is the mean of its mean bb/100 and its worst result against them."`
	LBR         int      `name:"lbr" placeholder:"HANDS" help:"Measure each generation's best by Local Best Response over HANDS hands (felt lbr) and make the champion the one LBR wins least from (plus its gauntlet worst case with --gauntlet); 0 does not."`
	Bench       []string `default:"call,chart" help:"Bots each generation's best is measured against (comma-separated)."`
	BenchHands  int      `default:"2000" help:"Hands of each benchmark match."`
	Seed        string   `help:"Seed (a decimal number) fixing the whole run (default: random; printed)."`
	Variant     string   `default:"nl" help:"Game: nl, pl, limit or stud."`
	Out         string   `default:"weights.json" help:"Where to write the champion's weights (for neural:weights=FILE)."`
	Chart       string   `help:"Draw each generation's best against the benchmarks to this file (.svg or .png)."`
	Workers     int      `help:"Goroutines to use (default: all cores); the result for a seed does not depend on it."`
	NoProgress  bool     `help:"Do not draw the progress bar on standard error."`
}

// Help is the long help of "felt evolve".
func (c *evolveCmd) Help() string {
	return `Evolves neural bots (see "neural" in felt match --help) by play. Each generation every
network plays duplicate matches against a few others of its generation, a few past
champions drawn from the hall of fame (each generation's best), and any --against bots;
its fitness is its mean bb/100. With --gauntlet it also plays every exploiter of felt
gauntlet, and its fitness is the mean of that and its worst result against them, so a
network that an exploiter beats (all-in with any two cards) cannot win. The best networks pass on unchanged; the rest of the next
generation are children of parents chosen by tournaments of three, each hidden unit from
one parent or the other, with normal noise added to some weights. Playing old champions
keeps progress real: a network cannot thrive by beating only its own generation.

Each generation's best is also measured against the --bench bots, always on the same
deals; the champion written to --out is the generation best that did best there. With
--lbr N each generation's best is measured by Local Best Response over N hands
(always the same deals) and the champion is the one with the least LBR win (bb/100)
less its gauntlet worst case. The run is deterministic for a seed.`
}

// Run is called by kong.
func (c *evolveCmd) Run(ctx context.Context) error {
	return c.run(ctx, os.Stdout, os.Stderr)
}

// runEvolve parses args as "felt evolve" would and runs the command: the entry point
// for tests.
func runEvolve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c struct {
		Evolve evolveCmd `cmd:""`
	}
	if err := parseCommand(&c, "evolve", args, stdout); err != nil {
		return err
	}
	return c.Evolve.run(ctx, stdout, stderr)
}

// lbrJudge returns the judge of felt evolve --lbr: minus what LBR wins from a
// network over hands hands, in bb/100, on the same deals for every network.
func lbrJudge(hands int, seed uint64, workers int) func(context.Context, *bot.Net) (float64, error) {
	return func(ctx context.Context, net *bot.Net) (float64, error) {
		newBot := func(name string, o bot.Options) (bot.Bot, error) {
			o.Net = net
			return bot.New("neural", o)
		}
		r, err := lbr.Run(ctx, lbr.Config{Bot: "neural", Hands: hands, Seed: seed, Workers: workers, NewBot: newBot})
		return -r.BBPer100, err
	}
}

func (c *evolveCmd) run(ctx context.Context, stdout, stderr io.Writer) error {
	f := arenaFlags{Hands: c.Hands, Seed: c.Seed, Variant: c.Variant, Workers: c.Workers, NoProgress: c.NoProgress}
	s, err := f.settle(append(append([]string(nil), c.Bench...), c.Against...))
	if err != nil {
		return err
	}
	ec := arena.EvolveConfig{Population: c.Population, Generations: c.Generations, Hidden: c.Hidden, Hands: c.Hands,
		Game: s.game, Seed: s.seed, Rivals: c.Rivals, Champions: c.Champions, Against: c.Against,
		Benchmarks: c.Bench, BenchHands: c.BenchHands, Workers: c.Workers, Gauntlet: c.Gauntlet}
	switch {
	case c.LBR < 0 || c.LBR > 0 && c.LBR < lbr.MinHands:
		return usageError("--lbr: 0 or at least %d hands, not %d", lbr.MinHands, c.LBR)
	case c.LBR > 0 && s.game.Name != "nl":
		return usageError("--lbr: LBR plays no-limit Hold'em (--variant nl)")
	case c.LBR > 0:
		ec.Judge = lbrJudge(c.LBR, s.seed, c.Workers)
	}
	if total := ec.TotalHands(); total == 0 {
		_, err := arena.Evolve(ctx, ec, nil) // only to get the error
		return usageError("%v", err)
	}
	bar := f.progress(stderr, ec.TotalHands(), "evolve")
	ec.Progress = bar.add
	fmt.Fprintf(stdout, "evolve: %s, population %d, %d generations, %d hands a match, seed %d\n",
		arenaGameName(s.game.Name), c.Population, c.Generations, c.Hands, s.seed)
	ev, err := arena.Evolve(ctx, ec, func(g arena.Generation) {
		var b strings.Builder
		for _, r := range g.Bench {
			fmt.Fprintf(&b, "  vs %s %+.0f ± %.0f", r.B, r.BBPer100, r.CI95)
		}
		if bar.pb != nil {
			_ = bar.pb.Clear()
		}
		if c.Gauntlet {
			fmt.Fprintf(&b, "  gauntlet worst %+.0f", g.Worst)
		}
		if c.LBR > 0 {
			fmt.Fprintf(&b, "  LBR %+.0f", -g.Score)
		}
		fmt.Fprintf(stdout, "generation %3d: best %+7.0f  mean %+7.0f bb/100%s\n", g.Index, g.BestFitness, g.MeanFitness, b.String())
	})
	bar.finish()
	if err != nil {
		return err
	}
	if err := ev.Champion.Save(c.Out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "champion written to %s\n", c.Out)
	if c.Chart != "" {
		chart, err := arena.EvolutionChart(ev.Generations)
		if err == nil {
			err = chart.Save(c.Chart)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "chart written to %s\n", c.Chart)
	}
	return nil
}
