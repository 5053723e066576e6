package bot

import (
	"math"
	"math/rand/v2"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/eval"
)

// Strength is a Hold'em hand's strength and potential against one random hand,
// after Billings, Papp, Schaeffer and Szafron ("Opponent modeling in poker", 1998).
type Strength struct {
	// HS is the chance of being ahead now: (ahead + tied/2) / all opponent hands.
	HS float64
	// PPot is the chance that a hand behind (or tied) now pulls ahead with the next
	// card, NPot that a hand ahead (or tied) falls behind; both are 0 on the river.
	PPot, NPot float64
}

// Effective returns the effective hand strength against opps opponents:
// HSⁿ·(1−NPot) + (1−HSⁿ)·PPot, where HSⁿ = HS^opps is the chance of being ahead of
// all of them.
func (s Strength) Effective(opps int) float64 {
	hs := math.Pow(s.HS, float64(max(opps, 1)))
	return hs*(1-s.NPot) + (1-hs)*s.PPot
}

// HandStrength enumerates every opponent hand (and, before the river, every next
// card) to compute hole's strength and one-card potential on board (3, 4 or 5
// cards, none shared with hole). PPot and NPot look one card ahead: on the flop they
// are the turn card's potential, as Billings et al.'s Loki computed it during play.
// It does not allocate.
func HandStrength(hole [2]cards.Card, board []cards.Card) Strength {
	known := cards.SetOf(hole[0], hole[1])
	b := eval.Empty
	for _, c := range board {
		known = known.Add(c)
		b = b.Add(c)
	}
	var rest [cards.NumCards]cards.Card
	n := 0
	for c := cards.Card(0); c < cards.NumCards; c++ {
		if !known.Has(c) {
			rest[n] = c
			n++
		}
	}
	mine := b.Add(hole[0]).Add(hole[1])
	ours := mine.Rank()
	lookAhead := len(board) < 5
	var oursNext [cards.NumCards]eval.Rank
	if lookAhead {
		for k := 0; k < n; k++ {
			oursNext[k] = mine.Add(rest[k]).Rank()
		}
	}
	const ahead, tied, behind = 0, 1, 2
	compare := func(a, b eval.Rank) int {
		switch {
		case a > b:
			return ahead
		case a == b:
			return tied
		}
		return behind
	}
	var now [3]float64
	var hp [3][3]float64   // [now][after the next card]
	var hpTotal [3]float64 // cases counted in hp, by the state now
	for i := 0; i < n; i++ {
		bi := b.Add(rest[i])
		for j := i + 1; j < n; j++ {
			opp := bi.Add(rest[j])
			idx := compare(ours, opp.Rank())
			now[idx]++
			if !lookAhead {
				continue
			}
			for k := 0; k < n; k++ {
				if k == i || k == j {
					continue
				}
				hp[idx][compare(oursNext[k], opp.Add(rest[k]).Rank())]++
				hpTotal[idx]++
			}
		}
	}
	s := Strength{HS: (now[ahead] + now[tied]/2) / (now[ahead] + now[tied] + now[behind])}
	if lookAhead {
		if d := hpTotal[behind] + hpTotal[tied]/2; d > 0 {
			s.PPot = (hp[behind][ahead] + hp[behind][tied]/2 + hp[tied][ahead]/2) / d
		}
		if d := hpTotal[ahead] + hpTotal[tied]/2; d > 0 {
			s.NPot = (hp[ahead][behind] + hp[tied][behind]/2 + hp[ahead][tied]/2) / d
		}
	}
	return s
}

// hsppotBot plays the pre-flop chart, then decides by effective hand strength (EHS)
// in the manner of Billings et al.'s Loki: with EHS of at least 0.85 it bets or
// raises the pot; with at least 0.5 it bets half the pot when nothing is to call;
// with nothing to call and PPot of at least 0.3 it semi-bluffs half the pot;
// facing a bet it calls when EHS or PPot beats the pot odds, and otherwise checks
// or folds. In stud, where HS and PPot are not defined, its EHS is the simulated
// equity.
type hsppotBot struct {
	r       *rand.Rand
	samples int
	sim     simulator
	s       situation
}

func newHSPPot(o Options) *hsppotBot { return &hsppotBot{r: o.Rand, samples: o.Samples} }

// Act decides by the chart before the flop and by EHS after it, and in
// fixed-limit Hold'em does not fold to a single bet the pot odds pay to call.
func (b *hsppotBot) Act(v *engine.View) engine.Action {
	return defendLimit(b.act(v), b.r, &b.sim, v, &b.s)
}

// act is the EHS rule.
func (b *hsppotBot) act(v *engine.View) engine.Action {
	b.s.read(v)
	if b.s.preflop {
		return preflopChart(v, &b.s)
	}
	var ehs, ppot float64
	if b.s.holdem {
		st := HandStrength([2]cards.Card{b.s.mine[0], b.s.mine[1]}, v.Board)
		ehs, ppot = st.Effective(b.s.opps), st.PPot
	} else {
		ehs = b.sim.equity(b.r, v, &b.s, b.samples)
	}
	l := v.Legal
	switch {
	case ehs >= 0.85:
		return raiseTo(l, potRaise(l, b.s.pot, 1, 1))
	case b.s.toCall == 0 && (ehs >= 0.5 || ppot >= 0.3):
		return raiseTo(l, potRaise(l, b.s.pot, 1, 2))
	case b.s.toCall == 0:
		return checkOrFold(l)
	case ehs >= b.s.potOdds || ppot >= b.s.potOdds:
		return checkOrCall(l)
	}
	return checkOrFold(l)
}
