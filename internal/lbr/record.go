package lbr

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/buildinfo"
)

// Record is one LBR run as a line of a record file (felt lbr --record), the
// data behind docs/bots.md's LBR column and its chart. Lines of one
// measurement (PoolKey) on disjoint deals pool into one figure (PoolRecords).
type Record struct {
	Variant string
	Bot     string
	// Preflop is Config.Preflop: LBR decided before the flop too.
	Preflop bool
	Hands   int
	Seed    uint64
	// Sizes are the bets LBR considered, as felt lbr --sizes takes them.
	Sizes string
	// MBBPerGame ± MBBCI95 is LBR's win; CVMBBPerGame ± CVMBBCI95 the same with
	// the control variate.
	MBBPerGame, MBBCI95, CVMBBPerGame, CVMBBCI95 float64
	Misses                                       int64
	// FirstDeal is the run's first deal: it played deals FirstDeal to
	// FirstDeal+Hands/2−1 of the seed's sequence (0 in a line written before
	// the column, when every run began there).
	FirstDeal int
	// Samples and Runouts are the run's Config.Samples and Config.Runouts; 0 in
	// a line written before these columns (not known).
	Samples, Runouts int
	// MBBSD and CVMBBSD are the standard deviation of one deal's result (over
	// its two hands, in mbb/g), plain and with the control variate: with Hands
	// and the means, all that pooling needs. Negative in a line written before
	// these columns: pooling then derives them from the intervals (to their
	// rounding).
	MBBSD, CVMBBSD float64
	// Build is the build of felt that made the line (buildinfo.Revision: the
	// commit, "+dirty" when built from a modified tree, or "unknown"); empty
	// in a line written before the column.
	Build string
}

// Deals returns the run's deals as felt lbr --deals takes them: "FROM:TO".
func (r *Record) Deals() string { return arena.FormatDeals(r.FirstDeal, r.FirstDeal+r.Hands/2) }

// legacyHeader names the columns of a record file written before --deals
// (still read: its lines have no deals, samples, runouts or deviations).
var legacyHeader = []string{"variant", "bot", "preflop", "hands", "seed", "sizes", "mbb_per_game", "mbb_ci95", "cv_mbb_per_game", "cv_mbb_ci95", "misses"}

// dealsHeader names the columns of a record file written before the build
// column (still read: its lines do not say which build made them).
var dealsHeader = append(slices.Clip(legacyHeader), "deals", "samples", "runouts", "mbb_sd", "cv_mbb_sd")

// recordHeader names a record file's columns, in order: new columns are
// appended, so that every older header is a prefix of it.
var recordHeader = append(slices.Clip(dealsHeader), "build")

// olderHeaders are the headers of files written by earlier versions of felt,
// which ReadRecords still reads and AppendRecord rewrites once.
var olderHeaders = [][]string{legacyHeader, dealsHeader}

// NewRecord returns the record of r, a run with at least two deals.
func NewRecord(r Result) Record {
	names := make([]string, len(r.Sizes))
	for i, s := range r.Sizes {
		names[i] = s.String()
	}
	rec := Record{Variant: r.Variant, Bot: r.Bot, Preflop: r.Preflop, Hands: r.Hands, Seed: r.Seed, Sizes: strings.Join(names, " "),
		MBBPerGame: r.MBBPerGame, MBBCI95: r.MBBCI95, Misses: r.Misses, FirstDeal: r.FirstDeal, Samples: r.Samples,
		Runouts: r.Runouts, MBBSD: arena.DealSD(r.MBBCI95, r.Deals), CVMBBSD: -1, Build: buildinfo.Revision()}
	if r.CV != nil {
		rec.CVMBBPerGame, rec.CVMBBCI95, rec.CVMBBSD = r.CV.MBBPerGame, r.CV.MBBCI95, arena.DealSD(r.CV.MBBCI95, r.Deals)
	}
	return rec
}

