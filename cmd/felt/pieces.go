package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/felt-poker/felt/internal/arena"
)

// pieceFlags are the flags of the commands whose measurements may be made in
// pieces, runs of ranges of a seed's deals recorded and pooled (felt lbr,
// felt match).
type pieceFlags struct {
	Deals  string `placeholder:"FROM:TO" help:"Play deals FROM to TO-1 of the seed's sequence (2×(TO−FROM) hands; instead of --hands): pieces of one measurement, to pool with --record."`
	Record string `placeholder:"FILE.csv" help:"Append the result to this CSV file (created with a header if missing), a stopped run's too."`
	Chart  string `placeholder:"FILE.svg" help:"Draw --record's measurements in this --variant (.svg or .png), pooled, after the run if one is played."`
	Pool   bool   `help:"Print --record's measurements pooled (the runs of each on disjoint deals as one), without playing."`
}

// check refuses a bad combination of the flags; run says whether a run is
// asked for (its bots given), what names them in messages ("a bot").
func (p *pieceFlags) check(run bool, what string) error {
	switch {
	case p.Chart != "" && p.Record == "":
		return usageError("--chart draws the runs of a --record file: give one")
	case p.Pool && (p.Record == "" || run || p.Chart != ""):
		return usageError("--pool prints the runs of a --record file pooled: give one, and no bots or --chart")
	case p.Chart != "" && !slices.Contains([]string{".svg", ".png"}, strings.ToLower(filepath.Ext(p.Chart))):
		return usageError("--chart %s: want a .svg or .png file", p.Chart)
	case !run && p.Chart == "" && !p.Pool:
		return usageError("%s needed (or --record and --chart to redraw a chart, or --pool)", what)
	case !run && p.Deals != "":
		return usageError("--deals plays a range of deals: give %s", what)
	}
	return nil
}

// firstDeal returns the first deal --deals asks for (0 without it), setting
// f.Hands to its hands; --deals with --hands is refused.
func (p *pieceFlags) firstDeal(f *arenaFlags) (int, error) {
	if p.Deals == "" {
		return 0, nil
	}
	from, to, err := arena.ParseDeals(p.Deals)
	switch {
	case err != nil:
		return 0, usageError("--deals: %v", err)
	case to-from < arena.MinHands/2:
		return 0, usageError("--deals %s: at least %d deals", p.Deals, arena.MinHands/2)
	case f.Hands != 10000: // not the default: given
		return 0, usageError("--deals %s and --hands %d: give one", p.Deals, f.Hands)
	}
	f.Hands = 2 * (to - from)
	return from, nil
}

// endPiece ends a run of deals first to to−1, which ended with err having
// counted deals first to first+counted−1 (partial: stopped before to): a
// failure is returned as it is; a stopped run is reported with report, and
// returns an error (exit status 1) saying what it counted and where the next
// run goes on, or, stopped before two deals, that there is nothing to report.
func endPiece(ctx context.Context, err error, partial bool, first, counted, to int, report func() error) error {
	switch {
	case err != nil && (!partial || ctx.Err() == nil):
		return err
	case partial && counted < 2:
		return fmt.Errorf("stopped before two deals were completed from deal %d: nothing to report or record (%w)", first, err)
	}
	if err := report(); err != nil || !partial {
		return err
	}
	return fmt.Errorf("stopped: counted deals %s (%s hands) of %s; the next run can go on with --deals %s",
		arena.FormatDeals(first, first+counted), thousands(int64(2*counted)), arena.FormatDeals(first, to),
		arena.FormatDeals(first+counted, to))
}

// seedList writes seeds separated by spaces.
func seedList(seeds []uint64) string {
	out := make([]string, len(seeds))
	for i, s := range seeds {
		out[i] = strconv.FormatUint(s, 10)
	}
	return strings.Join(out, " ")
}

// readPools reads the record file at path with read and pools its lines with
// pool, writing the lines pooling left out (overlapping deals) to stderr,
// prefixed with the command's name.
func readPools[R, P any](stderr io.Writer, command, path string, read func(io.Reader) ([]R, error),
	pool func([]R) ([]P, []string)) ([]P, error) {
	recs, err := readRecordFile(path, read)
	if err != nil {
		return nil, err
	}
	pools, warnings := pool(recs)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "%s: %s: %s\n", command, path, w)
	}
	return pools, nil
}

// readRecordFile reads the record file at path with read.
func readRecordFile[R any](path string, read func(io.Reader) ([]R, error)) ([]R, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--record: %w", err)
	}
	defer f.Close()
	recs, err := read(f)
	if err != nil {
		return nil, fmt.Errorf("--record %s: %w", path, err)
	}
	return recs, nil
}

// checkRecordFile refuses, before a run, a --record file that exists and
// cannot be read with read (another command's, a bad line): the run's line
// could not be appended, or pooled, after hours of play. It returns the
// file's lines (none for a file not there yet).
func checkRecordFile[R any](path string, read func(io.Reader) ([]R, error)) ([]R, error) {
	if st, err := os.Stat(path); os.IsNotExist(err) || err == nil && st.Size() == 0 {
		return nil, nil // AppendRecordLine starts it
	}
	recs, err := readRecordFile(path, read)
	if err != nil {
		return nil, usageError("%v: nothing played (give another file, or mend this one)", err)
	}
	return recs, nil
}

// barLabel is a bar's label in a chart of pooled measurements: the bots'
// names ("vs" between them), their options (after a colon) on lines of their
// own so that long names do not overlap, and the hands.
func barLabel(hands int, bots ...string) string {
	return strings.ReplaceAll(strings.Join(bots, "\nvs "), ":", "\n") + "\n" + thousands(int64(hands)) + " hands"
}
