package cfr

import (
	"fmt"
	"strings"
)

// Heads-up limit Hold'em as felt's engine plays it (RULES.md, docs/rules.md), in
// chips of one small blind: blinds 1 and 2, bets of 2 on the first two rounds and 4
// on the last two, at most four bets a round with the big blind counting as the
// first before the flop. Reverse blinds: player 0 is the button and posts the small
// blind, acts first before the flop and last after it. Stacks never run out (the
// most a player can put in is 48).
const (
	HoldemSmallBlind = 1
	HoldemBigBlind   = 2
	holdemCap        = 4
)

// holdemBet returns the bet size of round r.
func holdemBet(r int) int {
	if r < 2 {
		return 2
	}
	return 4
}

// hnode is one node of the Hold'em betting tree (cards live outside it).
type hnode struct {
	player int8     // 0 or 1 at a decision; −1 at a terminal
	round  int8     // 0 preflop .. 3 river
	fold   int8     // terminal: the player who folded, or −1 at a showdown
	stake  int16    // terminal: what the loser loses (the folder's chips in, or each player's at a showdown)
	acts   string   // decision: f fold, c check/call, r bet/raise (no-limit: sizes and a)
	in     [2]int16 // decision: the chips each player has put in
	kids   []int32  // decision: one per action
	slot   int32    // decision: index of (bucket 0, action 0) in per-action arrays
	info   int32    // decision: index of the information set of bucket 0
	hist   string   // public history: actions, "/" between rounds
}

// HoldemGame is the betting tree of heads-up limit Hold'em with a card
// abstraction's bucket counts: an information set is a (decision node, bucket of
// the acting player in the node's round) pair, and per-action numbers live in flat
// arrays indexed by slot + bucket × actions + action.
type HoldemGame struct {
	nodes    []hnode
	buckets  [4]int
	slots    int
	infosets int
	slotNode []int32 // slotNode[info]: the decision node of information set info
}

// NewHoldemGame builds the betting tree for an abstraction with the given bucket
// counts per round (preflop first).
func NewHoldemGame(buckets [4]int) (*HoldemGame, error) {
	g, err := newHoldemGame(buckets)
	if err != nil {
		return nil, err
	}
	g.bet(0, "", [2]int{HoldemSmallBlind, HoldemBigBlind}, 0, 1, 0)
	g.index()
	return g, nil
}

// newHoldemGame returns an empty tree for the bucket counts.
func newHoldemGame(buckets [4]int) (*HoldemGame, error) {
	for _, b := range buckets {
		if b < 1 || b > 256 {
			return nil, fmt.Errorf("hulhe: bucket counts %v (want 1..256)", buckets)
		}
	}
	return &HoldemGame{buckets: buckets}, nil
}

// index maps every information set to its node, once the tree is built.
func (g *HoldemGame) index() {
	g.slotNode = make([]int32, g.infosets)
	for i, nd := range g.nodes {
		if nd.player >= 0 {
			for b := range g.buckets[nd.round] {
				g.slotNode[int(nd.info)+b] = int32(i)
			}
		}
	}
}

// addDecision appends a decision node without its children and gives it its
// slots and information sets.
func (g *HoldemGame) addDecision(r, p int, hist, acts string, in [2]int) int32 {
	id := int32(len(g.nodes))
	g.nodes = append(g.nodes, hnode{player: int8(p), round: int8(r), fold: -1, acts: acts,
		in: [2]int16{int16(in[0]), int16(in[1])}, slot: int32(g.slots), info: int32(g.infosets), hist: hist})
	g.slots += g.buckets[r] * len(acts)
	g.infosets += g.buckets[r]
	return id
}

