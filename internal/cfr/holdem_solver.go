package cfr

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/eval"
)

// A Bucketer maps a deal — both players' hole cards and the whole board — to each
// player's bucket in every round. *Abstraction is one.
type Bucketer interface {
	Sizes() [4]int
	DealBuckets(holes *[2][2]cards.Card, board *[5]cards.Card) [2][4]uint8
}

// HoldemOptions configure a HoldemSolver.
type HoldemOptions struct {
	// Seed seeds the traversals' random streams (ChaCha8, one per thread).
	Seed uint64
	// Threads is the number of traversal streams run in parallel (default 2). The
	// result depends on the seed and Threads, not on the machine or on timing.
	Threads int
	// PruneAfter is the iteration from which regret-based pruning is on (default
	// 200,000; negative: never). Then 95% of traversals skip the traverser's actions
	// whose regret is below PruneThreshold and whom regret matching gives no weight,
	// except on the river and where the action ends the hand.
	PruneAfter int
	// PruneThreshold is the regret below which an action may be skipped (default
	// −14,400 chips, 300 times the largest pot share); regrets are floored at 1.05
	// times it so that a pruned action can come back.
	PruneThreshold float64
	// Averaging weighs the iterations in the average strategy (and, for
	// LinearCFR, in the regrets); default UniformAveraging.
	Averaging Averaging
	// Tree is the betting tree to solve, built for the abstraction's bucket
	// counts (a NewNoLimitGame); nil: limit Hold'em (NewHoldemGame). Checkpoints
	// are written and read for the limit tree only.
	Tree *HoldemGame
}

// Averaging is how a HoldemSolver weighs iterations in its average strategy.
type Averaging int

const (
	// UniformAveraging weighs every iteration alike: the average strategy adds
	// the current strategy at each sampled visit.
	UniformAveraging Averaging = iota
	// LinearAveraging weighs iteration t's contribution to the average by t (as
	// Linear CFR and Pluribus's discounting do), so that early play fades.
	LinearAveraging
	// LinearCFR weighs iteration t by t in the regrets too, keeping them at the
	// scale of plain sums (multiplied by t/(t+n) after a batch of n), so that
	// PruneThreshold means the same.
	LinearCFR
)

var averagingNames = [...]string{UniformAveraging: "uniform", LinearAveraging: "linear", LinearCFR: "lcfr"}

// String returns "uniform", "linear" or "lcfr".
func (a Averaging) String() string {
	if a >= 0 && int(a) < len(averagingNames) {
		return averagingNames[a]
	}
	return fmt.Sprintf("Averaging(%d)", int(a))
}

// ParseAveraging parses "uniform", "linear" or "lcfr".
func ParseAveraging(s string) (Averaging, error) {
	for a, name := range averagingNames {
		if s == name {
			return Averaging(a), nil
		}
	}
	return 0, fmt.Errorf("unknown averaging %q (uniform, linear or lcfr)", s)
}

// HoldemSolver runs external-sampling MCCFR with regret-based pruning on heads-up
// limit Hold'em in a card abstraction. An iteration deals one hand and traverses
// the tree for each player in turn (exploring all of the traverser's actions,
// sampling the opponent's from regret matching). Iterations run on Threads
// goroutines in batches against the regrets as they were at the batch's start, each
// thread adding to its own delta arrays, merged in a fixed order after the batch:
// no locks, no races, and the same numbers for the same seed whatever the timing.
// A HoldemSolver is not safe for concurrent use.
type HoldemSolver struct {
	g    *HoldemGame
	bk   Bucketer
	o    HoldemOptions
	iter int

	regret, sum []float64
	workers     []*holdemWorker
}

// holdemWorker is one traversal stream.
type holdemWorker struct {
	s          *HoldemSolver
	src        *rand.ChaCha8
	rng        *rand.Rand
	dreg, dsum []float64
	b          [2][4]uint8 // this deal's buckets
	win        int         // +1 if player 0 wins the showdown, −1 if he loses, 0 split
	prune      bool
	deck       [cards.NumCards]cards.Card
}

