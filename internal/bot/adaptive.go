package bot

import (
	"fmt"
	"log/slog"
	"math/rand/v2"

	"github.com/felt-poker/felt/internal/engine"
)

// AdaptiveState is what the adaptive bot learns: the rate of return at which it
// raises, stepped up after each hand it raised in and lost and down after each one it
// raised in and won. It is saved as JSON (see Options.Models).
type AdaptiveState struct {
	RaiseThreshold float64 `json:"raise_threshold"`
	// Hands counts the hands it has heard the end of, RaisedWon and RaisedLost those
	// in which it bet or raised and then won or lost chips.
	Hands      int64 `json:"hands"`
	RaisedWon  int64 `json:"raised_won"`
	RaisedLost int64 `json:"raised_lost"`
}

// The adaptive bot's raise threshold starts at adaptiveStart and moves by
// adaptiveStep within [adaptiveMin, adaptiveMax].
const (
	adaptiveStart = 1.3
	adaptiveStep  = 0.02
	adaptiveMin   = 1.0
	adaptiveMax   = 3.0
	// adaptiveFold is the rate of return below which it folds (or bluffs).
	adaptiveFold = 0.8
)

// adaptiveBot is the Monte Carlo bot with a learnt raise threshold: it simulates its
// equity, computes the rate of return RR, folds below adaptiveFold (bluff-raising
// 5% of the time unless bluffs are off), raises at or above the threshold (the pot
// when RR is 0.7 above it, 2/3 of the pot otherwise) and calls in between. After each
// hand in which it bet or raised it moves the threshold (up after a loss, down after
// a win) and saves its state to its ModelStore, if it has one.
type adaptiveBot struct {
	r       *rand.Rand
	samples int
	bluff   bool
	models  ModelStore
	st      AdaptiveState
	sim     simulator
	s       situation
	warned  bool
}

func newAdaptive(o Options) (Bot, error) {
	b := &adaptiveBot{r: o.Rand, samples: o.Samples, bluff: !o.NoBluff, models: o.Models,
		st: AdaptiveState{RaiseThreshold: adaptiveStart}}
	if err := loadJSON(o.Models, "adaptive", "", &b.st); err != nil {
		return nil, err
	}
	if t := b.st.RaiseThreshold; !(t >= adaptiveMin && t <= adaptiveMax) {
		return nil, fmt.Errorf("adaptive state: raise threshold %v not in [%v, %v]", t, adaptiveMin, adaptiveMax)
	}
	return b, nil
}

// State returns what the bot has learnt so far.
func (b *adaptiveBot) State() AdaptiveState { return b.st }

// Act simulates its equity and folds, calls or raises by the rate of return.
func (b *adaptiveBot) Act(v *engine.View) engine.Action {
	b.s.read(v)
	rr := rateOfReturn(b.sim.equityVsRange(b.r, v, &b.s, b.samples), &b.s)
	l := v.Legal
	raiseAt, war := b.st.RaiseThreshold, facingRaise(v)
	if war {
		raiseAt = max(raiseAt, warRR) // its bet was raised: raise again only far ahead, as montecarlo
	}
	switch {
	case rr >= raiseAt+0.7:
		return raiseTo(l, potRaise(l, b.s.pot, 1, 1))
	case rr >= raiseAt:
		return raiseTo(l, potRaise(l, b.s.pot, 2, 3))
	case rr >= adaptiveFold:
		return checkOrCall(l)
	case b.bluff && !war && b.r.IntN(100) < 5:
		return raiseTo(l, potRaise(l, b.s.pot, 2, 3))
	}
	return checkOrFold(l)
}

// HandEnd moves the raise threshold after a hand in which the bot bet or raised and
// saves the state.
func (b *adaptiveBot) HandEnd(v *engine.View, r *engine.Result) {
	b.st.Hands++
	if raisedIn(v, v.Viewer) {
		switch net := r.Net[v.Viewer]; {
		case net < 0:
			b.st.RaisedLost++
			b.st.RaiseThreshold = min(b.st.RaiseThreshold+adaptiveStep, adaptiveMax)
		case net > 0:
			b.st.RaisedWon++
			b.st.RaiseThreshold = max(b.st.RaiseThreshold-adaptiveStep, adaptiveMin)
		}
	}
	if err := saveJSON(b.models, "adaptive", "", b.st); err != nil && !b.warned {
		b.warned = true
		slog.Warn("adaptive bot cannot save its state", "err", err)
	}
}

// raisedIn reports whether seat bet or raised voluntarily in the hand v shows.
func raisedIn(v *engine.View, seat int) bool {
	for i := range v.Events {
		if e := &v.Events[i]; int(e.Seat) == seat && (e.Kind == engine.EvBet || e.Kind == engine.EvRaise) {
			return true
		}
	}
	return false
}
