package bot

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/eval"
)

// flopRunouts is the number of turn and river cards sampled for an equity on the
// flop (the same runouts for every hand, drawn from a seed fixed by the board).
const flopRunouts = 24

// rangeEquity returns, for every hand mine gives weight, its share of the pot at
// showdown against the hands of theirs (weighted, card removal counted), over
// flopRunouts runouts of the board (or the board itself once it has five cards).
func rangeEquity(board []cards.Card, mine, theirs *belief) *[numCombos]float64 {
	var dead cards.Set
	seed := uint64(1)
	for _, c := range board {
		dead = dead.Add(c)
		seed = seed*53 + uint64(c)
	}
	r := rand.New(rand.NewPCG(seed, 7))
	var sc showdownCounts
	runs := flopRunouts
	if len(board) == 5 {
		runs = 1
	}
	for range runs {
		full, set := eval.HandOf(board...), dead
		for n := len(board); n < 5; {
			c := cards.Card(r.IntN(cards.NumCards))
			if !set.Has(c) {
				set, full = set.Add(c), full.Add(c)
				n++
			}
		}
		sc.add(full, liveHands(set, mine, theirs), mine, theirs)
	}
	out := new([numCombos]float64)
	for h := range out {
		if sc.weight[h] > 0 {
			out[h] = sc.win[h] / sc.weight[h]
		}
	}
	return out
}

// showdownCounts sums, for each hand, the opponent weight it beats (ties half) and
// the opponent weight it can meet.
type showdownCounts struct {
	win, weight [numCombos]float64
	rank        [numCombos]eval.Rank
}

// add counts one board: hands in order of strength, with running sums of the
// opponent weight below and, per card, of the part of it holding that card (the
// hands that cannot meet), as the solver's showdown does.
func (sc *showdownCounts) add(board eval.Hand, live []int, mine, theirs *belief) {
	for _, h := range live {
		sc.rank[h] = board.Add(comboCards[h][0]).Add(comboCards[h][1]).Rank()
	}
	slices.SortFunc(live, func(a, b int) int { return int(sc.rank[a]) - int(sc.rank[b]) })
	var total float64
	var totalCard [cards.NumCards]float64
	for _, h := range live {
		total += theirs[h]
		totalCard[comboCards[h][0]] += theirs[h]
		totalCard[comboCards[h][1]] += theirs[h]
	}
	var below float64
	var belowCard [cards.NumCards]float64
	for i := 0; i < len(live); {
		j := i
		var same float64
		var sameCard [cards.NumCards]float64
		for ; j < len(live) && sc.rank[live[j]] == sc.rank[live[i]]; j++ {
			h := live[j]
			same += theirs[h]
			sameCard[comboCards[h][0]] += theirs[h]
			sameCard[comboCards[h][1]] += theirs[h]
		}
		for _, h := range live[i:j] {
			if mine[h] == 0 {
				continue
			}
			c0, c1 := comboCards[h][0], comboCards[h][1]
			tie := same - sameCard[c0] - sameCard[c1] + theirs[h]
			sc.win[h] += below - belowCard[c0] - belowCard[c1] + tie/2
			sc.weight[h] += total - totalCard[c0] - totalCard[c1] + theirs[h]
		}
		for _, h := range live[i:j] {
			below += theirs[h]
			belowCard[comboCards[h][0]] += theirs[h]
			belowCard[comboCards[h][1]] += theirs[h]
		}
		i = j
	}
}

// liveHands lists the hands either belief holds that share no card with dead.
func liveHands(dead cards.Set, a, b *belief) []int {
	out := make([]int, 0, numCombos)
	for h := range comboCards {
		if (a[h] > 0 || b[h] > 0) && cards.SetOf(comboCards[h][0], comboCards[h][1])&dead == 0 {
			out = append(out, h)
		}
	}
	return out
}

