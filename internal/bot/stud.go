package bot

import (
	"math/rand/v2"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// studExactNeed is the most unseen cards the stud bot enumerates every way of
// dealing; with more it simulates.
const studExactNeed = 2

// studBot plays three card stud from the cards it can see: its own three, the others'
// up cards (which are also cards nobody else can hold) and the spade rule. Its
// equity is exact when at most two cards are unseen (heads-up in the second round,
// every possible hole card of the opponent), simulated otherwise. It raises the
// most it may when its hole card is a spade no unseen card beats (half the pot is
// then its own) or its rate of return is 1.6 or more, raises the least at 1.15,
// calls when its equity beats the pot odds and otherwise checks or folds. In
// Hold'em it plays as the chart bot.
type studBot struct {
	r       *rand.Rand
	samples int
	chart   *chartBot
	sim     simulator
	deal    studDeal
	s       situation
}

func newStud(o Options) *studBot {
	return &studBot{r: o.Rand, samples: o.Samples, chart: newChart(o)}
}

// Act decides a stud action (a Hold'em one by the chart).
func (b *studBot) Act(v *engine.View) engine.Action {
	if v.Variant != engine.StudThree {
		return b.chart.Act(v)
	}
	b.s.read(v)
	eq := b.equity(v)
	rr := rateOfReturn(eq, &b.s)
	l := v.Legal
	switch {
	case rr >= 1.6 || b.spadeLocked():
		return raiseTo(l, l.MaxTo)
	case rr >= 1.15:
		return raiseTo(l, l.MinTo)
	case b.s.toCall > 0 && eq >= b.s.potOdds:
		return checkOrCall(l)
	}
	return checkOrFold(l)
}

// equity is the viewer's expected share of the pot, exact when few cards are unseen.
func (b *studBot) equity(v *engine.View) float64 {
	b.deal.read(v, &b.s)
	b.sim.fill(b.s.known)
	d, deck := &b.deal, b.sim.deck[:b.sim.n]
	switch {
	case d.no == 0:
		return 1
	case d.need > len(deck):
		return 1 / float64(d.no+1)
	case d.need > studExactNeed:
		return b.sim.stud(b.r, v, &b.s, b.samples)
	case d.need == 0:
		return d.share(nil)
	}
	var total float64
	n := 0
	var fill [studExactNeed]cards.Card
	for i, x := range deck {
		fill[0] = x
		if d.need == 1 {
			total += d.share(fill[:1])
			n++
			continue
		}
		for j, y := range deck {
			if j != i {
				fill[1] = y
				total += d.share(fill[:2])
				n++
			}
		}
	}
	return total / float64(n)
}

// spadeLocked reports whether the viewer's hole card is a spade that no unseen card
// beats, so that the spade half of the pot is its own.
func (b *studBot) spadeLocked() bool {
	h := b.s.mine[0]
	if h.Suit() != cards.Spades {
		return false
	}
	for r := h.Rank() + 1; r <= cards.Ace; r++ {
		if !b.s.known.Has(cards.New(r, cards.Spades)) {
			return false
		}
	}
	return true
}

// StudEquity is the stud bot's estimate of the viewer's expected share of the pot
// in three card stud from the cards v shows (hands still to be dealt filled in
// every way when at most two cards are unseen, otherwise from samples deals drawn
// with r). Given a view that shows every seat's cards, as a trace builds, it is the
// viewer's equity against the others' actual cards.
func StudEquity(v *engine.View, r *rand.Rand, samples int) float64 {
	b := newStud(Options{Rand: r, Samples: max(samples, 1)})
	b.s.read(v)
	return b.equity(v)
}
