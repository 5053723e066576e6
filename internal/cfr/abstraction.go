package cfr

import (
	"bufio"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/felt-poker/felt/internal/cards"
)

// PreflopBuckets is the number of preflop buckets: the 169 starting hands, lossless.
const PreflopBuckets = 169

// AbstractionConfig sizes a Hold'em card abstraction.
type AbstractionConfig struct {
	// Preflop is the number of preflop buckets: 0 (or 169) keeps the 169 starting
	// hands; 1..168 groups them by equity against a random hand into buckets of
	// about equal numbers of hands (see preflopGroups). Small abstractions with
	// grouped starting hands are what the exact exploitability can measure.
	Preflop int `json:",omitempty"`
	// Flop, Turn and River are the bucket counts of those rounds (1..256).
	Flop, Turn, River int
	// Bins is the number of bins of the equity histograms clustered on the flop and
	// the turn (default 20).
	Bins int
	// Samples is the number of hands drawn to fit each round's clusters or
	// quantiles (default 40,000).
	Samples int
	// Seed seeds the sampling and the k-means++ starts.
	Seed uint64
}

// DefaultAbstractionConfig is what felt train hulhe uses unless told otherwise.
func DefaultAbstractionConfig() AbstractionConfig {
	return AbstractionConfig{Flop: 50, Turn: 50, River: 50, Bins: 20, Samples: 40000}
}

func (c *AbstractionConfig) fill() error {
	if c.Bins == 0 {
		c.Bins = 20
	}
	if c.Samples == 0 {
		c.Samples = 40000
	}
	if c.Preflop == PreflopBuckets {
		c.Preflop = 0
	}
	if c.Preflop < 0 || c.Preflop > PreflopBuckets {
		return fmt.Errorf("abstraction: %d preflop buckets (want 1..%d)", c.Preflop, PreflopBuckets)
	}
	for _, n := range []int{c.Flop, c.Turn, c.River} {
		if n < 1 || n > 256 {
			return fmt.Errorf("abstraction: %d buckets (want 1..256)", n)
		}
	}
	if c.Bins < 2 || c.Bins > 200 || c.Samples < max(c.Flop, c.Turn, c.River) {
		return fmt.Errorf("abstraction: %d bins, %d samples", c.Bins, c.Samples)
	}
	return nil
}

// Abstraction is a heads-up Hold'em card abstraction with imperfect recall: each
// round's bucket is a function of the hole cards and the board dealt so far.
//
//   - Preflop: the 169 starting hands (HandIndexer(2)), lossless.
//   - Flop and turn: the hand's equity histogram — the distribution, over every way
//     the rest of the board can fall, of its river hand strength against a random
//     hand, in Bins bins — clustered by k-means under the earth mover's distance
//     (for one-dimensional histograms, the L1 distance between cumulative
//     histograms; centroids are means).
//   - River: hand strength quantiles (on the river E[HS²] = HS², so this is also
//     bucketing by E[HS²]).
//
// Buckets are computed on the fly (a flop bucket evaluates about a million hands,
// a few milliseconds), or read from tables indexed by hand isomorphism when the
// abstraction was built with tables: every flop class (1,286,792) and every class
// of hole cards and four board cards (13,960,050), a byte each.
type Abstraction struct {
	cfg                 AbstractionConfig
	pre, flopIx, turnIx *HandIndexer
	flopCDF, turnCDF    []float64 // centroids as cumulative histograms, bucket×Bins
	riverCuts           []int     // River−1 strength thresholds, ascending
	flopTable           []uint8   // by flopIx index; nil: on the fly
	turnTable           []uint8   // by turnIx index
	preNames            []string  // the 169 starting hands' names, by index
	preMap              []uint8   // by starting-hand index: the preflop bucket; nil: lossless
}

// newAbstraction makes the indexers of an abstraction.
func newAbstraction(cfg AbstractionConfig) *Abstraction {
	a := &Abstraction{cfg: cfg}
	a.pre, _ = NewHandIndexer(2)
	a.flopIx, _ = NewHandIndexer(2, 3)
	a.turnIx, _ = NewHandIndexer(2, 4)
	a.preNames = make([]string, PreflopBuckets)
	for c2 := cards.Card(1); c2 < cards.NumCards; c2++ {
		for c1 := cards.Card(0); c1 < c2; c1++ {
			i := a.pre.Index([]cards.Card{c1, c2})
			hi, lo := c2.Rank(), c1.Rank()
			if lo > hi {
				hi, lo = lo, hi
			}
			name := hi.String() + lo.String()
			switch {
			case hi == lo:
			case c1.Suit() == c2.Suit():
				name += "s"
			default:
				name += "o"
			}
			a.preNames[i] = name
		}
	}
	return a
}

