package bot

import (
	"math/rand/v2"

	"github.com/felt-poker/felt/internal/engine"
)

// monteCarloBot simulates its equity against the opponents still in (random hidden
// cards, the rest of the board or the stud up cards dealt at random) and decides by
// the rate of return, after Billings et al.'s Poki: RR is the equity over the pot
// odds (the share of the pot a call must win to break even), or, with nothing to
// call, the equity over the fair share 1/(players in). RR is mapped to fold, call or
// raise probabilities (rrTable), raising when weak being a bluff; bluffs can be
// turned off. A fold with nothing to call is a check.
type monteCarloBot struct {
	r       *rand.Rand
	samples int
	bluff   bool
	sim     simulator
	s       situation
}

func newMonteCarlo(o Options) *monteCarloBot {
	return &monteCarloBot{r: o.Rand, samples: o.Samples, bluff: !o.NoBluff}
}

// rrRow gives, for a rate of return below upTo, the chances (in percent) to fold
// and to call; the rest is the chance to raise.
type rrRow struct {
	upTo       float64
	fold, call int
}

// rrTable is Poki's mapping from rate of return to a randomised action.
var rrTable = [...]rrRow{
	{0.7, 95, 0},   // weak: fold, bluff 5%
	{1.0, 80, 5},   // marginal: mostly fold, bluff 15%
	{1.3, 0, 60},   // a little better than break-even: call, raise 40%
	{1e300, 0, 30}, // strong: raise 70%
}

// Act simulates, computes the rate of return and draws the action.
func (b *monteCarloBot) Act(v *engine.View) engine.Action {
	b.s.read(v)
	eq := b.sim.equityVsRange(b.r, v, &b.s, b.samples)
	rr := rateOfReturn(eq, &b.s)
	row := rrTable[len(rrTable)-1]
	for _, x := range rrTable {
		if rr < x.upTo {
			row = x
			break
		}
	}
	fold, call := row.fold, row.call
	war := facingRaise(v)
	switch {
	case row.fold > 0 && (!b.bluff || war):
		fold = 100 - call // bluff raises become folds; no bluff into a raise
	case war && rr < warRR:
		call = 100 - fold // re-raise a raise of its own bet only when far ahead
	}
	l := v.Legal
	switch x := b.r.IntN(100); {
	case x < fold:
		return checkOrFold(l)
	case x < fold+call:
		return checkOrCall(l)
	case rr >= 2:
		return raiseTo(l, potRaise(l, b.s.pot, 1, 1))
	}
	return raiseTo(l, potRaise(l, b.s.pot, 2, 3))
}

// warRR is the rate of return the Monte Carlo bot needs to raise again when its
// own bet or raise has been raised: below it, it calls or folds by the table.
const warRR = 2

// facingRaise reports whether an opponent has bet or raised on this street after
// the viewer put chips in voluntarily: a bet that answers the viewer's own, which
// a bluff does not fold.
func facingRaise(v *engine.View) bool {
	in, raised := false, false
	for i := range v.Events {
		e := &v.Events[i]
		if e.Street != v.Street {
			continue
		}
		switch {
		case int(e.Seat) == v.Viewer && (e.Kind == engine.EvCall || e.Kind == engine.EvBet || e.Kind == engine.EvRaise):
			in, raised = true, false
		case int(e.Seat) != v.Viewer && in && (e.Kind == engine.EvBet || e.Kind == engine.EvRaise):
			raised = true
		}
	}
	return raised
}

// rateOfReturn is the equity over the pot odds, or over the fair share of the pot
// when there is nothing to call.
func rateOfReturn(eq float64, s *situation) float64 {
	if s.toCall == 0 {
		return eq * float64(s.opps+1)
	}
	return eq / s.potOdds
}
