package bot

import (
	"cmp"
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/felt-poker/felt/internal/blueprint"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/solver"
)

// The resolve bot's budgets: the house's default per decision, the fastest one may
// ask for, and the solver iterations a re-solve runs at the house budget (fewer in
// proportion to a smaller budget, down to the least that gives a usable average
// strategy; the deadline stops it sooner if it comes first).
const (
	DefaultResolveBudget = 2 * time.Second
	MinResolveBudget     = 50 * time.Millisecond
	MaxUntrustedBudget   = DefaultResolveBudget
	flopIterations       = 60
	turnIterations       = 60
	riverIterations      = 200
	minFlopIterations    = 20
	minTurnIterations    = 25
	minRiverIterations   = 60
	// flopLeafRunouts is the number of turn and river cards over which a flop
	// re-solve's leaves take each hand's equity (solver.Spot.LeafRunouts).
	flopLeafRunouts = 36
)

// minPlanIterations is the fewest completed iterations of a re-solve whose strategy
// the bot plays, learns its beliefs from or takes values from: one iteration's
// average strategy is the uniform one (DCFR starts from zero regrets), every action
// alike for every hand, the nuts folding as often as the air.
const minPlanIterations = 2

// Belief floors: what share of its weight a hand keeps after an action its model
// says it never takes. The opponent's model is a guess (the bot's own chart, policy
// and re-solved strategy), so its floor is large; the bot's own is what it did.
const (
	oppFloor = 0.2
	ownFloor = 0.001
)

// floorFor returns the belief floor for role's actions as seen by the bot in role me.
func floorFor(role, me int) float64 {
	if role == me {
		return ownFloor
	}
	return oppFloor
}

// resolveBot plays heads-up no-limit Hold'em: a chart before the flop, a range-aware
// policy on the flop and, from the turn, a re-solve of the round it is in on its
// beliefs about both ranges (resolve.go's doc in docs/bots.md says why). Other games
// and tables of more than two it plays as the chart bot.
type resolveBot struct {
	r      *rand.Rand
	budget time.Duration
	other  *chartBot
	cache  map[string]*plan
	starts map[string]*[2]belief // beliefs at a round's start, by the history's key then
	kept   keptSolve
	solves solveStore               // the last full re-solves of the hand, for reuse
	safe   bool                     // re-solve safely (resolve_solve.go, boundFor)
	bounds map[string]*solver.Bound // safe re-solving: the opponent's values at a round's start
	noBlue bool                     // play the chart and the flop policy, not the blueprint
	flop   bool                     // re-solve the flop (depth-limited, flop=true), not play the blueprint there
	leaves FlopLeaves               // how the flop's re-solve ends (leaf=)
	// beforeSolve, when set (by tests), is called with each re-solve as it begins
	// to iterate.
	beforeSolve func(*solver.Solver)
}

// keptSolve is the bot's last re-solve, kept so that the end of its round (the
// answer to its last action, which adds no size to the tree) needs no new one.
type keptSolve struct {
	start string   // the history's key when the round began
	acts  []pubAct // the round's actions it was solved for
	s     *solver.Solver
}

// covers reports whether the kept solve has round st, begun at key start, in its
// tree: solved for a first part of its actions, the rest only checks, calls, folds
// and the bets of role me (the bot's own, taken from that tree).
func (k *keptSolve) covers(start string, st *pubStreet, me int) bool {
	if k.s == nil || k.start != start || len(k.acts) > len(st.acts) {
		return false
	}
	for i, a := range st.acts {
		if i < len(k.acts) && a != k.acts[i] || i >= len(k.acts) && a.aggressive() && a.role != me {
			return false
		}
	}
	return true
}

// keep replaces the kept solve by s.
func (k *keptSolve) keep(start string, st *pubStreet, s *solver.Solver) {
	if k.s != nil {
		k.s.Close()
	}
	*k = keptSolve{start: start, acts: append([]pubAct(nil), st.acts...), s: s}
}

