package cfr

import (
	"math"
	"strings"
	"testing"
)

// tinyNoLimit is a short-stacked tree (10 big blinds) with two sizes here and there.
func tinyNoLimit() NoLimitTree {
	return NoLimitTree{Stack: 20, Rounds: [4]NoLimitRound{
		{Open: []float64{0.75}, Raise: []float64{1}, Cap: 2},
		{Open: []float64{0.5, 1}, Raise: []float64{1}, Cap: 2},
		{Open: []float64{1}, Cap: 1},
		{Open: []float64{1}, Cap: 1},
	}}
}

func tinyNoLimitGame(t *testing.T, sizes [4]int, boards int) (*HoldemGame, *HoldemAbstractGame) {
	t.Helper()
	g, err := NewNoLimitGame(sizes, tinyNoLimit())
	if err != nil {
		t.Fatal(err)
	}
	ag, err := NewHoldemAbstractGame(tinyBucketer{sizes}, AbstractGameOptions{Boards: boards, Seed: 7, Tree: g})
	if err != nil {
		t.Fatal(err)
	}
	return g, ag
}

// Every node of a no-limit tree is a legal state: nobody puts in more than his
// stack, a raise raises at least the last raise, a fold loses what the folder put
// in, and a called all-in is a showdown for the whole stack.
func TestNoLimitTreeShape(t *testing.T) {
	g, _ := tinyNoLimitGame(t, [4]int{1, 1, 1, 1}, 1)
	stack := tinyNoLimit().Stack
	allins := 0
	for n := range int32(g.NumNodes()) {
		nd := g.Node(n)
		if nd.Player < 0 {
			continue
		}
		p := nd.Player
		if nd.In[p] > nd.In[1-p] || nd.In[1-p] > stack || nd.In[0] < HoldemSmallBlind {
			t.Fatalf("%q: in %v", nd.History, nd.In)
		}
		for i, a := range nd.Actions {
			kid := g.nodes[nd.Kids[i]]
			switch {
			case a == 'f' && (kid.fold != int8(p) || int(kid.stake) != nd.In[p]):
				t.Fatalf("%q: fold loses %d", nd.History, kid.stake)
			case a == NoLimitAllIn && kid.player < 0:
				t.Fatalf("%q: all-in ends the hand", nd.History)
			case a == 'c' && nd.In[1-p] == stack:
				if kid.player >= 0 || kid.fold >= 0 || int(kid.stake) != stack {
					t.Fatalf("%q: a called all-in is not a showdown for the stack", nd.History)
				}
				allins++
			case a >= '1' && a <= '9':
				k := g.Node(nd.Kids[i])
				if k.In[p] <= nd.In[1-p]+1 || k.In[p] >= stack {
					t.Fatalf("%q: raise %c to %d", nd.History, a, k.In[p])
				}
			}
		}
	}
	if allins == 0 {
		t.Fatal("no called all-in")
	}
	// The small blind opens to 2.5 big blinds (0.75 of the pot of 4 after his call).
	root := g.Node(Root)
	if root.Actions != "fc1a" || g.Node(root.Kids[2]).In[0] != 5 {
		t.Fatalf("root %q, open to %d", root.Actions, g.Node(root.Kids[2]).In[0])
	}
	if NoLimitRaiseTo([2]int{5, 2}, 1, 1, 3) != 15 {
		t.Error("a pot-sized 3-bet over 2.5 big blinds is not to 7.5")
	}
}

// The exact best response agrees with a deal-by-deal computation on a no-limit
// tree, whose all-ins end in showdowns before the river.
func TestNoLimitBestResponseBruteForce(t *testing.T) {
	g, ag := tinyNoLimitGame(t, [4]int{2, 2, 2, 2}, 20)
	for _, p := range []*HoldemProfile{constantProfile(g, uniform), randomProfile(g, 3)} {
		for q := range 2 {
			if got, want := ag.BestResponseValue(p, q), bruteValue(ag, p, q, false); math.Abs(got-want) > 1e-9 {
				t.Errorf("best response of player %d: %v, brute force %v", q, got, want)
			}
			if got, want := ag.pass(p, q, true), bruteValue(ag, p, q, true); math.Abs(got-want) > 1e-9 {
				t.Errorf("player %d's value: %v, brute force %v", q, got, want)
			}
		}
	}
}

// MCCFR on a no-limit tree converges: with one bucket a round nobody knows
// anything, the game's value is 0 (every showdown is even, folding loses), and the
// exploitability goes to 0; with two buckets it falls well below uniform play's.
func TestNoLimitMCCFRConverges(t *testing.T) {
	for _, tc := range []struct {
		sizes [4]int
		check func(uni, trained, value float64) bool
	}{
		{[4]int{1, 1, 1, 1}, func(uni, e, v float64) bool { return e < 0.05 && math.Abs(v) < 0.05 }},
		{[4]int{2, 2, 2, 2}, func(uni, e, v float64) bool { return e < uni/3 }},
	} {
		g, ag := tinyNoLimitGame(t, tc.sizes, 200)
		s, err := NewHoldemSolver(tinyBucketer{tc.sizes}, HoldemOptions{Seed: 1, Tree: g, Averaging: LinearCFR})
		if err != nil {
			t.Fatal(err)
		}
		for s.Iterations() < 60000 {
			s.Iterate(s.BatchSize())
		}
		uni, e, v := ag.Exploitability(constantProfile(g, uniform)), ag.Exploitability(s.Average()), ag.Value(s.Average())
		t.Logf("%v: exploitability uniform %.3f, trained %.4f chips; value %.4f", tc.sizes, uni, e, v)
		if !tc.check(uni, e, v) {
			t.Errorf("%v: exploitability uniform %v, trained %v, value %v", tc.sizes, uni, e, v)
		}
	}
}

// Bad trees are refused.
func TestNoLimitTreeErrors(t *testing.T) {
	bad := []NoLimitTree{{Stack: 2}, {Stack: 40, AllInShare: 2}, {Stack: 40, Rounds: [4]NoLimitRound{{Open: []float64{-1}}}},
		{Stack: 40, Rounds: [4]NoLimitRound{{Open: make([]float64, 6)}}}}
	for _, tr := range bad {
		if _, err := NewNoLimitGame([4]int{1, 1, 1, 1}, tr); err == nil || !strings.HasPrefix(err.Error(), "nlhe") {
			t.Errorf("%+v: error %v", tr, err)
		}
	}
	g, _ := NewNoLimitGame([4]int{2, 2, 2, 2}, tinyNoLimit())
	if _, err := NewHoldemSolver(tinyBucketer{[4]int{1, 1, 1, 1}}, HoldemOptions{Tree: g}); err == nil {
		t.Error("a tree for other buckets: no error")
	}
}
