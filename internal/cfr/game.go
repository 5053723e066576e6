package cfr

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnknownGame is wrapped by NewGame for a name it does not know.
var ErrUnknownGame = errors.New("unknown game")

// nodeKind says what happens at a node of a Game's public tree.
type nodeKind uint8

const (
	decision nodeKind = iota // a player acts
	chance                   // a public card is dealt
	terminal                 // the hand is over (a fold or a showdown)
)

// node is one public state: the betting so far and the board, but no private card.
// An information set is a (decision node, private hand) pair.
type node struct {
	kind   nodeKind
	player int8    // decision: the player to act (0 or 1)
	kids   []int32 // children in action (or board card) order
	slot   int32   // decision: index of (hand 0, action 0) in per-action arrays
	info   int32   // decision: index of the information set of hand 0
	term   int32   // terminal: offset of its hands×hands matrices in Game.pay and Game.util
	prob   int32   // chance: offset of its children×hands×hands table in Game.chanceProb
	hist   string  // public history, for information set keys
	acts   string  // decision: one letter per action (f fold, c check/call, r bet/raise)
}

// Game is a two-player zero-sum poker game small enough to solve whole, held as its
// public tree: each player holds one private card, known by its rank alone (suits
// matter only through card removal), so that an information set is a public node
// and a private rank. The tree is built once; solvers keep per-information-set
// numbers in flat arrays indexed by Game's slots.
type Game struct {
	name  string
	hands int      // H: private ranks
	label []string // label[h]: the rank's letter
	nodes []node   // pre-order: a parent comes before its children
	// deal[h0*H+h1] is the chance that player 0 holds rank h0 and player 1 rank h1.
	deal []float64
	// pay[term+h0*H+h1] is chance(h0, h1, board) × player 0's winnings at a terminal,
	// util[term+h0*H+h1] player 0's winnings alone.
	pay, util []float64
	// chanceProb[prob+c*H*H+h0*H+h1] is the chance of board card c given the hands.
	chanceProb []float64
	slots      int     // per-action entries: Σ over decision nodes of hands × actions
	infosets   int     // decision nodes × hands
	slotNode   []int32 // slotNode[info]: the decision node of information set info
	maxStake   float64 // the most a player can win or lose
}

// LimitRules describe a one-card limit poker game: a deck of Ranks × Suits cards,
// one private card each, an ante from both players, and one or two betting rounds of
// fixed-size bets with at most MaxRaises bets and raises a round; before the second
// round one public card is dealt, and a private card that pairs it wins the showdown,
// otherwise the higher rank does. A player may fold only when facing a bet.
type LimitRules struct {
	Name      string
	Ranks     int   // 2..13, named by the top letters of 23456789TJQK (A too when 13)
	Suits     int   // 1..4
	Ante      int   // chips each player puts in before the cards
	Bets      []int // bet size of each round (one or two rounds)
	MaxRaises int   // bets and raises allowed a round
}

// KuhnRules are Kuhn poker's: three cards, ante 1, one bet of 1.
func KuhnRules() LimitRules {
	return LimitRules{Name: "kuhn", Ranks: 3, Suits: 1, Ante: 1, Bets: []int{1}, MaxRaises: 1}
}

// LeducRules are Leduc Hold'em's as OpenSpiel plays it: six cards (J, Q, K in two
// suits), ante 1, bets of 2 then 4, two raises a round.
func LeducRules() LimitRules {
	return LimitRules{Name: "leduc", Ranks: 3, Suits: 2, Ante: 1, Bets: []int{2, 4}, MaxRaises: 2}
}

// Kuhn returns Kuhn poker: player 0's value is −1/18.
func Kuhn() *Game {
	g, err := NewLimitGame(KuhnRules())
	if err != nil {
		panic(err) // the rules are fixed and valid
	}
	return g
}

// Leduc returns Leduc Hold'em: player 0's value is −0.0856064.
func Leduc() *Game {
	g, err := NewLimitGame(LeducRules())
	if err != nil {
		panic(err)
	}
	return g
}

// GameNames lists the games NewGame knows.
func GameNames() []string { return []string{"kuhn", "leduc"} }

// NewGame returns the game called name: "kuhn" or "leduc".
func NewGame(name string) (*Game, error) {
	switch name {
	case "kuhn":
		return Kuhn(), nil
	case "leduc":
		return Leduc(), nil
	}
	return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownGame, name, strings.Join(GameNames(), ", "))
}