// NewHoldemSolver returns a solver at iteration 0 for the game whose bucket counts
// bk gives.
func NewHoldemSolver(bk Bucketer, o HoldemOptions) (*HoldemSolver, error) {
	if o.Threads == 0 {
		o.Threads = 2
	}
	if o.Threads < 1 || o.Threads > 64 {
		return nil, fmt.Errorf("hulhe: %d threads", o.Threads)
	}
	if o.PruneAfter == 0 {
		o.PruneAfter = 200_000
	}
	if o.PruneThreshold == 0 {
		o.PruneThreshold = -300 * 48
	}
	if o.PruneThreshold > 0 {
		return nil, fmt.Errorf("hulhe: prune threshold %g must be negative", o.PruneThreshold)
	}
	if o.Averaging < 0 || int(o.Averaging) >= len(averagingNames) {
		return nil, fmt.Errorf("hulhe: %v", o.Averaging)
	}
	g := o.Tree
	if g == nil {
		var err error
		if g, err = NewHoldemGame(bk.Sizes()); err != nil {
			return nil, err
		}
	} else if g.buckets != bk.Sizes() {
		return nil, fmt.Errorf("hulhe: a tree for buckets %v and an abstraction of %v", g.buckets, bk.Sizes())
	}
	s := &HoldemSolver{g: g, bk: bk, o: o, regret: make([]float64, g.slots), sum: make([]float64, g.slots)}
	for t := range o.Threads {
		var seed [32]byte
		binary.LittleEndian.PutUint64(seed[:], o.Seed)
		binary.LittleEndian.PutUint64(seed[8:], uint64(t))
		w := &holdemWorker{s: s, src: rand.NewChaCha8(seed), dreg: make([]float64, g.slots), dsum: make([]float64, g.slots)}
		w.rng = rand.New(w.src)
		for c := range w.deck {
			w.deck[c] = cards.Card(c)
		}
		s.workers = append(s.workers, w)
	}
	return s, nil
}

// Game returns the betting tree.
func (s *HoldemSolver) Game() *HoldemGame { return s.g }

// Iterations returns the number of iterations done.
func (s *HoldemSolver) Iterations() int { return s.iter }

// Options returns the solver's options, defaults filled in.
func (s *HoldemSolver) Options() HoldemOptions { return s.o }

// BatchSize is the number of iterations the next batch should have: 1/16 of those
// done, between 256 and 32,768. Callers that want the same numbers from the same
// seed, however they are interrupted, iterate in batches of this size.
func (s *HoldemSolver) BatchSize() int { return min(max(s.iter/16, 256), 32768) }

// Iterate runs n iterations as one batch, split among the threads.
func (s *HoldemSolver) Iterate(n int) {
	if n <= 0 {
		return
	}
	T := len(s.workers)
	pruning := s.o.PruneAfter >= 0 && s.iter >= s.o.PruneAfter
	var wg sync.WaitGroup
	for t, w := range s.workers {
		m := n / T
		if t < n%T {
			m++
		}
		wg.Go(func() {
			for range m {
				w.iteration(pruning)
			}
		})
	}
	wg.Wait()
	t0, t1 := s.iter, s.iter+n
	s.iter = t1
	// The batch's weight in the average: 1 for every iteration, or for linear
	// averaging the mean of its iterations' numbers t0+1 … t1. Sums then grow as
	// t² times the visits, far from float64's limits.
	ws := 1.0
	if s.o.Averaging != UniformAveraging {
		ws = float64(t0+1+t1) / 2
	}
	// Linear regrets: R ← R·t0/t1 + Δ·(mean t)/t1, which is Σ t·r_t / t1.
	keep, wr := 1.0, 1.0
	if s.o.Averaging == LinearCFR {
		keep, wr = float64(t0)/float64(t1), float64(t0+1+t1)/2/float64(t1)
	}
	floor := 1.05 * s.o.PruneThreshold
	for i := range s.regret {
		r, m := s.regret[i]*keep, s.sum[i]
		for _, w := range s.workers {
			r += w.dreg[i] * wr
			m += w.dsum[i] * ws
		}
		s.regret[i], s.sum[i] = max(r, floor), m
	}
	for _, w := range s.workers {
		clear(w.dreg)
		clear(w.dsum)
	}
}

