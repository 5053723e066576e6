package bot

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/eval"
)

// numStreets is the number of betting rounds an OpponentModel counts (Hold'em's four
// and three card stud's two).
const numStreets = int(engine.StudTwo) + 1

// ModelHands is the number of hands an opponent must have been seen in before the
// Bayesian bot trusts its model of it rather than the default fold ratios.
const ModelHands = 25

// fallbackFold and fallbackRaise are the fold and raise ratios per street the
// Bayesian bot assumes where felt's league hands (defaultFold, defaultRaise) saw
// too few decisions.
var (
	fallbackFold = [numStreets]float64{
		engine.Preflop: 0.3, engine.Flop: 0.35, engine.Turn: 0.3, engine.River: 0.25,
		engine.StudOne: 0.3, engine.StudTwo: 0.25,
	}
	fallbackRaise = [numStreets]float64{
		engine.Preflop: 0.3, engine.Flop: 0.3, engine.Turn: 0.25, engine.River: 0.25,
		engine.StudOne: 0.3, engine.StudTwo: 0.25,
	}
)

// foldPrior is the weight, in observations, of defaultFold once a model is trusted.
const foldPrior = 4

// OpponentModel is what the Bayesian bot knows of one opponent: the hands it has
// seen it in and, per street, how often it folded when facing a bet.
type OpponentModel struct {
	Hands int64 `json:"hands"`
	// Faced[s] counts the times the opponent acted facing a bet or raise on street s,
	// Folded[s] the times it then folded.
	Faced  [numStreets]int64 `json:"faced"`
	Folded [numStreets]int64 `json:"folded"`
	// Acted[s] counts the opponent's own decisions on street s, Raised the bets
	// and raises among them.
	Acted  [numStreets]int64 `json:"acted"`
	Raised [numStreets]int64 `json:"raised"`
}

// Validate checks a model read from a store: no count is negative, and no
// street has more folds than bets faced or more raises than decisions (which
// would make a ratio below 0, above 1 or infinite).
func (m *OpponentModel) Validate() error {
	ok := m.Hands >= 0
	for s := range numStreets {
		ok = ok && 0 <= m.Folded[s] && m.Folded[s] <= m.Faced[s] && 0 <= m.Raised[s] && m.Raised[s] <= m.Acted[s]
	}
	if !ok {
		return errors.New("opponent model: a negative count, or more folds or raises than decisions")
	}
	return nil
}

// FoldRatio returns the chance that the opponent folds to a bet on street s: the
// default until ModelHands hands have been seen, then its observed ratio with the
// default mixed in as a prior of foldPrior observations.
func (m *OpponentModel) FoldRatio(s engine.Street) float64 {
	if int(s) >= numStreets {
		return 0
	}
	if m.Hands < ModelHands {
		return defaultFold[s]
	}
	return (float64(m.Folded[s]) + foldPrior*defaultFold[s]) / (float64(m.Faced[s]) + foldPrior)
}

// ObserveAll counts every seat of a finished hand (a spectator's view of it) in m,
// as Observe does for one: a model of all the players pooled.
func (m *OpponentModel) ObserveAll(v engine.View) {
	for seat := range v.Seats {
		if v.Seats[seat].InHand {
			m.Observe(&v, seat)
		}
	}
}

// RaiseRatio returns the share of its decisions on street s in which the
// opponent bets or raises, as FoldRatio does for folds.
func (m *OpponentModel) RaiseRatio(s engine.Street) float64 {
	if int(s) >= numStreets {
		return 0
	}
	if m.Hands < ModelHands {
		return defaultRaise[s]
	}
	return (float64(m.Raised[s]) + foldPrior*defaultRaise[s]) / (float64(m.Acted[s]) + foldPrior)
}

// Observe counts, from the events of a finished hand (a view of it), each time seat
// acted (and whether it bet or raised), each time it acted facing a bet (and
// whether it folded), and one more hand seen.
func (m *OpponentModel) Observe(v *engine.View, seat int) {
	m.Hands++
	street := engine.Preflop
	if v.Variant == engine.StudThree {
		street = engine.StudOne
	}
	var bet [engine.MaxSeats]int64
	var current int64
	for i := range v.Events {
		e := &v.Events[i]
		switch e.Kind {
		case engine.EvStreet:
			street = e.Street
			if street != engine.Preflop { // the blinds are this round's bets
				current, bet = 0, [engine.MaxSeats]int64{}
			}
		case engine.EvSmallBlind, engine.EvBigBlind:
			bet[e.Seat], current = e.To, max(current, e.To)
		case engine.EvFold, engine.EvCheck, engine.EvCall, engine.EvBet, engine.EvRaise:
			if int(e.Seat) == seat && !e.Forced && int(street) < numStreets {
				m.Acted[street]++
				if e.Kind == engine.EvBet || e.Kind == engine.EvRaise {
					m.Raised[street]++
				}
			}
			if int(e.Seat) == seat && current > bet[e.Seat] && !e.Forced && int(street) < numStreets {
				m.Faced[street]++
				if e.Kind == engine.EvFold {
					m.Folded[street]++
				}
			}
			if e.Kind != engine.EvFold && e.Kind != engine.EvCheck {
				bet[e.Seat], current = e.To, max(current, e.To)
			}
		}
	}
}