// Config returns the abstraction's configuration.
func (a *Abstraction) Config() AbstractionConfig { return a.cfg }

// Sizes returns the bucket count of each round, preflop first.
func (a *Abstraction) Sizes() [4]int {
	pre := PreflopBuckets
	if a.preMap != nil {
		pre = a.cfg.Preflop
	}
	return [4]int{pre, a.cfg.Flop, a.cfg.Turn, a.cfg.River}
}

// preflopBucket returns the preflop bucket of a hole.
func (a *Abstraction) preflopBucket(hole []cards.Card) int {
	i := a.pre.Index(hole)
	if a.preMap != nil {
		return int(a.preMap[i])
	}
	return int(i)
}

// HasTables reports whether flop and turn buckets are read from tables.
func (a *Abstraction) HasTables() bool { return a.flopTable != nil }

// BucketName names bucket b of round r: the starting hand preflop ("AKs"), else
// the round's letter and number ("F12", "T0", "R49").
func (a *Abstraction) BucketName(r, b int) string {
	if r == 0 && a.preMap == nil {
		return a.preNames[b]
	}
	return fmt.Sprintf("%c%d", "PFTR"[r], b)
}

// Bucket returns the bucket of hole with the board dealt so far (0, 3, 4 or 5
// cards) in that round.
func (a *Abstraction) Bucket(hole [2]cards.Card, board []cards.Card) int {
	var cs [7]cards.Card
	cs[0], cs[1] = hole[0], hole[1]
	copy(cs[2:], board)
	switch len(board) {
	case 0:
		return a.preflopBucket(cs[:2])
	case 3:
		if a.cfg.Flop == 1 {
			return 0
		}
		if a.flopTable != nil {
			return int(a.flopTable[a.flopIx.Index(cs[:5])])
		}
		h := make([]int, a.cfg.Bins)
		flopHistogram(hole, [3]cards.Card(board), h)
		return nearest(a.flopCDF, cdfOf(h, make([]float64, a.cfg.Bins)))
	case 4:
		if a.cfg.Turn == 1 {
			return 0
		}
		if a.turnTable != nil {
			return int(a.turnTable[a.turnIx.Index(cs[:6])])
		}
		h := make([]int, a.cfg.Bins)
		turnHistogram(hole, [4]cards.Card(board), h)
		return nearest(a.turnCDF, cdfOf(h, make([]float64, a.cfg.Bins)))
	case 5:
		return a.riverBucket(strengthOf(hole, (*[5]cards.Card)(board)))
	}
	panic(fmt.Sprintf("abstraction: a board of %d cards", len(board)))
}

// riverBucket returns the river bucket of a strength.
func (a *Abstraction) riverBucket(strength int) int {
	b, _ := slices.BinarySearch(a.riverCuts, strength+1)
	return b
}

// DealBuckets returns both players' buckets in every round of a deal (two holes
// and the whole board): the Bucketer a Hold'em solver uses.
func (a *Abstraction) DealBuckets(holes *[2][2]cards.Card, board *[5]cards.Card) (b [2][4]uint8) {
	var hs [2]int
	strengthsOn(board, holes[:], hs[:])
	for p, h := range holes {
		b[p][0] = uint8(a.preflopBucket(h[:]))
		if a.flopTable != nil {
			cs := [6]cards.Card{h[0], h[1], board[0], board[1], board[2], board[3]}
			b[p][1] = a.flopTable[a.flopIx.Index(cs[:5])]
			b[p][2] = a.turnTable[a.turnIx.Index(cs[:6])]
		} else {
			b[p][1] = uint8(a.Bucket(h, board[:3]))
			b[p][2] = uint8(a.Bucket(h, board[:4]))
		}
		b[p][3] = uint8(a.riverBucket(hs[p]))
	}
	return b
}

