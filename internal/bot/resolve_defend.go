package bot

import (
	"cmp"
	"slices"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// defendSlack is how far above the bound of the minimum defence (the opponent's
// bet or raise over the pot after it) the share of the bot's range that folds on
// the flop may be before defend moves folds to calls.
const defendSlack = 0.02

// defendOn turns defend on (a test measures the blueprint without it).
var defendOn = true

// defend keeps the bot's range, facing a bet or raise, from folding more than the
// minimum defence frequency allows: when plan p folds a larger share of the
// bot's range (bel[me], weighted) than the opponent's chips of its last action
// over the pot after it, plus defendSlack, the folds of the hands with the best
// equity against the opponent's range turn into calls until it does not. The
// bot applies it to the blueprint's plans (before the flop and on it) and to the
// river's re-solved ones. The briefly trained blueprint folds a third to a half
// more than that facing a bet on the flop, which a bettor with any two cards (a
// local best response) wins from (docs/bots.md, resolve); before the flop a
// raise smaller than the tree's smallest is mapped to it (a min-raise war's
// third raise to a raise of 0.7 pots), and the bot folded to it as to that
// raise; a river re-solve of 60 iterations folded up to 0.09 of the range more
// than the bound. Before that, every hand whose equity is priceCall times the
// price calls. It changes p in place; the bot's beliefs about its own range
// follow.
func defend(p *plan, st *pubStreet, k, me int, bel *[2]belief) {
	if !defendOn {
		return
	}
	fold, call := slices.IndexFunc(p.acts, func(a engine.Action) bool { return a.Kind == engine.Fold }),
		slices.IndexFunc(p.acts, func(a engine.Action) bool { return a.Kind == engine.Call })
	bet, _ := st.betsBefore(k)
	owed := bet[1-me] - bet[me]
	if k == 0 || fold < 0 || call < 0 || owed <= 0 {
		return
	}
	most := st.foldBound(k, me)
	var dead cards.Set
	for _, c := range st.board {
		dead = dead.Add(c)
	}
	var hands []int
	total, folded := 0.0, 0.0
	for x, c := range comboCards {
		if w := bel[me][x]; w > 0 && p.probs[x] != nil && cards.SetOf(c[0], c[1])&dead == 0 {
			hands = append(hands, x)
			total += w
			folded += w * p.probs[x][fold]
		}
	}
	if total <= 0 || folded <= 0 {
		return
	}
	eq := handEquity(st.board, bel, me)
	price := float64(owed) / float64(st.potWith(bet)+owed)
	for _, x := range hands {
		if q := p.probs[x]; q[fold] > 0 && eq[x] >= priceCall*price {
			folded -= bel[me][x] * q[fold]
			p.probs[x] = foldToCall(q, fold, call, q[fold])
		}
	}
	if folded <= (most+defendSlack)*total {
		return
	}
	slices.SortFunc(hands, func(x, y int) int { return -cmp.Compare(eq[x], eq[y]) })
	excess := folded - most*total
	for _, x := range hands {
		if excess <= 0 {
			break
		}
		move := min(p.probs[x][fold], excess/bel[me][x])
		p.probs[x] = foldToCall(p.probs[x], fold, call, move)
		excess -= move * bel[me][x]
	}
}

// priceCall is how many times the price (the call over the pot after it) a
// hand's equity against the opponent's range must be for defend and a plan
// without a strategy to call whatever else they say: more than once, as the
// range that bets or raises is stronger than the one believed (the opponent's
// belief floor, a range before his bet). It matters where the price is small: a
// bet the tree maps to a larger one, an all-in for a few chips more, which the
// bot folded a third of its range to (20 chips to call into 1,200 on the flop).
// 1.75 was measured (TestResolvePriceCallReport, docs/bots.md): over the
// probe's spots where a call ends the betting, answered by defend and without a
// strategy, it makes the largest of what the bot's answers lose against a bettor
// of the best third of his believed range (pure value) and one of the worst
// third (pure bluffs) least: 0.49 of a pot, summed over the spots, where 2, the
// first guess, lost 0.60 to the bluffs without a strategy and 1.5 lost 0.53 to
// the value. A variable so that the report can try others.
var priceCall = 1.75

// foldToCall returns q with move of its fold (index fold) moved to its call.
func foldToCall(q []float64, fold, call int, move float64) []float64 {
	q = slices.Clone(q)
	q[fold] -= move
	q[call] += move
	return q
}

// handEquity returns each hand's equity against the opponent's range in bel
// (the bot in role me): before the flop its class's (the preflop table's class
// against class equities), after it over rangeEquity's runouts.
func handEquity(board []cards.Card, bel *[2]belief, me int) *[numCombos]float64 {
	if len(board) > 0 {
		return rangeEquity(board, &bel[me], &bel[1-me])
	}
	byClass := preflopOnce().equityVs(&bel[1-me])
	out := new([numCombos]float64)
	for x := range out {
		out[x] = byClass[classOfCombo[x]]
	}
	return out
}
