package solver

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/felt-poker/felt/internal/cards"
)

// ErrBadNode is wrapped by errors about a node path that names no node.
var ErrBadNode = errors.New("bad node path")

// HandStrategy is one hand's play at a decision node.
type HandStrategy struct {
	Hand     string    `json:"hand"`
	Reach    float64   `json:"reach"`    // its weight at the node: range weight times its own earlier actions
	Strategy []float64 `json:"strategy"` // the average strategy, one frequency per action
	EV       float64   `json:"ev"`       // chips it wins from the node on, plus its half of the starting pot
	// Equity is its share of the pot at a showdown after every runout against the
	// opponent's range at the node (wins and half the ties).
	Equity float64 `json:"equity"`
}

// NodeInfo is what a node path leads to.
type NodeInfo struct {
	Path    []string       `json:"path"`
	Kind    string         `json:"kind"` // "decision", "chance", "fold", "showdown" or "leaf" (Spot.LeafRunouts)
	Player  string         `json:"player,omitempty"`
	Street  string         `json:"street"`
	Board   string         `json:"board"`
	Pot     float64        `json:"pot"`
	Actions []string       `json:"actions,omitempty"`
	AllIn   []bool         `json:"all_in,omitempty"`
	Totals  []float64      `json:"totals,omitempty"` // the range's frequency of each action
	Hands   []HandStrategy `json:"hands,omitempty"`
	Deals   []string       `json:"deals,omitempty"` // chance: the cards that can come
}

// walk is a position reached by following a path from the root.
type walk struct {
	ni    int32
	depth int
	reach [2][]float64 // per hand of the tree's suits
	board []cards.Card // as dealt
	perm  suitPerm     // from the tree's suits to the dealt ones (after isomorphic cards);
	// it fixes the spot, so hands map to hands (Solver.handMap)
}

// follow walks the tokens (action labels, or a card at a chance node) from the root,
// multiplying each player's reach by its average strategy along the way.
func (s *Solver) follow(path []string) (walk, error) {
	s.start()
	wk := walk{ni: 0, depth: 1, board: append([]cards.Card{}, s.spot.Board...), perm: perms[0]}
	for p := range 2 {
		wk.reach[p] = s.rootReach(p)
	}
	for i, tok := range path {
		n := &s.nodes[wk.ni]
		next, err := s.step(n, tok, &wk)
		if err != nil {
			return wk, fmt.Errorf("%w: step %d %q: %v", ErrBadNode, i+1, tok, err)
		}
		wk.ni = next
		wk.depth++
	}
	return wk, nil
}

// step moves one token down from n, updating the reach in wk.
func (s *Solver) step(n *node, tok string, wk *walk) (int32, error) {
	switch n.kind {
	case actionNode:
		acts := s.actions(n)
		labels := make([]string, len(acts))
		for a, act := range acts {
			labels[a] = act.Label()
			if strings.EqualFold(tok, labels[a]) {
				p := int(n.player)
				na, nh := len(acts), len(s.hands[p])
				sigma := make([]float64, na*nh)
				s.average(n, sigma, make([]float64, nh), make([]float32, na*nh))
				for h := range nh {
					wk.reach[p][h] *= sigma[a*nh+h]
				}
				return s.children(n)[a], nil
			}
		}
		return 0, fmt.Errorf("no such action here: want one of %s", strings.Join(labels, " "))
	case chanceNode:
		c, err := cards.Parse(tok)
		if err != nil {
			return 0, fmt.Errorf("a card is dealt here: %v", err)
		}
		deal := s.kidCard[n.kids : n.kids+int32(n.nkids)]
		tc := wk.perm.inverse().card(c) // the card in the tree's suits
		for i, d := range deal {
			if d == tc {
				s.dealTo(n, i, wk)
				wk.board = append(wk.board, c)
				return s.children(n)[i], nil
			}
		}
		return 0, fmt.Errorf("card %s is on the board", c)
	}
	return 0, errors.New("the hand is over at this node")
}

// dealTo moves wk's reach to chance node n's child i. An isomorphic card leads to its
// representative's subtree: the reach is carried into that subtree's suits and wk.perm
// remembers how to name its hands and cards.
func (s *Solver) dealTo(n *node, i int, wk *walk) {
	pi := s.kidPerm[n.kids+int32(i)]
	c := s.kidCard[n.kids+int32(i)]
	if pi != 0 {
		back := permIndex(perms[pi].inverse())
		for p := range 2 {
			old := slices.Clone(wk.reach[p])
			for h, o := range s.handMap[back][p] {
				wk.reach[p][h] = old[o]
			}
		}
		c = perms[pi].card(c)
		wk.perm = perms[pi].inverse().then(wk.perm)
	}
	for p := range 2 {
		for _, h := range s.withCard[p][c] {
			wk.reach[p][h] = 0
		}
	}
}

