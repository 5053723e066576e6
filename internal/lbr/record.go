package lbr

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Record is one LBR run as a line of a record file (felt lbr --record), the
// data behind docs/bots.md's LBR column and its chart.
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
}

// recordHeader names a record file's columns, in order.
var recordHeader = []string{"variant", "bot", "preflop", "hands", "seed", "sizes", "mbb_per_game", "mbb_ci95", "cv_mbb_per_game", "cv_mbb_ci95", "misses"}

// NewRecord returns the record of r, a run with sizes and preflop as given.
func NewRecord(r Result, sizes []Size, preflop bool) Record {
	names := make([]string, len(sizes))
	for i, s := range sizes {
		names[i] = s.String()
	}
	rec := Record{Variant: r.Variant, Bot: r.Bot, Preflop: preflop, Hands: r.Hands, Seed: r.Seed, Sizes: strings.Join(names, " "),
		MBBPerGame: r.MBBPerGame, MBBCI95: r.MBBCI95, Misses: r.Misses}
	if r.CV != nil {
		rec.CVMBBPerGame, rec.CVMBBCI95 = r.CV.MBBPerGame, r.CV.MBBCI95
	}
	return rec
}

// WriteRecords writes records as CSV lines to w, after the header line when
// header is set (a new file).
func WriteRecords(w io.Writer, records []Record, header bool) error {
	cw := csv.NewWriter(w)
	if header {
		if err := cw.Write(recordHeader); err != nil {
			return err
		}
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }
	for _, r := range records {
		if err := cw.Write([]string{r.Variant, r.Bot, strconv.FormatBool(r.Preflop), strconv.Itoa(r.Hands),
			strconv.FormatUint(r.Seed, 10), r.Sizes, f(r.MBBPerGame), f(r.MBBCI95), f(r.CVMBBPerGame), f(r.CVMBBCI95),
			strconv.FormatInt(r.Misses, 10)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadRecords reads a record file written by WriteRecords.
func ReadRecords(r io.Reader) ([]Record, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(recordHeader)
	rows, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("lbr record: %w", err)
	}
	if len(rows) == 0 || !slices.Equal(rows[0], recordHeader) {
		return nil, errors.New("lbr record: the first line is not the header " + strings.Join(recordHeader, ","))
	}
	out := make([]Record, 0, len(rows)-1)
	for n, row := range rows[1:] {
		rec, err := parseRecord(row)
		if err != nil {
			return nil, fmt.Errorf("lbr record, line %d: %w", n+2, err)
		}
		out = append(out, rec)
	}
	return out, nil
}

// parseRecord reads one line of a record file (the header's columns).
func parseRecord(row []string) (Record, error) {
	rec := Record{Variant: row[0], Bot: row[1], Sizes: row[5]}
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
	if err := errors.Join(errs...); err != nil {
		return Record{}, err
	}
	if rec.Bot == "" || rec.Hands < 1 || rec.MBBCI95 < 0 || rec.CVMBBCI95 < 0 {
		return Record{}, fmt.Errorf("bad record %q", strings.Join(row, ","))
	}
	return rec, nil
}

// Leading returns, for each bot with a record in variant, the run a table
// leads with: of its latest run with and its latest without Config.Preflop, the
// one where LBR won more (both are lower bounds on a best response's win, so
// the larger is the better bound). They are sorted by that win, largest first.
func Leading(records []Record, variant string) []Record {
	type key struct {
		bot     string
		preflop bool
	}
	latest := map[key]Record{}
	for _, r := range records {
		if r.Variant == variant {
			latest[key{r.Bot, r.Preflop}] = r
		}
	}
	best := map[string]Record{}
	for _, r := range latest {
		if b, ok := best[r.Bot]; !ok || r.MBBPerGame > b.MBBPerGame {
			best[r.Bot] = r
		}
	}
	out := make([]Record, 0, len(best))
	for _, r := range best {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Record) int {
		return cmp.Or(cmp.Compare(b.MBBPerGame, a.MBBPerGame), cmp.Compare(a.Bot, b.Bot))
	})
	return out
}