// bayesBot is seed 001's Bayesian bot: rules on the starting hands' EV ranks with
// randomness before the flop and a small decision network after it (and in stud):
//
//   - belief: the chance of winning at showdown from the bucket of the hand made,
//     one of 25 hand types (handBucketOf: high card by overcards, five kinds of
//     pair, overpairs, three kinds of two pair, trips and sets, straights, flushes
//     and full houses by the hole cards they use, quads, straight flushes) whose
//     beliefs were measured on random deals (bayesData), raised by the outs of
//     partial straights and flushes before the river (draws), raised to the power
//     of the opponents in, and lowered by their fold ratios on this street (who
//     stays in against a folder is strong; update); in stud the simulated equity;
//   - utility: the expected chips of folding (0), checking or calling, and betting
//     or raising half the pot, the pot and twice the pot, where a bet wins the pot
//     when everyone folds (each opponent by its fold ratio, more against bigger
//     bets) and otherwise a showdown against callers, who are stronger;
//   - sigmoid betting curves: it bets with probability σ((U_bet − U_passive)/(τ·pot))
//     rather than always when betting is best, slow-plays a share of its monsters
//     and calls by the same curve, so that its bets do not reveal its hand.
//
// Opponent models (OpponentModel) start from a default counted from felt's own
// league hands and are kept per opponent name (see Seater) in memory and, after
// each hand, in its ModelStore if it has one. Its options switch its parts off
// for seed 001's experiments: draws=false (no partial draws), update=false (no
// belief updating: no opponent models learnt, the belief not lowered by the
// betting) and thresholds=tight|normal|loose (the pre-flop thresholds and the
// curves' width). Its decisions are probabilities it states (bot.Strategist).
type bayesBot struct {
	r      *rand.Rand
	models ModelStore
	known  map[string]*OpponentModel
	names  []string
	sim    simulator
	s      situation
	warned bool
	draws  bool
	update bool
	th     *bayesThresholds
	probs  []ActionProb
}

// bayesThresholds is one threshold set of the Bayesian bot: the EV ranks (0..1)
// at which it plays each way before the flop, and the width of its curves.
type bayesThresholds struct {
	// Premium hands raise (85%) or call anything; Good ones raise first in half
	// the time and call raises of up to six big blinds; Play ones limp or call
	// two big blinds and raise 10%; AllIn is the least rank that calls a raise of
	// a third of its stack or more.
	Premium, Good, Play, AllIn float64
	// Width is the curves' width, in pots.
	Width float64
}

// bayesThresholdSets are the threshold sets by name.
var bayesThresholdSets = map[string]*bayesThresholds{
	"tight":  {Premium: 0.95, Good: 0.87, Play: 0.72, AllIn: 0.96, Width: 0.08},
	"normal": {Premium: 0.93, Good: 0.8, Play: 0.6, AllIn: 0.94, Width: 0.12},
	"loose":  {Premium: 0.88, Good: 0.65, Play: 0.45, AllIn: 0.88, Width: 0.18},
}

func newBayes(o Options) (Bot, error) {
	th, ok := bayesThresholdSets[o.Thresholds]
	switch {
	case o.Thresholds == "":
		th = bayesThresholdSets["normal"]
	case !ok:
		return nil, fmt.Errorf("thresholds=%q: tight, normal or loose: %w", o.Thresholds, ErrBadOption)
	}
	bayesData() // measured once, before any decision
	return &bayesBot{r: o.Rand, models: o.Models, known: map[string]*OpponentModel{},
		draws: !o.NoDraws, update: !o.NoUpdate, th: th}, nil
}

// SeatNames notes who sits where for the next hand.
func (b *bayesBot) SeatNames(names []string) { b.names = append(b.names[:0], names...) }

// nameOf returns the name of the player in seat i ("" when unknown).
func (b *bayesBot) nameOf(i int) string {
	if i < len(b.names) {
		return b.names[i]
	}
	return ""
}