// flopHistogram adds the river strength histogram of hole after flop, over all
// 1,081 turn and river cards, to h (len(h) bins).
func flopHistogram(hole [2]cards.Card, flop [3]cards.Card, h []int) {
	dead := cardMask(hole[0], hole[1], flop[0], flop[1], flop[2])
	board := [5]cards.Card{flop[0], flop[1], flop[2]}
	holes := [][2]cards.Card{hole}
	var out [1]int
	for t := cards.Card(0); t < cards.NumCards; t++ {
		if dead&(1<<t) != 0 {
			continue
		}
		for r := t + 1; r < cards.NumCards; r++ {
			if dead&(1<<r) != 0 {
				continue
			}
			board[3], board[4] = t, r
			strengthsOn(&board, holes, out[:])
			h[histBin(out[0], len(h))]++
		}
	}
}

// turnHistogram adds the river strength histogram of hole after a four-card board,
// over the 46 river cards, to h.
func turnHistogram(hole [2]cards.Card, turn [4]cards.Card, h []int) {
	dead := cardMask(hole[0], hole[1], turn[0], turn[1], turn[2], turn[3])
	board := [5]cards.Card{turn[0], turn[1], turn[2], turn[3]}
	holes := [][2]cards.Card{hole}
	var out [1]int
	for r := cards.Card(0); r < cards.NumCards; r++ {
		if dead&(1<<r) != 0 {
			continue
		}
		board[4] = r
		strengthsOn(&board, holes, out[:])
		h[histBin(out[0], len(h))]++
	}
}

// boardHistograms fills hist (numPairs × bins) with the river strength histogram
// of every hand that misses board (3 or 4 cards), over every completion of the
// board, using one boardStrengths per completion.
func (s *boardScratch) boardHistograms(board []cards.Card, bins int, hist []uint16) {
	clear(hist)
	dead := cardMask(board...)
	var full [5]cards.Card
	copy(full[:], board)
	add := func() {
		s.boardStrengths(&full)
		d := dead | cardMask(full[3], full[4])
		for c2 := cards.Card(1); c2 < cards.NumCards; c2++ {
			if d&(1<<c2) != 0 {
				continue
			}
			for c1 := cards.Card(0); c1 < c2; c1++ {
				if d&(1<<c1) != 0 {
					continue
				}
				p := pairIndex(c1, c2)
				hist[p*bins+histBin(int(s.hs[p]), bins)]++
			}
		}
	}
	if len(board) == 4 {
		for r := cards.Card(0); r < cards.NumCards; r++ {
			if dead&(1<<r) == 0 {
				full[4] = r
				add()
			}
		}
		return
	}
	for t := cards.Card(0); t < cards.NumCards; t++ {
		if dead&(1<<t) != 0 {
			continue
		}
		for r := t + 1; r < cards.NumCards; r++ {
			if dead&(1<<r) == 0 {
				full[3], full[4] = t, r
				add()
			}
		}
	}
}

// cdfOf writes the cumulative, normalised form of histogram h into out and returns it.
func cdfOf[T int | uint16](h []T, out []float64) []float64 {
	total := 0.0
	for _, x := range h {
		total += float64(x)
	}
	acc := 0.0
	for i, x := range h {
		acc += float64(x)
		out[i] = acc / total
	}
	return out
}

// emd is the earth mover's distance between two histograms given as cumulative
// distributions (in bins).
func emd(a, b []float64) float64 {
	d := 0.0
	for i := range a {
		d += math.Abs(a[i] - b[i])
	}
	return d
}

// nearest returns the index of the centroid (rows of len(x) in cents) closest to
// x by emd, the lowest index on ties.
func nearest(cents, x []float64) int {
	best, bd := 0, math.Inf(1)
	for k := 0; k*len(x) < len(cents); k++ {
		c := cents[k*len(x) : (k+1)*len(x)]
		d := 0.0
		for i, v := range x {
			d += math.Abs(v - c[i])
			if d >= bd {
				break
			}
		}
		if d < bd {
			best, bd = k, d
		}
	}
	return best
}

