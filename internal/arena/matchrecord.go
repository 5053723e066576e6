package arena

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// MatchRecord is one duplicate match as a line of a record file (felt match
// --record): A's win over a range of one seed's deals. Lines of one
// measurement (MatchKey) on disjoint deals pool into one figure
// (PoolMatchRecords): a match of 20,000 hands of a slow bot made in pieces.
type MatchRecord struct {
	MatchKey
	Seed uint64
	// FirstDeal and Hands: the match played deals FirstDeal to
	// FirstDeal+Hands/2−1 of the seed's sequence.
	FirstDeal, Hands int
	// MBBPerGame ± MBBCI95 is A's win; MBBSD the standard deviation of one
	// deal's result (over its two hands, in mbb/g), which pooling needs.
	MBBPerGame, MBBCI95, MBBSD float64
	// CV is set when the match estimated A's win with the control variate too:
	// CVMBBPerGame ± CVMBBCI95, CVMBBSD as MBBSD.
	CV                               bool
	CVMBBPerGame, CVMBBCI95, CVMBBSD float64
	// Build is the felt build that played the match (buildinfo.Revision), or
	// "".
	Build string
}

// MatchKey is what makes record lines one measurement: the game, the bots
// (with their options), the stack (in chips), the blinds' doubling and the
// budget per decision. Lines of one key on disjoint deals (of one seed or of
// several) are one match played in pieces.
type MatchKey struct {
	Variant, A, B string
	Stack         int64
	DoubleEvery   int
	Budget        time.Duration
}

// Key returns the measurement a match of mc belongs to.
func (mc *MatchConfig) Key() MatchKey {
	return MatchKey{Variant: mc.Game.Name, A: mc.A, B: mc.B, Stack: mc.Format.stack(mc.Game), DoubleEvery: mc.Format.DoubleEvery,
		Budget: mc.Budget}
}

// Deals returns the match's deals as --deals takes them: "FROM:TO".
func (r *MatchRecord) Deals() string { return FormatDeals(r.FirstDeal, r.FirstDeal+r.Hands/2) }

// matchHeader names a match record file's columns, in order.
var matchHeader = []string{"variant", "a", "b", "stack", "double_every", "budget", "seed", "deals", "hands",
	"mbb_per_game", "mbb_ci95", "mbb_sd", "cv_mbb_per_game", "cv_mbb_ci95", "cv_mbb_sd", "build"}

// NewMatchRecord returns the record of r, a match of mc with at least two
// deals, played by build.
func NewMatchRecord(mc *MatchConfig, r Result, build string) MatchRecord {
	rec := MatchRecord{MatchKey: mc.Key(), Seed: r.Seed, FirstDeal: r.FirstDeal, Hands: r.Hands,
		MBBPerGame: r.MBBPerGame, MBBCI95: r.MBBCI95, MBBSD: DealSD(r.MBBCI95, r.Deals), Build: build}
	if r.CV != nil {
		rec.CV, rec.CVMBBPerGame, rec.CVMBBCI95, rec.CVMBBSD = true, r.CV.MBBPerGame, r.CV.MBBCI95, DealSD(r.CV.MBBCI95, r.Deals)
	}
	return rec
}

// row returns r as a line of matchHeader's columns (the control variate's
// empty without it).
func (r *MatchRecord) row() []string {
	f := func(x float64, prec int) string { return strconv.FormatFloat(x, 'f', prec, 64) }
	cv := []string{"", "", ""}
	if r.CV {
		cv = []string{f(r.CVMBBPerGame, 1), f(r.CVMBBCI95, 1), f(r.CVMBBSD, 3)}
	}
	return append([]string{r.Variant, r.A, r.B, strconv.FormatInt(r.Stack, 10), strconv.Itoa(r.DoubleEvery),
		r.Budget.String(), strconv.FormatUint(r.Seed, 10), r.Deals(), strconv.Itoa(r.Hands),
		f(r.MBBPerGame, 1), f(r.MBBCI95, 1), f(r.MBBSD, 3)}, append(cv, r.Build)...)
}

