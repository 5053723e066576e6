package arena

import (
	"fmt"
	"math"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/equity"
)

// ControlVariate lowers the variance of a heads-up Hold'em result without
// changing its mean: an AIVAT-style estimator (Burch, Schmid, Moravčík, Morrill
// and Bowling, "AIVAT: A New Variance Reduction Technique for Agent Evaluation
// in Imperfect Information Games", 2018) with a hand-made value function.
//
// The value of a state to player A is its check-down value: every card known,
// the bets as they stand called (up to the shorter stack) and the board dealt
// out, (2e−1)·M, where e is A's exact equity (ties half) and M the chips each
// player would then have put in; a hand ended by a fold is worth its result.
// The estimate of a hand is A's net chips minus a correction for each event
// whose distribution is known:
//   - each deal of cards (the hole cards, and the board cards of each street):
//     the value after it minus its expectation over every deal that could have
//     come. The hole cards' expectation is 0 (the game is symmetric and the
//     blinds are called); a board card's is the value before it, since the pot
//     does not change and the equity before a card is the mean of the equities
//     after it;
//   - each decision of a bot that states its strategy (bot.Strategist): the value
//     after the action taken minus the mean of the values after each action,
//     weighted by the strategy's probabilities.
//
// Every correction has mean zero given what came before it, whatever the value
// function, so the estimate stays unbiased; it is close to the result when the
// value function is good, so it removes the luck of the cards (an all-in before
// the river counts at its equity) and of the strategists' dice.
//
// A ControlVariate serves one worker: Begin a hand after engine.Hand.Reset, call
// Decision for each action before it is applied and Dealt after, then read
// Correction.
type ControlVariate struct {
	seatA  int
	in     [2]int64 // the chips each seat has put in
	cap    [2]int64 // the chips each seat started with
	eq     float64  // A's equity at the current board
	nBoard int      // the board eq is for
	corr   float64  // the corrections so far, in chips for A
	probs  []bot.ActionProb
	cache  map[eqKey]float64
}

// eqKey names an equity: A's cards, B's cards and the board.
type eqKey struct{ a, b, board cards.Set }

// maxCached bounds the equities a ControlVariate remembers (a deal's two hands
// share theirs, with the seats swapped).
const maxCached = 64

// CheckControlVariate reports a game the control variate cannot value.
func CheckControlVariate(g Game) error {
	if g.Config.Variant != engine.Holdem {
		return fmt.Errorf("the control variate values heads-up Hold'em only, not %v", g.Config.Variant)
	}
	return nil
}

// Begin starts a heads-up hand just dealt, valued for the player in seatA: the
// hole cards' correction.
func (c *ControlVariate) Begin(h *engine.Hand, seatA int) error {
	c.seatA, c.nBoard = seatA, len(h.Board())
	for i := range 2 {
		c.in[i] = -h.Net(i)
		c.cap[i] = h.Stack(i) + c.in[i]
	}
	if err := c.setEquity(h); err != nil {
		return err
	}
	c.corr = c.value(-1, 0)
	return nil
}

// Decision records action a of the seat to act (l is what was legal), about to be
// applied, and adds its correction when b states its strategy at v, the seat's
// view of the decision (b may be nil: a player that does not).
func (c *ControlVariate) Decision(l engine.Legal, a engine.Action, b bot.Bot, v *engine.View) {
	defer func() { c.in[l.Seat] += added(l, a) }()
	s, ok := b.(bot.Strategist)
	if !ok {
		return
	}
	if c.probs, ok = s.Strategy(v, c.probs); !ok {
		return
	}
	found, taken, mean := false, 0.0, 0.0
	for _, p := range c.probs {
		x := c.after(l, p.Action)
		mean += p.Prob * x
		if same(p.Action, a) {
			found, taken = true, x
		}
	}
	if found { // else the strategy did not hold the action taken: no correction
		c.corr += taken - mean
	}
}

// added returns the chips action a puts in.
func added(l engine.Legal, a engine.Action) int64 {
	switch a.Kind {
	case engine.Call:
		return l.CallAmount
	case engine.Bet, engine.Raise:
		return a.Amount - l.Committed
	}
	return 0
}

// same reports whether two actions are the same decision.
func same(a, b engine.Action) bool {
	if a.Kind != b.Kind {
		return false
	}
	return (a.Kind != engine.Bet && a.Kind != engine.Raise) || a.Amount == b.Amount
}

// Dealt adds the correction of the board cards the action just applied dealt.
func (c *ControlVariate) Dealt(h *engine.Hand) error {
	if len(h.Board()) == c.nBoard {
		return nil
	}
	before := c.value(-1, 0)
	c.nBoard = len(h.Board())
	if err := c.setEquity(h); err != nil {
		return err
	}
	c.corr += c.value(-1, 0) - before
	return nil
}