// Node describes the node at the end of path (nil or empty: the root): for a decision,
// each live hand of the player to act with its reach, average strategy, EV and equity.
func (s *Solver) Node(path []string) (NodeInfo, error) { return s.node(path, true) }

// Strategy is Node without the hands' EV and equity (left 0), which cost a traversal
// of the subtree and a pass over the runouts: what a player following the solve needs.
func (s *Solver) Strategy(path []string) (NodeInfo, error) { return s.node(path, false) }

// node describes the node at the end of path, with the hands' EV and equity if values.
func (s *Solver) node(path []string, values bool) (NodeInfo, error) {
	wk, err := s.follow(path)
	if err != nil {
		return NodeInfo{}, err
	}
	n := &s.nodes[wk.ni]
	info := NodeInfo{Path: append([]string{}, path...), Street: n.street.String(),
		Board: cards.Format(wk.board), Pot: n.pot}
	switch n.kind {
	case chanceNode:
		info.Kind = "chance"
		for _, c := range s.kidCard[n.kids : n.kids+int32(n.nkids)] {
			info.Deals = append(info.Deals, wk.perm.card(c).String())
		}
	case foldNode:
		info.Kind, info.Board = "fold", ""
	case showdownNode:
		info.Kind = "showdown"
	case leafNode:
		info.Kind = "leaf"
	default:
		info.Kind = "decision"
		s.describeDecision(n, wk, &info, values)
	}
	return info, nil
}

// describeDecision fills info with the strategy of every hand that can reach n and,
// if values, its EV and equity.
func (s *Solver) describeDecision(n *node, wk walk, info *NodeInfo, values bool) {
	p := int(n.player)
	info.Player = [2]string{"OOP", "IP"}[p]
	na, nh := int(n.nkids), len(s.hands[p])
	for _, a := range s.actions(n) {
		info.Actions = append(info.Actions, a.Label())
		info.AllIn = append(info.AllIn, a.AllIn)
	}
	sigma := make([]float64, na*nh)
	s.average(n, sigma, make([]float64, nh), make([]float32, na*nh))
	compat := make([]float64, nh)
	s.compatible(p, wk.reach[1-p], compat, &s.main.cs2)
	ev, eq := make([]float64, nh), make([]float64, nh)
	switch {
	case !values:
	case s.leafBoards != nil:
		s.visit(s.main, wk.ni, wk.depth, modeEV, p, nil, wk.reach[1-p], ev, true)
		eq = s.leafEquity(p, wk.reach[1-p])
	default:
		s.visit(s.main, wk.ni, wk.depth, modeEV, p, nil, wk.reach[1-p], ev, true)
		eq = s.handEquity(p, s.boards[n.board].set, wk.reach[1-p])
	}
	info.Totals = make([]float64, na)
	sum := 0.0
	toTree := s.handMap[permIndex(wk.perm.inverse())][p] // each dealt hand's index in the tree's suits
	for real, hd := range s.hands[p] {
		h := int(toTree[real])
		r := wk.reach[p][h]
		if r == 0 || compat[h] == 0 {
			continue
		}
		hs := HandStrategy{Hand: hd.c[0].String() + hd.c[1].String(), Reach: r, Strategy: make([]float64, na), Equity: eq[h]}
		if values {
			hs.EV = ev[h]/compat[h] + s.spot.Pot/2
		}
		for a := range na {
			hs.Strategy[a] = sigma[a*nh+h]
			info.Totals[a] += r * sigma[a*nh+h]
		}
		sum += r
		info.Hands = append(info.Hands, hs)
	}
	for a := range info.Totals {
		if sum > 0 {
			info.Totals[a] /= sum
		}
	}
}

// TreeNode is a node with the decisions under it on the same street, for JSON export.
type TreeNode struct {
	NodeInfo
	Children map[string]*TreeNode `json:"children,omitempty"`
}

// Export returns the node at path and the decision nodes under it, down to depth
// actions and not past the next card.
func (s *Solver) Export(path []string, depth int) (*TreeNode, error) {
	info, err := s.Node(path)
	if err != nil {
		return nil, err
	}
	t := &TreeNode{NodeInfo: info}
	if info.Kind != "decision" || depth <= 0 {
		return t, nil
	}
	for _, a := range info.Actions {
		next := append(append([]string{}, path...), a)
		wk, err := s.follow(next)
		if err != nil {
			return nil, err
		}
		if s.nodes[wk.ni].kind != actionNode {
			continue
		}
		child, err := s.Export(next, depth-1)
		if err != nil {
			return nil, err
		}
		if t.Children == nil {
			t.Children = map[string]*TreeNode{}
		}
		t.Children[a] = child
	}
	return t, nil
}