// WriteRecords writes records as CSV lines to w, after the header line when
// header is set (a new file). A value a line does not know (one read from a
// file written before its column) is written empty.
func WriteRecords(w io.Writer, records []Record, header bool) error {
	cw := csv.NewWriter(w)
	if header {
		if err := cw.Write(recordHeader); err != nil {
			return err
		}
	}
	for _, r := range records {
		if err := cw.Write(r.row()); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// row returns r as a line of recordHeader's columns.
func (r *Record) row() []string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }
	known := func(x int) string {
		if x == 0 {
			return ""
		}
		return strconv.Itoa(x)
	}
	sd := func(x float64) string {
		if x < 0 {
			return ""
		}
		return strconv.FormatFloat(x, 'f', 3, 64)
	}
	return []string{r.Variant, r.Bot, strconv.FormatBool(r.Preflop), strconv.Itoa(r.Hands),
		strconv.FormatUint(r.Seed, 10), r.Sizes, f(r.MBBPerGame), f(r.MBBCI95), f(r.CVMBBPerGame), f(r.CVMBBCI95),
		strconv.FormatInt(r.Misses, 10), r.Deals(), known(r.Samples), known(r.Runouts), sd(r.MBBSD), sd(r.CVMBBSD),
		r.Build}
}

// ReadRecords reads a record file written by WriteRecords, or by an earlier
// felt (olderHeaders: before the deals or the build column).
func ReadRecords(r io.Reader) ([]Record, error) {
	return arena.ReadRecordLines(r, "lbr record", parseRecord, append([][]string{recordHeader}, olderHeaders...)...)
}

// parseRecord reads one line of a record file (the header's columns).
func parseRecord(row []string) (Record, error) {
	rec := Record{Variant: row[0], Bot: row[1], Sizes: row[5], MBBSD: -1, CVMBBSD: -1}
	var errs []error
	var err error
	rec.Preflop, err = strconv.ParseBool(row[2])
	errs = append(errs, err)
	rec.Hands, err = strconv.Atoi(row[3])
	errs = append(errs, err)
	rec.Seed, err = strconv.ParseUint(row[4], 10, 64)
	errs = append(errs, err)
	for k, p := range []*float64{&rec.MBBPerGame, &rec.MBBCI95, &rec.CVMBBPerGame, &rec.CVMBBCI95} {
		*p, err = strconv.ParseFloat(row[6+k], 64)
		errs = append(errs, err)
	}
	rec.Misses, err = strconv.ParseInt(row[10], 10, 64)
	errs = append(errs, err)
	if len(row) > len(legacyHeader) {
		errs = append(errs, parseNewColumns(row, &rec))
	}
	if err := errors.Join(errs...); err != nil {
		return Record{}, err
	}
	sum := rec.MBBPerGame + rec.CVMBBPerGame + rec.MBBCI95 + rec.CVMBBCI95 + rec.MBBSD + rec.CVMBBSD
	if rec.Bot == "" || rec.Hands < 2 || rec.Hands%2 != 0 || rec.FirstDeal > MaxDeal-rec.Hands/2 ||
		rec.MBBCI95 < 0 || rec.CVMBBCI95 < 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
		return Record{}, fmt.Errorf("bad record %q", strings.Join(row, ","))
	}
	return rec, nil
}

// parseNewColumns reads the columns after legacyHeader's into rec: empty ones
// are not known (and a line of a file before the build column has none).
func parseNewColumns(row []string, rec *Record) error {
	var errs []error
	if d := row[11]; d != "" {
		from, to, err := arena.ParseDeals(d)
		if err == nil && 2*(to-from) != rec.Hands {
			err = fmt.Errorf("deals %s are not %d hands", d, rec.Hands)
		}
		rec.FirstDeal = from
		errs = append(errs, err)
	}
	for k, p := range []*int{&rec.Samples, &rec.Runouts} {
		if row[12+k] != "" {
			x, err := strconv.Atoi(row[12+k])
			if err == nil && x < 1 {
				err = fmt.Errorf("%s %d", recordHeader[12+k], x)
			}
			*p = x
			errs = append(errs, err)
		}
	}
	for k, p := range []*float64{&rec.MBBSD, &rec.CVMBBSD} {
		if row[14+k] != "" {
			x, err := strconv.ParseFloat(row[14+k], 64)
			if err == nil && !(x >= 0) {
				err = fmt.Errorf("%s %s", recordHeader[14+k], row[14+k])
			}
			*p = x
			errs = append(errs, err)
		}
	}
	if len(row) > len(dealsHeader) {
		rec.Build = row[len(dealsHeader)]
	}
	return errors.Join(errs...)
}
