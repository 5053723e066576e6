package arena

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Piece is one line of a record file as pooling sees it: the measurement it
// belongs to (Key), the deals From to To−1 of Seed it played, and the mean and
// standard deviation of one deal's result (in mbb/g), plain and with the
// control variate.
type Piece[K comparable] struct {
	Key      K
	Seed     uint64
	From, To int
	Mean, SD float64
	// HasCV is set when the line has the control variate's figures, CVMean
	// and CVSD.
	HasCV        bool
	CVMean, CVSD float64
	// Build is the felt build that played the piece ("" when the line does
	// not say).
	Build string
	// Label names the measurement in a warning ("nl random").
	Label string
}

// Pooled is the pieces of one measurement pooled: every deal they played
// counted once, as one run of them all would count them.
type Pooled[K comparable] struct {
	Key   K
	Hands int
	// Runs is the number of pieces pooled, Seeds their seeds (each once, in
	// increasing order), Lines their indices (in decreasing order).
	Runs  int
	Seeds []uint64
	Lines []int
	// Builds are the builds that played the pieces (Piece.Build), each once,
	// in increasing order; pieces that do not say are left out.
	Builds []string
	// MBBPerGame ± MBBCI95 is the mean over all the hands (the pieces' means
	// weighted by their deals), the interval from the pieces' deviations and
	// means; CVMBBPerGame ± CVMBBCI95 the same with the control variate, when
	// every piece pooled has it (HasCV).
	MBBPerGame, MBBCI95     float64
	HasCV                   bool
	CVMBBPerGame, CVMBBCI95 float64
	// Latest is the index of the latest piece pooled.
	Latest int
}

// moments accumulates deal results given as groups (count, mean, standard
// deviation): their count, mean and sum of squared deviations from the mean,
// as one group of them all would have (Chan, Golub and LeVeque's pairwise
// update).
type moments struct{ n, mean, ss float64 }

func (m *moments) add(n, mean, sd float64) {
	if n == 0 {
		return
	}
	total := m.n + n
	d := mean - m.mean
	m.ss += (n-1)*sd*sd + d*d*m.n*n/total
	m.mean += d * n / total
	m.n = total
}

// ci95 returns the half-width of the mean's 95% interval.
func (m *moments) ci95() float64 {
	if m.n < 2 {
		return 0
	}
	return z95 * math.Sqrt(m.ss/(m.n-1)/m.n)
}

// PoolPieces pools the pieces of each measurement (Key): a piece whose deals
// overlap those of a later piece of its measurement and seed is left out,
// with a warning (a run repeated counts once: the later one, as when a bot was
// measured again after a change). The warnings number pieces as lines of the
// file they were read from (piece i on line i+2, after the header). Pools come
// in the order of their latest pieces.
func PoolPieces[K comparable](pieces []Piece[K]) (pools []Pooled[K], warnings []string) {
	type span struct{ line, from, to int }
	type acc struct {
		pool      Pooled[K]
		plain, cv moments
	}
	byKey := map[K]*acc{}
	kept := map[K]map[uint64][]span{}
	for i := len(pieces) - 1; i >= 0; i-- {
		p := &pieces[i]
		if kept[p.Key] == nil {
			kept[p.Key] = map[uint64][]span{}
			byKey[p.Key] = &acc{pool: Pooled[K]{Key: p.Key, Latest: i, HasCV: true}}
		}
		s := span{i + 2, p.From, p.To}
		if j := slices.IndexFunc(kept[p.Key][p.Seed], func(o span) bool { return s.from < o.to && o.from < s.to }); j >= 0 {
			o := kept[p.Key][p.Seed][j]
			warnings = append(warnings, fmt.Sprintf("line %d (%s, seed %d, deals %s) overlaps the later line %d (deals %s): left out",
				s.line, p.Label, p.Seed, FormatDeals(p.From, p.To), o.line, FormatDeals(o.from, o.to)))
			continue
		}
		kept[p.Key][p.Seed] = append(kept[p.Key][p.Seed], s)
		a := byKey[p.Key]
		n := float64(p.To - p.From)
		a.plain.add(n, p.Mean, p.SD)
		a.cv.add(n, p.CVMean, p.CVSD)
		a.pool.HasCV = a.pool.HasCV && p.HasCV
		a.pool.Hands += 2 * (p.To - p.From)
		a.pool.Runs++
		a.pool.Lines = append(a.pool.Lines, i)
		a.pool.Seeds = insertOnce(a.pool.Seeds, p.Seed)
		if p.Build != "" {
			a.pool.Builds = insertOnce(a.pool.Builds, p.Build)
		}
	}
	slices.Reverse(warnings)
	for _, a := range byKey {
		p := a.pool
		p.MBBPerGame, p.MBBCI95 = a.plain.mean, a.plain.ci95()
		if p.HasCV {
			p.CVMBBPerGame, p.CVMBBCI95 = a.cv.mean, a.cv.ci95()
		}
		pools = append(pools, p)
	}
	slices.SortFunc(pools, func(a, b Pooled[K]) int { return cmp.Compare(a.Latest, b.Latest) })
	return pools, warnings
}

// insertOnce inserts x into the sorted s unless it is there.
func insertOnce[T cmp.Ordered](s []T, x T) []T {
	if k, found := slices.BinarySearch(s, x); !found {
		s = slices.Insert(s, k, x)
	}
	return s
}
