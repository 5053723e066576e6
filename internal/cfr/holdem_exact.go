package cfr

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/felt-poker/felt/internal/cards"
)

// MaxAbstractSequences bounds the number of bucket sequences of one player
// (preflop × flop × turn × river buckets) for which a HoldemAbstractGame can be
// built: its tables hold one number per pair of sequences (two tables of 128 MB at
// the bound, 8 buckets a round).
const MaxAbstractSequences = 4096

// holdemBoardHands is the number of ordered pairs of holes dealt on one board:
// C(47,2) for player 0 times C(45,2) for player 1.
const holdemBoardHands = 1081 * 990

// AbstractGameOptions configure NewHoldemAbstractGame.
type AbstractGameOptions struct {
	// Boards is the number of boards drawn (default 2,000).
	Boards int
	// Seed seeds the boards: board i is drawn from PCG(Seed, i).
	Seed uint64
	// Workers is the number of goroutines (0: GOMAXPROCS).
	Workers int
	// Tree is the betting tree (a NewNoLimitGame for the abstraction's bucket
	// counts); nil: limit Hold'em.
	Tree *HoldemGame
}

// HoldemAbstractGame is a card abstraction of heads-up limit Hold'em made into a
// game of its own, small enough that best responses in it are exact:
//
//   - Chance draws one of Boards boards (five cards in dealing order, drawn
//     uniformly at random once, when the game is built) with equal probability,
//     then the two players' hole cards, every one of the 1081 × 990 ordered pairs
//     of disjoint holes with equal probability.
//   - Each player observes, at each round, his own bucket of that round, and
//     remembers all of them: an information set is a betting-tree node and the
//     acting player's bucket sequence so far (perfect recall).
//   - Betting and payoffs are those of HoldemGame; a showdown goes to the better
//     hand of the deal.
//
// Only the joint distribution of the two players' bucket sequences and the
// expected showdown result given them matter, so the game is held as two tables
// over pairs of sequences, computed exactly from every deal on the drawn boards.
// A strategy trained on the card abstraction (a HoldemProfile: bucket of the
// current round only, imperfect recall) is a strategy of this game, and the
// responder's perfect recall can only help him. The game differs from the real
// deal distribution only by the sampling of boards.
type HoldemAbstractGame struct {
	g      *HoldemGame
	sizes  [4]int
	seqs   int
	tail   [5]int    // tail[r]: the number of bucket sequences of rounds r..3 (tail[4] = 1)
	prob   []float64 // [s0·seqs + s1]: the probability that player 0 has sequence s0 and player 1 s1
	win    []float64 // [s0·seqs + s1]: that probability × player 0's showdown result (+1, 0, −1)
	boards int
}

// newAbstractGame returns an abstract game with empty tables for the bucket counts
// sizes.
func newAbstractGame(sizes [4]int) (*HoldemAbstractGame, error) {
	g, err := NewHoldemGame(sizes)
	if err != nil {
		return nil, err
	}
	ag := &HoldemAbstractGame{g: g, sizes: sizes}
	ag.tail[4] = 1
	for r := 3; r >= 0; r-- {
		ag.tail[r] = ag.tail[r+1] * sizes[r]
	}
	ag.seqs = ag.tail[0]
	if ag.seqs > MaxAbstractSequences {
		return nil, fmt.Errorf("hulhe: buckets %v give %d bucket sequences a player; the exact abstract game takes at most %d",
			sizes, ag.seqs, MaxAbstractSequences)
	}
	ag.prob = make([]float64, ag.seqs*ag.seqs)
	ag.win = make([]float64, ag.seqs*ag.seqs)
	return ag, nil
}

// AbstractGameFits reports whether NewHoldemAbstractGame takes these bucket counts.
func AbstractGameFits(sizes [4]int) bool {
	n := 1
	for _, k := range sizes {
		n *= k
	}
	return n <= MaxAbstractSequences
}

