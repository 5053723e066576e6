package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/engine"
)

// writeJSONFile writes v to path as indented JSON.
func writeJSONFile(path string, v any) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return errors.Join(writeArenaJSON(f, v), f.Close())
}

// leagueCmd is "felt league": every bot against every other.
type leagueCmd struct {
	Bots      []string `arg:"" name:"bot" help:"Two or more bots (as for felt match)."`
	Gauntlet  bool     `help:"Also play each bot through the gauntlet (felt gauntlet, same hands and seed) and show its worst case beside its rank."`
	FoldModel string   `placeholder:"FILE" help:"Write to FILE, as JSON, the opponent model (bayes) of every player of every hand pooled: decisions, bets and raises, bets faced and folds, per street (plays each match on one worker). bayes's default model was made so."`
	arenaFlags
	farmFlags
}

// Help is the long help of "felt league".
func (c *leagueCmd) Help() string {
	return `Plays a duplicate match (see felt match) between every two of the bots, all with the
same seed, so every pairing sees the same deals. Prints the cross table (the row bot's
bb/100 against the column bot, ± the 95% half-width) and the ranking by average bb/100
against all the others.

` + arenaHelp() + `

--json prints one object: "variant", "hands" (per pairing), "seed", "bots", "table"
(table[i][j]: {"bb_per_100", "ci95", "mbb_per_game", "chips"} of bot i against bot j,
null on the diagonal) and "ranking" ([{"bot", "bb_per_100", "ci95"}], best first; with
--gauntlet each also has "gauntlet": the worst case {"exploiter", "bb_per_100", "ci95"}).

--fold-model FILE counts how every player of the league's hands acts, pooled into one
bot.OpponentModel: the data of the Bayesian bot's default opponent model
(internal/bot/bayes_default.json; docs/bots.md gives the command that made it).`
}

// Run is called by kong.
func (c *leagueCmd) Run(ctx context.Context) error {
	return c.run(ctx, os.Stdout, os.Stderr)
}

// runLeague parses args as "felt league" would and runs the command: the entry point
// for tests. Bad arguments give an exitError with code 2.
func runLeague(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c struct {
		League leagueCmd `cmd:""`
	}
	if err := parseCommand(&c, "league", args, stdout); err != nil {
		return err
	}
	return c.League.run(ctx, stdout, stderr)
}

// leagueCell is one entry of the cross table in --json.
type leagueCell struct {
	BBPer100   float64 `json:"bb_per_100"`
	CI95       float64 `json:"ci95"`
	MBBPerGame float64 `json:"mbb_per_game"`
	Chips      int64   `json:"chips"`
}

// leagueStanding is one line of the ranking in --json.
type leagueStanding struct {
	Bot      string         `json:"bot"`
	BBPer100 float64        `json:"bb_per_100"`
	CI95     float64        `json:"ci95"`
	Gauntlet *gauntletWorst `json:"gauntlet,omitempty"`
}

// gauntletWorst is a bot's worst match of the gauntlet, in a league's ranking.
type gauntletWorst struct {
	Exploiter string  `json:"exploiter"`
	BBPer100  float64 `json:"bb_per_100"`
	CI95      float64 `json:"ci95"`
}

// leagueOutput is what "felt league --json" prints.
type leagueOutput struct {
	Variant   string           `json:"variant"`
	Hands     int              `json:"hands"`
	Seed      uint64           `json:"seed"`
	Bots      []string         `json:"bots"`
	Table     [][]*leagueCell  `json:"table"`
	Ranking   []leagueStanding `json:"ranking"`
	ElapsedNS int64            `json:"elapsed_ns"`
}

func (c *leagueCmd) run(ctx context.Context, stdout, stderr io.Writer) error {
	if len(c.Bots) < 2 {
		return usageError("a league needs at least two bots")
	}
	s, err := c.settle(c.Bots)
	if err != nil {
		return err
	}
	if c.NATS != "" && (c.Trace || c.History != "" || c.FoldModel != "") {
		return usageError("--trace, --history and --fold-model play on one machine: not with --nats")
	}
	conn, err := c.farm(ctx, stderr)
	if err != nil {
		return err
	}
	defer closeFarm(conn)
	n := len(c.Bots)
	pairs := n * (n - 1) / 2
	bar := c.progress(stderr, int64(pairs*2*((c.Hands+1)/2)), "league")
	start := time.Now()
	var pooled *bot.OpponentModel
	var observe func(h *engine.Hand)
	if c.FoldModel != "" {
		pooled = new(bot.OpponentModel)
		observe = func(h *engine.Hand) { pooled.ObserveAll(h.SpectatorView()) }
	}
	l, err := c.playLeague(ctx, c.Bots, s, stdout, bar, observe, matchFunc(conn))
	if err != nil {
		return err
	}
	if pooled != nil {
		if err := writeJSONFile(c.FoldModel, pooled); err != nil {
			return err
		}
	}
	worst, err := c.gauntlets(ctx, s, stderr, matchFunc(conn))
	if err != nil {
		return err
	}
	out := leagueOutput{ElapsedNS: time.Since(start).Nanoseconds(), Variant: s.game.Name, Seed: s.seed, Bots: l.Bots, Table: make([][]*leagueCell, n)}
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
		out.Ranking = append(out.Ranking, leagueStanding{Bot: st.Bot, BBPer100: st.BBPer100, CI95: st.CI95, Gauntlet: worst[st.Bot]})
	}
	if c.JSON {
		return writeArenaJSON(stdout, out)
	}
	return writeLeague(stdout, out)
}

