package bot

import (
	"math/rand/v2"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// chartBot is the "standard robot": before the flop it plays a starting-hand
// chart by position (Sklansky's hand groups); after it, and in stud, it simulates
// its equity against the opponents still in and calls when that beats the pot
// odds, bets or raises when it is well ahead of its fair share, and otherwise
// checks or folds. It uses its stream only to sample deals.
type chartBot struct {
	r       *rand.Rand
	samples int
	sim     simulator
	s       situation
}

func newChart(o Options) *chartBot { return &chartBot{r: o.Rand, samples: o.Samples} }

// Act decides by the chart before the flop and by pot odds after it, and in
// fixed-limit Hold'em does not fold to a single bet the pot odds pay to call.
func (b *chartBot) Act(v *engine.View) engine.Action {
	return defendLimit(b.act(v), b.r, &b.sim, v, &b.s)
}

// act is the chart bot's own rule.
func (b *chartBot) act(v *engine.View) engine.Action {
	b.s.read(v)
	if b.s.preflop {
		return preflopChart(v, &b.s)
	}
	eq := b.sim.equity(b.r, v, &b.s, b.samples)
	l := v.Legal
	switch {
	case eq >= strongEquity(b.s.opps):
		return raiseTo(l, potRaise(l, b.s.pot, 2, 3))
	case b.s.toCall == 0:
		return checkOrFold(l)
	case eq >= b.s.potOdds:
		return checkOrCall(l)
	}
	return checkOrFold(l)
}

// strongEquity is the equity at which the chart bot bets for value against opps
// opponents: half-way between its fair share 1/(opps+1) and certainty.
func strongEquity(opps int) float64 { return (1 + 1/float64(opps+1)) / 2 }

// potRaise returns the amount to bet or raise to so that the increase over the
// call is num/den of the pot after calling.
func potRaise(l engine.Legal, pot int64, num, den int64) int64 {
	toCall := l.CurrentBet - l.Committed
	return l.CurrentBet + (pot+toCall)*num/den
}

// Hand groups 1 (best) to 8 as Sklansky ranks them; every other hand is group 9.
var chartGroupText = [...]string{
	1: "AA KK QQ JJ AKs",
	2: "TT AQs AJs KQs AKo",
	3: "99 ATs KJs QJs JTs AQo",
	4: "88 KTs QTs J9s T9s 98s AJo KQo",
	5: "77 A9s A8s A7s A6s A5s A4s A3s A2s Q9s T8s 97s 87s 76s 65s KJo QJo JTo",
	6: "66 55 K9s J8s 86s 75s 54s ATo KTo QTo",
	7: "44 33 22 K8s K7s K6s K5s K4s K3s K2s Q8s T7s 64s 53s 43s J9o T9o 98o",
	8: "A9o K9o Q9o J8o J7s T8o 96s 87o 85s 76o 74s 65o 54o 42s 32s",
}

// chartGroups[hi][lo] is the group of a starting hand: suited hands at hi > lo,
// offsuit ones at hi < lo (the ranks swapped), pairs on the diagonal. It is built
// once from chartGroupText and never changed.
var chartGroups = buildChartGroups()

func buildChartGroups() (g [cards.NumRanks][cards.NumRanks]uint8) {
	for i := range g {
		for j := range g[i] {
			g[i][j] = 9
		}
	}
	for group, text := range chartGroupText {
		for i := 0; i < len(text); {
			for i < len(text) && text[i] == ' ' {
				i++
			}
			j := i
			for j < len(text) && text[j] != ' ' {
				j++
			}
			if j > i {
				a, _ := cards.ParseRank(text[i : i+1])
				b, _ := cards.ParseRank(text[i+1 : i+2])
				if j-i == 3 && text[i+2] == 'o' {
					a, b = b, a
				}
				g[a][b] = uint8(group)
			}
			i = j
		}
	}
	return g
}

// startingGroup returns the chart group (1..9) of two hole cards.
func startingGroup(a, b cards.Card) int {
	hi, lo := a.Rank(), b.Rank()
	if lo > hi {
		hi, lo = lo, hi
	}
	if a.Suit() != b.Suit() {
		hi, lo = lo, hi
	}
	return int(chartGroups[hi][lo])
}

// The chart by position: the worst group that opens with a raise, and the worst
// that limps in, when nobody has raised yet.
var (
	chartOpenRaise = [...]int{posEarly: 2, posMiddle: 3, posLate: 5, posSmallBlind: 4, posBigBlind: 4}
	chartOpenCall  = [...]int{posEarly: 4, posMiddle: 5, posLate: 7, posSmallBlind: 7, posBigBlind: 9}
)

// preflopChart decides a Hold'em pre-flop action from the chart: open-raise or limp
// by position when nobody has raised; facing a raise, re-raise with group 1 (and 2
// in late position or the big blind against a single raise), call with groups up
// to 3 (4 in the big blind against a single raise; only 1 and 2 against a raise of
// more than ten big blinds), fold the rest.
func preflopChart(v *engine.View, s *situation) engine.Action {
	l := v.Legal
	g := startingGroup(s.mine[0], s.mine[1])
	bb, raises := preflopBets(v)
	if raises == 0 {
		switch {
		case g <= chartOpenRaise[s.position]:
			return raiseTo(l, l.CurrentBet+2*max(bb, 1))
		case g <= chartOpenCall[s.position]:
			return checkOrCall(l)
		}
		return checkOrFold(l)
	}
	reraise, call := 1, 3
	if raises == 1 && (s.position == posLate || s.position == posBigBlind) {
		reraise = 2
	}
	if raises == 1 && s.position == posBigBlind {
		call = 4
	}
	if bb > 0 && s.toCall > 10*bb {
		call = 2
	}
	switch {
	case g <= reraise:
		return raiseTo(l, 3*l.CurrentBet)
	case g <= call:
		return checkOrCall(l)
	}
	return checkOrFold(l)
}

// preflopBets returns the big blind posted and the number of voluntary bets and
// raises so far in this pre-flop round, read from the view's events.
func preflopBets(v *engine.View) (bb int64, raises int) {
	for i := range v.Events {
		switch e := &v.Events[i]; e.Kind {
		case engine.EvBigBlind:
			bb = e.Amount
		case engine.EvBet, engine.EvRaise:
			raises++
		}
	}
	return bb, raises
}
