package bot

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/cfr"
	"github.com/felt-poker/felt/internal/cfr/blueprint"
	"github.com/felt-poker/felt/internal/engine"
)

// cfrBot plays heads-up limit Hold'em from a strategy trained by counterfactual
// regret minimisation: felt's built-in blueprint (internal/cfr/blueprint), or a
// strategy file (felt train hulhe --out FILE, or --pack FILE; see docs/cfr.md).
// It follows the hand's betting down the strategy's betting tree, computes its
// bucket in the strategy's card abstraction (a flop bucket takes a few
// milliseconds, once a hand) and samples an action from the strategy's
// probabilities there. It is made for heads-up fixed-limit Hold'em only (cfrPlays):
// asked for another game, or a strategy file for another game, New refuses. Off
// the tree within its game — a player leaving, a raise cap other than felt's four
// bets — it checks or calls.
type cfrBot struct {
	p *cfr.HoldemProfile
	a *cfr.Abstraction
	r *rand.Rand
	// The last bucket computed, for these cards (hole cards, then the board).
	cached []cards.Card
	bucket int
}

// cfrPlays accepts heads-up fixed-limit Hold'em only, the game of every strategy
// felt trains for the cfr bot.
func cfrPlays(g *Game) error {
	if g == nil {
		return fmt.Errorf("cfr plays heads-up fixed-limit holdem only, and the game was not given: %w", ErrWrongGame)
	}
	if g.Variant != engine.Holdem || g.Structure != engine.FixedLimit || g.Seats != 2 {
		return fmt.Errorf("cfr plays heads-up fixed-limit holdem only, not %s: %w", g, ErrWrongGame)
	}
	return nil
}

// newCFR loads the strategy file named by the option strategy=FILE (a JSON
// strategy file or a packed one), or takes the built-in blueprint.
func newCFR(o Options) (Bot, error) {
	if o.Strategy == "" {
		s, err := blueprint.Hulhe()
		if err != nil {
			return nil, fmt.Errorf("cfr's built-in strategy: %w", err)
		}
		return &cfrBot{p: s.Profile, a: s.Abstraction, r: o.Rand}, nil
	}
	f, err := openRegular(o.Strategy)
	if err != nil {
		return nil, fmt.Errorf("strategy=%q: %w: %w", o.Strategy, ErrBadOption, err)
	}
	defer f.Close()
	p, a, err := readHoldemStrategy(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("strategy=%q: %w", o.Strategy, err)
	}
	return &cfrBot{p: p, a: a, r: o.Rand}, nil
}

// readHoldemStrategy reads a packed strategy (a gzip stream) or a JSON strategy
// file, refusing with ErrWrongGame one for a game other than Hold'em.
func readHoldemStrategy(r *bufio.Reader) (*cfr.HoldemProfile, *cfr.Abstraction, error) {
	if magic, _ := r.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		p, a, _, err := cfr.ReadPacked(r)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %w", ErrBadOption, err)
		}
		return p, a, nil
	}
	sf, err := cfr.ReadStrategyFile(r)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrBadOption, err)
	}
	if sf.Game != "hulhe" {
		return nil, nil, fmt.Errorf("a strategy for %q, not heads-up limit holdem: %w", sf.Game, ErrWrongGame)
	}
	p, a, err := sf.HoldemProfile()
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrBadOption, err)
	}
	return p, a, nil
}

// Act plays the strategy's action, or checks or calls off the tree.
func (b *cfrBot) Act(v *engine.View) engine.Action {
	l := v.Legal
	hist, ok := cfrHistory(v)
	if !ok || v.Viewer < 0 || v.Viewer >= len(v.Seats) || v.Seats[v.Viewer].NCards < 2 {
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
