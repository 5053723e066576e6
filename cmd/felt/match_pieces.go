package main

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/buildinfo"
)

// matchPiecesHelp is the part of felt match's help about matches in pieces.
const matchPiecesHelp = `--deals FROM:TO plays deals FROM to TO-1 of the seed's sequence instead of the first
--hands/2: a deal's cards, button, blind level and the bots' streams depend only on
the seed and its number (not on --workers or FROM), so --seed 15 --deals 0:17 and
then --deals 17:40 give deal for deal what one match of --deals 0:40 gives (unless a
bot learns from its hands, as bayes and adaptive do). A match of a slow bot (resolve:
seconds a hand) is so played in pieces, in several processes or sessions, with
--record.

Stopped (Ctrl-C, SIGINT or SIGTERM), felt match abandons the deals in flight at once
(a bot that re-solves is told to stop), prints and records the deals completed from
FROM up to the first one that was not, and exits with status 1, saying which deals
it counted: the next piece starts there. The deals completed after that one (with
several workers) are left out, so that a record is always a range of deals.

--record FILE.csv appends the match as a line (variant, a, b, stack in chips,
double_every, budget, seed, deals FROM:TO, hands, mbb_per_game, mbb_ci95, mbb_sd,
cv_mbb_per_game, cv_mbb_ci95, cv_mbb_sd (empty without --cv), build: A's win in
mbb/g, the standard deviation of one deal's result that pooling needs, and the commit
felt was built from, as felt lbr --record writes it); runs in several processes may
record into one file (each takes its lock file, .FILE.csv.lock beside it, to write). A file that is not a felt match record file, or has a bad
line, is refused before anything is played. Lines of one measurement (variant, the
bots with their options, stack, --double-every, --budget) pool into one: their deals
counted together, as one match of them all would count them, whether they are pieces
of one seed or matches of several seeds. A line whose deals overlap those of a later
line of its measurement and seed is left out, with a warning (the run says so when
it starts): a match repeated counts once, the later one. --pool prints each
measurement of the file pooled (with the control variate's figure when every line
of it has one), and --chart FILE.svg draws each measurement in --variant as a bar
with its 95% interval; without bots, felt match only prints or draws.

--json with --pool prints a list: "variant", "a", "b", "stack", "double_every",
"budget_ns", "hands", "runs", "seeds", "builds", "mbb_per_game", "mbb_ci95" and, when every
line has it, "cv": {"mbb_per_game", "mbb_ci95"}.`

// check refuses bad flags that need no bots.
func (c *matchCmd) check() error {
	if c.A != "" && c.B == "" {
		return usageError("felt match plays two bots: give bot B too")
	}
	return c.pieceFlags.check(c.A != "", "felt match: two bots are")
}

// checkRecord refuses a --record file that is not a match record file, or has
// a bad line, before the match of mc is played, and warns on stderr of the
// lines whose deals the match will play again (pooled, its line counts
// instead of theirs).
func (c *matchCmd) checkRecord(stderr io.Writer, mc *arena.MatchConfig) error {
	if c.Record == "" {
		return nil
	}
	recs, err := checkRecordFile(c.Record, arena.ReadMatchRecords)
	if err != nil {
		return err
	}
	key, from, to := mc.Key(), mc.FirstDeal, mc.FirstDeal+(mc.Hands+1)/2
	for i, r := range recs {
		if r.MatchKey == key && r.Seed == mc.Seed && from < r.FirstDeal+r.Hands/2 && r.FirstDeal < to {
			fmt.Fprintf(stderr, "felt match: %s: line %d has deals %s of seed %d of this match: pooled, this run's deals %s count instead\n",
				c.Record, i+2, r.Deals(), r.Seed, arena.FormatDeals(from, to))
		}
	}
	return nil
}

// record appends r, the result of mc, to --record and draws --chart.
func (c *matchCmd) record(stderr io.Writer, mc *arena.MatchConfig, r arena.Result) error {
	if c.Record == "" {
		return nil
	}
	if err := arena.AppendMatchRecord(c.Record, arena.NewMatchRecord(mc, r, buildinfo.Revision())); err != nil {
		return fmt.Errorf("--record %s: %w", c.Record, err)
	}
	if c.Chart == "" {
		return nil
	}
	return drawMatchChart(stderr, c.Record, c.Chart, c.Variant)
}

// readMatchPools reads the match record file at path and pools its lines,
// writing the lines left out (overlapping deals) to stderr.
func readMatchPools(stderr io.Writer, path string) ([]arena.MatchPool, error) {
	return readPools(stderr, "felt match", path, arena.ReadMatchRecords, arena.PoolMatchRecords)
}

