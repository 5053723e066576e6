package solver

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
)

// TestLeafAllInIsEquity: all-in on the flop (no chips behind), a depth-limited
// subgame is one leaf whose values are the equities over its runouts; with many
// runouts they come within a few thousandths of the pot of the exact solve's
// (every turn and river dealt).
func TestLeafAllInIsEquity(t *testing.T) {
	sp := smallFlop()
	sp.Stack = 0
	exact := mustSolver(t, sp, 1)
	sp.LeafRunouts = MaxLeafRunouts
	leafy := mustSolver(t, sp, 1)
	if all, _ := leafy.Nodes(); all != 1 {
		t.Fatalf("the all-in depth-limited subgame has %d nodes, want one leaf", all)
	}
	if info, err := leafy.Node(nil); err != nil || info.Kind != "leaf" {
		t.Fatalf("root: %+v, %v; want a leaf", info, err)
	}
	a, b := exact.EV(), leafy.EV()
	for p := range 2 {
		if math.Abs(a[p]-b[p]) > 0.01*sp.Pot {
			t.Errorf("player %d: exact EV %.4f, over %d leaf runouts %.4f", p, a[p], len(leafy.leafBoards), b[p])
		}
	}
	if math.Abs(b[0]+b[1]) > 1e-9 {
		t.Errorf("the leaf is not zero-sum: %v", b)
	}
	sp.Rake = 5 // of the pot: 0.5 chips, taken from the players' values
	raked := mustSolver(t, sp, 1).EV()
	if math.Abs(raked[0]+raked[1]+0.5) > 1e-9 {
		t.Errorf("raked leaf: values %v, want them to sum to -0.5", raked)
	}
}

// TestLeafFlopSubgame: a depth-limited flop subgame has no chance node, ends its
// lines at leaves, converges like any game, and names its leaves in paths.
func TestLeafFlopSubgame(t *testing.T) {
	sp := smallFlop()
	sp.LeafRunouts = 24
	s := mustSolver(t, sp, 1)
	for _, n := range s.nodes {
		if n.kind == chanceNode || n.kind == showdownNode {
			t.Fatalf("a depth-limited flop has a %v node", n.kind)
		}
	}
	if got := len(s.leafBoards); got != 24 {
		t.Errorf("%d leaf runouts, want 24", got)
	}
	e := solveTo(t, s, 0.2, 2000)
	if e > 0.2 {
		t.Errorf("exploitability %.4f%% of the pot after %d iterations", e, s.Iterations())
	}
	info, err := s.Node([]string{"x", "x"})
	if err != nil || info.Kind != "leaf" {
		t.Errorf("check, check: %+v, %v; want a leaf", info, err)
	}
	if _, err := s.Node([]string{"x", "x", "4d"}); !errors.Is(err, ErrBadNode) {
		t.Errorf("a card after a leaf: %v, want ErrBadNode", err)
	}
	root, err := s.Node(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range root.Hands {
		if h.Equity < 0 || h.Equity > 1 {
			t.Errorf("%s: equity %v", h.Hand, h.Equity)
		}
	}
}

// TestLeafRunoutsBounds: the number of leaf runouts is checked.
func TestLeafRunoutsBounds(t *testing.T) {
	for _, n := range []int{-1, MaxLeafRunouts + 1} {
		sp := smallFlop()
		sp.LeafRunouts = n
		if _, err := New(sp, Options{}); !errors.Is(err, ErrBadSpot) {
			t.Errorf("LeafRunouts %d: %v, want ErrBadSpot", n, err)
		}
	}
	sp := Spot{Pot: 10, Stack: 50, Board: cards.MustParseList("Ks8d5c2h2s"), LeafRunouts: 10,
		Range: [2]equity.Range{equity.MustParseRange("KK,76"), equity.MustParseRange("QQ")}, Tree: riverTree(100)}
	s := mustSolver(t, sp, 1)
	if s.leafBoards != nil {
		t.Error("a river spot has leaf runouts")
	}
}

// TestStrategyMatchesNode: Strategy gives the same actions, hands, reaches and
// strategies as Node, without the EV and equity, on a full and a depth-limited flop.
func TestStrategyMatchesNode(t *testing.T) {
	for _, runouts := range []int{0, 12} {
		sp := smallFlop()
		sp.LeafRunouts = runouts
		s := mustSolver(t, sp, 1)
		for range 20 {
			s.Iterate()
		}
		for _, path := range [][]string{nil, {"x"}, {"b7.5"}} {
			full, err := s.Node(path)
			if err != nil {
				t.Fatal(err)
			}
			light, err := s.Strategy(path)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(full.Actions, light.Actions) || len(full.Hands) != len(light.Hands) {
				t.Fatalf("runouts %d, %v: Node %v (%d hands), Strategy %v (%d hands)", runouts, path, full.Actions, len(full.Hands), light.Actions, len(light.Hands))
			}
			for i, h := range full.Hands {
				l := light.Hands[i]
				if h.Hand != l.Hand || h.Reach != l.Reach || !slices.Equal(h.Strategy, l.Strategy) || l.EV != 0 || l.Equity != 0 {
					t.Errorf("runouts %d, %v: Node %+v, Strategy %+v", runouts, path, h, l)
				}
			}
		}
	}
}
