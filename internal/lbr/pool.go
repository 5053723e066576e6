package lbr

import (
	"cmp"
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

// deviation returns a line's standard deviation of one deal's result: sd when
// recorded, else derived from its interval ci over deals.
func deviation(sd, ci float64, deals int) float64 {
	if sd >= 0 {
		return sd
	}
	return arena.DealSD(ci, deals)
}

// PoolRecords pools the records of each measurement (PoolKey), as
// arena.PoolPieces pools pieces: a line whose deals overlap those of a later
// line of its measurement and seed is left out, with a warning. The warnings
// number lines as in the file ReadRecords read records from (the header is
// line 1). Pools come in the order of their latest lines.
func PoolRecords(records []Record) (pools []Pool, warnings []string) {
	pieces := make([]arena.Piece[PoolKey], len(records))
	for i := range records {
		r := &records[i]
		n := r.Hands / 2
		pieces[i] = arena.Piece[PoolKey]{Key: r.Key(), Seed: r.Seed, From: r.FirstDeal, To: r.FirstDeal + n,
			Mean: r.MBBPerGame, SD: deviation(r.MBBSD, r.MBBCI95, n), HasCV: true,
			CVMean: r.CVMBBPerGame, CVSD: deviation(r.CVMBBSD, r.CVMBBCI95, n), Build: r.Build, Label: r.Variant + " " + r.Bot}
	}
	pooled, warnings := arena.PoolPieces(pieces)
	for _, p := range pooled {
		pool := Pool{PoolKey: p.Key, Hands: p.Hands, Runs: p.Runs, Seeds: p.Seeds, Builds: p.Builds, MBBPerGame: p.MBBPerGame,
			MBBCI95: p.MBBCI95, CVMBBPerGame: p.CVMBBPerGame, CVMBBCI95: p.CVMBBCI95, Latest: p.Latest}
		for _, i := range p.Lines {
			pool.Misses += records[i].Misses
		}
		pools = append(pools, pool)
	}
	return pools, warnings
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
