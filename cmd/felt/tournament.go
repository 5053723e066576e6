package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"text/tabwriter"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/engine"
)

// tourCmd is "felt tournament": every bot at one table.
type tourCmd struct {
	Bots   []string `arg:"" name:"bot" help:"Two to ten bots (as for felt match), seated in this order."`
	Stack  int64    `default:"200" help:"Starting stack in big blinds (stud: antes)."`
	Level  int      `default:"0" help:"Double the blinds, antes and bets every this many hands (0: never)."`
	Ring   bool     `help:"Reset every stack before each hand (a cash game) instead of a freezeout."`
	League bool     `help:"Instead of one table, play a heads-up duplicate league (see felt league) and chart its ranking."`
	Out    string   `help:"Write the results here: results.csv, stacks.csv (table) or table.csv (league), charts as SVG and PNG, and an XLSX workbook with a native chart."`
	arenaFlags
}

// Help is the long help of "felt tournament".
func (c *tourCmd) Help() string {
	return `Seats every bot at one table (no-limit Hold'em by default, blinds 50/100) and deals
until one is left or --hands, the button moving every hand. Prints the finishing order
and each bot's win rate in big blinds per 100 hands with its 95% interval (over the hands
it was dealt in, in big blinds of the level played). --ring resets the stacks every hand;
--level N doubles the blinds every N hands. With --league the bots play a duplicate
heads-up league instead and the chart is its ranking.

--trace prints every hand (see felt match); --history DIR writes the hands as PHH:
DIR/tournament.phhs for the table, one file per pairing for --league.

--out DIR writes CSV files, charts (stacks.svg/.png: every stack hand by hand;
rates.svg/.png: bb/100 with 95% bars) and tournament.xlsx (sheets with native charts).

` + arenaHelp()
}

// Run is called by kong.
func (c *tourCmd) Run(ctx context.Context) error {
	return c.run(ctx, os.Stdout, os.Stderr)
}

// runTournament parses args as "felt tournament" would and runs the command: the
// entry point for tests.
func runTournament(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c struct {
		Tournament tourCmd `cmd:""`
	}
	if err := parseCommand(&c, "tournament", args, stdout); err != nil {
		return err
	}
	return c.Tournament.run(ctx, stdout, stderr)
}

func (c *tourCmd) run(ctx context.Context, stdout, stderr io.Writer) error {
	if len(c.Bots) < 2 || len(c.Bots) > engine.MaxSeats && !c.League {
		return usageError("a table seats 2 to %d bots, not %d (a --league takes any number)", engine.MaxSeats, len(c.Bots))
	}
	if c.Stack <= 0 || c.Level < 0 {
		return usageError("--stack must be positive and --level not negative")
	}
	s, err := c.settle(c.Bots)
	if err != nil {
		return err
	}
	if c.Out != "" {
		if err := os.MkdirAll(c.Out, 0o755); err != nil {
			return err
		}
	}
	if c.League {
		return c.league(ctx, s, stdout, stderr)
	}
	tc := arena.TournamentConfig{Bots: c.Bots, Game: s.game, Hands: c.Hands, Stack: c.Stack, Level: c.Level, Ring: c.Ring, Seed: s.seed}
	log, err := c.handLog(stdout)
	if err != nil {
		return err
	}
	if log != nil {
		tc.Hand = func(cfg engine.Config, h *engine.Hand, players []string) error {
			return log.hand("tournament.phhs", "felt tournament", cfg, h, players)
		}
	}
	bar := c.progress(stderr, int64(c.Hands), "tournament")
	tc.Progress = bar.add
	t, err := arena.PlayTournament(ctx, tc)
	bar.finish()
	if err := errors.Join(err, log.close()); err != nil {
		return err
	}
	kind := "freezeout"
	if c.Ring {
		kind = "ring game (stacks reset every hand)"
	}
	fmt.Fprintf(stdout, "tournament: %s, %s, %d players, %s hands, seed %d\n\n", arenaGameName(t.Game), kind, len(t.Players), thousands(int64(t.Hands)), t.Seed)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "place\tplayer\tstack\thands\tbb/100\t± 95%\t")
	last := t.Stacks[len(t.Stacks)-1]
	for p, name := range t.Finish {
		for i, pl := range t.Players {
			if pl == name {
				fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%+.1f\t%.1f\t\n", p+1, name, thousands(last[i]), t.Dealt[i], t.Rates[i].BBPer100, t.Rates[i].CI95)
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if c.Out == "" {
		return nil
	}
	if err := writeFile(filepath.Join(c.Out, "results.csv"), func(w io.Writer) error { return arena.WriteResultsCSV(w, t) }); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(c.Out, "stacks.csv"), func(w io.Writer) error { return arena.WriteStacksCSV(w, t) }); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(c.Out, "tournament.xlsx"), func(w io.Writer) error { return arena.WriteXLSX(w, t) }); err != nil {
		return err
	}
	stacks, err := arena.StackChart("felt tournament: stacks", t.Players, t.Stacks)
	if err != nil {
		return err
	}
	rates, err := arena.RateChart("felt tournament: bb/100 at the table", t.Rates)
	if err != nil {
		return err
	}
	return saveCharts(c.Out, stdout, map[string]arena.Chart{"stacks": stacks, "rates": rates})
}