// Correction returns the sum of the hand's corrections, in chips for A: the
// estimate is A's net chips minus it.
func (c *ControlVariate) Correction() float64 { return c.corr }

// after returns the value to A after the seat to act takes action a.
func (c *ControlVariate) after(l engine.Legal, a engine.Action) float64 {
	if a.Kind == engine.Fold {
		if l.Seat == c.seatA {
			return float64(-c.in[c.seatA])
		}
		return float64(c.in[1-c.seatA])
	}
	return c.value(l.Seat, added(l, a))
}

// value returns the check-down value to A of the hand as it stands, seat (−1:
// nobody) having first put in chips more.
func (c *ControlVariate) value(seat int, chips int64) float64 {
	in := c.in
	if seat >= 0 {
		in[seat] += chips
	}
	m := min(max(in[0], in[1]), c.cap[0], c.cap[1])
	return (2*c.eq - 1) * float64(m)
}

// setEquity sets c.eq to A's exact equity against the other seat's cards on the
// current board.
func (c *ControlVariate) setEquity(h *engine.Hand) error {
	a, b := h.Cards(c.seatA), h.Cards(1-c.seatA)
	key := eqKey{cards.SetOf(a...), cards.SetOf(b...), cards.SetOf(h.Board()...)}
	if e, ok := c.cache[key]; ok {
		c.eq = e
		return nil
	}
	if e, ok := c.cache[eqKey{key.b, key.a, key.board}]; ok {
		c.eq = 1 - e
		return nil
	}
	e, err := exactEquity(a, b, h.Board())
	if err != nil {
		return fmt.Errorf("control variate: %w", err)
	}
	if c.cache == nil || len(c.cache) >= maxCached {
		c.cache = make(map[eqKey]float64, maxCached)
	}
	c.eq, c.cache[key] = e, e
	return nil
}

// exactEquity returns hand a's exact equity against hand b on board, ties half.
func exactEquity(a, b, board []cards.Card) (float64, error) {
	var ranges [2]equity.Range
	for k, cs := range [][]cards.Card{a, b} {
		r, err := equity.ParseRange(cards.Format(cs))
		if err != nil {
			return 0, err
		}
		ranges[k] = r
	}
	res, err := equity.Calculate(ranges[:], board, nil, equity.Options{Method: equity.Exact, Workers: 1})
	if err != nil {
		return 0, err
	}
	return res.Players[0].Equity, nil
}

// cvScale is the fixed point of the control variate's sums: estimates are
// rounded to 1/16 chip, so that sums are integers and do not depend on the
// order deals finish in (a deal pair's square stays far below 2⁶³ for millions
// of deals).
const cvScale = 16

// CVRate is a win rate estimated with the control variate.
type CVRate struct {
	// BBPer100 and CI95, MBBPerGame and MBBCI95 are as in Result.
	BBPer100, CI95, MBBPerGame, MBBCI95 float64
	// Narrowing is the plain interval's half-width over this one's (2: half as
	// wide, which would take four times the hands without it; 1 when both are 0).
	Narrowing float64
}

// cvRate returns the control variate's rate, plainCI the plain bb/100
// half-width.
func (t *tally) cvRate(unit int64, plainCI float64) *CVRate {
	return newCVRate(pairRate(perUnit(&t.cv, unit*cvScale)), plainCI)
}

func newCVRate(rate func(scale float64) (float64, float64), plainCI float64) *CVRate {
	var r CVRate
	r.BBPer100, r.CI95 = rate(100)
	r.MBBPerGame, r.MBBCI95 = rate(1000)
	switch {
	case r.CI95 > 0:
		r.Narrowing = plainCI / r.CI95
	case plainCI == 0:
		r.Narrowing = 1 // nothing to narrow
	}
	return &r
}

// cvFixed returns a deal pair's estimate, net chips x less the corrections corr,
// in the fixed point of the sums.
func cvFixed(x int64, corr float64) int64 {
	return int64(math.Round(cvScale * (float64(x) - corr)))
}

// CVPair returns the stats of one deal pair's estimate with the control variate,
// net chips x less the corrections corr, for tools that play their own matches:
// add them up and read them with CVRate.
func CVPair(x int64, corr float64) PairStats {
	y := cvFixed(x, corr)
	return PairStats{1, y, y * y}
}

// CVRate reads the sums of CVPair: the estimate, plainCI being the plain
// bb/100 half-width.
func (s PairStats) CVRate(unit int64, plainCI float64) *CVRate {
	u := float64(unit * cvScale)
	return newCVRate(pairRate(float64(s.N), float64(s.Sum)/u, float64(s.SumSq)/(u*u)), plainCI)
}

// String writes the estimate as reports show it beside the plain one.
func (r CVRate) String() string {
	return fmt.Sprintf("%+.1f ± %.1f bb/100 (%+.0f ± %.0f mbb/g)", r.BBPer100, r.CI95, r.MBBPerGame, r.MBBCI95)
}