// plan is what the bot does at one public decision: the actions and, for each hand,
// its chance of each.
type plan struct {
	acts  []engine.Action
	probs map[int][]float64 // by hand index
	// For a hand the plan does not cover (a re-solve leaves out hands the bot's
	// own range gave up): the opponent's range at the round's start and the board.
	opp   *belief
	board []cards.Card
	eq    *[numCombos]float64 // those hands' equity against opp, made at first need
	// For a plan without a strategy (equityPlan): the bot's own range there, the
	// most of it that may fold to the bet it faces (pubStreet.foldBound), and each
	// hand's place in it by eq, made at first need.
	own   *belief
	most  float64
	place *[numCombos]float64
	// taken is 1 + the index of the action in acts that the round's action seen
	// here maps to (a blueprint plan), or 0: prob matches by kind and amount.
	taken int
	// unsolved marks the plan of a re-solve the deadline stopped before it
	// completed minPlanIterations: it covers no hand, and it is not cached (a
	// later question at the same point, Strategy's for one, gets a re-solve).
	unsolved bool
}

var (
	_ ContextActor = (*resolveBot)(nil)
	_ Strategist   = (*resolveBot)(nil)

	_ ContextStrategist = (*resolveBot)(nil)
)

func newResolve(o Options) *resolveBot {
	b := &resolveBot{r: o.Rand, budget: o.Budget, other: newChart(o), safe: !o.NoSafe, noBlue: o.NoBlueprint, flop: o.Flop, leaves: o.FlopLeaves}
	if b.budget == 0 {
		b.budget = DefaultResolveBudget
	}
	if !b.noBlue {
		// Read the blueprint now (about 0.13 s of CPU, once per process) rather
		// than inside the first decision's budget.
		_, _ = blueprint.Default()
	}
	// The same for the class equities of the chart and of the answer to an
	// all-in before the flop (defendShove): about 0.2 s of CPU.
	preflopOnce()
	return b
}

// Act decides within the bot's own budget.
func (b *resolveBot) Act(v *engine.View) engine.Action { return b.ActContext(context.Background(), v) }

// ActContext decides by the time ctx or the bot's budget ends, whichever comes
// first. A re-solve cut short answers from the iterations it completed; when the
// deadline came before the second ended (one iteration's strategy is uniform), the
// hand is answered by its equity against the opponent's range (plan.outside), as
// it is when the subgame is too big to re-solve. When ctx is already done on
// entry, it answers at once with a check or, facing a bet, a call when the price
// is below a quarter of the pot after calling and a fold otherwise (quickAction).
func (b *resolveBot) ActContext(ctx context.Context, v *engine.View) engine.Action {
	h, ok := readHistory(v)
	if !ok {
		return b.other.Act(v)
	}
	ctx, cancel := context.WithTimeout(ctx, b.budget)
	defer cancel()
	probs, acts := b.decide(ctx, &h, v)
	if probs == nil {
		return quickAction(v)
	}
	x := b.r.Float64()
	for i, p := range probs {
		if x -= p; x < 0 {
			return legalize(acts[i], v.Legal)
		}
	}
	return legalize(acts[len(acts)-1], v.Legal)
}

// Strategy returns the bot's probabilities at v (no deadline: a re-solve runs its
// iterations). Every hand at one public decision shares one plan, so asking for all
// 1,326 hands costs one re-solve.
func (b *resolveBot) Strategy(v *engine.View, out []ActionProb) ([]ActionProb, bool) {
	return b.StrategyContext(context.Background(), v, out)
}

// StrategyContext is Strategy cut short when ctx is done: a re-solve then stops
// inside the iteration under way and the bot answers from the iterations it
// completed, by equity when there were fewer than two, or, when ctx is done
// before it starts, as ActContext does then (quickAction).
func (b *resolveBot) StrategyContext(ctx context.Context, v *engine.View, out []ActionProb) ([]ActionProb, bool) {
	h, ok := readHistory(v)
	if !ok {
		return out[:0], false
	}
	probs, acts := b.decide(ctx, &h, v)
	out = out[:0]
	if probs == nil {
		return append(out, ActionProb{quickAction(v), 1}), true
	}
	for i, p := range probs {
		if p <= 0 {
			continue
		}
		a := legalize(acts[i], v.Legal)
		merged := false
		for j := range out {
			if out[j].Action == a {
				out[j].Prob += p
				merged = true
			}
		}
		if !merged {
			out = append(out, ActionProb{a, p})
		}
	}
	return out, true
}