// kmeans clusters the points (rows of dim values) into k clusters under emd:
// k-means++ seeding, then Lloyd's iterations (means as centroids) until no point
// moves or 50 rounds. It returns the centroids, k×dim.
func kmeans(points []float64, dim, k int, r *rand.Rand) []float64 {
	n := len(points) / dim
	cents := make([]float64, 0, k*dim)
	cents = append(cents, points[r.IntN(n)*dim:][:dim]...)
	dist := make([]float64, n)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	for len(cents) < k*dim {
		last := cents[len(cents)-dim:]
		total := 0.0
		for i := range n {
			d := emd(points[i*dim:][:dim], last)
			dist[i] = min(dist[i], d*d)
			total += dist[i]
		}
		x := r.Float64() * total
		pick := n - 1
		for i, d := range dist {
			if x < d {
				pick = i
				break
			}
			x -= d
		}
		cents = append(cents, points[pick*dim:][:dim]...)
	}
	assign := make([]int, n)
	for i := range assign {
		assign[i] = -1
	}
	workers := runtime.GOMAXPROCS(0)
	for range 50 {
		var moved atomic.Int64
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for i := w; i < n; i += workers {
					c := nearest(cents, points[i*dim:][:dim])
					if c != assign[i] {
						assign[i] = c
						moved.Add(1)
					}
				}
			})
		}
		wg.Wait()
		if moved.Load() == 0 {
			break
		}
		sum := make([]float64, k*dim)
		count := make([]int, k)
		for i, c := range assign {
			count[c]++
			for j, v := range points[i*dim:][:dim] {
				sum[c*dim+j] += v
			}
		}
		for c := range k {
			if count[c] == 0 {
				continue // an empty cluster keeps its centroid
			}
			for j := range dim {
				cents[c*dim+j] = sum[c*dim+j] / float64(count[c])
			}
		}
	}
	return cents
}

// BuildOptions control BuildAbstraction.
type BuildOptions struct {
	// Tables also computes the flop and turn tables (about 14 million hands' buckets;
	// a minute or two on two cores) so that a solver reads buckets instead of
	// computing them.
	Tables bool
	// Workers is the number of goroutines (0: GOMAXPROCS).
	Workers int
	// Progress, when not nil, is called from one goroutine at a time as each stage
	// advances: its name, the work done and the work in all.
	Progress func(stage string, done, total int)
}

// BuildAbstraction fits an abstraction: for each of the flop, turn and river it
// draws cfg.Samples hands (boards drawn at random, then up to 200 random hole
// hands on each, so that every board's strengths are computed once), clusters
// their histograms or takes their strength quantiles, and then, with o.Tables,
// buckets every flop and turn class.
func BuildAbstraction(cfg AbstractionConfig, o BuildOptions) (*Abstraction, error) {
	if err := cfg.fill(); err != nil {
		return nil, err
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	var mu sync.Mutex
	progress := func(stage string, done, total int) {
		if o.Progress != nil {
			mu.Lock()
			o.Progress(stage, done, total)
			mu.Unlock()
		}
	}
	a := newAbstraction(cfg)
	if cfg.Preflop > 0 {
		progress("preflop groups", 0, 1)
		a.preMap = preflopGroups(a.pre, cfg.Preflop, cfg.Seed)
		progress("preflop groups", 1, 1)
	}
	r := rand.New(rand.NewPCG(cfg.Seed, 0xfe17))
	bins := cfg.Bins
	for _, round := range []int{1, 2} {
		k := cfg.Flop
		if round == 2 {
			k = cfg.Turn
		}
		pts := sampleHistograms(round+2, bins, cfg.Samples, r, o.Workers, func(done, total int) {
			progress(fmt.Sprintf("%s samples", roundName(round)), done, total)
		})
		progress(fmt.Sprintf("%s k-means", roundName(round)), 0, 1)
		cents := kmeans(pts, bins, k, r)
		progress(fmt.Sprintf("%s k-means", roundName(round)), 1, 1)
		if round == 1 {
			a.flopCDF = cents
		} else {
			a.turnCDF = cents
		}
	}
	a.riverCuts = sampleRiverCuts(cfg.River, cfg.Samples, r)
	progress("river quantiles", 1, 1)
	if o.Tables {
		a.flopTable = a.buildTable(3, o.Workers, func(done, total int) { progress("flop table", done, total) })
		a.turnTable = a.buildTable(4, o.Workers, func(done, total int) { progress("turn table", done, total) })
	}
	return a, nil
}

// roundName names betting round r (0 preflop .. 3 river).
func roundName(r int) string { return [...]string{"preflop", "flop", "turn", "river"}[r] }

// sampleHistograms returns the cumulative equity histograms (n rows of bins) of n
// random hands with boards of boardLen cards.
func sampleHistograms(boardLen, bins, n int, r *rand.Rand, workers int, progress func(done, total int)) []float64 {
	const perBoard = 200
	type job struct {
		board []cards.Card
		holes [][2]cards.Card
		row   int
	}
	var jobs []job
	for row := 0; row < n; {
		deck := r.Perm(cards.NumCards)
		board := make([]cards.Card, boardLen)
		for i := range board {
			board[i] = cards.Card(deck[i])
		}
		rest := deck[boardLen:]
		m := min(perBoard, n-row)
		j := job{board: board, row: row}
		for range m {
			x, y := r.IntN(len(rest)), r.IntN(len(rest)-1)
			if y >= x {
				y++
			}
			j.holes = append(j.holes, [2]cards.Card{cards.Card(rest[x]), cards.Card(rest[y])})
		}
		jobs = append(jobs, j)
		row += m
	}
	pts := make([]float64, n*bins)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			s := newBoardScratch()
			hist := make([]uint16, numPairs*bins)
			for {
				i := int(next.Add(1) - 1)
				if i >= len(jobs) {
					return
				}
				j := jobs[i]
				s.boardHistograms(j.board, bins, hist)
				for h, hole := range j.holes {
					p := pairIndex(hole[0], hole[1])
					cdfOf(hist[p*bins:(p+1)*bins], pts[(j.row+h)*bins:][:bins])
				}
				progress(int(done.Add(1)), len(jobs))
			}
		})
	}
	wg.Wait()
	return pts
}

