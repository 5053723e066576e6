package solver

import (
	"math"
	"slices"
	"strconv"

	"github.com/felt-poker/felt/internal/cards"
)

// ActionKind is what a player does at a decision.
type ActionKind uint8

// The actions.
const (
	Fold ActionKind = iota
	Check
	Call
	Bet
	Raise
)

// Action is one choice at a decision node.
type Action struct {
	Kind  ActionKind
	Chips float64 // bet or raise: the player's chips in on this street after it
	AllIn bool
}

// Label is the action's short name, used in node paths: f, x, c, b<chips>, r<chips>
// (chips: the bettor's total on this street).
func (a Action) Label() string {
	switch a.Kind {
	case Fold:
		return "f"
	case Check:
		return "x"
	case Call:
		return "c"
	case Bet:
		return "b" + chips(a.Chips)
	}
	return "r" + chips(a.Chips)
}

func chips(x float64) string { return strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64) }

type nodeKind uint8

const (
	actionNode nodeKind = iota
	chanceNode
	foldNode
	showdownNode
	leafNode // the end of a depth-limited subgame (leaf.go)
)

// node is one node of the game tree: 40 bytes. The tree is a slice; a node's
// children are n.nkids consecutive entries of Solver.kids from n.kids (with, at a
// chance node, the card each deals in Solver.kidCard), its actions as many entries of
// Solver.acts from n.acts.
type node struct {
	kind   nodeKind
	player uint8  // action: the player to act; fold: the player who folded
	street Street // the street the node is on
	nkids  uint8
	board  int32   // index of the node's board in Solver.boards
	kids   int32   // first child in Solver.kids
	acts   int32   // action: first action in Solver.acts
	dec    int32   // action: the decision's number, for Solver.off and Solver.scale
	payoff float64 // fold: the folder's chips in; showdown: each player's chips in
	pot    float64 // chips in the pot at the node
}

// children returns the indices of n's children.
func (s *Solver) children(n *node) []int32 { return s.kids[n.kids : n.kids+int32(n.nkids)] }

// actions returns the choices at decision node n.
func (s *Solver) actions(n *node) []Action { return s.acts[n.acts : n.acts+int32(n.nkids)] }

// nodeSize is the size of a node and of a child's entries in bytes, for Memory.
const nodeSize, kidSize = 40, 4 + 3

// state is where the builder is in a hand.
type state struct {
	commit   [2]float64 // chips in, counting half the starting pot each
	start    float64    // each player's chips in when the street began
	street   Street
	board    cards.Set
	toAct    int
	bets     int  // bets and raises on this street
	checked  bool // OOP checked this street
	donk     bool // IP bet the street before and OOP called
	depth    int
	allInRun bool // both players are all-in: cards are dealt to the end
}

// builder turns a Spot into nodes.
type builder struct {
	s      *Solver
	half   float64 // half the starting pot
	max    float64 // a player's chips in when all-in
	budget int64   // bytes of nodes and values the tree may take (0: no bound)
	over   bool    // past the budget: nothing more is built
}

// buildTree builds the spot's tree; it reports false, the tree unfinished, when
// the nodes and values passed budget bytes (0: no bound).
func (s *Solver) buildTree(budget int64) bool {
	sp := &s.spot
	b := builder{s: s, half: sp.Pot / 2, max: sp.Pot/2 + sp.Stack, budget: budget}
	var set cards.Set
	for _, c := range sp.Board {
		set = set.Add(c)
	}
	st := state{commit: [2]float64{b.half, b.half}, start: b.half, street: sp.street(), board: set}
	if sp.Stack == 0 {
		st.allInRun = true
		b.endStreet(st)
		return !b.over
	}
	b.decision(st)
	return !b.over
}

// stopEvery is how many nodes the builder adds between two looks at NewContext's
// context (the clock read costs about as much as adding a node).
const stopEvery = 64

// add appends n to the tree and returns its index. Past the budget, or once
// NewContext's context has ended, nothing more is built.
func (b *builder) add(n node, depth int) int32 {
	b.s.nodes = append(b.s.nodes, n)
	b.s.maxDepth = max(b.s.maxDepth, depth+1)
	if b.budget > 0 && int64(len(b.s.nodes))*nodeSize+int64(b.s.strategySize)*8 > b.budget {
		b.over = true
	}
	if len(b.s.nodes)%stopEvery == 0 && b.s.stopped() {
		b.over = true
	}
	return int32(len(b.s.nodes) - 1)
}

// setKids stores the children of node idx (and, at a chance node, what each deals).
func (b *builder) setKids(idx int32, kids []int32, deal []cards.Card, perm, from []uint8) {
	s := b.s
	s.nodes[idx].kids, s.nodes[idx].nkids = int32(len(s.kids)), uint8(len(kids))
	s.kids = append(s.kids, kids...)
	if deal == nil {
		deal, perm, from = make([]cards.Card, len(kids)), make([]uint8, len(kids)), make([]uint8, len(kids))
		for i := range from {
			from[i] = uint8(i)
		}
	}
	s.kidCard = append(s.kidCard, deal...)
	s.kidPerm = append(s.kidPerm, perm...)
	s.kidFrom = append(s.kidFrom, from...)
}