// NewLimitGame builds the public tree of the game r describes.
func NewLimitGame(r LimitRules) (*Game, error) {
	switch {
	case r.Ranks < 2 || r.Ranks > 13:
		return nil, fmt.Errorf("ranks %d not in 2..13", r.Ranks)
	case r.Suits < 1 || r.Suits > 4:
		return nil, fmt.Errorf("suits %d not in 1..4", r.Suits)
	case len(r.Bets) < 1 || len(r.Bets) > 2:
		return nil, fmt.Errorf("%d betting rounds: want 1 or 2", len(r.Bets))
	case r.Ante < 0 || r.MaxRaises < 0:
		return nil, errors.New("negative ante or raise cap")
	case r.Ranks*r.Suits < 2+len(r.Bets)-1:
		return nil, errors.New("too few cards")
	}
	for _, b := range r.Bets {
		if b <= 0 {
			return nil, fmt.Errorf("bet size %d must be positive", b)
		}
	}
	H := r.Ranks
	g := &Game{name: r.Name, hands: H}
	// Ranks end at the king, as in Kuhn and Leduc (J, Q, K); the ace is the 13th.
	letters := "23456789TJQK"
	if H == 13 {
		letters += "A"
	}
	for h := range H {
		g.label = append(g.label, string(letters[len(letters)-H+h]))
	}
	n := float64(r.Ranks * r.Suits)
	s := float64(r.Suits)
	g.deal = make([]float64, H*H)
	for h0 := range H {
		for h1 := range H {
			same := 0.0
			if h0 == h1 {
				same = 1
			}
			g.deal[h0*H+h1] = s / n * (s - same) / (n - 1)
		}
	}
	b := builder{g: g, r: r}
	weight := append([]float64(nil), g.deal...)
	b.round(0, -1, "", [2]int{r.Ante, r.Ante}, weight)
	g.slotNode = make([]int32, g.infosets)
	for i, nd := range g.nodes {
		if nd.kind == decision {
			for h := range H {
				g.slotNode[int(nd.info)+h] = int32(i)
			}
		}
	}
	g.maxStake = float64(r.Ante)
	for _, bet := range r.Bets {
		g.maxStake += float64(bet * r.MaxRaises)
	}
	return g, nil
}

// builder grows a Game's tree depth first.
type builder struct {
	g *Game
	r LimitRules
}

// add appends a node and returns its index.
func (b *builder) add(nd node) int32 {
	b.g.nodes = append(b.g.nodes, nd)
	return int32(len(b.g.nodes) - 1)
}

// round adds the betting round rd, starting with player 0 to act, with board card
// board (−1 for none), committed chips in, and chance weight w[h0*H+h1] of reaching it.
func (b *builder) round(rd, board int, hist string, in [2]int, w []float64) int32 {
	return b.bet(rd, board, hist, in, 0, 0, 0, w)
}

// bet adds the decision node where player p acts in round rd after raises raises and
// acted actions this round.
func (b *builder) bet(rd, board int, hist string, in [2]int, p, raises, acted int, w []float64) int32 {
	g := b.g
	H := g.hands
	facing := in[1-p] > in[p]
	acts := "c"
	if facing {
		acts = "fc"
	}
	if raises < b.r.MaxRaises {
		acts += "r"
	}
	id := b.add(node{kind: decision, player: int8(p), slot: int32(g.slots), info: int32(g.infosets), hist: hist, acts: acts})
	g.slots += H * len(acts)
	g.infosets += H
	kids := make([]int32, 0, len(acts))
	for _, a := range acts {
		h := hist + string(a)
		var kid int32
		switch a {
		case 'f':
			u := float64(in[p])
			if p == 0 {
				u = -u
			}
			kid = b.terminal(h, func(int, int) float64 { return u }, w)
		case 'c':
			next := in
			next[p] = in[1-p]
			switch {
			case acted == 0 && !facing: // first check: the other player acts
				kid = b.bet(rd, board, h, next, 1-p, raises, acted+1, w)
			case rd+1 < len(b.r.Bets):
				kid = b.deal(rd+1, h+"/", next, w)
			default:
				kid = b.showdown(h, next[0], board, w)
			}
		case 'r':
			next := in
			next[p] = in[1-p] + b.r.Bets[rd]
			kid = b.bet(rd, board, h, next, 1-p, raises+1, acted+1, w)
		}
		kids = append(kids, kid)
	}
	g.nodes[id].kids = kids
	return id
}