// sampleRiverCuts returns the k−1 strength thresholds that split n random river
// hands into k groups of equal size.
func sampleRiverCuts(k, n int, r *rand.Rand) []int {
	s := newBoardScratch()
	var hs []int
	for len(hs) < n {
		deck := r.Perm(cards.NumCards)
		var board [5]cards.Card
		for i := range board {
			board[i] = cards.Card(deck[i])
		}
		s.boardStrengths(&board)
		rest := deck[5:]
		for range min(200, n-len(hs)) {
			x, y := r.IntN(len(rest)), r.IntN(len(rest)-1)
			if y >= x {
				y++
			}
			hs = append(hs, int(s.hs[pairIndex(cards.Card(rest[x]), cards.Card(rest[y]))]))
		}
	}
	slices.Sort(hs)
	cuts := make([]int, 0, k-1)
	for i := 1; i < k; i++ {
		cuts = append(cuts, hs[i*len(hs)/k])
	}
	return cuts
}

// buildTable buckets every class of hole cards and a board of boardLen (3 or 4)
// cards: for each board up to isomorphism, the histograms of all hands at once.
func (a *Abstraction) buildTable(boardLen, workers int, progress func(done, total int)) []uint8 {
	boardIx, _ := NewHandIndexer(boardLen)
	ix, cents := a.flopIx, a.flopCDF
	if boardLen == 4 {
		ix, cents = a.turnIx, a.turnCDF
	}
	// One board of each class: the first met in lexicographic order.
	seen := make([]bool, boardIx.Size())
	var boards [][]cards.Card
	enumerateBoards(boardLen, func(b []cards.Card) {
		if i := boardIx.Index(b); !seen[i] {
			seen[i] = true
			boards = append(boards, slices.Clone(b))
		}
	})
	table := make([]uint8, ix.Size())
	bins := a.cfg.Bins
	var next, done atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			s := newBoardScratch()
			hist := make([]uint16, numPairs*bins)
			cdf := make([]float64, bins)
			cs := make([]cards.Card, 2+boardLen)
			for {
				i := int(next.Add(1) - 1)
				if i >= len(boards) {
					return
				}
				b := boards[i]
				copy(cs[2:], b)
				s.boardHistograms(b, bins, hist)
				dead := cardMask(b...)
				for c2 := cards.Card(1); c2 < cards.NumCards; c2++ {
					if dead&(1<<c2) != 0 {
						continue
					}
					for c1 := cards.Card(0); c1 < c2; c1++ {
						if dead&(1<<c1) != 0 {
							continue
						}
						p := pairIndex(c1, c2)
						cs[0], cs[1] = c1, c2
						// Classes of different boards never meet, so workers write
						// disjoint entries.
						table[ix.Index(cs)] = uint8(nearest(cents, cdfOf(hist[p*bins:(p+1)*bins], cdf)))
					}
				}
				progress(int(done.Add(1)), len(boards))
			}
		})
	}
	wg.Wait()
	return table
}

