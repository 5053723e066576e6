package bot

import (
	"context"
	"errors"
	"math"
	"strconv"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/solver"
)

// solverPlayer maps a role to the solver's player: the big blind is out of position.
func solverPlayer(role int) int {
	if role == roleBB {
		return solver.OOP
	}
	return solver.IP
}

// maxSolveBytes bounds the memory of one re-solve.
const maxSolveBytes = 768 << 20

// errTooBig is returned for a subgame the bot will not solve.
var errTooBig = errors.New("subgame too big to re-solve")

// roundTree is the bet tree of a re-solve that starts on street: a few sizes per
// street (smaller after the root street, where most of the tree is), plus every
// bet and raise size already made in this round, so that the opponent's actual
// sizes are in the tree instead of being rounded to the nearest one.
func roundTree(st *pubStreet) solver.Tree {
	t := solver.Tree{AllInThreshold: 0.9, RaiseCap: 3}
	root := solver.Street(st.street - engine.Flop)
	for p := range 2 {
		t.Sizes[p][root] = solver.Sizes{Bet: []float64{66}, AllIn: true}
		if root == solver.River {
			t.Sizes[p][root] = solver.Sizes{Bet: []float64{33, 75, 125}, Raise: []float64{100}, AllIn: true}
		}
		for s := root + 1; s <= solver.River; s++ {
			t.Sizes[p][s] = solver.Sizes{Bet: []float64{75}, AllIn: true}
		}
	}
	if root == solver.Turn {
		t.RaiseCap = 2
	}
	insertSizes(&t, st, root)
	return t
}

// insertSizes adds the size of each bet and raise made so far in round st to the
// bettor's sizes on that street, in the solver's terms (percent of the pot, or of
// the pot after calling for a raise).
func insertSizes(t *solver.Tree, st *pubStreet, s solver.Street) {
	half := float64(st.pot) / 2
	var bet [2]float64
	for _, a := range st.acts {
		p := solverPlayer(a.role)
		z := &t.Sizes[p][s]
		switch a.kind {
		case engine.EvBet:
			z.Bet = addSize(z.Bet, float64(a.to)/float64(st.pot)*100)
		case engine.EvRaise:
			c := half + bet[1-p]
			z.Raise = addSize(z.Raise, (half+float64(a.to)-c)/(2*c)*100)
		}
		if a.kind != engine.EvFold && a.kind != engine.EvCheck {
			bet[p] = float64(a.to)
		}
	}
}

// addSize adds v to list unless a size within 2% of it is there (at most 8 sizes,
// each within the solver's bounds).
func addSize(list []float64, v float64) []float64 {
	v = math.Min(10000, math.Max(0.01, v))
	for _, x := range list {
		if math.Abs(x-v) <= 0.02*x {
			return list
		}
	}
	if len(list) >= 8 {
		return list
	}
	return append(append([]float64(nil), list...), v)
}

// newRoundSolver builds the solver of round st from the beliefs at its start.
func newRoundSolver(st *pubStreet, b *[2]belief) (*solver.Solver, error) {
	var dead cards.Set
	for _, c := range st.board {
		dead = dead.Add(c)
	}
	spot := solver.Spot{Pot: float64(st.pot), Stack: float64(st.effective()), Board: st.board, Tree: roundTree(st)}
	for r := range 2 {
		rg, ok := b[r].rangeOf(dead)
		if !ok {
			return nil, errTooBig
		}
		spot.Range[solverPlayer(r)] = rg
	}
	s, err := solver.New(spot, solver.Options{Workers: 1})
	if err != nil {
		return nil, err
	}
	if s.Memory() > maxSolveBytes {
		s.Close()
		return nil, errTooBig
	}
	return s, nil
}

// iterate runs up to n iterations, stopping early (after at least one) when ctx is
// done: the answer then comes from the average strategy so far.
func iterate(ctx context.Context, s *solver.Solver, n int) {
	for i := 0; i < n; i++ {
		if i > 0 && ctx.Err() != nil {
			return
		}
		s.Iterate()
	}
}

// pathOf returns the solver's node path for the first k actions of round st: each
// action's label, a bet or raise matched to the tree's nearest amount.
func pathOf(s *solver.Solver, st *pubStreet, k int) ([]string, error) {
	path := make([]string, 0, k)
	for _, a := range st.acts[:k] {
		info, err := s.Node(path)
		if err != nil {
			return nil, err
		}
		label, err := matchLabel(info, a)
		if err != nil {
			return nil, err
		}
		path = append(path, label)
	}
	return path, nil
}

// matchLabel returns the label at a decision node that stands for a.
func matchLabel(info solver.NodeInfo, a pubAct) (string, error) {
	want := map[engine.EventKind]byte{engine.EvFold: 'f', engine.EvCheck: 'x', engine.EvCall: 'c', engine.EvBet: 'b', engine.EvRaise: 'r'}[a.kind]
	best, dist := "", math.Inf(1)
	for _, l := range info.Actions {
		if l[0] != want {
			continue
		}
		if want != 'b' && want != 'r' {
			return l, nil
		}
		x, err := strconv.ParseFloat(l[1:], 64)
		if err == nil && math.Abs(x-float64(a.to)) < dist {
			best, dist = l, math.Abs(x-float64(a.to))
		}
	}
	if best == "" {
		return "", errors.New("the action is not in the re-solved tree")
	}
	return best, nil
}

// handProbs returns, for every hand at a decision node, its frequency of each action.
func handProbs(info solver.NodeInfo) map[string][]float64 {
	out := make(map[string][]float64, len(info.Hands))
	for _, h := range info.Hands {
		out[h.Hand] = h.Strategy
	}
	return out
}

// advance multiplies the beliefs at round st's start by both players' strategies
// along the round's actions, giving the beliefs when the next round begins.
func advance(s *solver.Solver, st *pubStreet, b *[2]belief, me int) error {
	path, err := pathOf(s, st, len(st.acts))
	if err != nil {
		return err
	}
	for k, a := range st.acts {
		info, err := s.Node(path[:k])
		if err != nil {
			return err
		}
		probs := handProbs(info)
		col := indexOf(info.Actions, path[k])
		b[a.role].update(func(h int) float64 {
			if p, ok := probs[comboName(h)]; ok && col >= 0 {
				return p[col]
			}
			return 0
		}, floorFor(a.role, me))
	}
	return nil
}

// comboName writes hand h as the solver names it, the higher card first.
func comboName(h int) string { return comboCards[h][0].String() + comboCards[h][1].String() }

func indexOf(list []string, x string) int {
	for i, y := range list {
		if y == x {
			return i
		}
	}
	return -1
}

// solverActs turns a decision node's actions into the engine's, within l.
func solverActs(info solver.NodeInfo, l engine.Legal) []engine.Action {
	out := make([]engine.Action, len(info.Actions))
	for i, label := range info.Actions {
		switch label[0] {
		case 'f':
			out[i] = engine.Action{Kind: engine.Fold}
		case 'x':
			out[i] = engine.Action{Kind: engine.Check}
		case 'c':
			out[i] = engine.Action{Kind: engine.Call}
		default:
			x, _ := strconv.ParseFloat(label[1:], 64)
			to := int64(math.Round(x))
			if info.AllIn[i] {
				to = l.MaxTo
			}
			out[i] = engine.Action{Kind: engine.Raise, Amount: to}
		}
	}
	return out
}
