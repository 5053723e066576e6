package lbr

import (
	"math/rand/v2"
	"slices"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/eval"
)

// NumCombos is the number of two-card Hold'em hands.
const NumCombos = 52 * 51 / 2

// combos[i] is the i-th two-card hand, lower card first; comboSet[i] its cards as
// a set. Built once, never changed.
var combos, comboSet = buildCombos()

func buildCombos() (cs [NumCombos][2]cards.Card, sets [NumCombos]cards.Set) {
	i := 0
	for a := cards.Card(0); a < cards.NumCards; a++ {
		for b := a + 1; b < cards.NumCards; b++ {
			cs[i], sets[i] = [2]cards.Card{a, b}, cards.SetOf(a, b)
			i++
		}
	}
	return cs, sets
}

// Range is the weight LBR gives each two-card hand of the bot: its prior (1 for
// every hand that does not hold a card LBR sees) times the probability, for each
// action the bot took, that it takes that action with that hand (Bayes' rule,
// unnormalised).
type Range [NumCombos]float64

// Reset gives weight 1 to every hand without a card of dead, 0 to the others.
func (r *Range) Reset(dead cards.Set) {
	for i := range r {
		r[i] = 1
		if comboSet[i]&dead != 0 {
			r[i] = 0
		}
	}
}

// Remove gives weight 0 to the hands holding a card of dead (a board card dealt).
func (r *Range) Remove(dead cards.Set) {
	for i := range r {
		if comboSet[i]&dead != 0 {
			r[i] = 0
		}
	}
}

// Total is the sum of the weights.
func (r *Range) Total() float64 {
	t := 0.0
	for _, w := range r {
		t += w
	}
	return t
}

// Update multiplies each weight by like(i), the likelihood of what the bot did
// with hand i. When no hand with weight keeps any (the bot did something the
// model gives no hand: a sampled estimate that missed), the range is left as it
// was and Update reports false.
func (r *Range) Update(like func(i int) float64) bool {
	next := *r
	total := 0.0
	for i, w := range r {
		if w > 0 {
			next[i] = w * like(i)
			total += next[i]
		}
	}
	if total <= 0 {
		return false
	}
	*r = next
	return true
}

// Equity returns the share of the pot hand wins, ties counting half, against
// a hand drawn from r, when the board is completed at random and nobody folds.
// It enumerates every runout on the turn and the river, and samples runouts
// (hand and remaining board) on the flop and before it. r must give no weight
// to a hand holding one of hand's or board's cards. It returns 0.5 for an empty
// range.
func Equity(hand [2]cards.Card, board []cards.Card, r *Range, rng *rand.Rand, runouts int) float64 {
	switch len(board) {
	case 5:
		b := eval.HandOf(board...)
		return showdown(b.Add(hand[0]).Add(hand[1]).Rank(), b, r, 0)
	case 4:
		dead := cards.SetOf(board...).Add(hand[0]).Add(hand[1])
		b := eval.HandOf(board...)
		var num, den float64
		for c := cards.Card(0); c < cards.NumCards; c++ {
			if dead.Has(c) {
				continue
			}
			bc := b.Add(c)
			eq := showdown(bc.Add(hand[0]).Add(hand[1]).Rank(), bc, r, cards.SetOf(c))
			w := r.totalWithout(cards.SetOf(c))
			num += eq * w
			den += w
		}
		if den == 0 {
			return 0.5
		}
		return num / den
	}
	return sampledEquity(hand, board, r, rng, runouts)
}

// showdown returns the share mine wins against the hands of r on the complete
// board b, leaving out the hands that hold a card of also.
func showdown(mine eval.Rank, b eval.Hand, r *Range, also cards.Set) float64 {
	var won, total float64
	for i, w := range r {
		if w == 0 || comboSet[i]&also != 0 {
			continue
		}
		theirs := b.Add(combos[i][0]).Add(combos[i][1]).Rank()
		switch {
		case mine > theirs:
			won += w
		case mine == theirs:
			won += w / 2
		}
		total += w
	}
	if total == 0 {
		return 0.5
	}
	return won / total
}

// totalWithout is the weight of the hands that hold no card of dead.
func (r *Range) totalWithout(dead cards.Set) float64 {
	t := 0.0
	for i, w := range r {
		if w > 0 && comboSet[i]&dead == 0 {
			t += w
		}
	}
	return t
}

// sampledEquity estimates Equity with runouts draws of a hand from r (by
// weight) and the rest of the board.
func sampledEquity(hand [2]cards.Card, board []cards.Card, r *Range, rng *rand.Rand, runouts int) float64 {
	cum := make([]float64, NumCombos)
	t := 0.0
	for i, w := range r {
		t += w
		cum[i] = t
	}
	if t == 0 {
		return 0.5
	}
	known := cards.SetOf(board...).Add(hand[0]).Add(hand[1])
	b0 := eval.HandOf(board...)
	var deck [cards.NumCards]cards.Card
	score := 0.0
	for range runouts {
		i, _ := slices.BinarySearch(cum, rng.Float64()*t)
		i = min(i, NumCombos-1)
		for r[i] == 0 { // a float tie at a zero weight: take the next hand that has weight
			i = (i + 1) % NumCombos
		}
		used := known | comboSet[i]
		n := 0
		for c := cards.Card(0); c < cards.NumCards; c++ {
			if !used.Has(c) {
				deck[n] = c
				n++
			}
		}
		b := b0
		for k := len(board); k < 5; k++ { // partial Fisher-Yates
			j := k - len(board) + rng.IntN(n-(k-len(board)))
			deck[k-len(board)], deck[j] = deck[j], deck[k-len(board)]
			b = b.Add(deck[k-len(board)])
		}
		mine := b.Add(hand[0]).Add(hand[1]).Rank()
		theirs := b.Add(combos[i][0]).Add(combos[i][1]).Rank()
		switch {
		case mine > theirs:
			score++
		case mine == theirs:
			score += 0.5
		}
	}
	return score / float64(runouts)
}