// decide returns the viewer's hand's probabilities over the actions of its plan.
func (b *resolveBot) decide(ctx context.Context, h *pubHistory, v *engine.View) ([]float64, []engine.Action) {
	me := &v.Seats[v.Viewer]
	if !me.Cards[0].Valid() || !me.Cards[1].Valid() {
		return nil, nil
	}
	p := b.planAt(ctx, h)
	if p == nil {
		return nil, nil
	}
	probs := p.probs[int(comboIndex[me.Cards[0]][me.Cards[1]])]
	if probs == nil {
		return []float64{1}, []engine.Action{p.outside(v)}
	}
	return probs, p.acts
}

// outside decides for a hand the plan does not cover, by its equity against the
// opponent's range: a raise of the pot at 85%, otherwise a check, or facing a bet
// a call when the equity beats the price. In a plan without a strategy (a
// deadline before two iterations, a subgame too big) the hands of the bot's range
// call by their place in it instead, the best of it to the minimum defence
// (plan.most), and any with priceCall times the price: their equity is against
// the opponent's range before his bet, which called a big bet far too often
// (0.65 of the range facing three pots on the turn, where 0.25 need).
func (p *plan) outside(v *engine.View) engine.Action {
	me := &v.Seats[v.Viewer]
	x := comboIndex[me.Cards[0]][me.Cards[1]]
	if p.eq == nil {
		var outside belief
		for h := range outside {
			if p.probs[h] == nil {
				outside[h] = 1
			}
		}
		p.eq = rangeEquity(p.board, &outside, p.opp)
	}
	eq := p.eq[x]
	l := v.Legal
	price := float64(l.CallAmount) / float64(v.Pot+l.CallAmount)
	switch {
	case eq >= 0.85:
		return raiseTo(l, potRaise(l, v.Pot, 1, 1))
	case l.Can(engine.Check):
		return checkOrCall(l)
	case p.own != nil && p.own[x] > 0:
		if p.placeOf(x) <= 1-p.most || eq >= priceCall*price {
			return checkOrCall(l)
		}
	case eq >= price:
		return checkOrCall(l)
	}
	return checkOrFold(l)
}

// placeOf returns hand x's place in the bot's own range (0 the best, 1 the
// worst; places) by its equity against the stronger half of the opponent's range
// (strongerHalf): the hands that bet are his stronger ones, and against them a
// draw keeps its equity where a weak pair or ace-high loses it. Ranked by
// equity against his whole range, a flush draw with a gutshot (six-three of
// hearts on 9h 8h 2c 5d, 0.26) was in the worst tenth and folded to half a
// pot while ace-king high (0.47) called; against his stronger half they have
// 0.24 and 0.13.
func (p *plan) placeOf(x int16) float64 {
	if p.place == nil {
		var dead cards.Set
		for _, c := range p.board {
			dead = dead.Add(c)
		}
		half := strongerHalf(p.board, p.own, p.opp, dead)
		p.place = places(rangeEquity(p.board, p.own, half), p.own, dead)
	}
	return p.place[x]
}

// strongerHalf returns the half of range theirs (by weight) whose hands have the
// most equity against range mine on board.
func strongerHalf(board []cards.Card, mine, theirs *belief, dead cards.Set) *belief {
	eq := rangeEquity(board, theirs, mine)
	var hands []int
	total := 0.0
	for x, w := range theirs {
		if c := comboCards[x]; w > 0 && cards.SetOf(c[0], c[1])&dead == 0 {
			hands = append(hands, x)
			total += w
		}
	}
	slices.SortStableFunc(hands, func(a, b int) int { return -cmp.Compare(eq[a], eq[b]) })
	half := new(belief)
	seen := 0.0
	for _, x := range hands {
		if seen >= total/2 {
			break
		}
		half[x] = theirs[x]
		seen += theirs[x]
	}
	return half
}