// enumerateBoards calls f with every set of n cards, in increasing order.
func enumerateBoards(n int, f func([]cards.Card)) {
	b := make([]cards.Card, n)
	var rec func(k int, from cards.Card)
	rec = func(k int, from cards.Card) {
		if k == n {
			f(b)
			return
		}
		for c := from; c < cards.NumCards; c++ {
			b[k] = c
			rec(k+1, c+1)
		}
	}
	rec(0, 0)
}

// AbstractionSpec is an abstraction without its tables: what a strategy file
// carries so that a bot can compute buckets on the fly.
type AbstractionSpec struct {
	Config        AbstractionConfig `json:"config"`
	FlopCentroids [][]float64       `json:"flop_centroids"` // cumulative histograms
	TurnCentroids [][]float64       `json:"turn_centroids"`
	RiverCuts     []int             `json:"river_cuts"` // strength thresholds (of 1980)
	// PreflopMap is each starting hand's preflop bucket, by HandIndexer(2) index,
	// when Config.Preflop groups them.
	PreflopMap []uint8 `json:"preflop_map,omitempty"`
}

// Spec returns the abstraction without its tables.
func (a *Abstraction) Spec() *AbstractionSpec {
	rows := func(x []float64) [][]float64 {
		var out [][]float64
		for i := 0; i < len(x); i += a.cfg.Bins {
			out = append(out, slices.Clone(x[i:i+a.cfg.Bins]))
		}
		return out
	}
	return &AbstractionSpec{Config: a.cfg, FlopCentroids: rows(a.flopCDF), TurnCentroids: rows(a.turnCDF),
		RiverCuts: slices.Clone(a.riverCuts), PreflopMap: slices.Clone(a.preMap)}
}

// Fingerprint identifies the abstraction's buckets: a hash of its spec.
func (a *Abstraction) Fingerprint() string {
	b, _ := json.Marshal(a.Spec())
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// Abstraction returns the abstraction s describes, computing buckets on the fly.
func (s *AbstractionSpec) Abstraction() (*Abstraction, error) {
	cfg := s.Config
	if err := cfg.fill(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadFile, err)
	}
	if len(s.FlopCentroids) != cfg.Flop || len(s.TurnCentroids) != cfg.Turn || len(s.RiverCuts) != cfg.River-1 {
		return nil, fmt.Errorf("%w: abstraction: centroid or threshold counts do not match %d/%d/%d buckets",
			ErrBadFile, cfg.Flop, cfg.Turn, cfg.River)
	}
	a := newAbstraction(cfg)
	for _, rows := range []struct {
		in  [][]float64
		out *[]float64
	}{{s.FlopCentroids, &a.flopCDF}, {s.TurnCentroids, &a.turnCDF}} {
		for _, row := range rows.in {
			if len(row) != cfg.Bins {
				return nil, fmt.Errorf("%w: abstraction: a centroid of %d bins, want %d", ErrBadFile, len(row), cfg.Bins)
			}
			*rows.out = append(*rows.out, row...)
		}
	}
	if !slices.IsSorted(s.RiverCuts) {
		return nil, fmt.Errorf("%w: abstraction: river thresholds out of order", ErrBadFile)
	}
	a.riverCuts = slices.Clone(s.RiverCuts)
	if cfg.Preflop > 0 {
		if len(s.PreflopMap) != PreflopBuckets || slices.Max(s.PreflopMap) >= uint8(cfg.Preflop) {
			return nil, fmt.Errorf("%w: abstraction: a preflop map that does not fit %d buckets", ErrBadFile, cfg.Preflop)
		}
		a.preMap = slices.Clone(s.PreflopMap)
	} else if s.PreflopMap != nil {
		return nil, fmt.Errorf("%w: abstraction: a preflop map without preflop buckets", ErrBadFile)
	}
	return a, nil
}

// abstractionMagic heads an abstraction file.
const (
	abstractionMagic   = "felt-cfr-abstraction"
	abstractionVersion = 1
)

// abstractionRecord is what an abstraction file holds after its header line.
type abstractionRecord struct {
	Spec                 AbstractionSpec
	FlopTable, TurnTable []uint8
}

// Write writes the abstraction, tables included: a header line
// "felt-cfr-abstraction 1", then a gob-encoded record.
func (a *Abstraction) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s %d\n", abstractionMagic, abstractionVersion)
	if err := gob.NewEncoder(bw).Encode(&abstractionRecord{Spec: *a.Spec(), FlopTable: a.flopTable, TurnTable: a.turnTable}); err != nil {
		return err
	}
	return bw.Flush()
}