// iteration deals a hand and traverses it for each player.
func (w *holdemWorker) iteration(pruning bool) {
	var holes [2][2]cards.Card
	var board [5]cards.Card
	w.deal(&holes, &board)
	w.b = w.s.bk.DealBuckets(&holes, &board)
	w.win = showdown(&holes, &board)
	for p := range 2 {
		w.prune = pruning && w.rng.Float64() < 0.95
		w.walk(0, p)
	}
}

// deal draws nine distinct cards (a partial Fisher–Yates shuffle of a fresh deck,
// so that a deal depends on the random stream alone).
func (w *holdemWorker) deal(holes *[2][2]cards.Card, board *[5]cards.Card) {
	var out [9]cards.Card
	for c := range w.deck {
		w.deck[c] = cards.Card(c)
	}
	for i := range out {
		j := i + w.rng.IntN(cards.NumCards-i)
		w.deck[i], w.deck[j] = w.deck[j], w.deck[i]
		out[i] = w.deck[i]
	}
	holes[0] = [2]cards.Card{out[0], out[1]}
	holes[1] = [2]cards.Card{out[2], out[3]}
	copy(board[:], out[4:])
}

// showdown returns +1 if player 0's hand beats player 1's, −1 if it loses, 0 on a tie.
func showdown(holes *[2][2]cards.Card, board *[5]cards.Card) int {
	b := eval.Empty
	for _, c := range board {
		b = b.Add(c)
	}
	r0 := b.Add(holes[0][0]).Add(holes[0][1]).Rank()
	r1 := b.Add(holes[1][0]).Add(holes[1][1]).Rank()
	switch {
	case r0 > r1:
		return 1
	case r0 < r1:
		return -1
	}
	return 0
}

// utility returns what player p wins at terminal nd when player 0's showdown
// result is win.
func (nd *hnode) utility(p, win int) float64 {
	u := float64(nd.stake)
	if nd.fold >= 0 {
		if int(nd.fold) == p {
			return -u
		}
		return u
	}
	if p == 1 {
		win = -win
	}
	return float64(win) * u
}

// walk returns traverser p's sampled value at node n, adding to p's regret deltas
// below n and to the opponent's average-strategy deltas.
func (w *holdemWorker) walk(n int32, p int) float64 {
	s := w.s
	nd := &s.g.nodes[n]
	if nd.player < 0 {
		return nd.utility(p, w.win)
	}
	na := len(nd.acts)
	sl := int(nd.slot) + int(w.b[nd.player][nd.round])*na
	var buf [maxHoldemActions]float64
	cur := buf[:na]
	regretMatch(s.regret[sl:sl+na], cur)
	if int(nd.player) != p {
		for a, pr := range cur {
			w.dsum[sl+a] += pr
		}
		return w.walk(nd.kids[sample(w.rng.Float64(), cur)], p)
	}
	var vals [maxHoldemActions]float64
	var explored [maxHoldemActions]bool
	v := 0.0
	for a, k := range nd.kids {
		if w.prune && cur[a] == 0 && s.regret[sl+a] < s.o.PruneThreshold && nd.round < 3 && s.g.nodes[k].player >= 0 {
			continue
		}
		explored[a] = true
		vals[a] = w.walk(k, p)
		v += cur[a] * vals[a]
	}
	for a := range na {
		if explored[a] {
			w.dreg[sl+a] += vals[a] - v
		}
	}
	return v
}

// Average returns the average strategy.
func (s *HoldemSolver) Average() *HoldemProfile {
	p := &HoldemProfile{g: s.g, prob: make([]float64, s.g.slots)}
	for i := range s.g.infosets {
		sl, na := s.g.infosetSlot(i)
		normalize(s.sum[sl:sl+na], p.prob[sl:sl+na])
	}
	return p
}

// HoldemProfile is a strategy for both players of a HoldemGame.
type HoldemProfile struct {
	g    *HoldemGame
	prob []float64
}

// Game returns the betting tree the profile plays.
func (p *HoldemProfile) Game() *HoldemGame { return p.g }

// Probs returns the action probabilities of information set i (the profile's own
// slice: do not change it).
func (p *HoldemProfile) Probs(i int) []float64 {
	sl, na := p.g.infosetSlot(i)
	return p.prob[sl : sl+na : sl+na]
}