// Model returns the bot's model of the opponent called name, loading it from its
// ModelStore the first time (a fresh model if there is none or it cannot be read).
func (b *bayesBot) Model(name string) *OpponentModel {
	if m, ok := b.known[name]; ok {
		return m
	}
	m := new(OpponentModel)
	err := loadJSON(b.models, "bayes", name, m)
	if err == nil {
		err = m.Validate()
	}
	if err != nil {
		slog.Warn("bayes bot cannot read its opponent model", "opponent", name, "err", err)
		*m = OpponentModel{}
	}
	b.known[name] = m
	return m
}

// HandEnd updates the model of every opponent dealt in and saves the models
// (unless belief updating is off).
func (b *bayesBot) HandEnd(v *engine.View, _ *engine.Result) {
	if !b.update {
		return
	}
	for i := range v.Seats {
		if i == v.Viewer || !v.Seats[i].InHand {
			continue
		}
		name := b.nameOf(i)
		m := b.Model(name)
		m.Observe(v, i)
		if err := saveJSON(b.models, "bayes", name, m); err != nil && !b.warned {
			b.warned = true
			slog.Warn("bayes bot cannot save its opponent model", "opponent", name, "err", err)
		}
	}
}

// Act draws its action from the probabilities of Strategy (in stud, where the
// belief is simulated, from those of the simulation it has just run).
func (b *bayesBot) Act(v *engine.View) engine.Action {
	probs := b.strategy(v)
	x := b.r.Float64()
	for _, p := range probs {
		if x -= p.Prob; x < 0 {
			return p.Action
		}
	}
	return probs[len(probs)-1].Action
}

// Strategy states the probabilities of its actions at v (in Hold'em; in stud its
// belief is a simulation, and it declines).
func (b *bayesBot) Strategy(v *engine.View, out []ActionProb) ([]ActionProb, bool) {
	if v.Variant != engine.Holdem {
		return out[:0], false
	}
	return append(out[:0], b.strategy(v)...), true
}

// own sets b.probs to the actions its own rule takes at v with their
// probabilities.
func (b *bayesBot) own(v *engine.View) {
	b.s.read(v)
	b.probs = b.probs[:0]
	if b.s.preflop {
		b.preflop(v)
		return
	}
	var belief float64
	if b.s.holdem {
		belief = b.holdemBelief(v, b.s.mine[0], b.s.mine[1], b.s.opps, b.s.known)
	} else {
		belief = b.sim.equity(b.r, v, &b.s, DefaultSamples/2)
	}
	b.decide(v, belief)
}

// strategy returns the actions it may take at v with their probabilities, in
// b.probs: its own rule's, with the chance of folding moved to calling where an
// opponent bets loosely (looseBettor) and limitDefends says the fixed-limit pot
// odds pay for the call.
func (b *bayesBot) strategy(v *engine.View) []ActionProb {
	b.own(v)
	fold := 0.0
	for _, p := range b.probs {
		if p.Action.Kind == engine.Fold {
			fold += p.Prob
		}
	}
	if fold == 0 || !b.looseBettor(v) || !limitDefends(b.r, &b.sim, v, &b.s) {
		return b.probs
	}
	kept := b.probs[:0]
	for _, p := range b.probs {
		if p.Action.Kind != engine.Fold {
			kept = append(kept, p)
		}
	}
	b.probs = kept
	b.add(checkOrCall(v.Legal), fold)
	return b.probs
}

// looseBettor reports whether an opponent still in bets or raises on this street
// more often than felt's league hands do (defaultRaise): against such a player its
// bet says little, and the pot odds decide; against a tighter one the bot's own
// rule, which weighs what calling a bet says, stays.
func (b *bayesBot) looseBettor(v *engine.View) bool {
	for i := range v.Seats {
		o := &v.Seats[i]
		if i != v.Viewer && o.InHand && !o.Folded && int(v.Street) < numStreets &&
			b.Model(b.nameOf(i)).RaiseRatio(v.Street) > defaultRaise[v.Street] {
			return true
		}
	}
	return false
}

// add puts action a with probability p among b.probs, merged with an equal one
// (a raise that cannot be made is a call, say).
func (b *bayesBot) add(a engine.Action, p float64) {
	if p <= 0 {
		return
	}
	for i := range b.probs {
		if q := &b.probs[i]; q.Action == a {
			q.Prob += p
			return
		}
	}
	b.probs = append(b.probs, ActionProb{a, p})
}