// ReadAbstraction reads a file written by Abstraction.Write.
func ReadAbstraction(r io.Reader) (*Abstraction, error) {
	br := bufio.NewReader(r)
	var magic string
	var version int
	if _, err := fmt.Fscanf(br, "%s %d\n", &magic, &version); err != nil || magic != abstractionMagic {
		return nil, fmt.Errorf("%w: not a felt abstraction file", ErrBadFile)
	}
	if version != abstractionVersion {
		return nil, fmt.Errorf("%w: abstraction version %d, this felt reads %d", ErrBadFile, version, abstractionVersion)
	}
	var rec abstractionRecord
	if err := gob.NewDecoder(br).Decode(&rec); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadFile, err)
	}
	a, err := rec.Spec.Abstraction()
	if err != nil {
		return nil, err
	}
	if rec.FlopTable != nil || rec.TurnTable != nil {
		if uint64(len(rec.FlopTable)) != a.flopIx.Size() || uint64(len(rec.TurnTable)) != a.turnIx.Size() {
			return nil, fmt.Errorf("%w: abstraction: tables of the wrong size", ErrBadFile)
		}
		for _, t := range []struct {
			tab []uint8
			k   int
		}{{rec.FlopTable, a.cfg.Flop}, {rec.TurnTable, a.cfg.Turn}} {
			if i := slices.IndexFunc(t.tab, func(b uint8) bool { return int(b) >= t.k }); i >= 0 {
				return nil, fmt.Errorf("%w: abstraction: table entry %d out of range", ErrBadFile, i)
			}
		}
		a.flopTable, a.turnTable = rec.FlopTable, rec.TurnTable
	}
	return a, nil
}

// NumHands is the number of two-card hands. BoardBuckets numbers them as
// HandIndex does.
const NumHands = numPairs

// HandIndex numbers the two-card hand {a, b}, a ≠ b, from 0 to NumHands−1: the
// higher card c's hands start at c(c−1)/2, the lower card is added.
func HandIndex(a, b cards.Card) int { return pairIndex(a, b) }

// BoardBuckets returns the bucket of every two-card hand (by HandIndex) with the
// board dealt so far (0, 3, 4 or 5 cards) in that round; a hand holding a card of
// the board gets bucket 0. It rates all hands at once: on the flop about 1,081
// boards of 1,081 hands, tens of milliseconds, whatever tables the abstraction has.
func (a *Abstraction) BoardBuckets(board []cards.Card) ([]uint8, error) {
	out := make([]uint8, numPairs)
	dead := cardMask(board...)
	live := func(c1, c2 cards.Card) bool { return dead&(1<<c1|1<<c2) == 0 }
	switch len(board) {
	case 0:
		for c2 := cards.Card(1); c2 < cards.NumCards; c2++ {
			for c1 := cards.Card(0); c1 < c2; c1++ {
				out[pairIndex(c1, c2)] = uint8(a.preflopBucket([]cards.Card{c1, c2}))
			}
		}
	case 3, 4:
		cents, k := a.flopCDF, a.cfg.Flop
		if len(board) == 4 {
			cents, k = a.turnCDF, a.cfg.Turn
		}
		if k == 1 {
			return out, nil
		}
		bins := a.cfg.Bins
		hist := make([]uint16, numPairs*bins)
		newBoardScratch().boardHistograms(board, bins, hist)
		cdf := make([]float64, bins)
		for c2 := cards.Card(1); c2 < cards.NumCards; c2++ {
			for c1 := cards.Card(0); c1 < c2; c1++ {
				if p := pairIndex(c1, c2); live(c1, c2) {
					out[p] = uint8(nearest(cents, cdfOf(hist[p*bins:(p+1)*bins], cdf)))
				}
			}
		}
	case 5:
		s := newBoardScratch()
		s.boardStrengths((*[5]cards.Card)(board))
		for c2 := cards.Card(1); c2 < cards.NumCards; c2++ {
			for c1 := cards.Card(0); c1 < c2; c1++ {
				if p := pairIndex(c1, c2); live(c1, c2) {
					out[p] = uint8(a.riverBucket(int(s.hs[p])))
				}
			}
		}
	default:
		return nil, fmt.Errorf("abstraction: a board of %d cards", len(board))
	}
	return out, nil
}
