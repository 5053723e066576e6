package lbr

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/felt-poker/felt/internal/arena"
)

// PoolKey is what makes record lines one measurement: the game, the bot (with
// its options), what LBR may do and how it asks. Lines of one key on disjoint
// deals (of one seed or of several) are one measurement made in pieces.
type PoolKey struct {
	Variant, Bot     string
	Preflop          bool
	Sizes            string
	Samples, Runouts int
}

// Key returns the measurement r belongs to. A line that does not record its
// samples or runouts (written before those columns) counts as run with the
// defaults, DefaultSamples and DefaultRunouts, as every run of docs/bots.md
// was: so the pieces of a measurement begun then and continued now pool.
func (r *Record) Key() PoolKey {
	k := PoolKey{r.Variant, r.Bot, r.Preflop, r.Sizes, r.Samples, r.Runouts}
	if k.Samples == 0 {
		k.Samples = DefaultSamples
	}
	if k.Runouts == 0 {
		k.Runouts = DefaultRunouts
	}
	return k
}

// Pool is the record lines of one measurement pooled: every deal they played
// counted once, as one run of them all would count them.
type Pool struct {
	PoolKey
	Hands int
	// Runs is the number of lines pooled, Seeds their seeds (each once, in
	// increasing order).
	Runs  int
	Seeds []uint64
	// Builds are the builds of felt that made the lines pooled (Record.Build),
	// each once, in increasing order; lines that do not say are left out.
	Builds []string
	// MBBPerGame ± MBBCI95 is LBR's win over all the hands (their mean, from
	// the lines' means weighted by their hands), the interval from the lines'
	// deviations and means; CVMBBPerGame ± CVMBBCI95 the same with the control
	// variate.
	MBBPerGame, MBBCI95, CVMBBPerGame, CVMBBCI95 float64
	Misses                                       int64
	// Latest is the index of the latest line pooled.
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
	return arena.Z95 * math.Sqrt(m.ss/(m.n-1)/m.n)
}

// deviation returns a line's standard deviation of one deal's result: sd when
// recorded, else derived from its interval ci over deals.
func deviation(sd, ci float64, deals int) float64 {
	if sd >= 0 {
		return sd
	}
	return ci * math.Sqrt(float64(deals)) / arena.Z95
}

// PoolRecords pools the records of each measurement (PoolKey): a line whose
// deals overlap those of a later line of its measurement and seed is left
// out, with a warning (a run repeated counts once: the later one, as when a
// bot was measured again after a change). The warnings number lines as in the
// file ReadRecords read records from (the header is line 1). Pools come in the
// order of their latest lines.
func PoolRecords(records []Record) (pools []Pool, warnings []string) {
	type span struct{ line, from, to int }
	type acc struct {
		pool      Pool
		plain, cv moments
	}
	byKey := map[PoolKey]*acc{}
	kept := map[PoolKey]map[uint64][]span{}
	for i := len(records) - 1; i >= 0; i-- {
		r := &records[i]
		k := r.Key()
		if kept[k] == nil {
			kept[k] = map[uint64][]span{}
			byKey[k] = &acc{pool: Pool{PoolKey: k, Latest: i}}
		}
		s := span{i + 2, r.FirstDeal, r.FirstDeal + r.Hands/2}
		if j := slices.IndexFunc(kept[k][r.Seed], func(o span) bool { return s.from < o.to && o.from < s.to }); j >= 0 {
			o := kept[k][r.Seed][j]
			warnings = append(warnings, fmt.Sprintf("line %d (%s %s, seed %d, deals %s) overlaps the later line %d (deals %s): left out",
				s.line, r.Variant, r.Bot, r.Seed, r.Deals(), o.line, FormatDeals(o.from, o.to)))
			continue
		}
		kept[k][r.Seed] = append(kept[k][r.Seed], s)
		a := byKey[k]
		n := r.Hands / 2
		a.plain.add(float64(n), r.MBBPerGame, deviation(r.MBBSD, r.MBBCI95, n))
		a.cv.add(float64(n), r.CVMBBPerGame, deviation(r.CVMBBSD, r.CVMBBCI95, n))
		a.pool.Hands += r.Hands
		a.pool.Runs++
		a.pool.Misses += r.Misses
		a.pool.Seeds = insertOnce(a.pool.Seeds, r.Seed)
		if r.Build != "" {
			a.pool.Builds = insertOnce(a.pool.Builds, r.Build)
		}
	}
	slices.Reverse(warnings)
	for _, a := range byKey {
		p := a.pool
		p.MBBPerGame, p.MBBCI95 = a.plain.mean, a.plain.ci95()
		p.CVMBBPerGame, p.CVMBBCI95 = a.cv.mean, a.cv.ci95()
		pools = append(pools, p)
	}
	slices.SortFunc(pools, func(a, b Pool) int { return cmp.Compare(a.Latest, b.Latest) })
	return pools, warnings
}

// insertOnce inserts x into the sorted s unless it is there.
func insertOnce[T cmp.Ordered](s []T, x T) []T {
	if k, found := slices.BinarySearch(s, x); !found {
		s = slices.Insert(s, k, x)
	}
	return s
}

// Leading returns, for each bot with a pool in variant, the measurement a table
// leads with: of the pools of its latest line with and of its latest line
// without Config.Preflop, the one where LBR won more (both are lower bounds on
// a best response's win, so the larger is the better bound). They are sorted
// by that win, largest first.
func Leading(pools []Pool, variant string) []Pool {
	type key struct {
		bot     string
		preflop bool
	}
	latest := map[key]Pool{}
	for _, p := range pools { // in the order of their latest lines
		if p.Variant == variant {
			latest[key{p.Bot, p.Preflop}] = p
		}
	}
	best := map[string]Pool{}
	for _, p := range latest {
		if b, ok := best[p.Bot]; !ok || p.MBBPerGame > b.MBBPerGame {
			best[p.Bot] = p
		}
	}
	out := make([]Pool, 0, len(best))
	for _, p := range best {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b Pool) int {
		return cmp.Or(cmp.Compare(b.MBBPerGame, a.MBBPerGame), cmp.Compare(a.Bot, b.Bot))
	})
	return out
}