// Lookup returns the actions and their probabilities for the player to act after
// the public history (as in HoldemInfoset.History) holding bucket, or false when
// the history is not a decision node of the tree.
func (p *HoldemProfile) Lookup(history string, bucket int) (acts string, probs []float64, ok bool) {
	n, ok := p.g.walk(history)
	if !ok {
		return "", nil, false
	}
	nd := &p.g.nodes[n]
	if bucket < 0 || bucket >= p.g.buckets[nd.round] {
		return "", nil, false
	}
	na := len(nd.acts)
	sl := int(nd.slot) + bucket*na
	return nd.acts, p.prob[sl : sl+na : sl+na], true
}

// holdemCheckpointGame names Hold'em in checkpoints and strategy files.
const holdemCheckpointGame = "hulhe"

// WriteCheckpoint writes the solver's state, with the abstraction's fingerprint
// and the training time so far, in the format of Solver.WriteCheckpoint.
func (s *HoldemSolver) WriteCheckpoint(w io.Writer, fingerprint string, elapsed time.Duration) error {
	if s.o.Tree != nil {
		return errors.New("hulhe: checkpoints are for the limit tree")
	}
	c := checkpoint{Game: holdemCheckpointGame, Algo: MCCFR.String(), Alternating: true, Iterations: s.iter,
		Elapsed: elapsed, Slots: s.g.slots, Regret: s.regret, Sum: s.sum,
		Threads: len(s.workers), Abstraction: fingerprint, Buckets: s.g.buckets,
		PruneAfter: s.o.PruneAfter, PruneThreshold: s.o.PruneThreshold, Seed: s.o.Seed,
		Averaging: s.o.Averaging.String()}
	for _, wk := range s.workers {
		b, err := wk.src.MarshalBinary()
		if err != nil {
			return err
		}
		c.RNGs = append(c.RNGs, b)
	}
	return writeCheckpointRecord(w, &c)
}

// ReadHoldemCheckpoint reads a checkpoint written by HoldemSolver.WriteCheckpoint
// and returns the solver, ready to go on with bk (whose fingerprint must match the
// checkpoint's), and the training time recorded.
func ReadHoldemCheckpoint(r io.Reader, bk Bucketer, fingerprint string) (*HoldemSolver, time.Duration, error) {
	c, err := readCheckpointRecord(r)
	if err != nil {
		return nil, 0, err
	}
	if c.Game != holdemCheckpointGame {
		return nil, 0, fmt.Errorf("%w: a checkpoint of %s, not %s", ErrBadFile, c.Game, holdemCheckpointGame)
	}
	if c.Abstraction != fingerprint || c.Buckets != bk.Sizes() {
		return nil, 0, fmt.Errorf("%w: the checkpoint was trained with another abstraction (%s, buckets %v)", ErrBadFile, c.Abstraction, c.Buckets)
	}
	// Checkpoints written before the choice have no Averaging: uniform.
	avg := UniformAveraging
	if c.Averaging != "" {
		if avg, err = ParseAveraging(c.Averaging); err != nil {
			return nil, 0, fmt.Errorf("%w: %v", ErrBadFile, err)
		}
	}
	// The sizes are checked before the solver is made: its threads' arrays are
	// not the file's to choose (a small file naming 64 threads would otherwise
	// allocate 130 times its tree's regrets before it was refused).
	g, err := NewHoldemGame(bk.Sizes())
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %v", ErrBadFile, err)
	}
	if len(c.Regret) != g.slots || len(c.Sum) != g.slots || len(c.RNGs) != c.Threads || c.Iterations < 0 {
		return nil, 0, fmt.Errorf("%w: checkpoint does not fit the game", ErrBadFile)
	}
	s, err := NewHoldemSolver(bk, HoldemOptions{Seed: c.Seed, Threads: c.Threads, PruneAfter: c.PruneAfter,
		PruneThreshold: c.PruneThreshold, Averaging: avg})
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %v", ErrBadFile, err)
	}
	for t, w := range s.workers {
		if err := w.src.UnmarshalBinary(c.RNGs[t]); err != nil {
			return nil, 0, fmt.Errorf("%w: random stream: %v", ErrBadFile, err)
		}
		w.rng = rand.New(w.src)
	}
	s.iter = c.Iterations
	copy(s.regret, c.Regret)
	copy(s.sum, c.Sum)
	return s, c.Elapsed, nil
}
