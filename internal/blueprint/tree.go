// Package blueprint trains and serves felt's heads-up no-limit Hold'em blueprint:
// an external-sampling MCCFR strategy (internal/cfr's HoldemSolver on a no-limit
// betting tree) in a card abstraction of the 169 starting hands and 50 buckets on
// each later round, trained at several stack depths, stored compressed and built
// into the binary. The resolve bot plays its preflop and flop from it and updates
// its beliefs by it; docs/bots.md says how it was trained and how to rebuild it.
package blueprint

import (
	"fmt"

	"github.com/felt-poker/felt/internal/cfr"
)

// DefaultDepths are the stack depths, in big blinds, the shipped blueprint is
// trained at.
var DefaultDepths = []int{20, 50, 100, 200}

// Tree returns the betting abstraction at a stack depth of bb big blinds, in
// chips of one small blind (cfr's unit):
//
//   - preflop: the first raise to 2.5 or 5 big blinds (0.75 or 2 pots after the
//     call), later raises of a pot (a 3-bet to three times the raise), at most
//     three raises before only all-in remains;
//   - flop: bets of a third and three quarters of the pot, a pot-sized raise, two
//     bets and raises;
//   - turn: a bet of two thirds of the pot; river: three quarters; one bet each
//     (these rounds are re-solved in play, the blueprint's only shape what comes
//     before them);
//   - all-in always, and instead of any size that would put in 80% of the stack.
func Tree(bb int) cfr.NoLimitTree {
	return cfr.NoLimitTree{Stack: 2 * bb, Rounds: [4]cfr.NoLimitRound{
		{Open: []float64{0.5, 0.75, 1.25}, Raise: []float64{0.7, 1.2}, Cap: 4},
		{Open: []float64{0.33, 0.66, 1}, Raise: []float64{0.7, 1.2}, Cap: 3},
		{Open: []float64{0.66}, Raise: []float64{1}, Cap: 2},
		{Open: []float64{0.75}, Raise: []float64{1}, Cap: 1},
	}}
}

// AbstractionConfig is the card abstraction of the shipped blueprint: cfr's
// default (169 starting hands; 50 flop and 50 turn buckets by k-means on equity
// histograms under the earth mover's distance; 50 river buckets by hand strength).
func AbstractionConfig() cfr.AbstractionConfig { return cfr.DefaultAbstractionConfig() }

// TreeStats counts a tree's decision nodes per round.
func TreeStats(bb int) ([4]int, error) {
	g, err := cfr.NewNoLimitGame([4]int{1, 1, 1, 1}, Tree(bb))
	if err != nil {
		return [4]int{}, fmt.Errorf("blueprint: %w", err)
	}
	var n [4]int
	for i := range int32(g.NumNodes()) {
		if nd := g.Node(i); nd.Player >= 0 {
			n[nd.Round]++
		}
	}
	return n, nil
}
