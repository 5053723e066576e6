package bot

import (
	"context"
	"errors"
	"math"
	"strconv"
	"time"

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

// errCut is returned for a re-solve the deadline stopped before its tree was
// built: like one stopped before minPlanIterations, it has no strategy.
var errCut = errors.New("the deadline came before the re-solve's tree was built")

// roundTree is the bet tree of a re-solve that starts on street: a few sizes per
// street (fewer after the root street, where most of the tree is), all-in only once
// the stacks are small against the pot (deep all-ins are rare in good play and,
// before the solve converges, costly), plus every bet and raise size already made
// in this round, so that the opponent's actual sizes are in the tree instead of
// being rounded to the nearest one.
func roundTree(st *pubStreet, me int) solver.Tree {
	t := solver.Tree{AllInThreshold: 0.9, RaiseCap: 3}
	root := solver.Street(st.street - engine.Flop)
	spr := float64(st.effective()) / float64(st.pot)
	for p := range 2 {
		t.Sizes[p][root] = solver.Sizes{Bet: []float64{66}, Raise: []float64{100}, AllIn: spr <= 3}
		if root == solver.River {
			t.Sizes[p][root] = solver.Sizes{Bet: []float64{33, 75, 125}, Raise: []float64{100}, AllIn: spr <= 4}
		}
		for s := root + 1; s <= solver.River; s++ {
			t.Sizes[p][s] = solver.Sizes{Bet: []float64{75}, AllIn: spr <= 6}
		}
	}
	if root == solver.Flop {
		// A depth-limited flop costs little per size: two bets. Its continuation
		// (leaf=turn) bets two thirds of the pot on the turn, as the turn's re-solve.
		for p := range 2 {
			t.Sizes[p][root] = solver.Sizes{Bet: []float64{33, 75}, Raise: []float64{100}, AllIn: spr <= 3}
			t.Sizes[p][solver.Turn].Bet = []float64{66}
		}
	}
	if root == solver.Turn {
		t.RaiseCap = 2
	}
	// A line with more raises than the cap (an opponent who raised again) is put
	// in the tree whole: the cap rises to the raises made so far, for this re-solve.
	_, raises := st.betsBefore(len(st.acts))
	t.RaiseCap = max(t.RaiseCap, raises)
	insertSizes(&t, st, root, me)
	return t
}

// insertSizes adds the size of each bet and raise the opponent of role me made so
// far in round st to its sizes on that street, in the solver's terms (percent of the
// pot, or of the pot after calling for a raise). The bot's own bets came from the
// tree and are matched to it.
func insertSizes(t *solver.Tree, st *pubStreet, s solver.Street, me int) {
	half := float64(st.pot) / 2
	var bet [2]float64
	for _, a := range st.acts {
		p := solverPlayer(a.role)
		z := &t.Sizes[p][s]
		switch {
		case a.role == me:
		case a.kind == engine.EvBet:
			z.Bet = addSize(z.Bet, float64(a.to)/float64(st.pot)*100)
		case a.kind == engine.EvRaise:
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

// FlopLeaves are the values a flop re-solve gives the hand that goes on to the turn
// (the option leaf=; docs/bots.md, "On the flop with flop=true"; docs/solver.md,
// "Depth-limited solving", measures them).
type FlopLeaves uint8

const (
	// LeavesTurn plays on past the flop in a coarse continuation: the turn one of
	// flopTurns sampled cards, one bet size (two thirds of the pot; all-in too when
	// the stack is at most 6 pots) and no raise but all-in, then the river one of
	// flopRivers sampled cards, checked down. Position and the turn's betting count.
	LeavesTurn FlopLeaves = iota
	// LeavesEquity ends the flop at leaves worth each hand's equity against the
	// other's range over flopLeafRunouts runouts, realized in full.
	LeavesEquity
)

// The continuation of LeavesTurn: its turn and river samples, drawn from a seed
// fixed by the board.
const (
	flopTurns  = 12
	flopRivers = 3
	flopSeed   = 2
)

// ParseFlopLeaves reads "turn" or "equity".
func ParseFlopLeaves(s string) (FlopLeaves, bool) {
	switch s {
	case "turn":
		return LeavesTurn, true
	case "equity":
		return LeavesEquity, true
	}
	return 0, false
}

// limit makes spot, a flop round, depth-limited as l says.
func (l FlopLeaves) limit(spot *solver.Spot) {
	if l == LeavesEquity {
		spot.LeafRunouts = flopLeafRunouts
		return
	}
	spot.Sample = solver.Sample{Turns: flopTurns, Rivers: flopRivers, Seed: flopSeed}
	for p := range 2 {
		spot.Tree.Sizes[p][solver.River] = solver.Sizes{}
	}
}

// newRoundSolver builds the solver of round st with tree from the beliefs at its
// start; with a bound (the opponent's values there), a safe re-solve. A flop
// round ends as leaves say. When ctx ends first (its deadline read from the
// clock: solver.NewContext) the build stops and it returns errCut.
func newRoundSolver(ctx context.Context, st *pubStreet, b *[2]belief, tree solver.Tree, bound *solver.Bound, leaves FlopLeaves) (*solver.Solver, error) {
	var dead cards.Set
	for _, c := range st.board {
		dead = dead.Add(c)
	}
	spot := solver.Spot{Pot: float64(st.pot), Stack: float64(st.effective()), Board: st.board, Tree: tree, Bound: bound}
	if st.street == engine.Flop {
		leaves.limit(&spot)
	}
	for r := range 2 {
		rg, ok := b[r].rangeOf(dead)
		if !ok {
			return nil, errTooBig
		}
		spot.Range[solverPlayer(r)] = rg
	}
	s, err := solver.NewContext(ctx, spot, solver.Options{Workers: 1})
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return nil, errCut
	}
	if err != nil {
		return nil, err
	}
	if s.Memory() > maxSolveBytes {
		s.Close()
		return nil, errTooBig
	}
	return s, nil
}

// iterate runs up to n iterations of step (a solver's IterateContext), stopping
// when ctx is done (step then stops inside its iteration) or when the next
// iteration, if it took as long as the longest so far, would end past ctx's
// deadline: the answer comes from the average strategy so far, by the deadline. It
// returns the iterations completed, 0 when ctx ended inside the first.
func iterate(ctx context.Context, step func(context.Context) bool, n int) int {
	deadline, timed := ctx.Deadline()
	var longest time.Duration
	done := 0
	for ; done < n; done++ {
		if done > 0 && (ctx.Err() != nil || timed && time.Until(deadline) < longest) {
			break
		}
		start := time.Now()
		if !step(ctx) {
			break
		}
		longest = max(longest, time.Since(start))
	}
	return done
}

// pathOf returns the solver's node path for the first k actions of round st: each
// action's label, a bet or raise matched to the tree's nearest amount.
func pathOf(s *solver.Solver, st *pubStreet, k int) ([]string, error) {
	path := make([]string, 0, k)
	for _, a := range st.acts[:k] {
		info, err := s.Strategy(path)
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
// along the round's actions, giving the beliefs when the next round begins. It
// returns how many of the actions the re-solved tree holds: past those (a line
// the tree does not have) the beliefs stay as they were where the tree ends.
func advance(s *solver.Solver, st *pubStreet, b *[2]belief, me int) int {
	path := make([]string, 0, len(st.acts))
	for k, a := range st.acts {
		info, err := s.Strategy(path)
		if err != nil {
			return k
		}
		label, err := matchLabel(info, a)
		if err != nil {
			return k
		}
		probs := handProbs(info)
		col := indexOf(info.Actions, label)
		b[a.role].update(func(h int) float64 {
			if p, ok := probs[comboName(h)]; ok && col >= 0 {
				return p[col]
			}
			return 0
		}, floorFor(a.role, me))
		path = append(path, label)
	}
	return len(st.acts)
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

// safeBelief is how much the believed range of the opponent counts beside the
// gadget in a safe re-solve (solver.Bound.Belief): 1, as much as the gadget, so the
// bot still plays for the range it believes in while every hand's gain over its
// bound costs it (docs/bots.md, "Safe re-solving").
const safeBelief = 1

// boundFor returns the bound of a safe re-solve of the round begun at the history's
// key start: the opponent's values recorded at that point, or nil (an unsafe
// re-solve) when there are none or safe re-solving is off.
func (b *resolveBot) boundFor(start string) *solver.Bound {
	if !b.safe {
		return nil
	}
	return b.bounds[start]
}

// maxBounds bounds the round starts whose bounds are kept (10 KiB each); they are
// dropped all at once past it (a hand has at most two).
const maxBounds = 64

// noteBound records vals, player opp's values, as the bound of the round begun at
// start unless it has one: the first values recorded there stay.
func (b *resolveBot) noteBound(start string, opp int, vals []float64) {
	if b.bounds == nil || len(b.bounds) >= maxBounds {
		b.bounds = map[string]*solver.Bound{}
	}
	if b.bounds[start] == nil {
		b.bounds[start] = &solver.Bound{Player: opp, Values: vals, Belief: safeBelief}
	}
}

// noteRoot records, after a re-solve of the round begun at start that had no bound,
// the opponent's best-response values at its root: the round's later re-solves
// (with the opponent's new bet sizes in their trees) give it no more than this one.
// A re-solve with fewer than minPlanIterations, or values whose traversal ctx cut
// short, record nothing (a later re-solve of the round will).
func (b *resolveBot) noteRoot(ctx context.Context, start string, s *solver.Solver, me int) {
	if !b.safe || b.bounds[start] != nil || s.Iterations() < minPlanIterations {
		return
	}
	opp := solverPlayer(1 - me)
	if v, err := s.HandValuesContext(ctx, nil, opp, true); err == nil {
		b.noteBound(start, opp, v)
	}
}

// endRound moves bel, the beliefs at round i's start, through its actions with s,
// its solve; re-solving safely, it also records the opponent's best-response values
// at the next round's start (its card dealt) as that round's bound, unless ctx cuts
// their traversal short. A solve with fewer than minPlanIterations (the deadline
// came inside the first two) has no strategy to learn from: the beliefs stay as
// they were at the round's start, and no bound is recorded.
func (b *resolveBot) endRound(ctx context.Context, s *solver.Solver, h *pubHistory, i int, bel *[2]belief) {
	st := &h.streets[i]
	if s.Iterations() < minPlanIterations {
		return
	}
	if advance(s, st, bel, h.me) < len(st.acts) {
		return // a line past the tree: no bound for the next round
	}
	if !b.safe || i+1 >= len(h.streets) || len(h.streets[i+1].board) != len(st.board)+1 {
		return
	}
	next := &h.streets[i+1]
	path, err := pathOf(s, st, len(st.acts))
	if err != nil {
		return
	}
	opp := solverPlayer(1 - h.me)
	if v, err := s.HandValuesContext(ctx, append(path, next.board[len(st.board)].String()), opp, true); err == nil {
		b.noteBound(h.key[:next.keyAt], opp, v)
	}
}