// NewHoldemAbstractGame builds the abstract game of the card abstraction bk (see
// HoldemAbstractGame): it draws the boards and, on each, buckets every hole and
// counts every ordered pair of disjoint holes by their bucket sequences and
// showdown result. It is deterministic for a seed (the counts are integers, so the
// order in which workers add them does not matter).
func NewHoldemAbstractGame(bk Bucketer, o AbstractGameOptions) (*HoldemAbstractGame, error) {
	if o.Boards == 0 {
		o.Boards = 2000
	}
	if o.Boards < 0 {
		return nil, fmt.Errorf("hulhe: %d boards", o.Boards)
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	ag, err := newAbstractGame(bk.Sizes())
	if err != nil {
		return nil, err
	}
	if o.Tree != nil {
		if o.Tree.buckets != ag.sizes {
			return nil, fmt.Errorf("hulhe: a tree for buckets %v and an abstraction of %v", o.Tree.buckets, ag.sizes)
		}
		ag.g = o.Tree
	}
	ag.boards = o.Boards
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan int)
	for range o.Workers {
		wg.Go(func() {
			sc := newBoardCounter(ag)
			for i := range next {
				sc.count(bk, o.Seed, i)
				mu.Lock()
				sc.merge()
				mu.Unlock()
			}
		})
	}
	for i := range o.Boards {
		next <- i
	}
	close(next)
	wg.Wait()
	scale := 1 / float64(o.Boards) / holdemBoardHands
	for i := range ag.prob {
		ag.prob[i] *= scale
		ag.win[i] *= scale
	}
	return ag, nil
}

// boardCounter counts one board's pairs of holes by bucket sequences.
type boardCounter struct {
	ag       *HoldemAbstractGame
	holes    [][2]cards.Card
	buckets  [][4]uint8
	seq      []int32  // by hole: its bucket sequence
	local    []int32  // by hole: its sequence's number on this board
	seqs     []int32  // this board's sequences, by local number
	slot     []int32  // by sequence: its local number, or −1
	cnt, net []int32  // [local × len(seqs) + local]
	ranks    []uint32 // by hole
	masks    []uint64
}

func newBoardCounter(ag *HoldemAbstractGame) *boardCounter {
	c := &boardCounter{ag: ag, holes: make([][2]cards.Card, 0, 1081), buckets: make([][4]uint8, 1081),
		seq: make([]int32, 1081), local: make([]int32, 1081), slot: make([]int32, ag.seqs),
		ranks: make([]uint32, 1081), masks: make([]uint64, 1081)}
	for i := range c.slot {
		c.slot[i] = -1
	}
	return c
}

// count draws board i and counts its pairs of holes.
func (c *boardCounter) count(bk Bucketer, seed uint64, i int) {
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	var deck [cards.NumCards]cards.Card
	for k := range deck {
		deck[k] = cards.Card(k)
	}
	for k := range 5 {
		j := k + r.IntN(cards.NumCards-k)
		deck[k], deck[j] = deck[j], deck[k]
	}
	board := [5]cards.Card(deck[:5])
	dead := cardMask(board[:]...)
	c.holes = c.holes[:0]
	for c2 := cards.Card(1); c2 < cards.NumCards; c2++ {
		for c1 := cards.Card(0); c1 < c2; c1++ {
			if dead&(1<<c1|1<<c2) == 0 {
				c.holes = append(c.holes, [2]cards.Card{c1, c2})
			}
		}
	}
	n := len(c.holes)
	bucketBoard(bk, &board, c.holes, c.buckets[:n])
	for _, s := range c.seqs {
		c.slot[s] = -1
	}
	c.seqs = c.seqs[:0]
	t := &c.ag.tail
	for h, hole := range c.holes {
		b := c.buckets[h]
		s := int32(int(b[0])*t[1] + int(b[1])*t[2] + int(b[2])*t[3] + int(b[3]))
		if c.slot[s] < 0 {
			c.slot[s] = int32(len(c.seqs))
			c.seqs = append(c.seqs, s)
		}
		c.seq[h], c.local[h] = s, c.slot[s]
		c.ranks[h] = uint32(handRank(hole, &board))
		c.masks[h] = cardMask(hole[0], hole[1])
	}
	L := len(c.seqs)
	if cap(c.cnt) < L*L {
		c.cnt, c.net = make([]int32, L*L), make([]int32, L*L)
	}
	c.cnt, c.net = c.cnt[:L*L], c.net[:L*L]
	clear(c.cnt)
	clear(c.net)
	for i := range n {
		mi, li, ri := c.masks[i], int(c.local[i]), c.ranks[i]
		for j := i + 1; j < n; j++ {
			if c.masks[j]&mi != 0 {
				continue
			}
			lj := int(c.local[j])
			c.cnt[li*L+lj]++
			c.cnt[lj*L+li]++
			switch rj := c.ranks[j]; {
			case ri > rj:
				c.net[li*L+lj]++
				c.net[lj*L+li]--
			case ri < rj:
				c.net[li*L+lj]--
				c.net[lj*L+li]++
			}
		}
	}
}