// league plays the bots' heads-up league and writes its ranking chart and files.
func (c *tourCmd) league(ctx context.Context, s arenaSettings, stdout, stderr io.Writer) error {
	n := len(c.Bots)
	bar := c.progress(stderr, int64(n*(n-1)/2*2*((c.Hands+1)/2)), "league")
	l, err := c.playLeague(ctx, c.Bots, s, stdout, bar, nil, nil)
	if err != nil {
		return err
	}
	out := leagueOutput{Variant: s.game.Name, Seed: s.seed, Bots: l.Bots, Table: make([][]*leagueCell, n)}
	for i := range n {
		out.Table[i] = make([]*leagueCell, n)
		for j := range n {
			if r := l.Matches[i][j]; i != j {
				out.Table[i][j] = &leagueCell{BBPer100: r.BBPer100, CI95: r.CI95, MBBPerGame: r.MBBPerGame, Chips: r.Chips}
				out.Hands = r.Hands
			}
		}
	}
	for _, st := range l.Ranking {
		out.Ranking = append(out.Ranking, leagueStanding{Bot: st.Bot, BBPer100: st.BBPer100, CI95: st.CI95})
	}
	if err := writeLeague(stdout, out); err != nil {
		return err
	}
	if c.Out == "" {
		return nil
	}
	err = writeFile(filepath.Join(c.Out, "table.csv"), func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write([]string{"bot", "opponent", "bb_per_100", "ci95", "hands"})
		for i, row := range out.Table {
			for j, cell := range row {
				if cell != nil {
					cw.Write([]string{l.Bots[i], l.Bots[j], ftoa(cell.BBPer100), ftoa(cell.CI95), strconv.Itoa(out.Hands)})
				}
			}
		}
		cw.Flush()
		return cw.Error()
	})
	if err != nil {
		return err
	}
	err = writeFile(filepath.Join(c.Out, "results.csv"), func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write([]string{"rank", "bot", "bb_per_100", "ci95"})
		for k, st := range l.Ranking {
			cw.Write([]string{strconv.Itoa(k + 1), st.Bot, ftoa(st.BBPer100), ftoa(st.CI95)})
		}
		cw.Flush()
		return cw.Error()
	})
	if err != nil {
		return err
	}
	chart, err := arena.RateChart(fmt.Sprintf("felt league (%s, %s hands a pairing): mean bb/100", arenaGameName(s.game.Name), thousands(int64(out.Hands))), l.Ranking)
	if err != nil {
		return err
	}
	return saveCharts(c.Out, stdout, map[string]arena.Chart{"rates": chart})
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

// saveCharts writes each chart as DIR/name.svg and DIR/name.png.
func saveCharts(dir string, stdout io.Writer, charts map[string]arena.Chart) error {
	for name, ch := range charts {
		for _, ext := range []string{".svg", ".png"} {
			if err := ch.Save(filepath.Join(dir, name+ext)); err != nil {
				return err
			}
		}
	}
	_, err := fmt.Fprintf(stdout, "\nwritten to %s\n", dir)
	return err
}

// writeFile creates path and fills it with write.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
