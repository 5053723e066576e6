package solver

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/eval"
)

// Options tune how a Solver runs; the zero value is fine.
type Options struct {
	// Workers is how many goroutines share the chance nodes (default: all cores).
	// Results do not depend on it: chance outcomes are summed in a fixed order.
	Workers int
	// NoIsomorphism solves every card a chance node deals, even those whose subgame
	// is another card's with the suits renamed.
	NoIsomorphism bool
	// Compress stores regrets and strategy sums in 16 bits each (with one scale per
	// decision node and array) instead of 32: half the memory, a little accuracy.
	Compress bool
	// MaxMemory stops building the tree once its nodes and values alone pass
	// it, and New then fails wrapping ErrTooBig (0: no bound). A deep tree (a
	// high raise cap, small sizes, a deep stack) grows exponentially: without a
	// bound, New could take minutes and gigabytes before Memory could refuse it.
	MaxMemory int64
}

// ErrTooBig is wrapped by New for a tree past Options.MaxMemory.
var ErrTooBig = errors.New("the tree is too big")

// hand is one of a player's combos on the starting board.
type hand struct {
	c [2]cards.Card
	w float64
}

// board is a board some node plays on; river boards carry the showdown order.
type board struct {
	set   cards.Set
	seats [2][]seat // river: each player's hands not blocked by the board, weakest first
}

// seat is a hand on a river board: its index among the player's hands, its
// strength (higher is stronger) and its cards, in one word for showdown's passes.
type seat struct {
	h      int32
	rank   uint16
	c0, c1 uint8
}

// Solver holds a spot's game tree, the regrets and strategy sums of every decision,
// and the workers. Build one with New; it is not safe for concurrent use.
type Solver struct {
	spot     Spot
	hands    [2][]hand
	weights  [2][]float64 // the starting reach: each hand's weight
	same     [2][]int32   // same[p][h]: the other player's index of the same combo, or -1
	withCard [2][cards.NumCards][]int32
	norm     float64 // sum of the weights of every pair of hands that can meet

	nodes    []node
	acts     []Action     // the actions of every decision node, node after node
	kids     []int32      // the children of every node, node after node
	kidCard  []cards.Card // chance: the card the child deals
	kidPerm  []uint8      // chance: the suit permutation (index into perms) to the representative; 0 for one
	kidFrom  []uint8      // chance: the representative's position among the node's children
	off      []int        // per decision: offset of its regrets and strategy sums
	boards   []board
	boardIdx map[cards.Set]int32
	maxDepth int
	maxH     int
	maxA     int

	handMap    [][2][]int32 // per suit permutation fixing the spot: each hand's image
	symmetries []uint8      // the permutations (indices into perms) fixing the spot

	strategySize int
	compress     bool
	noIso        bool      // Options.NoIsomorphism
	regret       []float32 // allocated by the first iteration, unless compressed
	strat        []float32
	regret16     []uint16  // compressed: the regrets over scale[2*dec], half floats
	strat16      []uint16  // compressed: the strategy sums over scale[2*dec+1], half floats
	scale        []float32 // compressed: per decision, the regrets' and the sums' scales
	iter         int       // iterations begun: DCFR's iteration number
	cut          int       // of them, stopped inside by IterateContext

	gadget *gadget     // a safe re-solve's root (Spot.Bound), or nil
	locked [][]float64 // per decision: its locked strategy (lock.go), or nil

	leafBoards []int32 // depth-limited (Spot.LeafRunouts): the sampled runouts' boards
	leafScale  float64 // 1 / the leaf runouts a pair of hands meets on, in the mean

	workers int
	pool    *pool
	main    *worker

	// done is IterateContext's ctx.Done() while it iterates, nil otherwise, and
	// deadline its ctx's deadline when timed: the traversals poll Done at every
	// node and the clock every clockEvery nodes (polled), NewContext's build both
	// every stopEvery nodes (stopped). Workers read them after
	// receiving a job, so the job channel orders the writes before their reads.
	done     <-chan struct{}
	deadline time.Time
	timed    bool
	halt     atomic.Bool // a traversal found the deadline passed (stopped, polled)
	// onChance, when set (by tests, with one worker), is called at every chance
	// node a traversal enters.
	onChance func()
}