// merge adds the board's counts to the game's tables.
func (c *boardCounter) merge() {
	S, L := c.ag.seqs, len(c.seqs)
	for a, sa := range c.seqs {
		for b, sb := range c.seqs {
			if n := c.cnt[a*L+b]; n != 0 {
				c.ag.prob[int(sa)*S+int(sb)] += float64(n)
				c.ag.win[int(sa)*S+int(sb)] += float64(c.net[a*L+b])
			}
		}
	}
}

// Game returns the betting tree.
func (ag *HoldemAbstractGame) Game() *HoldemGame { return ag.g }

// Boards returns the number of boards the game was built from.
func (ag *HoldemAbstractGame) Boards() int { return ag.boards }

// Sequences returns the number of bucket sequences of a player.
func (ag *HoldemAbstractGame) Sequences() int { return ag.seqs }

// BestResponseValue returns what a best response to p's strategy for player 1−q
// wins as player q in the abstract game, in chips (small blinds) per game. It is
// exact: one pass over the betting tree with a vector over the responder's bucket
// sequences at each node, the opponent's reach folded into the tables round by
// round (his strategy depends on one round's bucket at a time, so his reach is a
// product of one factor per round).
func (ag *HoldemAbstractGame) BestResponseValue(p *HoldemProfile, q int) float64 {
	return ag.pass(p, q, false)
}

// Value returns player 0's expected winnings, in chips per game, when both players
// play p in the abstract game.
func (ag *HoldemAbstractGame) Value(p *HoldemProfile) float64 { return ag.pass(p, 0, true) }

// Exploitability returns p's exploitability in the abstract game, in chips per
// game: the mean of the two best responses' winnings (NashConv/2, as for Kuhn and
// Leduc). The two best responses run in parallel.
func (ag *HoldemAbstractGame) Exploitability(p *HoldemProfile) float64 {
	var br [2]float64
	var wg sync.WaitGroup
	for q := range 2 {
		wg.Go(func() { br[q] = ag.BestResponseValue(p, q) })
	}
	wg.Wait()
	return (br[0] + br[1]) / 2
}

// abstractPass is one pass over the betting tree for player q (the responder).
//
// At a node of round r, the tables are t[sq·tail[r] + u]: for the responder's
// whole bucket sequence sq and the opponent's buckets u of rounds r..3, the sum
// over the opponent's earlier buckets of the pair's probability (tc) or
// probability × q's showdown result (tw) times the opponent's reach over the
// earlier rounds; g[b] is the opponent's reach within round r with bucket b.
type abstractPass struct {
	ag     *HoldemAbstractGame
	p      *HoldemProfile
	q      int
	follow bool         // the responder plays p (the profile's value) instead of best responding
	marg   [4][]float64 // marg[r][sq·sizes[r] + b]: tc of the current round summed over the opponent's later buckets
	free   [][]float64  // spare vectors of length seqs
}

// pass returns player q's value: a best response's, or with follow p's own.
func (ag *HoldemAbstractGame) pass(p *HoldemProfile, q int, follow bool) float64 {
	if p.g.buckets != ag.sizes || p.g.slots != ag.g.slots {
		panic(fmt.Sprintf("hulhe: a strategy for buckets %v in an abstract game of %v", p.g.buckets, ag.sizes))
	}
	x := &abstractPass{ag: ag, p: p, q: q, follow: follow}
	tc, tw := ag.prob, ag.win
	if q == 1 { // the tables are player 0's: transpose, and negate the showdown results
		S := ag.seqs
		tc, tw = make([]float64, S*S), make([]float64, S*S)
		for a := range S {
			for b := range S {
				tc[b*S+a] = ag.prob[a*S+b]
				tw[b*S+a] = -ag.win[a*S+b]
			}
		}
	}
	x.marg[0] = x.marginal(tc, 0)
	out := x.vec()
	x.value(0, tc, tw, ones(ag.sizes[0]), out)
	v := 0.0
	for _, y := range out {
		v += y
	}
	return v
}

func ones(n int) []float64 {
	g := make([]float64, n)
	for i := range g {
		g[i] = 1
	}
	return g
}

