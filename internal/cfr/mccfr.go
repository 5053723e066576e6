package cfr

// sampleIteration is one iteration of external-sampling MCCFR: for each player in
// turn, sample a deal and walk the tree, exploring every action of the traverser
// and sampling the opponent's (whose average strategy takes the current strategy
// there, stochastically weighted as in Lanctot's thesis) and chance's.
func (s *Solver) sampleIteration() {
	g := s.g
	H := g.hands
	for p := range 2 {
		deal := sample(s.rng.Float64(), g.deal)
		s.walk(0, p, deal/H, deal%H)
	}
}

// walk returns traverser p's sampled value at node n with hands h0 and h1, updating
// p's regrets below n.
func (s *Solver) walk(n int32, p, h0, h1 int) float64 {
	g := s.g
	H := g.hands
	nd := &g.nodes[n]
	switch nd.kind {
	case terminal:
		u := g.util[int(nd.term)+h0*H+h1]
		if p == 1 {
			u = -u
		}
		return u
	case chance:
		var probs [maxBoardCards]float64
		for c := range nd.kids {
			probs[c] = g.chanceProb[int(nd.prob)+c*H*H+h0*H+h1]
		}
		return s.walk(nd.kids[sample(s.rng.Float64(), probs[:len(nd.kids)])], p, h0, h1)
	}
	h := h0
	if nd.player == 1 {
		h = h1
	}
	na := len(nd.acts)
	sl := int(nd.slot) + h*na
	var buf [3]float64 // a limit game has at most fold, call and raise
	cur := buf[:na]
	regretMatch(s.regret[sl:sl+na], cur)
	if int(nd.player) != p {
		for a, pr := range cur {
			s.sum[sl+a] += pr
		}
		return s.walk(nd.kids[sample(s.rng.Float64(), cur)], p, h0, h1)
	}
	var vals [3]float64
	v := 0.0
	for a, k := range nd.kids {
		vals[a] = s.walk(k, p, h0, h1)
		v += cur[a] * vals[a]
	}
	for a := range na {
		s.regret[sl+a] += vals[a] - v
	}
	return v
}

// maxBoardCards bounds a chance node's children: one per rank.
const maxBoardCards = 13

// sample returns the index that x, uniform in [0, 1), picks from the distribution
// probs (the last index with positive probability if rounding leaves x over).
func sample(x float64, probs []float64) int {
	last := 0
	for i, w := range probs {
		if w <= 0 {
			continue
		}
		if x < w {
			return i
		}
		x -= w
		last = i
	}
	return last
}
