package cfr

import (
	"errors"
	"fmt"
	"math"
)

// maxHoldemActions bounds the actions of a Hold'em tree node: fold, check or call,
// at most maxNoLimitSizes bet sizes and all-in.
const maxHoldemActions = 3 + maxNoLimitSizes

// maxNoLimitSizes bounds the bet or raise sizes of a NoLimitRound.
const maxNoLimitSizes = 5

// NoLimitAllIn is the action letter of moving all-in in a no-limit tree; the
// sizes of a NoLimitRound are the letters '1', '2', … in their order, and 'f' and
// 'c' fold and check or call, as in the limit tree.
const NoLimitAllIn = 'a'

// NoLimitRound is the betting abstraction of one round of a NoLimitTree. Sizes are
// fractions of the pot after the player calls (1 is a pot-sized bet or raise), the
// amount rounded to whole chips and raised to the minimum raise.
type NoLimitRound struct {
	// Open are the sizes of the round's first bet (before the flop, of the first
	// raise over the big blind).
	Open []float64
	// Raise are the sizes of every later raise.
	Raise []float64
	// Cap is the number of bets and raises in the round after which a player may
	// still move all-in but bet no other size.
	Cap int
}

// NoLimitTree describes a heads-up no-limit Hold'em betting abstraction: blinds of
// 1 and 2 chips (HoldemSmallBlind, HoldemBigBlind), both players starting with
// Stack chips, a few sizes a round and all-in always. A size that would put in
// more than AllInShare of the stack (or the whole stack) is left out: all-in
// stands for it.
type NoLimitTree struct {
	Stack      int
	Rounds     [4]NoLimitRound
	AllInShare float64 // default 0.8
}

// nlBuilder builds a no-limit betting tree into g.
type nlBuilder struct {
	g   *HoldemGame
	t   NoLimitTree
	err error // the tree grew past maxNoLimitNodes or maxNoLimitSlots
}

// maxNoLimitNodes and maxNoLimitSlots bound a no-limit tree, about four times
// the shipped blueprint's deepest (200 big blinds: 70,326 nodes, 3.6 million
// slots with its buckets): a tree read from a file with a high cap and tiny
// sizes grows exponentially, and is refused once past them (a few tens of MB
// built) instead of exhausting memory.
const (
	maxNoLimitNodes = 1 << 18
	maxNoLimitSlots = 1 << 24
)

// NewNoLimitGame builds the betting tree of t for an abstraction with the given
// bucket counts per round (preflop first). Reverse blinds as in the limit tree:
// player 0 posts the small blind, acts first before the flop and last after it. A
// call of an all-in ends the hand in a showdown (the board is dealt out).
func NewNoLimitGame(buckets [4]int, t NoLimitTree) (*HoldemGame, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	if t.AllInShare == 0 {
		t.AllInShare = 0.8
	}
	g, err := newHoldemGame(buckets)
	if err != nil {
		return nil, err
	}
	b := nlBuilder{g: g, t: t}
	b.bet(0, "", [2]int{HoldemSmallBlind, HoldemBigBlind}, 0, 0, 0, HoldemBigBlind)
	if b.err != nil {
		return nil, b.err
	}
	g.index()
	return g, nil
}

// check validates t.
func (t NoLimitTree) check() error {
	if t.Stack <= HoldemBigBlind || t.Stack > math.MaxInt16/2 {
		return fmt.Errorf("nlhe: stack of %d chips (want %d..%d)", t.Stack, HoldemBigBlind+1, math.MaxInt16/2)
	}
	if t.AllInShare < 0 || t.AllInShare > 1 {
		return fmt.Errorf("nlhe: all-in share %g not in 0..1", t.AllInShare)
	}
	for r, rd := range t.Rounds {
		if len(rd.Open) > maxNoLimitSizes || len(rd.Raise) > maxNoLimitSizes || rd.Cap < 0 {
			return fmt.Errorf("nlhe: round %d: at most %d sizes and a cap ≥ 0", r, maxNoLimitSizes)
		}
		for _, f := range append(append([]float64(nil), rd.Open...), rd.Raise...) {
			if !(f > 0 && f <= 100) {
				return errors.New("nlhe: bet sizes must be fractions of the pot in (0, 100]")
			}
		}
	}
	return nil
}

// bet adds the decision node where p acts in round r with in committed, after bets
// bets and raises this round, acted actions, and a last raise of lastInc chips.
func (b *nlBuilder) bet(r int, hist string, in [2]int, p, bets, acted, lastInc int) int32 {
	g, stack := b.g, b.t.Stack
	acts := "c"
	if in[1-p] > in[p] {
		acts = "fc"
	}
	var to []int // the amount to which each sized action raises
	if in[1-p] < stack {
		for i, amt := range b.sizes(r, in, p, bets, lastInc) {
			if amt > 0 {
				acts += string(rune('1' + i))
				to = append(to, amt)
			}
		}
		acts += string(NoLimitAllIn)
		to = append(to, stack)
	}
	id := g.addDecision(r, p, hist, acts, in)
	if b.err != nil || len(g.nodes) > maxNoLimitNodes || g.slots > maxNoLimitSlots {
		b.err = fmt.Errorf("nlhe: a betting tree of more than %d nodes or %d slots", maxNoLimitNodes, maxNoLimitSlots)
		return id
	}
	kids := make([]int32, 0, len(acts))
	for i, a := range acts {
		h := hist + string(a)
		var kid int32
		switch a {
		case 'f':
			kid = g.terminal(r, h, int8(p), in[p])
		case 'c':
			next := in
			next[p] = in[1-p]
			switch {
			case next[p] == stack: // called an all-in
				kid = g.terminal(r, h, -1, stack)
			case acted == 0:
				kid = b.bet(r, h, next, 1-p, bets, acted+1, lastInc)
			case r < 3:
				kid = b.bet(r+1, h+"/", next, 1, 0, 0, HoldemBigBlind)
			default:
				kid = g.terminal(r, h, -1, next[0])
			}
		default:
			amt := to[i-(len(acts)-len(to))]
			next := in
			next[p] = amt
			kid = b.bet(r, h, next, 1-p, bets+1, acted+1, max(lastInc, amt-in[1-p]))
		}
		kids = append(kids, kid)
	}
	g.nodes[id].kids = kids
	return id
}

// sizes returns, for each size of the round's list, the amount the bet or raise
// puts p in with, or 0 when it is left out (past the cap, a duplicate, or all-in
// standing for it).
func (b *nlBuilder) sizes(r int, in [2]int, p, bets, lastInc int) []int {
	rd := b.t.Rounds[r]
	if bets >= rd.Cap {
		return nil
	}
	fracs := rd.Raise
	if bets == 0 {
		fracs = rd.Open
	}
	out := make([]int, len(fracs))
	prev := 0
	for i, f := range fracs {
		amt := NoLimitRaiseTo(in, p, f, lastInc)
		if amt >= b.t.Stack || float64(amt) > b.t.AllInShare*float64(b.t.Stack) || amt <= prev {
			continue
		}
		out[i], prev = amt, amt
	}
	return out
}

// NoLimitRaiseTo returns the amount to which player p, with in committed by both
// players, raises (or bets) a fraction frac of the pot after his call, rounded to
// whole chips and at least the minimum raise (the last raise lastInc, or the big
// blind, over the amount to call).
func NoLimitRaiseTo(in [2]int, p int, frac float64, lastInc int) int {
	call := in[1-p]
	pot := in[0] + in[1] + call - in[p]
	amt := call + int(math.Round(frac*float64(pot)))
	return max(amt, call+max(lastInc, HoldemBigBlind))
}
