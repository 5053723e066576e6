// Package equity computes how often Hold'em hands or ranges win, tie and what share of
// the pot they take on average: exactly, by enumerating every board (with suit
// isomorphism to skip equivalent ones), or by Monte Carlo sampling on all cores.
package equity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"time"
	"unsafe"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/eval"
)

// ErrBadInput is wrapped by every error about the players, board or dead cards given
// to Calculate: a wrong count, a card used twice, a player left with no hand.
var ErrBadInput = errors.New("bad equity input")

// MaxPlayers is the largest number of players Calculate accepts.
const MaxPlayers = 10

// Method is how a result was or is to be computed.
type Method int

// The methods. Auto picks Exact when the estimated work is below Options.ExactLimit.
const (
	Auto Method = iota
	Exact
	MonteCarlo
)

// String returns "auto", "exact" or "monte carlo".
func (m Method) String() string {
	switch m {
	case Auto:
		return "auto"
	case Exact:
		return "exact"
	case MonteCarlo:
		return "monte carlo"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// MarshalText writes the method's name, for JSON.
func (m Method) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// DefaultExactLimit is the Auto threshold: exact enumeration is chosen when it is
// estimated to need at most this many hand evaluations (showdowns × players).
const DefaultExactLimit = 200_000_000

// DefaultSamples is the Monte Carlo sample count when no stop condition is given.
const DefaultSamples = 1_000_000

// Options tunes Calculate. The zero Options means: pick the method automatically, use
// all cores, and stop Monte Carlo after DefaultSamples showdowns with seed zero.
type Options struct {
	Method Method
	// ExactLimit replaces DefaultExactLimit for Auto.
	ExactLimit int64
	// Workers is the number of goroutines; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// NoSuitReduction makes exact enumeration evaluate every board one by one instead
	// of one board per class of equivalent boards. The answer is the same; it is slower
	// and exists for checking and benchmarking.
	NoSuitReduction bool

	// Monte Carlo stops at the first of these that is set and met. When none is set,
	// Samples is DefaultSamples.
	Samples      int64         // showdowns to sample at most
	TargetStdErr float64       // stop when every player's equity standard error is at most this
	TimeLimit    time.Duration // stop after about this long
	// Seed fixes the random streams: the same seed, Workers and Samples give the same result.
	Seed cards.Seed

	// Progress, if set, is called now and then from one goroutine at a time with the work
	// done and the work planned (Monte Carlo: showdowns, total 0 when open-ended; exact:
	// jobs of hole-card assignments).
	Progress func(done, total int64)
}

// PlayerResult is one player's share of the deals.
type PlayerResult struct {
	Range  string  `json:"hand"`
	Win    float64 `json:"win"`    // fraction of deals this player wins alone
	Tie    float64 `json:"tie"`    // fraction of deals this player splits with others
	Equity float64 `json:"equity"` // average share of the pot: Win plus each tie's 1/k share
	// Wins and Ties count deals (weighted by combo weights; whole numbers when all weights are 1).
	Wins float64 `json:"wins"`
	Ties float64 `json:"ties"`
	// StdErr is the standard error of Equity for Monte Carlo, 0 for exact results.
	StdErr float64 `json:"stderr"`
}

// Result is the outcome of Calculate.
type Result struct {
	Players []PlayerResult `json:"players"`
	Method  Method         `json:"method"`
	// Showdowns counts the showdowns actually evaluated (each ranks every player's hand).
	// Exact enumeration with suit reduction evaluates far fewer showdowns than it counts deals.
	Showdowns int64 `json:"showdowns"`
	// Deals is the (weighted) number of deals the fractions are taken over: every
	// hole-card assignment times every board for exact, the samples for Monte Carlo.
	Deals   float64       `json:"deals"`
	Elapsed time.Duration `json:"elapsed_ns"`
}

// Calculate is CalculateContext without a context.
func Calculate(players []Range, board, dead []cards.Card, opts Options) (Result, error) {
	return CalculateContext(context.Background(), players, board, dead, opts)
}

// CalculateContext returns each player's win, tie and equity for 2 to MaxPlayers players
// (each holding a fixed hand or a range), a board of 0, 3, 4 or 5 cards and any dead
// cards. Combos holding a card of the board, of the dead cards or of another player's
// fixed hand are dropped. Errors for impossible input wrap ErrBadInput. If ctx is
// cancelled, the result so far is returned with ctx's error.
func CalculateContext(ctx context.Context, players []Range, board, dead []cards.Card, opts Options) (Result, error) {
	start := time.Now()
	p, err := newProblem(players, board, dead)
	if err != nil {
		return Result{}, err
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	method := opts.Method
	if method == Auto {
		limit := opts.ExactLimit
		if limit <= 0 {
			limit = DefaultExactLimit
		}
		method = MonteCarlo
		if p.exactCost() <= float64(limit) {
			method = Exact
		}
	}
	var t tally
	switch method {
	case Exact:
		t, err = p.exact(ctx, opts)
	case MonteCarlo:
		t, err = p.monteCarlo(ctx, opts)
	default:
		return Result{}, fmt.Errorf("%w: unknown method %d", ErrBadInput, int(method))
	}
	res := t.result(players, method)
	res.Elapsed = time.Since(start)
	return res, err
}

// problem is Calculate's input, checked, with card removal done.
type problem struct {
	n         int
	board     []cards.Card
	boardHand eval.Hand
	known     cards.Set // board and dead cards
	ranges    [][]Combo // per player, after card removal
}

func newProblem(players []Range, board, dead []cards.Card) (*problem, error) {
	if len(players) < 2 || len(players) > MaxPlayers {
		return nil, fmt.Errorf("%w: need 2 to %d players, got %d", ErrBadInput, MaxPlayers, len(players))
	}
	if n := len(board); n != 0 && n != 3 && n != 4 && n != 5 {
		return nil, fmt.Errorf("%w: a board of %d cards (want 0, 3, 4 or 5)", ErrBadInput, n)
	}
	p := &problem{n: len(players), board: board, boardHand: eval.Empty}
	// owner names who holds each card among the board, dead cards and fixed hands.
	var owner [cards.NumCards]string
	claim := func(c cards.Card, who string) error {
		if !c.Valid() {
			return fmt.Errorf("%w: %s holds an invalid card (%d)", ErrBadInput, who, uint8(c))
		}
		if owner[c] != "" {
			if owner[c] == who {
				return fmt.Errorf("%w: %s holds %s twice", ErrBadInput, who, c)
			}
			return fmt.Errorf("%w: %s is both in %s and in %s", ErrBadInput, c, owner[c], who)
		}
		owner[c] = who
		return nil
	}
	for _, c := range board {
		if err := claim(c, "the board"); err != nil {
			return nil, err
		}
		p.boardHand = p.boardHand.Add(c)
	}
	for _, c := range dead {
		if err := claim(c, "the dead cards"); err != nil {
			return nil, err
		}
	}
	p.known = cards.SetOf(board...) | cards.SetOf(dead...)
	var fixed cards.Set
	for i, r := range players {
		if r.Len() == 0 {
			return nil, fmt.Errorf("%w: player %d has an empty range", ErrBadInput, i+1)
		}
		if r.Fixed() {
			who := fmt.Sprintf("player %d's hand (%s)", i+1, r)
			for _, c := range r.combos[0].Cards {
				if err := claim(c, who); err != nil {
					return nil, err
				}
			}
			fixed |= r.combos[0].Set()
		}
	}
	for i, r := range players {
		others := fixed
		if r.Fixed() {
			others &^= r.combos[0].Set()
		}
		left := r.without(p.known | others)
		if left.Len() == 0 {
			return nil, fmt.Errorf("%w: player %d (%s) has no hand left once the board, dead cards and other players' hands are removed", ErrBadInput, i+1, r)
		}
		p.ranges = append(p.ranges, left.combos)
	}
	if left := cards.NumCards - p.known.Len() - 2*p.n; left < p.toDeal() {
		return nil, fmt.Errorf("%w: %d cards left to deal, %d needed for the board", ErrBadInput, left, p.toDeal())
	}
	if !p.feasible() {
		return nil, fmt.Errorf("%w: the ranges cannot all be dealt at once: they need more cards than are left", ErrBadInput)
	}
	return p, nil
}

// feasible reports whether some deal gives every player a combo of their range without
// sharing a card. It gives up (and says yes) after a bounded search; Monte Carlo then
// reports ranges that almost never fit.
func (p *problem) feasible() bool {
	budget := 1_000_000
	var search func(i int, used cards.Set) bool
	search = func(i int, used cards.Set) bool {
		if i == p.n {
			return true
		}
		for _, c := range p.ranges[i] {
			if budget--; budget < 0 {
				return true
			}
			if c.Set()&used == 0 && search(i+1, used|c.Set()) {
				return true
			}
		}
		return false
	}
	return search(0, 0)
}

// toDeal returns how many board cards are still to come.
func (p *problem) toDeal() int { return 5 - len(p.board) }

// exactCost estimates the hand evaluations exact enumeration would need.
func (p *problem) exactCost() float64 {
	assignments := 1.0
	for _, r := range p.ranges {
		assignments *= float64(len(r))
	}
	left := cards.NumCards - p.known.Len() - 2*p.n
	boards := binomial(left, p.toDeal()) / reductionEstimate[p.toDeal()]
	return assignments * boards * float64(p.n)
}

// reductionEstimate[k] is about how many boards one showdown of the suit reduction stands
// for when k cards are to come, on the low side (measured: AhKd vs QsJc preflop 48.9,
// AhAs vs KdKc 83.7, on 7h8c2d 10.9, on 7h8c2d3s 3.4). A board of 1 or 2 cards is never
// dealt.
var reductionEstimate = [6]float64{1, 3, 8, 1, 1, 40}

func binomial(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	r := 1.0
	for i := 0; i < k; i++ {
		r = r * float64(n-i) / float64(i+1)
	}
	return r
}

// tally counts deals by their set of winners: w[m] is the weight of deals won (or split)
// by exactly the players in bit mask m.
type tally struct {
	n         int
	w         []float64
	showdowns int64
}

func newTally(n int) tally { return tally{n: n, w: make([]float64, 1<<n)} }

// newWorkerTally returns a tally for one worker, its counts allocated apart.
func newWorkerTally(n int) tally { return tally{n: n, w: apart[float64](1 << n)} }

// cacheLine is what apart leaves free on each side of a worker's memory: two lines of
// 64 bytes, as x86 processors fetch lines in adjacent pairs (and Apple's are 128).
const cacheLine = 128

// apart returns n zero Ts with cacheLine bytes unused on each side, so that a worker
// writing them shares no cache line with another worker's memory (objects the
// allocator hands out one after the other lie side by side).
func apart[T any](n int) []T {
	size := max(1, int(unsafe.Sizeof(*new(T))))
	pad := (cacheLine + size - 1) / size
	return make([]T, pad+n+pad)[pad : pad+n : pad+n]
}

func (t *tally) add(o tally) {
	for m, x := range o.w {
		t.w[m] += x
	}
	t.showdowns += o.showdowns
}

// stats returns per-player totals: sole wins, ties, pot shares and squared shares, and
// the total weight.
func (t tally) stats() (win, tie, share, share2 []float64, total float64) {
	win, tie = make([]float64, t.n), make([]float64, t.n)
	share, share2 = make([]float64, t.n), make([]float64, t.n)
	for m, x := range t.w {
		if x == 0 {
			continue
		}
		total += x
		k := bits.OnesCount(uint(m))
		for mm := uint(m); mm != 0; mm &= mm - 1 {
			i := bits.TrailingZeros(mm)
			if k == 1 {
				win[i] += x
			} else {
				tie[i] += x
			}
			share[i] += x / float64(k)
			share2[i] += x / float64(k*k)
		}
	}
	return win, tie, share, share2, total
}

// maxStdErr is the largest standard error of a player's equity when every unit of
// weight is one sample.
func (t tally) maxStdErr() float64 {
	_, _, share, share2, total := t.stats()
	worst := 0.0
	for i := range share {
		worst = max(worst, stdErr(share[i], share2[i], total))
	}
	return worst
}

func stdErr(sum, sum2, n float64) float64 {
	if n < 2 {
		return math.Inf(1)
	}
	mean := sum / n
	return math.Sqrt(max(0, sum2/n-mean*mean) / (n - 1))
}

func (t tally) result(players []Range, method Method) Result {
	res := Result{Method: method, Showdowns: t.showdowns}
	if t.w == nil {
		return res
	}
	win, tie, share, share2, total := t.stats()
	res.Deals = total
	for i := range win {
		pr := PlayerResult{Range: players[i].String(), Wins: win[i], Ties: tie[i]}
		if total > 0 {
			pr.Win, pr.Tie, pr.Equity = win[i]/total, tie[i]/total, share[i]/total
		}
		if method == MonteCarlo {
			pr.StdErr = stdErr(share[i], share2[i], total)
		}
		res.Players = append(res.Players, pr)
	}
	return res
}

// winners returns the bit mask of the players whose hole cards make the best hand
// with board (which must hold 5 cards). A board holding no suit three times lets no
// one make a flush, and every player's rank is then read from the rank sum alone.
func winners(board eval.Hand, holes []eval.Hand) int {
	var ranks [MaxPlayers]eval.Rank
	rs := ranks[:len(holes)]
	if board.MayFlushWith(2) {
		for i, h := range holes {
			rs[i] = board.Combine(h).Rank()
		}
	} else {
		for i, h := range holes {
			rs[i] = board.Combine(h).RankNoFlush()
		}
	}
	return best(rs)
}

// best returns the bit mask of the players holding the highest of ranks. It has no
// branch on the ranks (which player holds the best hand is what the processor could not
// predict).
func best(ranks []eval.Rank) int {
	var top eval.Rank
	for _, r := range ranks {
		top = max(top, r)
	}
	m := 0
	for i, r := range ranks {
		eq := 0
		if r == top {
			eq = 1
		}
		m |= eq << i
	}
	return m
}
