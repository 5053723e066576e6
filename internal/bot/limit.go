package bot

import (
	"math/rand/v2"

	"github.com/felt-poker/felt/internal/engine"
)

// limitDefendSamples is the deals limitDefends simulates: a call it decides costs
// one fixed bet, so a coarse equity is enough.
const limitDefendSamples = DefaultSamples / 2

// limitDefends reports whether, in fixed-limit Hold'em, a bot facing a single bet
// or raise on this street must call rather than fold: there a call costs one fixed
// bet into a pot that already holds several, so its pot odds are small (a quarter
// in the big blind against one raise), and a hand whose equity against random
// hands beats them loses less by calling than by folding to a player who bets
// anything once a round. Facing two or more bets, or in no-limit and pot-limit,
// where one bet may be the whole stack, it leaves the bot's own rule alone.
func limitDefends(r *rand.Rand, sim *simulator, v *engine.View, s *situation) bool {
	if !s.holdem || v.Structure != engine.FixedLimit || s.toCall == 0 ||
		!v.Legal.Can(engine.Call) || betsThisRound(v) > 1 {
		return false
	}
	return sim.equity(r, v, s, limitDefendSamples) >= s.potOdds
}

// defendLimit returns a, or a call in place of a fold when limitDefends says the
// fixed-limit pot odds pay for it. s must have been read from v.
func defendLimit(a engine.Action, r *rand.Rand, sim *simulator, v *engine.View, s *situation) engine.Action {
	if a.Kind == engine.Fold && limitDefends(r, sim, v, s) {
		return checkOrCall(v.Legal)
	}
	return a
}

// betsThisRound returns the bets and raises made in the current betting round
// (blinds are not bets).
func betsThisRound(v *engine.View) int {
	n := 0
	for i := len(v.Events) - 1; i >= 0; i-- {
		e := &v.Events[i]
		if e.Street != v.Street {
			break
		}
		if e.Kind == engine.EvBet || e.Kind == engine.EvRaise {
			n++
		}
	}
	return n
}