// bet adds the decision node where p acts in round r with in committed, after bets
// bets this round and acted actions.
func (g *HoldemGame) bet(r int, hist string, in [2]int, p, bets, acted int) int32 {
	facing := in[1-p] > in[p]
	acts := "c"
	if facing {
		acts = "fc"
	}
	if bets < holdemCap {
		acts += "r"
	}
	id := g.addDecision(r, p, hist, acts, in)
	kids := make([]int32, 0, len(acts))
	for _, a := range acts {
		h := hist + string(a)
		var kid int32
		switch a {
		case 'f':
			kid = g.terminal(r, h, int8(p), in[p])
		case 'c':
			next := in
			next[p] = in[1-p]
			switch {
			case acted == 0: // the other player has not acted this round
				kid = g.bet(r, h, next, 1-p, bets, acted+1)
			case r < 3:
				kid = g.bet(r+1, h+"/", next, 1, 0, 0) // the big blind acts first after the flop
			default:
				kid = g.terminal(r, h, -1, next[0])
			}
		case 'r':
			next := in
			next[p] = in[1-p] + holdemBet(r)
			kid = g.bet(r, h, next, 1-p, bets+1, acted+1)
		}
		kids = append(kids, kid)
	}
	g.nodes[id].kids = kids
	return id
}

func (g *HoldemGame) terminal(r int, hist string, folder int8, stake int) int32 {
	g.nodes = append(g.nodes, hnode{player: -1, round: int8(r), fold: folder, stake: int16(stake), hist: hist})
	return int32(len(g.nodes) - 1)
}

// Buckets returns the bucket count of each round.
func (g *HoldemGame) Buckets() [4]int { return g.buckets }

// Slots returns the number of per-action entries (information sets × actions).
func (g *HoldemGame) Slots() int { return g.slots }

// Infosets returns the number of information sets.
func (g *HoldemGame) Infosets() int { return g.infosets }

// DecisionNodes returns the number of betting-tree nodes where a player acts.
func (g *HoldemGame) DecisionNodes() int {
	n := 0
	for _, nd := range g.nodes {
		if nd.player >= 0 {
			n++
		}
	}
	return n
}

// HoldemInfoset describes one information set of a HoldemGame.
type HoldemInfoset struct {
	Round, Bucket int
	Player        int    // 0 (button, small blind) or 1
	History       string // public actions, "/" between rounds ("rc/cr")
	Actions       string // one letter per action, in probability order
}

// Infoset returns information set i, 0 ≤ i < Infosets().
func (g *HoldemGame) Infoset(i int) HoldemInfoset {
	nd := &g.nodes[g.slotNode[i]]
	return HoldemInfoset{Round: int(nd.round), Bucket: i - int(nd.info), Player: int(nd.player),
		History: nd.hist, Actions: nd.acts}
}

// infosetSlot returns the first slot of information set i and its action count.
func (g *HoldemGame) infosetSlot(i int) (slot, actions int) {
	nd := &g.nodes[g.slotNode[i]]
	return int(nd.slot) + (i-int(nd.info))*len(nd.acts), len(nd.acts)
}

// Walk follows history (actions as in HoldemInfoset.History; "/" optional) from the
// root and returns the node reached and whether it is a decision node on the tree.
func (g *HoldemGame) walk(history string) (int32, bool) {
	n := int32(0)
	for _, a := range strings.ReplaceAll(history, "/", "") {
		nd := &g.nodes[n]
		i := strings.IndexRune(nd.acts, a)
		if nd.player < 0 || i < 0 {
			return n, false
		}
		n = nd.kids[i]
	}
	return n, g.nodes[n].player >= 0
}

// HoldemNode describes one node of a HoldemGame's betting tree.
type HoldemNode struct {
	Player  int     // the player to act (0 small blind, 1 big blind), or −1 at a terminal
	Round   int     // 0 preflop .. 3 river
	Actions string  // decision: one letter per action
	Kids    []int32 // decision: the node each action leads to
	In      [2]int  // decision: the chips each player has put in
	History string  // the public actions from the root, "/" between rounds
	Info    int     // decision: the information set of bucket 0 (bucket b's is Info+b)
}

// Root is the node where the hand starts.
const Root int32 = 0

// Node describes node n (Root, or a Kids entry of another node).
func (g *HoldemGame) Node(n int32) HoldemNode {
	nd := &g.nodes[n]
	return HoldemNode{Player: int(nd.player), Round: int(nd.round), Actions: nd.acts, Kids: nd.kids,
		In: [2]int{int(nd.in[0]), int(nd.in[1])}, History: nd.hist, Info: int(nd.info)}
}

// NumNodes returns the number of nodes of the tree.
func (g *HoldemGame) NumNodes() int { return len(g.nodes) }