// decision builds the node where st.toAct acts, and everything under it.
func (b *builder) decision(st state) int32 {
	p := st.toAct
	acts := b.actions(st)
	s := b.s
	idx := b.add(node{kind: actionNode, player: uint8(p), street: st.street, board: s.boardIndex(st.board),
		pot: st.commit[0] + st.commit[1], acts: int32(len(s.acts)), nkids: uint8(len(acts)), dec: int32(len(s.off))}, st.depth)
	s.acts = append(s.acts, acts...)
	s.off = append(s.off, s.strategySize)
	s.strategySize += len(acts) * len(s.hands[p])
	if b.over {
		return idx
	}
	kids := make([]int32, len(acts))
	for i, a := range acts {
		next := st
		next.depth++
		switch a.Kind {
		case Fold:
			kids[i] = b.add(node{kind: foldNode, player: uint8(p), street: st.street, payoff: st.commit[p], pot: next.commit[0] + next.commit[1]}, next.depth)
		case Check:
			if p == OOP {
				next.checked, next.toAct = true, IP
				kids[i] = b.decision(next)
			} else {
				next.donk = false
				kids[i] = b.endStreet(next)
			}
		case Call:
			next.commit[p] = next.commit[1-p]
			next.donk = p == OOP
			next.allInRun = next.commit[p] >= b.max
			kids[i] = b.endStreet(next)
		default:
			next.commit[p] = st.start + a.Chips
			next.bets++
			next.toAct = 1 - p
			kids[i] = b.decision(next)
		}
	}
	b.setKids(idx, kids, nil, nil, nil)
	return idx
}

// endStreet builds what follows a street's last action: a showdown on the river, else
// a chance node dealing the next card. Cards isomorphic to a smaller one share its
// subtree. A street with no bet in the tree is checked down without decisions.
func (b *builder) endStreet(st state) int32 {
	if st.street == River {
		return b.add(node{kind: showdownNode, street: River, board: b.s.boardIndex(st.board), payoff: st.commit[0], pot: st.commit[0] + st.commit[1]}, st.depth)
	}
	if b.s.leafBoards != nil {
		return b.add(node{kind: leafNode, street: st.street, board: b.s.boardIndex(st.board), payoff: st.commit[0], pot: st.commit[0] + st.commit[1]}, st.depth)
	}
	idx := b.add(node{kind: chanceNode, street: st.street, board: b.s.boardIndex(st.board), pot: st.commit[0] + st.commit[1]}, st.depth)
	deal, perm, from := b.s.deals(st.board)
	kids := make([]int32, len(deal))
	for i, c := range deal {
		if perm[i] != 0 {
			kids[i] = kids[from[i]]
			continue
		}
		next := st
		next.street++
		next.board = st.board.Add(c)
		next.depth++
		next.start = st.commit[0]
		next.bets, next.checked, next.toAct = 0, false, OOP
		if st.allInRun || b.checkedDown(next.street) {
			kids[i] = b.endStreet(next)
		} else {
			kids[i] = b.decision(next)
		}
	}
	b.setKids(idx, kids, deal, perm, from)
	return idx
}

// checkedDown reports whether street has no bet for either player (no size, no
// all-in): it is dealt and checked down, with no decision.
func (b *builder) checkedDown(street Street) bool {
	for p := range 2 {
		z := b.s.spot.Tree.Sizes[p][street]
		if len(z.Bet) > 0 || len(z.Donk) > 0 || z.AllIn {
			return false
		}
	}
	return true
}

// actions lists the choices of st.toAct.
func (b *builder) actions(st state) []Action {
	p := st.toAct
	sizes := b.s.spot.Tree.Sizes[p][st.street]
	if st.commit[1-p] > st.commit[p] {
		acts := []Action{{Kind: Fold}, {Kind: Call}}
		if st.bets < b.s.spot.Tree.RaiseCap && st.commit[1-p] < b.max {
			for _, to := range b.amounts(st, sizes.Raise, sizes.RaiseX, sizes.AllIn, true) {
				acts = append(acts, Action{Kind: Raise, Chips: to - st.start, AllIn: to >= b.max})
			}
		}
		return acts
	}
	acts := []Action{{Kind: Check}}
	list := sizes.Bet
	if p == OOP && st.donk && len(sizes.Donk) > 0 {
		list = sizes.Donk
	}
	for _, to := range b.amounts(st, list, nil, sizes.AllIn, false) {
		acts = append(acts, Action{Kind: Bet, Chips: to - st.start, AllIn: to >= b.max})
	}
	return acts
}

// amounts turns sizes in % of the pot (and raises as multiples of the bet faced) into
// the bettor's chips in after the bet, with the all-in threshold applied, sorted and
// without duplicates.
func (b *builder) amounts(st state, pct, mult []float64, allIn, raise bool) []float64 {
	p := st.toAct
	const eps = 1e-9
	var tos []float64
	for _, v := range pct {
		to := st.commit[p] + v/100*(st.commit[0]+st.commit[1])
		if raise {
			to = st.commit[1-p] + v/100*2*st.commit[1-p]
		}
		tos = append(tos, to)
	}
	for _, x := range mult {
		tos = append(tos, st.start+x*(st.commit[1-p]-st.start))
	}
	var out []float64
	for _, to := range tos {
		if to-b.half > b.s.spot.Tree.AllInThreshold*b.s.spot.Stack+eps || to > b.max-eps {
			to = b.max
		}
		if to > st.commit[1-p]+eps {
			out = append(out, to)
		}
	}
	if allIn {
		out = append(out, b.max)
	}
	slices.Sort(out)
	return slices.CompactFunc(out, func(a, b float64) bool { return math.Abs(a-b) < 1e-6 })
}