// writeLeague prints the cross table and the ranking.
func writeLeague(w io.Writer, out leagueOutput) error {
	fmt.Fprintf(w, "league: %s, %s hands per pairing (duplicate), seed %d; bb/100 of the row against the column, ± 95%%\n\n",
		arenaGameName(out.Variant), thousands(int64(out.Hands)), out.Seed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\t")
	for _, b := range out.Bots {
		fmt.Fprintf(tw, "%s\t", b)
	}
	fmt.Fprintln(tw)
	for i, row := range out.Table {
		fmt.Fprintf(tw, "%s\t", out.Bots[i])
		for _, cell := range row {
			if cell == nil {
				fmt.Fprint(tw, "-\t")
				continue
			}
			fmt.Fprintf(tw, "%+.1f ± %.1f\t", cell.BBPer100, cell.CI95)
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprintln(tw)
	fmt.Fprint(tw, "rank\tbot\tbb/100\t± 95%\t")
	if len(out.Ranking) > 0 && out.Ranking[0].Gauntlet != nil {
		fmt.Fprint(tw, "gauntlet worst\t± 95%\t")
	}
	fmt.Fprintln(tw)
	for k, st := range out.Ranking {
		fmt.Fprintf(tw, "%d\t%s\t%+.1f\t%.1f\t", k+1, st.Bot, st.BBPer100, st.CI95)
		if g := st.Gauntlet; g != nil {
			fmt.Fprintf(tw, "%s %+.1f\t%.1f\t", g.Exploiter, g.BBPer100, g.CI95)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// gauntlets plays every bot through the gauntlet when --gauntlet asks, each
// match by match, and returns each bot's worst case (nil without --gauntlet).
func (c *leagueCmd) gauntlets(ctx context.Context, s arenaSettings, stderr io.Writer, match arena.MatchFunc) (map[string]*gauntletWorst, error) {
	if !c.Gauntlet {
		return nil, nil
	}
	bar := c.progress(stderr, int64(len(c.Bots)*len(arena.Exploiters)*2*((c.Hands+1)/2)), "gauntlets")
	defer bar.finish()
	worst := map[string]*gauntletWorst{}
	for _, b := range c.Bots {
		g, err := arena.PlayGauntlet(ctx, arena.GauntletConfig{Bot: b, Game: s.game, Hands: c.Hands, Seed: s.seed, Workers: c.Workers, Progress: bar.add, Match: match})
		if err != nil {
			return nil, err
		}
		w := g.Matches[g.Worst]
		worst[b] = &gauntletWorst{Exploiter: arena.Exploiters[g.Worst].Name, BBPer100: w.BBPer100, CI95: w.CI95}
	}
	return worst, nil
}

// playLeague plays the league the flags describe, each pairing by match (nil:
// arena.Match), tracing and writing the hands as --trace and --history ask and
// showing each finished hand to observe (when not nil), and removes the
// progress bar.
func (f *arenaFlags) playLeague(ctx context.Context, bots []string, s arenaSettings, stdout io.Writer, bar arenaBar, observe func(h *engine.Hand), match arena.MatchFunc) (arena.League, error) {
	log, err := f.handLog(stdout)
	if err != nil {
		bar.finish()
		return arena.League{}, err
	}
	lc := arena.LeagueConfig{Bots: bots, Game: s.game, Hands: f.Hands, Seed: s.seed, Workers: f.Workers, Progress: bar.add, Match: match}
	if log != nil || observe != nil {
		lc.Hand = func(i, j int, cfg engine.Config, h *engine.Hand, players []string) error {
			if observe != nil {
				observe(h)
			}
			if log == nil {
				return nil
			}
			return log.hand(pairingFile(bots[i], bots[j]), "felt league "+bots[i]+" vs "+bots[j], cfg, h, players)
		}
	}
	l, err := arena.PlayLeague(ctx, lc)
	bar.finish()
	return l, errors.Join(err, log.close())
}
