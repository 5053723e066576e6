package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/lbr"
)

// readLBRPools reads the record file at path and pools its lines, writing the
// lines left out (overlapping deals) to stderr.
func readLBRPools(stderr io.Writer, path string) ([]lbr.Pool, error) {
	return readPools(stderr, "felt lbr", path, lbr.ReadRecords, lbr.PoolRecords)
}

// lbrPoolOutput is one measurement of felt lbr --pool --json.
type lbrPoolOutput struct {
	Variant      string   `json:"variant"`
	Bot          string   `json:"bot"`
	Preflop      bool     `json:"preflop"`
	Sizes        string   `json:"sizes"`
	Samples      int      `json:"samples"`
	Runouts      int      `json:"runouts"`
	Hands        int      `json:"hands"`
	Runs         int      `json:"runs"`
	Seeds        []uint64 `json:"seeds"`
	Builds       []string `json:"builds"`
	MBBPerGame   float64  `json:"mbb_per_game"`
	MBBCI95      float64  `json:"mbb_ci95"`
	CVMBBPerGame float64  `json:"cv_mbb_per_game"`
	CVMBBCI95    float64  `json:"cv_mbb_ci95"`
	Misses       int64    `json:"misses"`
}

// printLBRPools prints every measurement of the record file pooled: as a table
// per variant, in the order of their latest lines, or as JSON.
func printLBRPools(stdout, stderr io.Writer, path string, asJSON bool) error {
	pools, err := readLBRPools(stderr, path)
	if err != nil {
		return err
	}
	if asJSON {
		out := make([]lbrPoolOutput, len(pools))
		for i, p := range pools {
			out[i] = lbrPoolOutput{p.Variant, p.Bot, p.Preflop, p.Sizes, p.Samples, p.Runouts, p.Hands, p.Runs, p.Seeds,
				append([]string{}, p.Builds...), p.MBBPerGame, p.MBBCI95, p.CVMBBPerGame, p.CVMBBCI95, p.Misses}
		}
		return writeArenaJSON(stdout, out)
	}
	for _, variant := range []string{"nl", "pl", "limit"} {
		writeLBRPools(stdout, variant, pools)
	}
	return nil
}

// writeLBRPools writes the table of variant's measurements, if it has any.
func writeLBRPools(w io.Writer, variant string, pools []lbr.Pool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := false
	for _, p := range pools {
		if p.Variant != variant {
			continue
		}
		if !header {
			fmt.Fprintf(w, "LBR in %s, each measurement pooled (mbb/g ± 95%%):\n", arenaGameName(variant))
			fmt.Fprintln(tw, "bot\tpreflop\tsizes\tsamples\trunouts\thands\truns\tseeds\tLBR wins\twith the control variate\tbuilds\t")
			header = true
		}
		fmt.Fprintf(tw, "%s\t%v\t%s\t%d\t%d\t%s\t%d\t%s\t%+.0f ± %.0f\t%+.0f ± %.0f\t%s\t\n", p.Bot, p.Preflop, p.Sizes,
			p.Samples, p.Runouts, thousands(int64(p.Hands)), p.Runs, seedList(p.Seeds),
			p.MBBPerGame, p.MBBCI95, p.CVMBBPerGame, p.CVMBBCI95, shortBuilds(p.Builds))
	}
	tw.Flush()
}

// shortBuilds lists builds as a table shows them: each commit's first 12 hex
// digits (with "+dirty" kept), or "-" when no line said.
func shortBuilds(builds []string) string {
	if len(builds) == 0 {
		return "-"
	}
	out := make([]string, len(builds))
	for i, b := range builds {
		rev, dirty, _ := strings.Cut(b, "+")
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if dirty != "" {
			rev += "+" + dirty
		}
		out[i] = rev
	}
	return strings.Join(out, " ")
}

// drawLBRChart draws the leading measurement of each bot of variant in the
// record file, pooled, to chart.
func drawLBRChart(stderr io.Writer, record, chart, variant string) error {
	pools, err := readLBRPools(stderr, record)
	if err != nil {
		return err
	}
	lead := lbr.Leading(pools, variant)
	if len(lead) == 0 {
		return fmt.Errorf("--record %s: no run in %s to draw", record, arenaGameName(variant))
	}
	names := make([]string, len(lead))
	ys, ci := make([]float64, len(lead)), make([]float64, len(lead))
	for i, r := range lead {
		names[i], ys[i], ci[i] = barLabel(r.Hands, r.Bot), r.MBBPerGame, r.MBBCI95
	}
	title := "What Local Best Response wins, " + arenaGameName(variant)
	ch, err := arena.BarChart(title, "mbb/g (± 95%)", names, ys, ci)
	if err != nil {
		return err
	}
	return ch.Save(chart)
}
