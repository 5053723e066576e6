package blueprint

import (
	"bytes"
	_ "embed"
	"math"
	"sync"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/cfr"
)

// Blueprint is a trained strategy at several stack depths, for the rounds it
// keeps (preflop and flop), with its card abstraction. It is safe for concurrent
// use.
type Blueprint struct {
	abs    *cfr.Abstraction
	depths []*Depth

	mu       sync.Mutex
	buckets  map[string][]uint8    // by board as asked: every hand's bucket (Buckets)
	bySuits  map[cards.Set][]uint8 // by board up to the suits (canonical): BoardBuckets'
	computed int                   // the BoardBuckets computed (for tests)
}

// Depth is the blueprint at one stack depth: a betting tree and, for each of its
// decision nodes in the rounds kept and each bucket, the average strategy.
type Depth struct {
	BB         int // the stack depth in big blinds
	Iterations int
	tree       cfr.NoLimitTree
	g          *cfr.HoldemGame
	off        []int32   // by node: the index of (bucket 0, action 0) in probs, or −1
	probs      []float32 // by off + bucket × actions + action
}

// keptRounds is the number of rounds, from the preflop, whose strategy a
// blueprint keeps: the resolve bot re-solves the turn and the river.
const keptRounds = 2

// newDepth keeps the strategy p of the kept rounds of tree g.
func newDepth(bb, iters int, g *cfr.HoldemGame, p *cfr.HoldemProfile) *Depth {
	d := &Depth{BB: bb, Iterations: iters, tree: Tree(bb), g: g}
	d.probs = make([]float32, d.layout())
	for n := range int32(g.NumNodes()) {
		if d.off[n] < 0 {
			continue
		}
		nd := g.Node(n)
		na := len(nd.Actions)
		for b := range g.Buckets()[nd.Round] {
			for a, x := range p.Probs(nd.Info + b) {
				d.probs[int(d.off[n])+b*na+a] = float32(x)
			}
		}
	}
	return d
}

// layout numbers the kept nodes' entries in probs and returns how many there
// are; the caller makes probs.
func (d *Depth) layout() int {
	g := d.g
	d.off = make([]int32, g.NumNodes())
	size := 0
	for n := range int32(g.NumNodes()) {
		nd := g.Node(n)
		d.off[n] = -1
		if nd.Player >= 0 && nd.Round < keptRounds {
			d.off[n] = int32(size)
			size += g.Buckets()[nd.Round] * len(nd.Actions)
		}
	}
	return size
}

// Game returns the depth's betting tree (nodes, actions, chips put in).
func (d *Depth) Game() *cfr.HoldemGame { return d.g }

// Stack returns the depth's stacks in chips of the tree (a chip is a small blind).
func (d *Depth) Stack() int { return d.tree.Stack }

// Probs returns the strategy at decision node n of a kept round for bucket b, one
// probability per action of the node (summing to 1), or nil when the blueprint
// does not keep n or b is out of range. The slice is the blueprint's own.
func (d *Depth) Probs(n int32, b int) []float32 {
	if n < 0 || int(n) >= len(d.off) || d.off[n] < 0 {
		return nil
	}
	nd := d.g.Node(n)
	if b < 0 || b >= d.g.Buckets()[nd.Round] {
		return nil
	}
	na := len(nd.Actions)
	i := int(d.off[n]) + b*na
	return d.probs[i : i+na : i+na]
}

// Kept reports whether the blueprint has a strategy at node n.
func (d *Depth) Kept(n int32) bool { return n >= 0 && int(n) < len(d.off) && d.off[n] >= 0 }

// Depths returns the blueprint's depths, shallowest first.
func (bp *Blueprint) Depths() []*Depth { return bp.depths }

// Abstraction returns the card abstraction (without tables).
func (bp *Blueprint) Abstraction() *cfr.Abstraction { return bp.abs }

// Nearest returns the depth nearest to a stack of bb big blinds, by ratio (20 and
// 50 meet at 32).
func (bp *Blueprint) Nearest(bb float64) *Depth {
	best, dist := bp.depths[0], math.Inf(1)
	for _, d := range bp.depths {
		if x := math.Abs(math.Log(max(bb, 1) / float64(d.BB))); x < dist {
			best, dist = d, x
		}
	}
	return best
}

//go:embed blueprint.bin
var embedded []byte

// Default returns the blueprint built into felt, read once.
var Default = sync.OnceValues(func() (*Blueprint, error) { return Read(bytes.NewReader(embedded)) })
