package bot

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/eval"
)

// NumInputs is the number of inputs of the neural bot's network:
//
//	0-8    the hand types (high card .. straight flush) the bot's cards reach: in
//	       Hold'em after the flop the share of the possible next cards giving each
//	       type (on the river the type made), before it a pair or high card; in stud
//	       the type of its cards
//	9-17   the same for the opponents: the share of random opponent hands making each
//	       type on this board (Hold'em), the type of the best up cards showing (stud)
//	18     pot odds (the share of the pot after calling that a call costs)
//	19     position (1: acts last after the flop; before it the chart's class / 4)
//	20     the bot's stack over its stack plus the pot
//	21     the street (0 first round .. 1 last)
//	22     the starting hand (Hold'em: (9 − chart group) / 8; stud: a spade in the
//	       hole, by its rank)
//	23     the amount to call over the pot, at most 1
const NumInputs = 24

// oppSamples is the number of random opponent hands the neural bot evaluates for
// inputs 9-17.
const oppSamples = 24

// Net is the neural bot's network: NumInputs inputs, one hidden layer of tanh
// units, one sigmoid output. Facing a bet, an output at or above Raise raises, at or
// above Bet calls, and below it folds; with nothing to call, at or above Raise it
// bets the pot, at or above Bet half the pot, and below it checks.
type Net struct {
	// W1 holds the hidden layer's weights, one row of NumInputs per unit; B1 its biases.
	W1 [][NumInputs]float64 `json:"w1"`
	B1 []float64            `json:"b1"`
	// W2 and B2 are the output unit's weights and bias.
	W2         []float64 `json:"w2"`
	B2         float64   `json:"b2"`
	Bet, Raise float64
	// OnePairGuard makes the bot call instead of raising a raise of its own bet
	// with one pair of its own or less after the flop (onePairWar): a rule beside
	// the net, set in the built-in network's file, not by evolution (so that
	// felt evolve keeps rebuilding the same weights).
	OnePairGuard bool `json:"one_pair_guard,omitempty"`
}

// The built-in network, evolved against the gauntlet and judged by LBR (about two
// CPU-minutes on two cores; docs/bots.md, "felt evolve"). Rebuild it with:
//
//	felt evolve --population 24 --generations 40 --hands 600 --seed 7 --gauntlet --lbr 1000 \
//	  --out internal/bot/neural_default.json --chart docs/bots-evolve.svg
//
// and then add "one_pair_guard": true to the file (the guard is not evolved).
//
//go:embed neural_default.json
var defaultNetJSON []byte

// DefaultNet returns a copy of the built-in network, evolved with felt evolve (see
// docs/bots.md).
func DefaultNet() *Net {
	n := new(Net)
	if err := json.Unmarshal(defaultNetJSON, n); err != nil {
		panic("bot: built-in network: " + err.Error())
	}
	if err := n.Validate(); err != nil {
		panic("bot: built-in network: " + err.Error())
	}
	return n
}

// RandomNet returns a network of hidden units with random weights (normal, scaled by
// the square root of each unit's inputs) and thresholds.
func RandomNet(r *rand.Rand, hidden int) *Net {
	n := &Net{W1: make([][NumInputs]float64, hidden), B1: make([]float64, hidden), W2: make([]float64, hidden)}
	for i := range n.W1 {
		for k := range n.W1[i] {
			n.W1[i][k] = r.NormFloat64() / math.Sqrt(NumInputs)
		}
		n.B1[i] = r.NormFloat64() * 0.1
		n.W2[i] = r.NormFloat64() / math.Sqrt(float64(hidden))
	}
	n.Bet, n.Raise = 0.3+0.4*r.Float64(), 0.5+0.45*r.Float64()
	n.order()
	return n
}

// order keeps the thresholds in [0, 1] with Bet at most Raise.
func (n *Net) order() {
	n.Bet, n.Raise = min(max(n.Bet, 0), 1), min(max(n.Raise, 0), 1)
	if n.Bet > n.Raise {
		n.Bet, n.Raise = n.Raise, n.Bet
	}
}

// MaxHidden bounds a network's hidden units (the built-in one has 8): each
// decision runs them all, so a weights file of millions could slow every
// decision of its bot.
const MaxHidden = 1024

