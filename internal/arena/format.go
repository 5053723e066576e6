package arena

import (
	"fmt"
	"math"

	"github.com/felt-poker/felt/internal/engine"
)

// Format is how a match deals its hands. The zero Format is the arena's: every
// hand from stacks of 200 big blinds, the blinds fixed. Stack and DoubleEvery give
// seed 001's validation format (Seed001): bigger stacks and blinds that double as
// the match goes on. Stacks are reset every hand in both, so that every deal can
// be played twice with the seats swapped.
type Format struct {
	// Stack is the chips each seat starts every hand with (0: 200 units of the game).
	Stack int64
	// DoubleEvery doubles the blinds (the ante and raise sizes in stud) every that
	// many hands, counted in deal order (the two hands of a deal share a level);
	// 0 never does. The blinds stop doubling once the big blind would pass a
	// quarter of the stack, so that every hand starts at least 4 big blinds deep.
	DoubleEvery int
}

// Seed001 returns seed 001's validation format: stacks of 10,000 chips, the blinds
// doubling every n hands.
func Seed001(n int) Format { return Format{Stack: 10_000, DoubleEvery: n} }

// maxLevels bounds the blind levels: the blinds double at most maxLevels−1 times.
const maxLevels = 24

// Check reports a format the game cannot be dealt in.
func (f Format) Check(g Game) error {
	switch {
	case f.Stack < 0:
		return fmt.Errorf("stack %d is negative", f.Stack)
	case f.Stack > 0 && f.Stack < 4*g.Unit:
		return fmt.Errorf("stack %d is less than 4 big blinds (%d)", f.Stack, 4*g.Unit)
	case f.Stack > 1<<40:
		return fmt.Errorf("stack %d is too big", f.Stack)
	case f.DoubleEvery < 0:
		return fmt.Errorf("blinds doubling every %d hands", f.DoubleEvery)
	}
	return nil
}

// level returns the blind level of deal d: how many times the blinds have doubled.
func (f Format) level(g Game, d int) int {
	if f.DoubleEvery <= 0 {
		return 0
	}
	stack := f.stack(g)
	l := min(2*d/f.DoubleEvery, maxLevels-1)
	for l > 0 && 4*(g.Unit<<l) > stack {
		l--
	}
	return l
}

func (f Format) stack(g Game) int64 {
	if f.Stack > 0 {
		return f.Stack
	}
	return stack * g.Unit
}

// config returns the configuration of a hand of g at blind level l in f.
func (f Format) config(g Game, l int) engine.Config {
	c := g.handConfig()
	c.Stacks[0], c.Stacks[1] = f.stack(g), f.stack(g)
	c.SmallBlind <<= l
	c.BigBlind <<= l
	c.Ante <<= l
	c.SmallBet <<= l
	c.BigBet <<= l
	c.StudMaxRaise <<= l
	return c
}

// String describes the format for the figures it made.
func (f Format) String() string {
	s := "stacks of 200 big blinds"
	if f.Stack > 0 {
		s = fmt.Sprintf("stacks of %d chips", f.Stack)
	}
	s += " reset every hand"
	if f.DoubleEvery > 0 {
		return s + fmt.Sprintf(", blinds doubling every %d hands", f.DoubleEvery)
	}
	return s + ", blinds fixed"
}

// tally accumulates a match's results by blind level, as integers (chips), so
// that the total does not depend on the order deals finish in: the deal pairs'
// results and each hand's.
// With the control variate, cv holds the deal pairs' estimates in 1/cvScale chips.
type tally struct {
	pairs, hands, cv [maxLevels]sums
}

// chips returns A's net chips over the match.
func (t *tally) chips() int64 {
	var c int64
	for l := range t.pairs {
		c += t.pairs[l].sum
	}
	return c
}

// perUnit returns the count, sum and sum of squares of s's results over levels,
// each result counted in big blinds of its level (unit chips at level 0).
func perUnit(s *[maxLevels]sums, unit int64) (n, sum, sumSq float64) {
	for l := range s {
		u := float64(unit << l)
		n += float64(s[l].n)
		sum += float64(s[l].sum) / u
		sumSq += float64(s[l].sumSq) / (u * u)
	}
	return n, sum, sumSq
}

// rate returns A's mean result per hand in big blinds times scale (bb/100: 100),
// and the half-width of its 95% interval from the deal pairs' variance.
func (t *tally) rate(unit int64, scale float64) (mean, ci float64) {
	return pairRate(perUnit(&t.pairs, unit))(scale)
}

// spread returns A's mean result per hand in big blinds and the standard
// deviation of a hand's result (the spread seed 001 reports).
func (t *tally) spread(unit int64) (mean, sd float64) {
	n, sum, sumSq := perUnit(&t.hands, unit)
	if n < 2 {
		return 0, 0
	}
	mean = sum / n
	return mean, math.Sqrt(max((sumSq-sum*mean)/(n-1), 0))
}
