package bot

import (
	"hash/fnv"
	"math"
	"strings"

	"github.com/felt-poker/felt/internal/blueprint"
	"github.com/felt-poker/felt/internal/cfr"
	"github.com/felt-poker/felt/internal/engine"
)

// bluePos is a place on the blueprint's tree reached from a hand's public history.
type bluePos struct {
	d    *blueprint.Depth
	node int32
	base [2]int64 // each role's chips put in before the round
	in   [2]int64 // each role's chips put in so far, this round's bets included
	st   *pubStreet
	role int // the player to act
}

// blueWalk follows the first k actions of round i of h (and every action before
// that round) down the blueprint's tree at the depth nearest the effective stack,
// each bet mapped to the tree's sizes by blueprint.MapSize. It returns false when
// the hand has left the tree (a size the tree cannot hold, a round the tree ended)
// or the blueprint keeps no strategy there.
func blueWalk(bp *blueprint.Blueprint, h *pubHistory, i, k int) (bluePos, bool) {
	d := bp.Nearest(float64(min(h.stacks[0], h.stacks[1])) / float64(h.bb))
	g := d.Game()
	pos := bluePos{d: d, node: cfr.Root}
	onTree := func(si int) bool {
		nd := g.Node(pos.node)
		return nd.Player >= 0 && nd.Round == si && nd.Player == pos.role
	}
	for si := 0; si <= i; si++ {
		st := &h.streets[si]
		n := len(st.acts)
		if si == i {
			n = k
		}
		for j := range n {
			pos.at(h, st, j)
			if !onTree(si) {
				return pos, false
			}
			a := pos.mapAct(st.acts[j], blueHash(h, si, j))
			if a < 0 {
				return pos, false
			}
			pos.node = g.Node(pos.node).Kids[a]
		}
	}
	pos.at(h, &h.streets[i], k)
	if !onTree(i) {
		return pos, false
	}
	return pos, pos.d.Kept(pos.node)
}

// at sets the chips and the player to act before the j-th action of round st.
func (p *bluePos) at(h *pubHistory, st *pubStreet, j int) {
	bet, _ := st.betsBefore(j)
	p.st = st
	for r := range 2 {
		p.base[r] = h.stacks[r] - st.behind[r]
		p.in[r] = p.base[r] + bet[r]
	}
	switch {
	case j < len(st.acts):
		p.role = st.acts[j].role
	case len(st.acts) > 0:
		p.role = 1 - st.acts[len(st.acts)-1].role
	case st.street == engine.Preflop:
		p.role = roleSB
	default:
		p.role = roleBB
	}
}

// blueHash is the mapping's draw for the j-th action of round si: a function of
// the hand's history, so that every walk over it maps the action alike.
func blueHash(h *pubHistory, si, j int) float64 {
	f := fnv.New64a()
	f.Write([]byte(h.key))
	f.Write([]byte{byte(si), byte(j)})
	return float64(f.Sum64()>>11) / (1 << 53)
}

// treeFracs returns the bet sizes (in pots after the call) of the node's sized
// and all-in actions, with their action indices.
func (p *bluePos) treeFracs() (fracs []float64, idx []int) {
	g := p.d.Game()
	nd := g.Node(p.node)
	q := nd.Player
	call := nd.In[1-q]
	pot := float64(nd.In[0] + nd.In[1] + call - nd.In[q])
	for a, c := range nd.Actions {
		if c == 'f' || c == 'c' {
			continue
		}
		fracs = append(fracs, float64(g.Node(nd.Kids[a]).In[q]-call)/pot)
		idx = append(idx, a)
	}
	return fracs, idx
}

// mapAct returns the index of the node's action that the real action a maps to,
// or −1: folds to f, checks and calls to c, an all-in (or a bet covering the
// shorter stack) to all-in, any other bet by its size in pots.
func (p *bluePos) mapAct(a pubAct, u float64) int {
	acts := p.d.Game().Node(p.node).Actions
	switch a.kind {
	case engine.EvFold:
		return strings.IndexByte(acts, 'f')
	case engine.EvCheck, engine.EvCall:
		return strings.IndexByte(acts, 'c')
	}
	r := a.role
	to := p.base[r] + a.to
	if to >= p.base[r]+p.st.behind[r] || to >= p.base[1-r]+p.st.behind[1-r] {
		return strings.IndexByte(acts, cfr.NoLimitAllIn)
	}
	fracs, idx := p.treeFracs()
	x := float64(to-p.in[1-r]) / float64(p.in[0]+p.in[1]+p.in[1-r]-p.in[r])
	if i := blueprint.MapSize(x, fracs, u); i >= 0 {
		return idx[i]
	}
	return -1
}

// realAct turns the node's a-th action into the real game's: a size of the tree
// becomes that many real pots.
func (p *bluePos) realAct(a int) engine.Action {
	nd := p.d.Game().Node(p.node)
	r := p.role
	switch c := nd.Actions[a]; c {
	case 'f':
		return engine.Action{Kind: engine.Fold}
	case 'c':
		if p.in[1-r] > p.in[r] {
			return engine.Action{Kind: engine.Call}
		}
		return engine.Action{Kind: engine.Check}
	case cfr.NoLimitAllIn:
		return engine.Action{Kind: engine.Raise, Amount: p.st.behind[r]}
	}
	fracs, idx := p.treeFracs()
	f := 0.0
	for i, x := range idx {
		if x == a {
			f = fracs[i]
		}
	}
	pot := float64(p.in[0] + p.in[1] + p.in[1-r] - p.in[r])
	to := p.in[1-r] + int64(math.Round(f*pot)) - p.base[r]
	return engine.Action{Kind: engine.Raise, Amount: min(to, p.st.behind[r])}
}

// blueprintOf returns the blueprint the resolve bot plays: felt's own (a test may
// put another in its place).
var blueprintOf = blueprint.Default

// bluePlanFor returns the blueprint's plan at the k-th action of round i
// (preflop or flop), with the action taken there (if any) mapped onto the plan's,
// or nil off the tree.
func bluePlanFor(h *pubHistory, i, k int) *plan {
	bp, err := blueprintOf()
	if err != nil {
		return nil
	}
	pos, ok := blueWalk(bp, h, i, k)
	if !ok {
		return nil
	}
	st := &h.streets[i]
	buckets, err := bp.Buckets(st.board)
	if err != nil {
		return nil
	}
	nd := pos.d.Game().Node(pos.node)
	p := &plan{probs: make(map[int][]float64, numCombos)}
	for a := range nd.Actions {
		p.acts = append(p.acts, pos.realAct(a))
	}
	if k < len(st.acts) {
		p.taken = 1 + pos.mapAct(st.acts[k], blueHash(h, i, k))
	}
	byBucket := map[uint8][]float64{}
	for x, c := range comboCards {
		b := buckets[cfr.HandIndex(c[0], c[1])]
		probs, ok := byBucket[b]
		if !ok {
			for _, q := range pos.d.Probs(pos.node, int(b)) {
				probs = append(probs, float64(q))
			}
			byBucket[b] = probs
		}
		if probs == nil {
			return nil
		}
		p.probs[x] = probs
	}
	return p
}
