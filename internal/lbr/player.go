package lbr

import (
	"context"
	"math/rand/v2"
	"slices"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// player is LBR in one seat of a hand: the bot's range, the model that asks the
// bot, and scratch. It decides from its own view alone; it reads the hand (which
// holds the bot's cards) only to make the bot's view after a bet LBR considers,
// in which the model overwrites the bot's cards with each candidate's.
type player struct {
	c       *Config
	seat    int
	rng     *rand.Rand
	m       *model
	r       Range
	callR   Range        // the hands that call a bet LBR considers, by weight
	bet     []strategies // the bot's answers to each size considered
	obs     strategies
	pending *strategies // the bot's answer to the bet LBR just made, reused by observe
	lv, bv  engine.View
	misses  int64 // bot actions the range could not explain (left unchanged)
}

// reset starts a hand with LBR in seat and its hole cards known.
func (p *player) reset(seat int, h *engine.Hand) {
	p.seat, p.pending = seat, nil
	h.ViewInto(seat, &p.lv)
	sv := &p.lv.Seats[seat]
	p.r.Reset(cards.SetOf(sv.Cards[0], sv.Cards[1]))
}

// observe updates the range after the bot, in view v (its own, on its turn),
// chose a.
func (p *player) observe(ctx context.Context, v *engine.View, a engine.Action) {
	s := p.pending
	p.pending = nil
	if s == nil {
		p.r.Remove(cards.SetOf(v.Board...))
		p.m.ask(ctx, v, &p.r, &p.obs)
		s = &p.obs
	}
	if !p.r.Update(func(i int) float64 { return s.prob(i, a) }) {
		p.misses++
	}
}

// decide returns LBR's action in h, whose turn is LBR's: the one of fold,
// check or call and the bets of c.Sizes with the most value (value.go), ties
// going to the more passive. Before the flop it checks or calls unless
// c.Preflop. When ctx ends it answers soon, from strategies cut short.
func (p *player) decide(ctx context.Context, h *engine.Hand) engine.Action {
	h.ViewInto(p.seat, &p.lv)
	v, l := &p.lv, p.lv.Legal
	p.pending = nil
	call := engine.Action{Seat: p.seat, Kind: engine.Check}
	var toCall int64
	if l.Can(engine.Call) {
		toCall = l.CallAmount
		call = engine.Action{Seat: p.seat, Kind: engine.Call, Amount: toCall}
	}
	if v.Street == engine.Preflop && !p.c.Preflop {
		return call
	}
	p.r.Remove(cards.SetOf(v.Board...))
	mine := [2]cards.Card{v.Seats[p.seat].Cards[0], v.Seats[p.seat].Cards[1]}
	wp := Equity(mine, v.Board, &p.r, p.rng, p.c.Runouts)
	best, bestV := call, CallValue(wp, v.Pot, toCall)
	if toCall > 0 && bestV < 0 {
		best, bestV = engine.Action{Seat: p.seat, Kind: engine.Fold}, 0
	}
	kind := engine.Raise
	if l.Can(engine.Bet) {
		kind = engine.Bet
	}
	if !l.Can(kind) {
		return best
	}
	var tried []int64
	for k, size := range p.c.Sizes {
		to := size.to(v.Pot, l)
		if slices.Contains(tried, to) {
			continue
		}
		tried = append(tried, to)
		a := engine.Action{Seat: p.seat, Kind: kind, Amount: to}
		if x, ok := p.betValue(ctx, h, a, mine, k); ok && x > bestV {
			best, bestV = a, x
			p.pending = &p.bet[k]
		}
	}
	if best.Kind != kind {
		p.pending = nil
	}
	return best
}

// betValue returns the value of LBR making bet a (the k-th size): it asks the
// bot how it answers with each hand of its range, and LBR's equity against the
// hands that do not fold.
func (p *player) betValue(ctx context.Context, h *engine.Hand, a engine.Action, mine [2]cards.Card, k int) (float64, bool) {
	next := h.Clone()
	if err := next.Apply(a); err != nil || next.ToAct() == engine.NoSeat || next.ToAct() == p.seat {
		return 0, false
	}
	bs := next.ToAct()
	next.ViewInto(bs, &p.bv)
	s := &p.bet[k]
	p.m.ask(ctx, &p.bv, &p.r, s)
	var fold, total float64
	for i, w := range p.r {
		p.callR[i] = 0
		if w == 0 {
			continue
		}
		f := s.foldProb(i)
		fold += w * f
		total += w
		p.callR[i] = w * (1 - f)
	}
	if total == 0 {
		return 0, false
	}
	fp := fold / total
	wp := Equity(mine, p.lv.Board, &p.callR, p.rng, p.c.Runouts)
	l, opp := p.lv.Legal, &p.bv.Seats[bs]
	matched := min(a.Amount, opp.Bet+opp.Stack)
	return BetValue(fp, wp, p.lv.Pot, matched-l.Committed, matched-opp.Bet), true
}