// preflop plays Hold'em's first round by the hand's EV rank, with randomness:
// premium hands raise 85% of the time (else call), good ones raise half the time
// when nobody has and call a raise of up to six big blinds, playable ones limp or
// call two big blinds and raise 10%; the rest check or fold, bluff-raising 8% of
// the time late when first in. Facing a raise of a third of its stack or more it
// calls only from the AllIn rank up, and raises back only with premium hands.
func (b *bayesBot) preflop(v *engine.View) {
	l, th := v.Legal, b.th
	p := evRank(b.s.mine[0], b.s.mine[1])
	bb, raises := preflopBets(v)
	bb = max(bb, 1)
	raise := raiseTo(l, max(3*l.CurrentBet, l.CurrentBet+2*bb))
	call, fold := checkOrCall(l), checkOrFold(l)
	if b.s.toCall*3 >= l.Stack+l.Committed { // an all-in, or near it, to call
		switch {
		case p >= th.Premium:
			b.add(raise, 0.5)
			b.add(call, 0.5)
		case p >= th.AllIn:
			b.add(call, 1)
		default:
			b.add(fold, 1)
		}
		return
	}
	switch {
	case p >= th.Premium:
		b.add(raise, 0.85)
		b.add(call, 0.15)
	case p >= th.Good:
		first := 0.0
		if raises == 0 {
			first = 0.5
		}
		b.add(raise, first)
		if b.s.toCall <= 6*bb {
			b.add(call, 1-first)
		} else {
			b.add(fold, 1-first)
		}
	case p >= th.Play:
		b.add(raise, 0.1)
		if b.s.toCall <= 2*bb {
			b.add(call, 0.9)
		} else {
			b.add(fold, 0.9)
		}
	default:
		bluff := 0.0
		if raises == 0 && b.s.position == posLate {
			bluff = 0.08
		}
		b.add(raise, bluff)
		b.add(fold, 1-bluff)
	}
}

// The decision network's constants: how much callers of a bet are stronger
// (callDamp) and the share of very strong hands slow-played (slowPlay, above
// slowPlayAt).
const (
	callDamp   = 0.4
	slowPlay   = 0.25
	slowPlayAt = 0.9
)

// betSizes are the bets and raises the utility table weighs, as fractions of the
// pot after calling.
var betSizes = [...]float64{0.5, 1, 2}

// decide builds the utility table for belief and sets the actions' probabilities
// by the sigmoid curves.
func (b *bayesBot) decide(v *engine.View, belief float64) {
	l := v.Legal
	pot, toCall := float64(b.s.pot), float64(b.s.toCall)
	foldAll := b.foldAll(v)
	damp := 0.0
	if b.update {
		damp = callDamp
	}
	passive := belief*(pot+toCall) - toCall // check or call
	best, bestTo := math.Inf(-1), int64(0)
	if l.Can(engine.Bet) || l.Can(engine.Raise) {
		for _, frac := range betSizes {
			to := potRaise(l, b.s.pot, int64(frac*100), 100)
			to = min(max(to, l.MinTo), l.MaxTo)
			r := float64(to - l.CurrentBet) // added over the call
			f := min(foldAll*(0.7+0.3*frac), 0.95)
			called := belief * (1 - damp*f)
			u := f*pot + (1-f)*(called*(pot+toCall+r*float64(1+b.s.opps))-(toCall+r))
			if u > best {
				best, bestTo = u, to
			}
		}
	}
	scale := b.th.Width * max(pot, 1)
	bet := 0.0
	if bestTo > 0 {
		bet = sigmoid((best - max(passive, 0)) / scale)
		if belief > slowPlayAt {
			bet *= 1 - slowPlay
		}
		b.add(raiseTo(l, bestTo), bet)
	}
	stay := 1.0
	if toCall > 0 {
		stay = sigmoid(passive / scale)
	}
	b.add(checkOrCall(l), (1-bet)*stay)
	b.add(checkOrFold(l), (1-bet)*(1-stay))
}