// New checks the spot, lists both players' live hands and builds the tree. The large
// arrays are allocated by the first iteration, so Memory can be reported first.
func New(spot Spot, opts Options) (*Solver, error) {
	return NewContext(context.Background(), spot, opts)
}

// NewContext is New that gives up soon after ctx is done or its deadline has
// passed (the build polls both at every node and river board it makes),
// returning ctx's error (context.DeadlineExceeded when only the deadline has
// passed) and no solver. With ctx already past either on entry it builds nothing.
func NewContext(ctx context.Context, spot Spot, opts Options) (*Solver, error) {
	if err := spot.Validate(); err != nil {
		return nil, err
	}
	spot.Board = slices.Clone(spot.Board)
	s := &Solver{spot: spot, boardIdx: map[cards.Set]int32{}, workers: opts.Workers, compress: opts.Compress, noIso: opts.NoIsomorphism}
	if s.workers <= 0 {
		s.workers = runtime.GOMAXPROCS(0)
	}
	if err := s.watch(ctx); err != nil {
		return nil, err
	}
	defer s.unwatch()
	s.listHands()
	if spot.LeafRunouts > 0 && len(spot.Board) < 5 {
		s.leafRunouts()
	}
	if spot.Bound != nil {
		b := *spot.Bound
		b.Values = slices.Clone(b.Values)
		s.spot.Bound = &b
		s.newGadget(s.spot.Bound)
	}
	s.findSymmetries(opts.NoIsomorphism)
	built := s.buildTree(opts.MaxMemory)
	if s.stopped() {
		return nil, ctxErr(ctx)
	}
	if !built {
		return nil, fmt.Errorf("%w: over %d MiB before it was built", ErrTooBig, opts.MaxMemory>>20)
	}
	for _, n := range s.nodes {
		if n.kind == actionNode {
			s.maxA = max(s.maxA, int(n.nkids))
		}
	}
	s.maxA = max(s.maxA, 2)
	return s, nil
}

// listHands fills hands, weights, same, withCard and norm.
func (s *Solver) listHands() {
	var dead cards.Set
	for _, c := range s.spot.Board {
		dead = dead.Add(c)
	}
	index := [2]map[[2]cards.Card]int32{{}, {}}
	for p := range 2 {
		for _, c := range liveCombos(s.spot.Range[p], dead) {
			h := int32(len(s.hands[p]))
			s.hands[p] = append(s.hands[p], hand{c: c.Cards, w: c.Weight})
			s.weights[p] = append(s.weights[p], c.Weight)
			index[p][c.Cards] = h
			s.withCard[p][c.Cards[0]] = append(s.withCard[p][c.Cards[0]], h)
			s.withCard[p][c.Cards[1]] = append(s.withCard[p][c.Cards[1]], h)
		}
		s.maxH = max(s.maxH, len(s.hands[p]))
	}
	for p := range 2 {
		s.same[p] = make([]int32, len(s.hands[p]))
		for h, hd := range s.hands[p] {
			s.same[p][h] = -1
			if o, ok := index[1-p][hd.c]; ok {
				s.same[p][h] = o
			}
		}
	}
	compat := make([]float64, len(s.hands[0]))
	var cs [cards.NumCards + 1]float64
	s.compatible(0, s.weights[1], compat, &cs)
	for h, v := range compat {
		s.norm += s.weights[0][h] * v
	}
}

// compatible sets out[h], for each of p's hands, to the sum of opp over the other
// player's hands that share no card with it: the blocker correction in O(n). The
// hands come in runs sharing their first card (a range lists AsKs, AsKh, … AsTs):
// that card's sum is kept in a register along a run, as showdown does.
func (s *Solver) compatible(p int, opp, out []float64, cs *[cards.NumCards + 1]float64) {
	clear(cs[:])
	total := 0.0
	cur, acc := cards.Card(cards.NumCards), 0.0
	for o, hd := range s.hands[1-p] {
		v := opp[o]
		total += v
		if c := hd.c[0]; c != cur {
			cs[cur], cur, acc = acc, c, cs[c]
		}
		acc += v
		cs[hd.c[1]] += v
	}
	cs[cur] = acc
	same := s.same[p]
	for h, hd := range s.hands[p] {
		v := total - cs[hd.c[0]] - cs[hd.c[1]]
		if o := same[h]; o >= 0 {
			v += opp[o]
		}
		out[h] = v
	}
}

