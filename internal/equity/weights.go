package equity

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/felt-poker/felt/internal/cards"
)

// NumCombos is the number of two-card hands: the length of a weight list.
const NumCombos = cards.NumCards * (cards.NumCards - 1) / 2

// ComboIndex returns the position of the hand a, b in a weight list: hands ordered by
// their higher card, then their lower card, cards indexed 2c 2d 2h 2s 3c … As
// (2d2c, 2h2c, 2h2d, 2s2c, 2s2d, 2s2h, 3c2c, …, AsAh).
func ComboIndex(a, b cards.Card) int {
	if a < b {
		a, b = b, a
	}
	return int(a)*(int(a)-1)/2 + int(b)
}

// RangeFromWeights builds a range from 1,326 weights, one per hand in ComboIndex order,
// each from 0 to 1 (0: not held).
func RangeFromWeights(w []float64) (Range, error) {
	if len(w) != NumCombos {
		return Range{}, fmt.Errorf("%w: %d weights, want one per hand: %d", ErrBadRange, len(w), NumCombos)
	}
	var r Range
	for hi := cards.NumCards - 1; hi >= 0; hi-- {
		for lo := hi - 1; lo >= 0; lo-- {
			i := ComboIndex(cards.Card(hi), cards.Card(lo))
			v := w[i]
			if !(v >= 0 && v <= 1) {
				return Range{}, fmt.Errorf("%w: weight %d (%s%s) is %v: want 0 to 1", ErrBadRange, i+1, cards.Card(hi), cards.Card(lo), v)
			}
			if v > 0 {
				r.combos = append(r.combos, Combo{Cards: [2]cards.Card{cards.Card(hi), cards.Card(lo)}, Weight: v})
			}
		}
	}
	if len(r.combos) == 0 {
		return Range{}, fmt.Errorf("%w: every one of the %d weights is 0", ErrBadRange, NumCombos)
	}
	r.text = fmt.Sprintf("%d weights", NumCombos)
	return r, nil
}

// ParseWeights reads 1,326 weights separated by spaces, commas or line breaks (see
// RangeFromWeights); lines starting with # are comments.
func ParseWeights(s string) (Range, error) {
	var w []float64
	for no, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, f := range strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' }) {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil || math.IsNaN(v) {
				return Range{}, fmt.Errorf("%w: line %d: %q is not a weight", ErrBadRange, no+1, f)
			}
			if len(w) == NumCombos {
				return Range{}, fmt.Errorf("%w: more than %d weights", ErrBadRange, NumCombos)
			}
			w = append(w, v)
		}
	}
	return RangeFromWeights(w)
}