// Validate checks the shapes and that every number is finite.
func (n *Net) Validate() error {
	h := len(n.W1)
	if h > MaxHidden {
		return fmt.Errorf("network of %d hidden units, at most %d", h, MaxHidden)
	}
	if h == 0 || len(n.B1) != h || len(n.W2) != h {
		return fmt.Errorf("network shapes: %d hidden rows, %d biases, %d output weights", h, len(n.B1), len(n.W2))
	}
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	ok := finite(n.B2) && finite(n.Bet) && finite(n.Raise)
	for i := range h {
		ok = ok && finite(n.B1[i]) && finite(n.W2[i])
		for _, w := range n.W1[i] {
			ok = ok && finite(w)
		}
	}
	if !ok {
		return fmt.Errorf("network has a weight that is not a finite number")
	}
	return nil
}

// Output runs the network on in; it does not allocate.
func (n *Net) Output(in *[NumInputs]float64) float64 {
	sum := n.B2
	for i := range n.W1 {
		a := n.B1[i]
		for k, w := range n.W1[i] {
			a += w * in[k]
		}
		sum += n.W2[i] * math.Tanh(a)
	}
	return sigmoid(sum)
}

// Clone returns a deep copy of n.
func (n *Net) Clone() *Net {
	c := *n
	c.W1 = append([][NumInputs]float64(nil), n.W1...)
	c.B1 = append([]float64(nil), n.B1...)
	c.W2 = append([]float64(nil), n.W2...)
	return &c
}

// Crossover returns a child of n and other (of the same shape): each hidden unit,
// with its incoming and outgoing weights, from one parent or the other at random,
// and each threshold likewise.
func (n *Net) Crossover(r *rand.Rand, other *Net) *Net {
	c := n.Clone()
	for i := range c.W1 {
		if r.IntN(2) == 0 {
			c.W1[i], c.B1[i], c.W2[i] = other.W1[i], other.B1[i], other.W2[i]
		}
	}
	if r.IntN(2) == 0 {
		c.B2 = other.B2
	}
	if r.IntN(2) == 0 {
		c.Bet = other.Bet
	}
	if r.IntN(2) == 0 {
		c.Raise = other.Raise
	}
	c.order()
	return c
}

// Mutate adds normal noise of standard deviation sigma to each weight and threshold
// with probability rate (thresholds with a tenth of the noise).
func (n *Net) Mutate(r *rand.Rand, rate, sigma float64) {
	nudge := func(x *float64, s float64) {
		if r.Float64() < rate {
			*x += r.NormFloat64() * s
		}
	}
	for i := range n.W1 {
		for k := range n.W1[i] {
			nudge(&n.W1[i][k], sigma)
		}
		nudge(&n.B1[i], sigma)
		nudge(&n.W2[i], sigma)
	}
	nudge(&n.B2, sigma)
	nudge(&n.Bet, sigma/10)
	nudge(&n.Raise, sigma/10)
	n.order()
}