// deal adds the chance node that deals the public card before round rd.
func (b *builder) deal(rd int, hist string, in [2]int, w []float64) int32 {
	g := b.g
	H := g.hands
	id := b.add(node{kind: chance, prob: int32(len(g.chanceProb)), hist: hist})
	s := float64(b.r.Suits)
	left := float64(b.r.Ranks*b.r.Suits - 2)
	for c := range H {
		for h0 := range H {
			for h1 := range H {
				k := s
				if h0 == c {
					k--
				}
				if h1 == c {
					k--
				}
				g.chanceProb = append(g.chanceProb, max(k, 0)/left)
			}
		}
	}
	kids := make([]int32, 0, H)
	for c := range H {
		wc := make([]float64, H*H)
		for i := range wc {
			wc[i] = w[i] * g.chanceProb[int(g.nodes[id].prob)+c*H*H+i]
		}
		kids = append(kids, b.round(rd, c, hist+g.label[c]+":", in, wc))
	}
	g.nodes[id].kids = kids
	return id
}

// showdown adds the terminal where each player has put in stake.
func (b *builder) showdown(hist string, stake, board int, w []float64) int32 {
	return b.terminal(hist, func(h0, h1 int) float64 {
		s0, s1 := b.strength(h0, board), b.strength(h1, board)
		switch {
		case s0 > s1:
			return float64(stake)
		case s0 < s1:
			return -float64(stake)
		}
		return 0
	}, w)
}

// strength orders private ranks at showdown: a pair with the board beats any rank.
func (b *builder) strength(h, board int) int {
	if h == board {
		return b.r.Ranks + h
	}
	return h
}

// terminal adds a terminal node where player 0 wins u(h0, h1).
func (b *builder) terminal(hist string, u func(h0, h1 int) float64, w []float64) int32 {
	g := b.g
	H := g.hands
	id := b.add(node{kind: terminal, term: int32(len(g.pay)), hist: hist})
	for h0 := range H {
		for h1 := range H {
			v := u(h0, h1)
			g.util = append(g.util, v)
			g.pay = append(g.pay, w[h0*H+h1]*v)
		}
	}
	return id
}

// Name returns the game's name ("kuhn", "leduc").
func (g *Game) Name() string { return g.name }

// Infosets returns the number of information sets (of both players).
func (g *Game) Infosets() int { return g.infosets }

// Infoset describes one information set.
type Infoset struct {
	// Key names it: the private rank, a colon, then the public history, in which
	// f, c and r are fold, check or call, and bet or raise, and "/Q:" says that the
	// public card Q was dealt ("K:rc/Q:r" is the king facing a bet after a pair of
	// queens fell).
	Key     string
	Player  int    // who acts (0 or 1)
	Actions string // one letter per action, in the order of every probability vector
}

// Infoset returns information set i, 0 ≤ i < Infosets().
func (g *Game) Infoset(i int) Infoset {
	nd := &g.nodes[g.slotNode[i]]
	h := i - int(nd.info)
	return Infoset{Key: g.label[h] + ":" + nd.hist, Player: int(nd.player), Actions: nd.acts}
}

// infosetSlot returns the index of information set i's first action in per-action
// arrays, and its number of actions.
func (g *Game) infosetSlot(i int) (slot, actions int) {
	nd := &g.nodes[g.slotNode[i]]
	h := i - int(nd.info)
	return int(nd.slot) + h*len(nd.acts), len(nd.acts)
}

// terminalValues writes player q's counterfactual values at a terminal node into
// v[base:base+H]: for each of q's hands, the payoff matrix m (player 0's winnings,
// hand by opponent hand) weighted by the opponent's reach opp[base:base+H].
func terminalValues(v, m, opp []float64, base, H, q int) {
	for h := range H {
		acc := 0.0
		if q == 0 {
			for o, x := range m[h*H : h*H+H] {
				acc += x * opp[base+o]
			}
		} else {
			for o := range H {
				acc -= m[o*H+h] * opp[base+o]
			}
		}
		v[base+h] = acc
	}
}

// chanceValues writes the values at a chance node into v[base:base+H]: the sum of
// its children's.
func chanceValues(v []float64, kids []int32, base, H int) {
	for h := range H {
		acc := 0.0
		for _, k := range kids {
			acc += v[int(k)*H+h]
		}
		v[base+h] = acc
	}
}
