package bot

import (
	"math"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
)

// numCombos is the number of two-card Hold'em hands.
const numCombos = 1326

// comboCards lists the two-card hands, the higher card first (as equity.Combo has
// them); comboIndex finds a hand's index from its cards in either order.
var comboCards, comboIndex = listCombos()

func listCombos() (out [numCombos][2]cards.Card, idx [cards.NumCards][cards.NumCards]int16) {
	i := 0
	for a := cards.Card(1); a < cards.NumCards; a++ {
		for b := cards.Card(0); b < a; b++ {
			out[i] = [2]cards.Card{a, b}
			idx[a][b], idx[b][a] = int16(i), int16(i)
			i++
		}
	}
	return out, idx
}

// belief is a public range: a weight per two-card hand. It never depends on the
// cards of the player who keeps it, so one belief serves every hand LBR asks about.
type belief [numCombos]float64

// uniform returns the belief that gives every hand weight 1.
func uniform() belief {
	var b belief
	for i := range b {
		b[i] = 1
	}
	return b
}

// update multiplies each hand's weight by floor + (1-floor)·p(hand), the chance the
// player took the action seen with it (floor keeps hands a model may misjudge).
func (b *belief) update(p func(h int) float64, floor float64) {
	for h := range b {
		if b[h] > 0 {
			b[h] *= floor + (1-floor)*p(h)
		}
	}
	b.normalize()
}

// normalize scales the weights so that the largest is 1 (solver ranges take weights
// of 0 to 1) and drops those too small to matter. A belief that lost every hand
// becomes uniform again: the model was wrong, nothing is known.
func (b *belief) normalize() {
	top := 0.0
	for _, w := range b {
		top = max(top, w)
	}
	if !(top > 0) || math.IsInf(top, 0) {
		*b = uniform()
		return
	}
	for h := range b {
		b[h] /= top
		if b[h] < 1e-4 {
			b[h] = 0
		}
	}
}

// total returns the sum of the weights of the hands without a card of dead.
func (b *belief) total(dead cards.Set) float64 {
	s := 0.0
	for h, w := range b {
		if w > 0 && cards.SetOf(comboCards[h][0], comboCards[h][1])&dead == 0 {
			s += w
		}
	}
	return s
}

// solveCut is the least weight, relative to the heaviest hand, a hand needs to be
// part of a re-solve: lighter ones change little and cost as much.
const solveCut = 0.01

// rangeOf returns the belief as a solver range, without the hands that hold a card
// of dead or weigh less than solveCut; ok is false when no hand is left.
func (b *belief) rangeOf(dead cards.Set) (equity.Range, bool) {
	combos := make([]equity.Combo, 0, numCombos)
	for h, w := range b {
		c := comboCards[h]
		if w >= solveCut && cards.SetOf(c[0], c[1])&dead == 0 {
			combos = append(combos, equity.Combo{Cards: c, Weight: w})
		}
	}
	r, err := equity.RangeOf(combos)
	return r, err == nil
}
