package bot

import (
	"maps"
	"slices"
	"testing"

	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/solver"
)

// turnCardLine deals a 200-big-blind hand (blinds 50/100) whose board is
// 3d Jc 2c, turn, 9s, the small blind (seat 0, the bot) holding AhKd against
// 8s8c, plays the preflop and flop (a raise called, checks) and then the actions
// of more, and returns the bot's view.
func turnCardLine(t *testing.T, turn string, more ...string) engine.View {
	t.Helper()
	h := dealt(t, "AhKd", "8s8c", "3dJc2c"+turn+"9s", engine.Config{Stacks: []int64{20000, 20000}, SmallBlind: 50, BigBlind: 100})
	play(t, h, append([]string{"r350", "c", "k", "k"}, more...)...)
	if h.ToAct() != 0 {
		t.Fatalf("turn %s, %v: seat %d to act, not the bot's", turn, more, h.ToAct())
	}
	return h.View(0)
}

// planOf returns the bot's plan at v (every hand's probabilities), asking
// Strategy first.
func planOf(t *testing.T, b *resolveBot, v engine.View) map[int][]float64 {
	t.Helper()
	if _, ok := b.Strategy(&v, nil); !ok {
		t.Fatal("no strategy")
	}
	h, _ := readHistory(&v)
	p := b.cache[h.key]
	if p == nil {
		t.Fatalf("no plan at %q", h.key)
	}
	return p.probs
}

// TestResolveTurnCardsShareNothing: two histories that differ only in the turn
// card (5h or 6h) share no re-solve, bound or beliefs. Asked about the 5h's turn
// first, the bot plans the 6h's turn (with its round's first re-solve, unbounded),
// and walks the 6h's turn to its river, as a bot that never saw the 5h does.
// Before, a round's start was named without its new card: the 6h's turn
// re-solve was bounded by the opponent's values at the 5h's (recorded by its
// first re-solve), so that its plan differed from the one alone, and the
// 6h's river's beliefs came from the kept re-solve of the 5h's turn.
func TestResolveTurnCardsShareNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("re-solves the turn five times")
	}
	fresh := newTestResolve(t, 1)
	want := planOf(t, fresh, turnCardLine(t, "6h", "k"))
	wantRiver := planOf(t, fresh, turnCardLine(t, "6h", "k", "k", "k"))

	b := newTestResolve(t, 1)
	planOf(t, b, turnCardLine(t, "5h", "k"))
	bounded := false
	b.beforeSolve = func(s *solver.Solver) { bounded = bounded || s.Spot().Bound != nil }
	if got := planOf(t, b, turnCardLine(t, "6h", "k")); !samePlan(got, want) || bounded {
		t.Errorf("the 6h's turn, asked after the 5h's: planned as alone %v, its re-solve bounded %v; want true, false (its first)",
			samePlan(got, want), bounded)
	}

	b = newTestResolve(t, 1)
	planOf(t, b, turnCardLine(t, "5h", "k"))
	if got := planOf(t, b, turnCardLine(t, "6h", "k", "k", "k")); !samePlan(got, wantRiver) {
		t.Error("the 6h's river, asked after the 5h's turn, is not planned as alone")
	}
}

// samePlan reports whether two plans give every hand the same probabilities,
// bit for bit.
func samePlan(a, b map[int][]float64) bool {
	return maps.EqualFunc(a, b, func(x, y []float64) bool { return slices.Equal(x, y) })
}
