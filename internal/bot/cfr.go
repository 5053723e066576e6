package bot

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/cfr"
	"github.com/felt-poker/felt/internal/engine"
)

// cfrBot plays heads-up limit Hold'em from a strategy trained by counterfactual
// regret minimisation (felt train hulhe --out FILE; see docs/cfr.md). It follows
// the hand's betting down the strategy's betting tree, computes its bucket in the
// strategy's card abstraction (a flop bucket takes a few milliseconds, once a
// hand) and samples an action from the strategy's probabilities there. Off the
// tree — another game, more than two players, a player leaving — it checks or
// calls. Without a strategy file (cfr alone) it has no strategy and only checks
// and calls: the registry's every bot must be makeable without options, and the
// Hold'em strategies are too large to build in (docs/cfr.md says how to train one).
// It says so: the first such bot a process makes logs a warning (warnNoStrategy).
type cfrBot struct {
	p *cfr.HoldemProfile
	a *cfr.Abstraction
	r *rand.Rand
	// The last bucket computed, for these cards (hole cards, then the board).
	cached []cards.Card
	bucket int
}

// newCFR loads the strategy file named by the option strategy=FILE.
func newCFR(o Options) (Bot, error) {
	if o.Strategy == "" {
		noStrategyOnce.Do(warnNoStrategy)
		return &cfrBot{r: o.Rand}, nil
	}
	f, err := openRegular(o.Strategy)
	if err != nil {
		return nil, fmt.Errorf("strategy=%q: %w: %w", o.Strategy, ErrBadOption, err)
	}
	defer f.Close()
	sf, err := cfr.ReadStrategyFile(f)
	if err != nil {
		return nil, fmt.Errorf("strategy=%q: %w: %w", o.Strategy, ErrBadOption, err)
	}
	p, a, err := sf.HoldemProfile()
	if err != nil {
		return nil, fmt.Errorf("strategy=%q: %w: %w", o.Strategy, ErrBadOption, err)
	}
	return &cfrBot{p: p, a: a, r: o.Rand}, nil
}

// noStrategyOnce makes the warning of a cfr bot without a strategy once per
// process: matches and tournaments make a bot per worker and per seat.
var noStrategyOnce sync.Once

// warnNoStrategy tells the operator that a cfr bot was made without a strategy
// and will play as a calling station.
func warnNoStrategy() {
	slog.Warn("cfr bot without a strategy (strategy=FILE): it only checks and calls; train one with felt train hulhe --out FILE")
}

// Act plays the strategy's action, or checks or calls off the tree.
func (b *cfrBot) Act(v *engine.View) engine.Action {
	l := v.Legal
	hist, ok := cfrHistory(v)
	if !ok || b.p == nil || v.Viewer < 0 || v.Viewer >= len(v.Seats) || v.Seats[v.Viewer].NCards < 2 {
		return checkOrCall(l)
	}
	s := v.Seats[v.Viewer]
	hole := [2]cards.Card{s.Cards[0], s.Cards[1]}
	if !hole[0].Valid() || !hole[1].Valid() || !slices.Contains([]int{0, 3, 4, 5}, len(v.Board)) {
		return checkOrCall(l)
	}
	key := append(hole[:], v.Board...)
	if !slices.Equal(key, b.cached) {
		b.bucket = b.a.Bucket(hole, v.Board)
		b.cached = append(b.cached[:0], key...)
	}
	acts, probs, ok := b.p.Lookup(hist, b.bucket)
	if !ok {
		return checkOrCall(l)
	}
	x := b.r.Float64()
	pick := len(acts) - 1
	for i, pr := range probs {
		if x < pr {
			pick = i
			break
		}
		x -= pr
	}
	switch acts[pick] {
	case 'f':
		if l.Can(engine.Fold) && !l.Can(engine.Check) {
			return engine.Action{Seat: l.Seat, Kind: engine.Fold}
		}
	case 'r':
		if l.Can(engine.Bet) || l.Can(engine.Raise) {
			return raiseTo(l, l.MinTo)
		}
	}
	return checkOrCall(l)
}

// cfrHistory writes the hand's betting in the strategy's letters (c check or call,
// r bet or raise, f fold, "/" between rounds), or reports false when the hand is
// not one the strategy plays: heads-up fixed-limit Hold'em with nobody leaving.
func cfrHistory(v *engine.View) (string, bool) {
	if v.Variant != engine.Holdem || v.Structure != engine.FixedLimit {
		return "", false
	}
	in := 0
	for _, s := range v.Seats {
		if s.InHand {
			in++
		}
	}
	if in != 2 {
		return "", false
	}
	var h strings.Builder
	for _, e := range v.Events {
		switch e.Kind {
		case engine.EvStreet:
			if e.Street > engine.Preflop {
				h.WriteByte('/')
			}
		case engine.EvCheck, engine.EvCall:
			h.WriteByte('c')
		case engine.EvBet, engine.EvRaise:
			h.WriteByte('r')
		case engine.EvFold, engine.EvLeave:
			return "", false
		}
	}
	return h.String(), true
}
