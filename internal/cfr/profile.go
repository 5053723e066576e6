package cfr

import "fmt"

// Profile is a strategy for both players of a Game: a probability for each action of
// each information set.
type Profile struct {
	g    *Game
	prob []float64 // per slot
}

// Uniform returns the profile that plays every action with equal probability.
func Uniform(g *Game) *Profile {
	p := &Profile{g: g, prob: make([]float64, g.slots)}
	for i := range g.infosets {
		sl, na := g.infosetSlot(i)
		for a := range na {
			p.prob[sl+a] = 1 / float64(na)
		}
	}
	return p
}

// Game returns the game the profile plays.
func (p *Profile) Game() *Game { return p.g }

// Probs returns the action probabilities at information set i (in the order of
// Game.Infoset(i).Actions). The slice is the profile's own: do not change it.
func (p *Profile) Probs(i int) []float64 {
	sl, na := p.g.infosetSlot(i)
	return p.prob[sl : sl+na : sl+na]
}

// SetProbs sets the action probabilities at information set i.
func (p *Profile) SetProbs(i int, probs []float64) error {
	sl, na := p.g.infosetSlot(i)
	if len(probs) != na {
		return fmt.Errorf("infoset %s: %d probabilities for %d actions", p.g.Infoset(i).Key, len(probs), na)
	}
	total := 0.0
	for _, x := range probs {
		if x < 0 || x > 1 {
			return fmt.Errorf("infoset %s: probability %v not in [0, 1]", p.g.Infoset(i).Key, x)
		}
		total += x
	}
	if total < 1-1e-6 || total > 1+1e-6 {
		return fmt.Errorf("infoset %s: probabilities sum to %v", p.g.Infoset(i).Key, total)
	}
	copy(p.prob[sl:sl+na], probs)
	return nil
}

// evaluator holds scratch for the full-tree walks of Value and BestResponse.
type evaluator struct {
	g     *Game
	reach [2][]float64
	value []float64
}

func newEvaluator(g *Game) *evaluator {
	n := len(g.nodes) * g.hands
	return &evaluator{g: g, reach: [2][]float64{make([]float64, n), make([]float64, n)}, value: make([]float64, n)}
}

// forward fills the reach probabilities of every node under p, for the players in
// who (a reach is 1 everywhere for a player not in who).
func (e *evaluator) forward(p *Profile, who [2]bool) {
	g := e.g
	H := g.hands
	for q := range 2 {
		for h := range H {
			e.reach[q][h] = 1
		}
	}
	for i := range g.nodes {
		nd := &g.nodes[i]
		base := i * H
		if nd.kind == terminal {
			continue
		}
		na := len(nd.acts)
		for a, k := range nd.kids {
			kb := int(k) * H
			for q := range 2 {
				r := e.reach[q]
				if nd.kind == decision && int(nd.player) == q && who[q] {
					for h := range H {
						r[kb+h] = r[base+h] * p.prob[int(nd.slot)+h*na+a]
					}
				} else {
					copy(r[kb:kb+H], r[base:base+H])
				}
			}
		}
	}
}

// backward computes player q's counterfactual values bottom-up: at q's own nodes
// each hand takes the best action if best, otherwise follows p. It returns the sum
// over q's hands at the root: q's expected winnings.
func (e *evaluator) backward(p *Profile, q int, best bool) float64 {
	g := e.g
	H := g.hands
	v := e.value
	opp := e.reach[1-q]
	for i := len(g.nodes) - 1; i >= 0; i-- {
		nd := &g.nodes[i]
		base := i * H
		switch nd.kind {
		case terminal:
			terminalValues(v, g.pay[nd.term:int(nd.term)+H*H], opp, base, H, q)
		case chance:
			chanceValues(v, nd.kids, base, H)
		case decision:
			na := len(nd.acts)
			mine := int(nd.player) == q
			for h := range H {
				acc := 0.0
				if mine && best {
					acc = v[int(nd.kids[0])*H+h]
					for _, k := range nd.kids[1:] {
						acc = max(acc, v[int(k)*H+h])
					}
				} else {
					for a, k := range nd.kids {
						x := v[int(k)*H+h]
						if mine {
							x *= p.prob[int(nd.slot)+h*na+a]
						}
						acc += x
					}
				}
				v[base+h] = acc
			}
		}
	}
	total := 0.0
	for h := range H {
		total += v[h]
	}
	return total
}

// Value returns player 0's expected winnings in chips per game when both play p
// (player 1's are the opposite).
func (p *Profile) Value() float64 {
	e := newEvaluator(p.g)
	e.forward(p, [2]bool{false, true})
	return e.backward(p, 0, false)
}

// BestResponseValue returns what player q wins per game, in chips, by a best
// response to the other player's part of p.
func (p *Profile) BestResponseValue(q int) float64 {
	e := newEvaluator(p.g)
	e.forward(p, [2]bool{q != 0, q != 1})
	return e.backward(p, q, true)
}

// Exploitability returns OpenSpiel's exploitability of p, NashConv/2: the average of
// what each player's best response wins against the other's strategy, in chips per
// game (0 at a Nash equilibrium; multiply by 1000 for milli-chips).
func (p *Profile) Exploitability() float64 {
	return (p.BestResponseValue(0) + p.BestResponseValue(1)) / 2
}