// matchPoolOutput is one measurement of felt match --pool --json.
type matchPoolOutput struct {
	Variant     string   `json:"variant"`
	A           string   `json:"a"`
	B           string   `json:"b"`
	Stack       int64    `json:"stack"`
	DoubleEvery int      `json:"double_every"`
	BudgetNS    int64    `json:"budget_ns"`
	Hands       int      `json:"hands"`
	Runs        int      `json:"runs"`
	Seeds       []uint64 `json:"seeds"`
	Builds      []string `json:"builds"`
	MBBPerGame  float64  `json:"mbb_per_game"`
	MBBCI95     float64  `json:"mbb_ci95"`
	CV          *struct {
		MBBPerGame float64 `json:"mbb_per_game"`
		MBBCI95    float64 `json:"mbb_ci95"`
	} `json:"cv,omitempty"`
}

// printMatchPools prints every measurement of the record file pooled: as a
// table per variant, in the order of their latest lines, or as JSON.
func printMatchPools(stdout, stderr io.Writer, path string, asJSON bool) error {
	pools, err := readMatchPools(stderr, path)
	if err != nil {
		return err
	}
	if !asJSON {
		for _, variant := range []string{"nl", "pl", "limit", "stud"} {
			writeMatchPools(stdout, variant, pools)
		}
		return nil
	}
	out := make([]matchPoolOutput, len(pools))
	for i, p := range pools {
		k := p.Key
		out[i] = matchPoolOutput{Variant: k.Variant, A: k.A, B: k.B, Stack: k.Stack, DoubleEvery: k.DoubleEvery,
			BudgetNS: k.Budget.Nanoseconds(), Hands: p.Hands, Runs: p.Runs, Seeds: p.Seeds, Builds: append([]string{}, p.Builds...),
			MBBPerGame: p.MBBPerGame, MBBCI95: p.MBBCI95}
		if p.HasCV {
			out[i].CV = &struct {
				MBBPerGame float64 `json:"mbb_per_game"`
				MBBCI95    float64 `json:"mbb_ci95"`
			}{p.CVMBBPerGame, p.CVMBBCI95}
		}
	}
	return writeArenaJSON(stdout, out)
}

// writeMatchPools writes the table of variant's measurements, if it has any.
func writeMatchPools(w io.Writer, variant string, pools []arena.MatchPool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := false
	for _, p := range pools {
		k := p.Key
		if k.Variant != variant {
			continue
		}
		if !header {
			fmt.Fprintf(w, "Duplicate matches in %s, each measurement pooled (A's win, mbb/g ± 95%%):\n", arenaGameName(variant))
			fmt.Fprintln(tw, "a\tb\tstack\tdouble every\tbudget\thands\truns\tseeds\tA wins\twith the control variate\tbuilds\t")
			header = true
		}
		cv := "–"
		if p.HasCV {
			cv = fmt.Sprintf("%+.0f ± %.0f", p.CVMBBPerGame, p.CVMBBCI95)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%d\t%s\t%+.0f ± %.0f\t%s\t%s\t\n", k.A, k.B, thousands(k.Stack), k.DoubleEvery,
			budgetText(k.Budget), thousands(int64(p.Hands)), p.Runs, seedList(p.Seeds), p.MBBPerGame, p.MBBCI95, cv,
			shortBuilds(p.Builds))
	}
	tw.Flush()
}

// budgetText writes a budget per decision, "none" for 0.
func budgetText(d time.Duration) string {
	if d == 0 {
		return "none"
	}
	return d.String()
}

// drawMatchChart draws each measurement of variant in the record file, pooled,
// to chart: A's win against B with its 95% interval.
func drawMatchChart(stderr io.Writer, record, chart, variant string) error {
	pools, err := readMatchPools(stderr, record)
	if err != nil {
		return err
	}
	var names []string
	var ys, ci []float64
	for _, p := range pools {
		if p.Key.Variant == variant {
			names = append(names, barLabel(p.Hands, p.Key.A, p.Key.B))
			ys, ci = append(ys, p.MBBPerGame), append(ci, p.MBBCI95)
		}
	}
	if len(names) == 0 {
		return fmt.Errorf("--record %s: no match in %s to draw", record, arenaGameName(variant))
	}
	ch, err := arena.BarChart("Duplicate matches, "+arenaGameName(variant), "A's win, mbb/g (± 95%)", names, ys, ci)
	if err != nil {
		return err
	}
	return ch.Save(chart)
}