// quickAction is the answer without a plan (no time to make one, or a re-solve
// with no decision to read): check, call a small price, else fold.
func quickAction(v *engine.View) engine.Action {
	l := v.Legal
	if l.Can(engine.Check) {
		return checkOrFold(l)
	}
	if l.CallAmount*4 < v.Pot+l.CallAmount {
		return checkOrCall(l)
	}
	return checkOrFold(l)
}

// legalize brings a plan's action within l.
func legalize(a engine.Action, l engine.Legal) engine.Action {
	switch a.Kind {
	case engine.Fold:
		return checkOrFold(l)
	case engine.Check, engine.Call:
		return checkOrCall(l)
	}
	return raiseTo(l, a.Amount)
}

// maxCache bounds the plans and beliefs kept; they are dropped all at once past it
// (a hand uses a few dozen at most).
const maxCache = 512

// planAt returns the plan at the end of h, or nil when ctx was done before it
// began. Every plan is cached by the history's key but one a deadline cut short
// (unsolved): a history asked about again (LBR asks about each of 1,326 hands)
// costs nothing, whatever its plan came from.
func (b *resolveBot) planAt(ctx context.Context, h *pubHistory) *plan {
	if b.cache == nil || len(b.cache)+len(b.starts) > maxCache {
		b.cache, b.starts = map[string]*plan{}, map[string]*[2]belief{}
	}
	if p, ok := b.cache[h.key]; ok {
		return p
	}
	b.solves.keepHand(h.key)
	if ctx.Err() != nil {
		return nil
	}
	p := b.makePlan(ctx, h)
	if !p.unsolved {
		b.cache[h.key] = p
	}
	return p
}

// makePlan makes the plan at the end of h (planAt).
func (b *resolveBot) makePlan(ctx context.Context, h *pubHistory) *plan {
	st := h.cur()
	bel := b.beliefsAt(ctx, h, len(h.streets)-1)
	var p *plan
	if !b.resolves(st.street) {
		now := *bel
		b.playRound(ctx, h, len(h.streets)-1, &now, len(st.acts))
		p = b.roundPlan(h, len(h.streets)-1, len(st.acts), &now)
	} else {
		p = b.solvePlan(ctx, h, st, bel)
	}
	return p
}

// beliefsAt returns both ranges at the start of round i, walking the rounds before
// it (cached by the history's key at each round's start).
func (b *resolveBot) beliefsAt(ctx context.Context, h *pubHistory, i int) *[2]belief {
	key := h.key[:h.streets[i].keyAt]
	if i == 0 {
		key = h.key[:1]
	}
	if bel, ok := b.starts[key]; ok {
		return bel
	}
	var next [2]belief
	if i == 0 {
		next = [2]belief{uniform(), uniform()}
	} else {
		next = *b.beliefsAt(ctx, h, i-1)
		b.playRound(ctx, h, i-1, &next, len(h.streets[i-1].acts))
	}
	b.starts[key] = &next
	return &next
}

// playRound updates bel, the beliefs at round i's start, by its first n actions
// (a re-solved round: all of them). When the round's re-solve cannot be made (the
// deadline passed, the subgame is too big), the beliefs stay as they were at its
// start, as after a solve with too few iterations (endRound).
func (b *resolveBot) playRound(ctx context.Context, h *pubHistory, i int, bel *[2]belief, n int) {
	st := &h.streets[i]
	if !b.resolves(st.street) {
		for k, a := range st.acts[:n] {
			p := b.roundPlan(h, i, k, bel)
			bel[a.role].update(func(x int) float64 { return p.prob(x, a) }, floorFor(a.role, h.me))
		}
		return
	}
	if start := h.key[:st.keyAt]; b.kept.covers(start, st, h.me) {
		b.endRound(ctx, b.kept.s, h, i, bel)
		return
	}
	if ctx.Err() != nil {
		return
	}
	s, err := b.roundSolver(ctx, st, bel, h.me, h.key[:st.keyAt])
	if err != nil {
		return
	}
	defer s.Close()
	b.endRound(ctx, s, h, i, bel)
}