// boardIndex returns the index of the board with the cards of set, adding it (and its
// showdown order, on the river) the first time. Once NewContext's context has
// ended (stopped), a river board is added without its order: the solver is not
// returned.
func (s *Solver) boardIndex(set cards.Set) int32 {
	if i, ok := s.boardIdx[set]; ok {
		return i
	}
	b := board{set: set}
	if set.Len() == 5 && !s.stopped() {
		base := eval.HandOf(set.Cards()...)
		for p := range 2 {
			var order []int32
			var rank []uint16
			for h, hd := range s.hands[p] {
				if set.Has(hd.c[0]) || set.Has(hd.c[1]) {
					continue
				}
				order = append(order, int32(h))
				rank = append(rank, uint16(base.Add(hd.c[0]).Add(hd.c[1]).Rank()))
			}
			sortByRank(order, rank)
			b.seats[p] = make([]seat, len(order))
			for i, h := range order {
				hd := s.hands[p][h]
				b.seats[p][i] = seat{h: h, rank: rank[i], c0: uint8(hd.c[0]), c1: uint8(hd.c[1])}
			}
		}
	}
	s.boards = append(s.boards, b)
	s.boardIdx[set] = int32(len(s.boards) - 1)
	return int32(len(s.boards) - 1)
}

// sortByRank sorts order and rank together, weakest first, hands of equal rank
// in the order they were in (as a stable sort: each key is the rank over the
// position, all distinct, so an unstable sort of the keys gives that order and
// runs several times faster).
func sortByRank(order []int32, rank []uint16) {
	keys := make([]uint64, len(order))
	for i, r := range rank {
		keys[i] = uint64(r)<<32 | uint64(i)
	}
	slices.Sort(keys)
	o := slices.Clone(order)
	for i, k := range keys {
		order[i], rank[i] = o[uint32(k)], uint16(k>>32)
	}
}

// Memory is the solver's estimated size in bytes once iterating: the regrets and
// strategy sums (4 bytes per hand and action each, 2 compressed), the tree, the
// boards and the workers' scratch.
func (s *Solver) Memory() int64 {
	m := int64(s.strategySize) * 8
	if s.compress {
		m = int64(s.strategySize)*4 + int64(len(s.off))*8
	}
	m += int64(len(s.nodes))*nodeSize + int64(len(s.kids))*kidSize + int64(len(s.acts))*16 + int64(len(s.off))*8
	for _, b := range s.boards {
		m += 64 + int64(len(b.seats[0])+len(b.seats[1]))*8
	}
	m += int64(s.workers+1) * s.scratchBytes()
	m += int64(cards.NumCards * s.maxH * 8)
	return m
}

// Nodes returns the number of nodes in the tree and, of them, the decision nodes.
func (s *Solver) Nodes() (all, decisions int) {
	for _, n := range s.nodes {
		if n.kind == actionNode {
			decisions++
		}
	}
	return len(s.nodes), decisions
}

// Hands returns the number of live hands of each player.
func (s *Solver) Hands() [2]int { return [2]int{len(s.hands[0]), len(s.hands[1])} }

// Spot returns the spot being solved.
func (s *Solver) Spot() Spot { return s.spot }

// Compressed reports whether regrets and strategy sums are kept in 16 bits.
func (s *Solver) Compressed() bool { return s.compress }

// Iterations returns the number of iterations run to their end (an iteration
// IterateContext stopped inside is not counted).
func (s *Solver) Iterations() int { return s.iter - s.cut }

// Close stops the workers. The solver can still be read; iterating restarts them.
func (s *Solver) Close() {
	if s.pool != nil {
		s.pool.stop()
		s.pool = nil
	}
}

// pool runs chance outcomes on worker goroutines.
type pool struct {
	jobs chan job
	wg   sync.WaitGroup
	out  []float64 // per outcome: the traverser's values, maxH apart
}

func (p *pool) stop() { close(p.jobs) }