// AppendMatchRecord appends rec to the record file at path, created with the
// header when missing or empty, holding its lock (LockRecordFile); a file that
// is not a match record file is left alone, with an error
// (ErrOtherRecordFile).
func AppendMatchRecord(path string, rec MatchRecord) (err error) {
	unlock, err := LockRecordFile(path)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, unlock()) }()
	return AppendRecordLine(path, matchHeader, rec.row())
}

// ReadMatchRecords reads a match record file; a file of something else, or
// with a bad line, is refused, naming the line.
func ReadMatchRecords(r io.Reader) ([]MatchRecord, error) {
	return ReadRecordLines(r, "match record", parseMatchRecord, matchHeader)
}

// parseMatchRecord reads one line of a match record file (matchHeader's
// columns).
func parseMatchRecord(row []string) (MatchRecord, error) {
	rec := MatchRecord{MatchKey: MatchKey{Variant: row[0], A: row[1], B: row[2]}, Build: row[15]}
	var errs []error
	var err error
	rec.Stack, err = strconv.ParseInt(row[3], 10, 64)
	errs = append(errs, err)
	rec.DoubleEvery, err = strconv.Atoi(row[4])
	errs = append(errs, err)
	rec.Budget, err = time.ParseDuration(row[5])
	errs = append(errs, err)
	rec.Seed, err = strconv.ParseUint(row[6], 10, 64)
	errs = append(errs, err)
	var to int
	rec.FirstDeal, to, err = ParseDeals(row[7])
	errs = append(errs, err)
	rec.Hands, err = strconv.Atoi(row[8])
	errs = append(errs, err)
	if err == nil && 2*(to-rec.FirstDeal) != rec.Hands {
		errs = append(errs, fmt.Errorf("deals %s are not %d hands", row[7], rec.Hands))
	}
	errs = append(errs, parseFloats(row[9:12], &rec.MBBPerGame, &rec.MBBCI95, &rec.MBBSD))
	if rec.CV = row[12] != "" || row[13] != "" || row[14] != ""; rec.CV {
		errs = append(errs, parseFloats(row[12:15], &rec.CVMBBPerGame, &rec.CVMBBCI95, &rec.CVMBBSD))
	}
	if err := errors.Join(errs...); err != nil {
		return MatchRecord{}, err
	}
	if rec.Variant == "" || rec.A == "" || rec.B == "" || rec.Stack <= 0 || rec.DoubleEvery < 0 || rec.Budget < 0 ||
		rec.Hands < MinHands || rec.MBBCI95 < 0 || rec.MBBSD < 0 || rec.CVMBBCI95 < 0 || rec.CVMBBSD < 0 {
		return MatchRecord{}, fmt.Errorf("bad record %q", strings.Join(row, ","))
	}
	return rec, nil
}

// parseFloats reads fields into xs, each a finite number.
func parseFloats(fields []string, xs ...*float64) error {
	var errs []error
	for k, p := range xs {
		x, err := strconv.ParseFloat(fields[k], 64)
		if err == nil && (math.IsNaN(x) || math.IsInf(x, 0)) {
			err = fmt.Errorf("%q is not a finite number", fields[k])
		}
		*p = x
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// MatchPool is the record lines of one measurement pooled (PoolPieces): every
// deal they played counted once, as one match of them all would count them.
type MatchPool = Pooled[MatchKey]

// PoolMatchRecords pools the records of each measurement (MatchKey), as
// PoolPieces pools pieces: a line whose deals overlap those of a later line
// of its measurement and seed is left out, with a warning. A pool has the
// control variate's figure when each of its lines has. Pools come in the order
// of their latest lines.
func PoolMatchRecords(records []MatchRecord) (pools []MatchPool, warnings []string) {
	pieces := make([]Piece[MatchKey], len(records))
	for i, r := range records {
		pieces[i] = Piece[MatchKey]{Key: r.MatchKey, Seed: r.Seed, From: r.FirstDeal, To: r.FirstDeal + r.Hands/2,
			Mean: r.MBBPerGame, SD: r.MBBSD, HasCV: r.CV, CVMean: r.CVMBBPerGame, CVSD: r.CVMBBSD, Build: r.Build,
			Label: r.Variant + " " + r.A + " vs " + r.B}
	}
	return PoolPieces(pieces)
}
