package bot

import (
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

// defaultFold is the fold ratio per street the Bayesian bot assumes of an opponent it
// has not yet seen in ModelHands hands, and the prior its observations are mixed with.
var defaultFold = [numStreets]float64{
	engine.Preflop: 0.3, engine.Flop: 0.35, engine.Turn: 0.3, engine.River: 0.25,
	engine.StudOne: 0.3, engine.StudTwo: 0.25,
}

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

// Observe counts, from the events of a finished hand (a view of it), each time seat
// acted facing a bet and whether it folded, and one more hand seen.
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

// bayesBot plays rules on hand ranks with randomness before the flop and a small
// decision network after it (and in stud):
//
//   - belief: the chance of winning at showdown from the bucket of the hand type
//     made (high card, low or top pair, two pair, ...; a hand the board alone makes
//     counts as high card), raised by the outs of partial straights and flushes
//     before the river, raised to the power of the opponents in, and lowered by
//     their fold ratios on this street (who stays in against a folder is strong);
//     in stud the belief is the simulated equity, spade rule included;
//   - utility: the expected chips of folding (0), checking or calling, and betting
//     or raising half the pot, the pot and twice the pot, where a bet wins the pot
//     when everyone folds (each opponent by its fold ratio, more against bigger
//     bets) and otherwise a showdown against callers, who are stronger;
//   - sigmoid betting curves: it bets with probability σ((U_bet − U_passive)/(τ·pot))
//     rather than always when betting is best, slow-plays a share of its monsters
//     and calls by the same curve, so that its bets do not reveal its hand.
//
// Opponent models (OpponentModel) are kept per opponent name (see Seater) in
// memory and, after each hand, in its ModelStore if it has one.
type bayesBot struct {
	r      *rand.Rand
	models ModelStore
	known  map[string]*OpponentModel
	names  []string
	sim    simulator
	s      situation
	warned bool
}

func newBayes(o Options) (Bot, error) {
	return &bayesBot{r: o.Rand, models: o.Models, known: map[string]*OpponentModel{}}, nil
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
	if err := loadJSON(b.models, "bayes", name, m); err != nil {
		slog.Warn("bayes bot cannot read its opponent model", "opponent", name, "err", err)
		*m = OpponentModel{}
	}
	b.known[name] = m
	return m
}

// HandEnd updates the model of every opponent dealt in and saves the models.
func (b *bayesBot) HandEnd(v *engine.View, _ *engine.Result) {
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

// Act decides by the pre-flop rules or the decision network.
func (b *bayesBot) Act(v *engine.View) engine.Action {
	b.s.read(v)
	if b.s.preflop {
		return b.preflop(v)
	}
	var belief float64
	if b.s.holdem {
		belief = holdemBelief(b.s.mine[0], b.s.mine[1], v.Board, b.s.opps, b.s.known)
	} else {
		belief = b.sim.equity(b.r, v, &b.s, DefaultSamples/2)
	}
	return b.decide(v, belief)
}

// preflop plays Hold'em's first round by the hand's chart group, with randomness:
// groups 1-2 raise (sometimes just call), 3-4 raise when nobody has yet (half the
// time) and call a raise of up to six big blinds, 5-6 limp or call two big blinds,
// now and then raising; the rest check or fold, bluff-raising now and then late.
func (b *bayesBot) preflop(v *engine.View) engine.Action {
	l := v.Legal
	g := startingGroup(b.s.mine[0], b.s.mine[1])
	bb, raises := preflopBets(v)
	bb = max(bb, 1)
	x := b.r.IntN(100)
	raise := raiseTo(l, max(3*l.CurrentBet, l.CurrentBet+2*bb))
	switch {
	case g <= 2:
		if x < 85 {
			return raise
		}
		return checkOrCall(l)
	case g <= 4:
		if raises == 0 && x < 50 {
			return raise
		}
		if b.s.toCall <= 6*bb {
			return checkOrCall(l)
		}
	case g <= 6:
		if x < 10 {
			return raise
		}
		if b.s.toCall <= 2*bb {
			return checkOrCall(l)
		}
	default:
		if raises == 0 && b.s.position == posLate && x < 8 {
			return raise
		}
	}
	return checkOrFold(l)
}

// The decision network's constants: how much staying in against a folder lowers the
// belief (foldDamp), how much callers of a bet are stronger (callDamp), the width of
// the sigmoid curves in pots (curveWidth) and the share of very strong hands
// slow-played (slowPlay, above slowPlayAt).
const (
	foldDamp   = 0.3
	callDamp   = 0.4
	curveWidth = 0.12
	slowPlay   = 0.25
	slowPlayAt = 0.9
)

// betSizes are the bets and raises the utility table weighs, as fractions of the
// pot after calling.
var betSizes = [...]float64{0.5, 1, 2}

// decide builds the utility table for belief and draws the action by the sigmoid curves.
func (b *bayesBot) decide(v *engine.View, belief float64) engine.Action {
	l := v.Legal
	pot, toCall := float64(b.s.pot), float64(b.s.toCall)
	// The opponents' fold ratios on this street: all fold with foldAll, and the
	// belief is lowered by their mean.
	foldAll, mean, n := 1.0, 0.0, 0
	for i := range v.Seats {
		if o := &v.Seats[i]; i != v.Viewer && o.InHand && !o.Folded && !o.AllIn {
			f := b.Model(b.nameOf(i)).FoldRatio(v.Street)
			foldAll *= f
			mean += f
			n++
		}
	}
	if n > 0 {
		mean /= float64(n)
	} else {
		foldAll = 0
	}
	belief *= 1 - foldDamp*mean

	passive := belief*(pot+toCall) - toCall // check or call
	best, bestTo := math.Inf(-1), int64(0)
	if l.Can(engine.Bet) || l.Can(engine.Raise) {
		for _, frac := range betSizes {
			to := potRaise(l, b.s.pot, int64(frac*100), 100)
			to = min(max(to, l.MinTo), l.MaxTo)
			r := float64(to - l.CurrentBet) // added over the call
			f := min(foldAll*(0.7+0.3*frac), 0.95)
			called := belief * (1 - callDamp*f)
			u := f*pot + (1-f)*(called*(pot+toCall+r*float64(1+b.s.opps))-(toCall+r))
			if u > best {
				best, bestTo = u, to
			}
		}
	}
	scale := curveWidth * max(pot, 1)
	if bestTo > 0 {
		p := sigmoid((best - max(passive, 0)) / scale)
		if belief > slowPlayAt {
			p *= 1 - slowPlay
		}
		if b.r.Float64() < p {
			return raiseTo(l, bestTo)
		}
	}
	if toCall == 0 || b.r.Float64() < sigmoid(passive/scale) {
		return checkOrCall(l)
	}
	return checkOrFold(l)
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// handBucket is the belief of winning at showdown against one opponent for each
// hand type: high card, a pair below the board's top card, top pair or an
// overpair, two pair, three of a kind, straight, flush, full house, quads, straight
// flush.
var handBucket = [...]float64{0.15, 0.4, 0.62, 0.76, 0.85, 0.9, 0.93, 0.97, 0.99, 1}

// holdemBelief returns the bucket belief of winning at showdown with hole on board
// against opps opponents, raised by the outs of partial straights and flushes before
// the river; known holds every card seen.
func holdemBelief(a, c cards.Card, board []cards.Card, opps int, known cards.Set) float64 {
	h := eval.HandOf(a, c).Add(board[0])
	for _, x := range board[1:] {
		h = h.Add(x)
	}
	cat := h.Rank().Category()
	var boardRanks [cards.NumRanks]int
	top := cards.Two
	for _, x := range board {
		boardRanks[x.Rank()]++
		top = max(top, x.Rank())
	}
	if boardCategory(boardRanks) >= cat {
		cat = eval.HighCard // the board plays
	}
	var belief float64
	switch cat {
	case eval.HighCard:
		belief = handBucket[0] + 0.01*float64(max(a.Rank(), c.Rank())-cards.Ten)
	case eval.OnePair:
		belief = handBucket[1]
		if a.Rank() == c.Rank() && a.Rank() > top || boardRanks[a.Rank()] > 0 && a.Rank() == top || boardRanks[c.Rank()] > 0 && c.Rank() == top {
			belief = handBucket[2]
		}
	default:
		belief = handBucket[int(cat-eval.TwoPair)+3]
	}
	if len(board) < 5 {
		outs := drawOuts(a, c, board)
		unseen := float64(cards.NumCards - known.Len())
		miss := (unseen - float64(outs)) / unseen
		if len(board) == 3 {
			miss *= (unseen - 1 - float64(outs)) / (unseen - 1)
		}
		belief += (1 - belief) * (1 - miss) * 0.8 // a made draw is not always best
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