// LoadNet reads a network written by Save.
func LoadNet(path string) (*Net, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	n, err := ParseNet(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

// ParseNet reads a network's JSON, as Save writes it, and validates it.
func ParseNet(data []byte) (*Net, error) {
	n := new(Net)
	if err := json.Unmarshal(data, n); err != nil {
		return nil, err
	}
	if err := n.Validate(); err != nil {
		return nil, err
	}
	return n, nil
}

// Save writes the network as JSON.
func (n *Net) Save(path string) error {
	data, err := json.MarshalIndent(n, "", " ")
	if err != nil {
		return err
	}
	return writeFileAtomic(path, append(data, '\n'))
}

// neuralBot plays by its network's output (see Net).
type neuralBot struct {
	r   *rand.Rand
	net *Net
	in  [NumInputs]float64
	sim simulator
	s   situation
}

func newNeural(o Options) (Bot, error) {
	n := o.Net
	if n == nil {
		n = DefaultNet()
	} else if err := n.Validate(); err != nil {
		return nil, err
	}
	return &neuralBot{r: o.Rand, net: n}, nil
}

// Act computes the inputs, runs the network and compares its output with the
// thresholds; in fixed-limit Hold'em it does not fold to a single bet the pot
// odds pay to call.
func (b *neuralBot) Act(v *engine.View) engine.Action {
	return defendLimit(b.act(v), b.r, &b.sim, v, &b.s)
}

// act is the network's rule.
func (b *neuralBot) act(v *engine.View) engine.Action {
	b.s.read(v)
	b.inputs(v)
	o := b.net.Output(&b.in)
	l := v.Legal
	switch {
	case b.s.toCall == 0 && o >= b.net.Raise:
		return raiseTo(l, potRaise(l, b.s.pot, 1, 1))
	case b.s.toCall == 0 && o >= b.net.Bet:
		return raiseTo(l, potRaise(l, b.s.pot, 1, 2))
	case o >= b.net.Raise && !b.onePairWar(v):
		return raiseTo(l, potRaise(l, b.s.pot, 2, 3))
	case o >= b.net.Bet:
		return checkOrCall(l)
	}
	return checkOrFold(l)
}

// onePairWar reports a raise war the net's raise would lose: after the flop in
// Hold'em, its own bet or raise on this street raised, with one pair of its own
// or less (a board pair does not count: handBucketOf's buckets up to two pair
// with one hole card). It then calls instead of raising again (the net's output
// says its hand is strong; a player who raises a raise says more: felt gauntlet
// found the net stacking off with overpairs against tag).
func (b *neuralBot) onePairWar(v *engine.View) bool {
	if !b.net.OnePairGuard || !b.s.holdem || b.s.preflop || !facingRaise(v) {
		return false
	}
	return handBucketOf(b.s.mine[0], b.s.mine[1], v.Board) <= bkTwoPairOne
}

// inputs fills b.in from v (see NumInputs).
func (b *neuralBot) inputs(v *engine.View) {
	in := &b.in
	*in = [NumInputs]float64{}
	s := &b.s
	if s.holdem {
		b.holdemTypes(v.Board)
		g := startingGroup(s.mine[0], s.mine[1])
		in[22] = float64(9-g) / 8
		if s.preflop {
			in[19] = float64(s.position) / 4
		} else if v.Viewer == v.Button {
			in[19] = 1
		}
		in[21] = float64(v.Street) / 3
	} else {
		studTypes(in[0:9], s.mine[:s.nMine])
		var best eval.Category
		for i := range v.Seats {
			o := &v.Seats[i]
			if i != v.Viewer && o.InHand && !o.Folded && o.NCards > 1 {
				best = max(best, studCategory(o.Cards[1:o.NCards]))
			}
		}
		if best > eval.NoHand {
			in[9+best-eval.HighCard] = 1
		}
		if h := s.mine[0]; h.Suit() == cards.Spades {
			in[22] = float64(h.Rank()+1) / cards.NumRanks
		}
		if v.Street == engine.StudTwo {
			in[21] = 1
		}
	}
	in[18] = s.potOdds
	if stack := float64(v.Seats[v.Viewer].Stack); stack+float64(s.pot) > 0 {
		in[20] = stack / (stack + float64(s.pot))
	}
	if s.pot > 0 {
		in[23] = min(float64(s.toCall)/float64(s.pot), 1)
	}
}

// holdemTypes fills inputs 0-17 for Hold'em.
func (b *neuralBot) holdemTypes(board []cards.Card) {
	in, s := &b.in, &b.s
	if len(board) == 0 {
		if s.mine[0].Rank() == s.mine[1].Rank() {
			in[eval.OnePair-eval.HighCard] = 1
		} else {
			in[0] = 1
		}
		return
	}
	base := eval.Empty
	for _, c := range board {
		base = base.Add(c)
	}
	mine := base.Add(s.mine[0]).Add(s.mine[1])
	b.sim.fill(s.known)
	if len(board) == 5 {
		in[mine.Rank().Category()-eval.HighCard] = 1
	} else {
		for _, c := range b.sim.deck[:b.sim.n] {
			in[mine.Add(c).Rank().Category()-eval.HighCard]++
		}
		for k := range 9 {
			in[k] /= float64(b.sim.n)
		}
	}
	for range oppSamples {
		b.sim.draw(b.r, 2)
		in[9+base.Add(b.sim.deck[0]).Add(b.sim.deck[1]).Rank().Category()-eval.HighCard] += 1.0 / oppSamples
	}
}

// studTypes sets the one-hot hand type of a stud seat's cards (two or three) in out.
func studTypes(out []float64, cs []cards.Card) {
	if c := studCategory(cs); c > eval.NoHand {
		out[c-eval.HighCard] = 1
	}
}

// studCategory is the type of two or three stud cards: three of a kind, a pair or
// high card (one card is high card).
func studCategory(cs []cards.Card) eval.Category {
	switch len(cs) {
	case 0:
		return eval.NoHand
	case 3:
		return eval.Stud(cs[0], cs[1], cs[2]).Category()
	case 2:
		if cs[0].Rank() == cs[1].Rank() {
			return eval.OnePair
		}
	}
	return eval.HighCard
}