// resolves reports whether the bot re-solves the rounds of street: the turn and the
// river always, the flop with flop=true, never the preflop.
func (b *resolveBot) resolves(street engine.Street) bool {
	return street >= engine.Turn || street == engine.Flop && b.flop
}

// prob returns the chance the plan gives hand x of taking an action like a: the
// same action when the plan has it, otherwise any of the same sort (fold, check or
// call, bet or raise of any size).
func (p *plan) prob(x int, a pubAct) float64 {
	probs := p.probs[x]
	if probs == nil {
		return 0
	}
	if p.taken > 0 {
		return probs[p.taken-1]
	}
	same, exact := 0.0, -1
	for i, act := range p.acts {
		switch {
		case a.aggressive() && (act.Kind == engine.Bet || act.Kind == engine.Raise):
			same += probs[i]
			if act.Amount == a.to {
				exact = i
			}
		case !a.aggressive() && a.kind == engine.EvFold && act.Kind == engine.Fold,
			!a.aggressive() && a.kind != engine.EvFold && (act.Kind == engine.Check || act.Kind == engine.Call):
			same += probs[i]
		}
	}
	if exact >= 0 {
		return probs[exact]
	}
	return same
}

// roundSolver builds and solves round st, begun at the history's key start, from
// the beliefs at its start, with the bet sizes of its actions so far in the tree,
// or takes the same re-solve from b.solves. When ctx ends before the tree is
// built it returns errCut.
func (b *resolveBot) roundSolver(ctx context.Context, st *pubStreet, bel *[2]belief, me int, start string) (*solver.Solver, error) {
	bound, tree := b.boundFor(start), roundTree(st, me)
	key := solveKey(start, st.board, &tree)
	s := b.solves.find(key, bel, bound)
	if s == nil {
		var err error
		if s, err = newRoundSolver(ctx, st, bel, tree, bound, b.leaves); err != nil {
			return nil, err
		}
		if b.beforeSolve != nil {
			b.beforeSolve(s)
		}
		if n := b.iterations(st.street); iterate(ctx, s.IterateContext, n) == n {
			b.solves.add(storedSolve{start: start, key: key, bel: *bel, bound: bound, s: s, bytes: s.Memory()})
		}
	}
	b.noteRoot(ctx, start, s, me)
	return s, nil
}

// iterations returns the iterations of a re-solve on street at the bot's budget.
func (b *resolveBot) iterations(street engine.Street) int {
	n, least := turnIterations, minTurnIterations
	switch street {
	case engine.Flop:
		n, least = flopIterations, minFlopIterations
	case engine.River:
		n, least = riverIterations, minRiverIterations
	}
	return max(least, int(float64(n)*min(1, float64(b.budget)/float64(DefaultResolveBudget))))
}

// solvePlan re-solves round st and reads the strategy at its current decision.
func (b *resolveBot) solvePlan(ctx context.Context, h *pubHistory, st *pubStreet, bel *[2]belief) *plan {
	me := h.me
	if ctx.Err() != nil {
		p := equityPlan(st, bel, me)
		p.unsolved = true
		return p
	}
	s, err := b.roundSolver(ctx, st, bel, me, h.key[:st.keyAt])
	if err != nil {
		p := equityPlan(st, bel, me) // too big to re-solve, or the tree not built by the deadline
		p.unsolved = errors.Is(err, errCut)
		return p
	}
	b.kept.keep(h.key[:st.keyAt], st, s)
	if s.Iterations() < minPlanIterations {
		p := equityPlan(st, bel, me)
		p.unsolved = true
		return p
	}
	path, err := pathOf(s, st, len(st.acts))
	var info solver.NodeInfo
	if err == nil {
		info, err = s.Strategy(path)
	}
	if err != nil || info.Kind != "decision" {
		now := *bel
		advance(s, st, &now, me)
		return equityPlan(st, &now, me) // a line the tree does not hold
	}
	l := engine.Legal{MaxTo: min(st.behind[0], st.behind[1])}
	p := &plan{acts: solverActs(info, l), probs: map[int][]float64{}, opp: &bel[1-me], board: st.board}
	for name, probs := range handProbs(info) {
		c, err := cards.ParseList(name)
		if err == nil && len(c) == 2 {
			p.probs[int(comboIndex[c[0]][c[1]])] = probs
		}
	}
	if st.street == engine.River {
		// The last round: no later beliefs are learned from this plan.
		now := *bel
		advance(s, st, &now, me)
		defend(p, st, len(st.acts), me, &now)
	}
	return p
}