// vec returns a zeroed vector of length seqs.
func (x *abstractPass) vec() []float64 {
	if n := len(x.free); n > 0 {
		v := x.free[n-1]
		x.free = x.free[:n-1]
		clear(v)
		return v
	}
	return make([]float64, x.ag.seqs)
}

// marginal sums a round-r table over the opponent's buckets after round r.
func (x *abstractPass) marginal(t []float64, r int) []float64 {
	ag := x.ag
	k, in, blk := ag.sizes[r], ag.tail[r], ag.tail[r+1]
	out := make([]float64, ag.seqs*k)
	for sq := range ag.seqs {
		row := t[sq*in : (sq+1)*in]
		for b := range k {
			s := 0.0
			for _, y := range row[b*blk : (b+1)*blk] {
				s += y
			}
			out[sq*k+b] = s
		}
	}
	return out
}

// contract folds the opponent's round-r reach g into a round-r table, giving the
// round r+1 table.
func (x *abstractPass) contract(t []float64, r int, g []float64) []float64 {
	ag := x.ag
	in, blk := ag.tail[r], ag.tail[r+1]
	out := make([]float64, ag.seqs*blk)
	for sq := range ag.seqs {
		row := t[sq*in : (sq+1)*in]
		o := out[sq*blk : (sq+1)*blk]
		for b, gb := range g {
			if gb == 0 {
				continue
			}
			for u, y := range row[b*blk : (b+1)*blk] {
				o[u] += gb * y
			}
		}
	}
	return out
}

// value writes into out the responder's value at node n for each of his bucket
// sequences (weighted by chance and the opponent's reach; his own reach is left
// out, as in counterfactual values).
func (x *abstractPass) value(n int32, tc, tw, g, out []float64) {
	ag := x.ag
	nd := &ag.g.nodes[n]
	r := int(nd.round)
	k := ag.sizes[r]
	if nd.player < 0 {
		t, u := x.marg[r], float64(nd.stake)
		if nd.fold < 0 {
			t = tw // a showdown, on the river: tw is [sq·k + b]
			if r < 3 {
				t = x.marginal(tw, r) // an all-in called before the river
			}
		} else if int(nd.fold) == x.q {
			u = -u
		}
		for sq := range out {
			s := 0.0
			for b, gb := range g {
				s += gb * t[sq*k+b]
			}
			out[sq] = u * s
		}
		return
	}
	na := len(nd.acts)
	prob := x.p.prob[nd.slot : int(nd.slot)+k*na]
	if int(nd.player) != x.q {
		clear(out)
		v := x.vec()
		g2 := make([]float64, k)
		for a, kid := range nd.kids {
			live := false
			for b := range k {
				g2[b] = g[b] * prob[b*na+a]
				live = live || g2[b] > 0
			}
			if !live {
				continue
			}
			x.child(n, kid, tc, tw, g2, v)
			for i, y := range v {
				out[i] += y
			}
		}
		x.free = append(x.free, v)
		return
	}
	var vs [maxHoldemActions][]float64
	for a, kid := range nd.kids {
		vs[a] = x.vec()
		x.child(n, kid, tc, tw, g, vs[a])
	}
	blk := ag.tail[r+1] // the responder's sequences sharing a prefix up to round r
	for start := 0; start < ag.seqs; start += blk {
		if x.follow {
			b := start / blk % k
			for sq := start; sq < start+blk; sq++ {
				s := 0.0
				for a := range na {
					s += prob[b*na+a] * vs[a][sq]
				}
				out[sq] = s
			}
			continue
		}
		best, bestV := 0, 0.0
		for a := range na {
			s := 0.0
			for _, y := range vs[a][start : start+blk] {
				s += y
			}
			if a == 0 || s > bestV {
				best, bestV = a, s
			}
		}
		copy(out[start:start+blk], vs[best][start:start+blk])
	}
	for a := range na {
		x.free = append(x.free, vs[a])
	}
}

// child writes into out the value of kid, a child of n, folding the opponent's
// reach into the tables if kid starts a new round.
func (x *abstractPass) child(n, kid int32, tc, tw, g, out []float64) {
	r := int(x.ag.g.nodes[n].round)
	if int(x.ag.g.nodes[kid].round) == r {
		x.value(kid, tc, tw, g, out)
		return
	}
	tc, tw = x.contract(tc, r, g), x.contract(tw, r, g)
	x.marg[r+1] = x.marginal(tc, r+1)
	x.value(kid, tc, tw, ones(x.ag.sizes[r+1]), out)
}