// places returns each hand's place in its own range by equity: the weight of the
// stronger hands plus half its own, over the range's weight (0 the best, 1 the worst).
func places(eq *[numCombos]float64, b *belief, dead cards.Set) *[numCombos]float64 {
	var hands []int
	total := 0.0
	for h, w := range b {
		if w > 0 && cards.SetOf(comboCards[h][0], comboCards[h][1])&dead == 0 {
			hands = append(hands, h)
			total += w
		}
	}
	slices.SortFunc(hands, func(x, y int) int { return -cmp.Compare(eq[x], eq[y]) })
	out := new([numCombos]float64)
	for h := range out {
		out[h] = 1 // a hand the range does not hold counts as its worst
	}
	above := 0.0
	for _, h := range hands {
		out[h] = (above + b[h]/2) / total
		above += b[h]
	}
	return out
}

// flopSpot is a decision on the flop, as the heuristic policy sees it.
type flopSpot struct {
	toCall, pot int64 // pot: every chip in, this round's bets included
	raises      int
	allInNow    bool // the opponent has nothing behind
	canRaise    bool
	raiseTo     int64 // bet or raise to, or all-in
}

// readFlop describes the k-th action's spot of round st.
func readFlop(st *pubStreet, k int) (flopSpot, int) {
	bet, raises := st.betsBefore(k)
	role := roleBB
	if k%2 == 1 {
		role = roleSB
	}
	opp := 1 - role
	sp := flopSpot{toCall: bet[opp] - bet[role], pot: st.pot + bet[0] + bet[1], raises: raises}
	sp.allInNow = bet[opp] >= st.behind[opp]
	mine := st.behind[role]
	sp.canRaise = !sp.allInNow && bet[role]+sp.toCall < mine
	to := float64(sp.pot) * 0.66
	if raises > 0 {
		to = 3 * float64(bet[opp])
	}
	cap := min(mine, st.behind[opp])
	sp.raiseTo = int64(math.Min(to, float64(cap)))
	if float64(sp.raiseTo) >= 0.45*float64(cap) {
		sp.raiseTo = cap
	}
	return sp, role
}

// flopPlan returns the policy's fold, check-or-call and bet-or-raise chances for a
// hand with equity eq against the opponent's range and place q in its own range:
// with nothing to call it bets its best third and its worst eighth (bluffs in the
// ratio a two-thirds-pot bet allows) and checks the rest; facing a bet it raises its
// best tenth and calls when its equity beats the price or the hand is within the
// minimum defence of its range.
func flopPlan(sp flopSpot, eq, q float64) (fold, call, raise float64) {
	if sp.toCall == 0 {
		raise = ramp(q, 0.3) + ramp(1-q, 0.12)
		if !sp.canRaise {
			raise = 0
		}
		return 0, 1 - raise, raise
	}
	price := float64(sp.toCall) / float64(sp.pot+sp.toCall)
	if sp.canRaise {
		raise = ramp(q, 0.1/float64(sp.raises))
	}
	// Continue with the hands whose equity beats the price, and in any case with
	// the minimum defence, the share of the range that keeps a bluff from gaining:
	// what the bettor wins over everything in (a pot-size bet: a half; a bet of
	// forty pots: a fortieth).
	mdf := float64(sp.pot-sp.toCall) / float64(sp.pot)
	call = math.Max(1/(1+math.Exp(-(eq-price)/0.02)), ramp(q, mdf-0.02))
	call = math.Max(0, math.Min(1-raise, call))
	return math.Max(0, 1-call-raise), call, raise
}

// flopActs turns the policy's three choices into the actions of the round.
func flopActs(sp flopSpot) [3]engine.Action {
	call := engine.Action{Kind: engine.Call}
	if sp.toCall == 0 {
		call.Kind = engine.Check
	}
	return [3]engine.Action{{Kind: engine.Fold}, call, {Kind: engine.Raise, Amount: sp.raiseTo}}
}
