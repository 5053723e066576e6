package bot

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/eval"
)

// numClasses is the number of starting-hand classes (AA, AKs, AKo, ...).
const numClasses = 169

// classOfCombo gives each two-card hand its class: a pair by its rank, suited and
// offsuit hands by their two ranks.
var classOfCombo = func() (out [numCombos]uint8) {
	for h, c := range comboCards {
		hi, lo := c[0].Rank(), c[1].Rank()
		switch {
		case hi == lo:
			out[h] = uint8(hi)
		case c[0].Suit() == c[1].Suit():
			out[h] = uint8(13 + int(hi)*(int(hi)-1)/2 + int(lo))
		default:
			out[h] = uint8(13 + 78 + int(hi)*(int(hi)-1)/2 + int(lo))
		}
	}
	return out
}()

// preflopTable is what the resolve bot knows before the flop, derived once at first
// use (about a second of CPU) from simulated showdowns: each class's equity against
// each other class and its place among all hands by equity against a random hand.
type preflopTable struct {
	eq [numClasses][numClasses]float32 // eq[i][j]: class i's share against class j
	q  [numClasses]float64             // share of the 1,326 hands stronger than the class, plus half its own
}

// preflopSamples is the number of simulated showdowns per pair of classes.
const preflopSamples = 240

var preflopOnce = sync.OnceValue(buildPreflopTable)

// buildPreflopTable simulates preflopSamples showdowns for each pair of classes
// with a fixed seed, so that every process derives the same table.
func buildPreflopTable() *preflopTable {
	t := &preflopTable{}
	var members [numClasses][]int
	for h := range comboCards {
		members[classOfCombo[h]] = append(members[classOfCombo[h]], h)
	}
	r := rand.New(rand.NewPCG(169, 1326))
	for i := range numClasses {
		t.eq[i][i] = 0.5
		for j := i + 1; j < numClasses; j++ {
			s := 0.0
			for range preflopSamples {
				s += showdownShare(r, members[i], members[j])
			}
			t.eq[i][j] = float32(s / preflopSamples)
			t.eq[j][i] = 1 - t.eq[i][j]
		}
	}
	t.rank(&members)
	return t
}

// showdownShare deals one hand of a and one of b without a common card and a board,
// and returns a's share of the pot.
func showdownShare(r *rand.Rand, a, b []int) float64 {
	var x, y [2]cards.Card
	for {
		x, y = comboCards[a[r.IntN(len(a))]], comboCards[b[r.IntN(len(b))]]
		if cards.SetOf(x[0], x[1])&cards.SetOf(y[0], y[1]) == 0 {
			break
		}
	}
	used := cards.SetOf(x[0], x[1], y[0], y[1])
	board := eval.Empty
	for n := 0; n < 5; {
		c := cards.Card(r.IntN(cards.NumCards))
		if !used.Has(c) {
			used, board = used.Add(c), board.Add(c)
			n++
		}
	}
	rx := board.Add(x[0]).Add(x[1]).Rank()
	ry := board.Add(y[0]).Add(y[1]).Rank()
	switch {
	case rx > ry:
		return 1
	case rx == ry:
		return 0.5
	}
	return 0
}

// rank fills q from each class's equity against a random hand.
func (t *preflopTable) rank(members *[numClasses][]int) {
	var vsRandom [numClasses]float64
	order := make([]int, numClasses)
	for i := range numClasses {
		order[i] = i
		for j := range numClasses {
			vsRandom[i] += float64(t.eq[i][j]) * float64(len(members[j])) / numCombos
		}
	}
	slices.SortFunc(order, func(a, b int) int { return -cmp.Compare(vsRandom[a], vsRandom[b]) })
	above := 0.0
	for _, i := range order {
		n := float64(len(members[i])) / numCombos
		t.q[i] = above + n/2
		above += n
	}
}

// equityVs returns each class's equity against the hands of belief b.
func (t *preflopTable) equityVs(b *belief) (out [numClasses]float64) {
	var w [numClasses]float64
	sum := 0.0
	for h, x := range b {
		w[classOfCombo[h]] += x
		sum += x
	}
	if sum == 0 {
		return out
	}
	for i := range numClasses {
		s := 0.0
		for j := range numClasses {
			s += w[j] * float64(t.eq[i][j])
		}
		out[i] = s / sum
	}
	return out
}