// equityPlan is a plan of round st without a strategy: every hand is answered as
// one the plan does not cover, by its equity against the opponent's range in bel
// (plan.outside). It stands in for a re-solve the deadline stopped before
// minPlanIterations (the range at the round's start; marked unsolved), for a
// subgame too big to re-solve (the same), and for a line past the re-solved tree
// (the range where the tree's line ends). Facing a bet, its hands call to the
// minimum defence (plan.outside).
func equityPlan(st *pubStreet, bel *[2]belief, me int) *plan {
	return &plan{probs: map[int][]float64{}, opp: &bel[1-me], board: st.board, own: &bel[me], most: st.foldBound(len(st.acts), me)}
}

// roundPlan returns the plan at the k-th action of round i, played without
// re-solving: the blueprint's while the hand is on its tree (the bot's own flop
// defence held to the pot odds, defend), else the chart before the flop and the
// flop policy on the flop; facing an all-in before the flop, or a bet it may only
// call or fold, the bot's own calls are at least the push-or-fold game's
// (defendShove). bel holds the beliefs just before that action.
func (b *resolveBot) roundPlan(h *pubHistory, i, k int, bel *[2]belief) *plan {
	st := &h.streets[i]
	mine := k >= len(st.acts) || st.acts[k].role == h.me
	if mine {
		if p := pushFoldPlan(h, i, k, h.me); p != nil {
			return p
		}
	}
	if !b.noBlue {
		if p := bluePlanFor(h, i, k); p != nil {
			if mine {
				defend(p, st, k, h.me, bel)
				defendShove(p, h, i, k, h.me, bel)
			}
			return p
		}
	}
	p := chartPlan(h, st, k, bel)
	if mine {
		defendShove(p, h, i, k, h.me, bel)
	}
	return p
}

// chartPlan returns the heuristic plan at the k-th action of round st: the chart
// before the flop, the flop policy on the flop.
func chartPlan(h *pubHistory, st *pubStreet, k int, bel *[2]belief) *plan {
	if st.street == engine.Preflop {
		return preflopPlanFor(h, k, bel)
	}
	return flopPlanFor(st, k, bel)
}

// preflopPlanFor returns the chart's plan at the k-th action before the flop.
func preflopPlanFor(h *pubHistory, k int, bel *[2]belief) *plan {
	t := preflopOnce()
	sp := readPreflop(h, k)
	var eq [numClasses]float64
	if sp.allInNow {
		eq = t.equityVs(&bel[1-sp.role])
	}
	acts := preflopActs(sp)
	p := &plan{acts: acts[:], probs: make(map[int][]float64, numCombos)}
	for x := range comboCards {
		c := int(classOfCombo[x])
		f, cl, r := pfPlan(t, sp, c, eq[c])
		p.probs[x] = []float64{f, cl, r}
	}
	return p
}

// flopPlanFor returns the flop policy's plan at the k-th action of round st.
func flopPlanFor(st *pubStreet, k int, bel *[2]belief) *plan {
	sp, role := readFlop(st, k)
	var dead cards.Set
	for _, c := range st.board {
		dead = dead.Add(c)
	}
	eq := rangeEquity(st.board, &bel[role], &bel[1-role])
	q := places(eq, &bel[role], dead)
	acts := flopActs(sp)
	p := &plan{acts: acts[:], probs: make(map[int][]float64, numCombos)}
	for x := range comboCards {
		if cards.SetOf(comboCards[x][0], comboCards[x][1])&dead != 0 {
			continue
		}
		f, cl, r := flopPlan(sp, eq[x], q[x])
		p.probs[x] = []float64{f, cl, r}
	}
	return p
}