// foldAll returns the chance that every opponent still in folds to a bet on this
// street (0 with nobody to bet at).
func (b *bayesBot) foldAll(v *engine.View) float64 {
	all, n := 1.0, 0
	for i := range v.Seats {
		if o := &v.Seats[i]; i != v.Viewer && o.InHand && !o.Folded && !o.AllIn {
			all *= b.Model(b.nameOf(i)).FoldRatio(v.Street)
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return all
}

// updated returns the belief w (the chance of beating one random hand) updated
// by Bayes' rule on each bet, raise and call of the opponents in this hand so
// far. The model: an opponent's hand beats a share u of hands, uniform on [0,1];
// it bets or raises on street s when u is above 1 − RaiseRatio(s), and calls a bet
// when u is above FoldRatio(s). Our hand beats it when u < w, so knowing u > t the
// belief becomes (w − t)/(1 − t), or 0 when w ≤ t. Raises by a maniac (a raise
// ratio near 1) teach nothing; calls by a calling station neither.
func (b *bayesBot) updated(v *engine.View, w float64) float64 {
	for i := range v.Events {
		e := &v.Events[i]
		seat := int(e.Seat)
		if seat == v.Viewer || seat < 0 || seat >= len(v.Seats) || e.Forced {
			continue
		}
		m := b.Model(b.nameOf(seat))
		var t float64
		switch e.Kind {
		case engine.EvBet, engine.EvRaise:
			t = 1 - m.RaiseRatio(e.Street)
		case engine.EvCall:
			t = m.FoldRatio(e.Street)
		default:
			continue
		}
		if t > 0 && t < 1 {
			w = max(w-t, 0) / (1 - t)
		}
	}
	return w
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// holdemBelief returns the belief of winning at showdown with hole cards a, c
// on v's board against opps opponents: its bucket's measured chance against one
// random hand, updated by the opponents' betting (when updating is on), raised by
// the outs of partial straights and flushes before the river (when draws are
// on); known holds every card seen.
func (b *bayesBot) holdemBelief(v *engine.View, a, c cards.Card, opps int, known cards.Set) float64 {
	board := v.Board
	belief := bayesData().win[len(board)-3][handBucketOf(a, c, board)]
	if b.draws && len(board) < 5 {
		outs := drawOuts(a, c, board)
		unseen := float64(cards.NumCards - known.Len())
		miss := (unseen - float64(outs)) / unseen
		if len(board) == 3 {
			miss *= (unseen - 1 - float64(outs)) / (unseen - 1)
		}
		belief += (1 - belief) * (1 - miss) * 0.8 // a made draw is not always best
	}
	if b.update {
		belief = b.updated(v, min(belief, 1))
	}
	return math.Pow(min(belief, 1), float64(max(opps, 1)))
}

// boardCategory is the hand type the board's ranks make alone (pairs and sets only).
func boardCategory(ranks [cards.NumRanks]int) eval.Category {
	pairs, trips, quads := 0, 0, 0
	for _, n := range ranks {
		switch n {
		case 2:
			pairs++
		case 3:
			trips++
		case 4:
			quads++
		}
	}
	switch {
	case quads > 0:
		return eval.FourOfAKind
	case trips > 0 && pairs > 0:
		return eval.FullHouse
	case trips > 0:
		return eval.ThreeOfAKind
	case pairs > 1:
		return eval.TwoPair
	case pairs > 0:
		return eval.OnePair
	}
	return eval.HighCard
}

// drawOuts counts the outs of the partial flushes and straights that use a hole card:
// 9 for four to a flush, 8 for an open-ended straight draw, 4 for a gutshot (both
// draws together count at most 15).
func drawOuts(a, c cards.Card, board []cards.Card) int {
	var suits [cards.NumSuits]int
	var ranks uint16 // bit r: rank r held; bit 13 mirrors the ace as a one
	var hole uint16
	add := func(x cards.Card) {
		suits[x.Suit()]++
		ranks |= 1 << x.Rank()
	}
	add(a)
	add(c)
	for _, x := range board {
		add(x)
	}
	hole = 1<<a.Rank() | 1<<c.Rank()
	if ranks&(1<<cards.Ace) != 0 {
		ranks |= 1 << 13
	}
	if hole&(1<<cards.Ace) != 0 {
		hole |= 1 << 13
	}
	outs := 0
	if (suits[a.Suit()] == 4) || (suits[c.Suit()] == 4) {
		outs = 9
	}
	// The ten straights: A-5 (the ace as one, bit 13, and bits 0-3), then bits
	// w-1 to w+3 for w = 1 (2-6) to 9 (T-A).
	var missing uint16
	for w := 0; w <= 9; w++ {
		window := uint16(0xf | 1<<13)
		if w > 0 {
			window = 0x1f << (w - 1)
		}
		held := ranks & window
		if popcount(held) == 5 {
			return outs // a straight is made: no straight draw
		}
		if popcount(held) == 4 && held&hole != 0 {
			missing |= window &^ held
		}
	}
	missing = missing&^(1<<13) | missing>>13<<cards.Ace // the ace as one is the ace
	switch n := popcount(missing); {
	case n >= 2:
		outs += 8
	case n == 1:
		outs += 4
	}
	return min(outs, 15)
}

func popcount(x uint16) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}