// ramp is the chance that a hand at place q (0 the best, 1 the worst) is inside a
// cut at edge: 1 well inside, 0 well outside, linear over a band of 0.04 so that
// ranges change smoothly.
func ramp(q, edge float64) float64 {
	return math.Min(1, math.Max(0, (edge-q)/0.04+0.5))
}

// pfSpot is a decision before the flop, as the chart sees it.
type pfSpot struct {
	role      int
	raises    int     // bets and raises so far (blinds not counted)
	toCall    int64   // chips to call
	pot       int64   // chips in the pot, this round's bets included
	effBB     float64 // the effective stack when the hand began, in big blinds
	allInNow  bool    // the opponent has nothing behind: only fold or call remain
	raiseTo   int64   // the chart's raise, or the whole stack
	jam       bool    // raiseTo is all-in
	canRaise  bool
	committed int64 // the player's bet in this round
}

// readPreflop describes the k-th action's spot of the preflop round.
func readPreflop(h *pubHistory, k int) pfSpot {
	st := &h.streets[0]
	bet, raises := st.betsBefore(k)
	role := roleSB
	if k%2 == 1 {
		role = roleBB
	}
	if k < len(st.acts) {
		role = st.acts[k].role
	}
	opp := 1 - role
	sp := pfSpot{role: role, raises: raises, toCall: max(0, bet[opp]-bet[role]), pot: bet[0] + bet[1],
		effBB: float64(st.effective()) / float64(h.bb), committed: bet[role]}
	mine, theirs := h.stacks[role], h.stacks[opp]
	sp.allInNow = bet[opp] >= theirs
	sp.canRaise = !sp.allInNow && bet[role]+sp.toCall < mine
	var to float64
	switch {
	case raises == 0 && role == roleSB:
		to = 2.5 * float64(h.bb)
		if sp.effBB <= 40 {
			to = 2 * float64(h.bb)
		}
	case raises == 0:
		to = 4 * float64(h.bb)
	case raises == 1:
		to = 3 * float64(bet[opp])
	case raises == 2:
		to = 2.3 * float64(bet[opp])
	default:
		to = math.Inf(1)
	}
	cap := min(mine, theirs)
	sp.raiseTo = int64(math.Min(to, float64(cap)))
	if float64(sp.raiseTo) >= 0.4*float64(cap) || sp.effBB <= 12 {
		sp.raiseTo, sp.jam = cap, true
	}
	return sp
}

// pfPlan returns the chart's probabilities for a hand of class c at sp: fold,
// check or call, raise to sp.raiseTo. eq is the class's equity against the
// opponent's range, used where only calling remains (against an all-in).
func pfPlan(t *preflopTable, sp pfSpot, c int, eq float64) (fold, call, raise float64) {
	q := t.q[c]
	price := float64(sp.toCall) / float64(sp.pot+sp.toCall)
	if sp.allInNow {
		call = 1 / (1 + math.Exp(-(eq-price)/0.015))
		return 1 - call, call, 0
	}
	var r, c2 float64 // raise and continue cuts
	switch {
	case sp.raises == 0 && sp.role == roleSB && sp.effBB <= 12:
		r, c2 = math.Min(0.95, math.Max(0.3, 0.9-0.032*sp.effBB)), 0
	case sp.raises == 0 && sp.role == roleSB:
		r, c2 = 0.8, 0
	case sp.raises == 0: // the big blind after a limp
		r, c2 = 0.25, 1
	case sp.raises == 1:
		r, c2 = 0.1, math.Min(0.9, math.Max(0.15, 1.25-2.2*price))
	case sp.raises == 2:
		r, c2 = 0.05, math.Min(0.6, math.Max(0.05, 1-2*price))
	default:
		r, c2 = 0.03, math.Min(0.3, math.Max(0.02, 0.7-2*price))
	}
	if !sp.canRaise {
		r = 0
	}
	raise = ramp(q, r)
	call = math.Max(0, ramp(q, c2)-raise)
	if sp.toCall == 0 {
		call = 1 - raise // checking is free
	}
	return math.Max(0, 1-call-raise), call, raise
}

// preflopActs turns the chart's three choices into the actions of the round.
func preflopActs(sp pfSpot) [3]engine.Action {
	call := engine.Action{Kind: engine.Call}
	if sp.toCall == 0 {
		call.Kind = engine.Check
	}
	raise := engine.Action{Kind: engine.Raise, Amount: sp.raiseTo}
	return [3]engine.Action{{Kind: engine.Fold}, call, raise}
}
