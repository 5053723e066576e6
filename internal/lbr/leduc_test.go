package lbr

import (
	"fmt"
	"testing"

	"github.com/felt-poker/felt/internal/cfr"
)

// leducLBR plays LBR in Leduc Hold'em, where the exact best response is known
// (cfr.Profile.BestResponseValue): with the same values (CallValue, BetValue) and
// the same Bayes update of the opponent's range as the no-limit player, it picks
// one action at every information set of player q, given the opponent's part of
// p. It returns p with q's part replaced by LBR's pure strategy.
type leducLBR struct {
	g     *cfr.Game
	p     *cfr.Profile
	out   *cfr.Profile
	q     int
	r     cfr.LimitRules
	index map[string]int // information set key -> index
	label []string
}

func newLeducLBR(p *cfr.Profile, q int) *leducLBR {
	g := p.Game()
	l := &leducLBR{g: g, p: p, q: q, r: cfr.LeducRules(), index: map[string]int{}}
	for i := range g.Infosets() {
		l.index[g.Infoset(i).Key] = i
	}
	l.label = []string{"J", "Q", "K"}
	// out starts as a copy of p; LBR overwrites q's information sets.
	l.out = cfr.Uniform(g)
	for i := range g.Infosets() {
		if err := l.out.SetProbs(i, p.Probs(i)); err != nil {
			panic(err)
		}
	}
	return l
}

// state is a public node of Leduc: the history, the round, the board (-1 before
// it is dealt), each player's chips in, who acts, raises and actions this round,
// and the opponent's reach for each of its cards.
type state struct {
	hist             string
	rd, board        int
	in               [2]int
	p, raises, acted int
	reach            [3]float64
}

// walk visits every decision node below s, choosing LBR's action at q's.
func (l *leducLBR) walk(s state) {
	i0 := l.index[l.label[0]+":"+s.hist]
	acts := l.g.Infoset(i0).Actions
	if s.p == l.q {
		for h := range 3 {
			l.choose(s, h, acts)
		}
	}
	facing := s.in[1-s.p] > s.in[s.p]
	for a, act := range acts {
		next := s
		next.hist += string(act)
		next.p, next.acted = 1-s.p, s.acted+1
		if s.p != l.q {
			for o := range 3 {
				next.reach[o] *= l.p.Probs(l.index[l.label[o]+":"+s.hist])[a]
			}
		}
		switch act {
		case 'f':
			continue
		case 'c':
			next.in[s.p] = s.in[1-s.p]
			if s.acted == 0 && !facing {
				l.walk(next)
				continue
			}
			if s.rd == 0 {
				for c := range 3 {
					deal := next
					deal.rd, deal.board, deal.p, deal.raises, deal.acted = 1, c, 0, 0, 0
					deal.hist += "/" + l.label[c] + ":"
					l.walk(deal)
				}
			}
		case 'r':
			next.in[s.p] = s.in[1-s.p] + l.r.Bets[s.rd]
			next.raises++
			l.walk(next)
		}
	}
}

// weights returns the opponent's range when q holds h at s: the chance of each
// of its cards given h and the board, times its reach.
func (l *leducLBR) weights(s state, h int) [3]float64 {
	var w [3]float64
	for o := range 3 {
		w[o] = float64(2-same(o, h)) * s.reach[o]
		if s.board >= 0 {
			w[o] *= float64(max(2-same(h, s.board)-same(o, s.board), 0))
		}
	}
	return w
}

func same(a, b int) int {
	if a == b {
		return 1
	}
	return 0
}

// equity returns h's share of the pot against the range w, the board dealt or
// (before it) averaged over the cards left.
func (l *leducLBR) equity(s state, h int, w [3]float64) float64 {
	var num, den float64
	for o := range 3 {
		if w[o] == 0 {
			continue
		}
		if s.board >= 0 {
			num += w[o] * showdownShare(h, o, s.board)
			den += w[o]
			continue
		}
		for c := range 3 {
			k := float64(max(2-same(h, c)-same(o, c), 0))
			num += w[o] * k * showdownShare(h, o, c)
			den += w[o] * k
		}
	}
	if den == 0 {
		return 0.5
	}
	return num / den
}

func showdownShare(h, o, board int) float64 {
	sh, so := h+3*same(h, board), o+3*same(o, board)
	switch {
	case sh > so:
		return 1
	case sh == so:
		return 0.5
	}
	return 0
}

// choose sets LBR's action when q holds h at s.
func (l *leducLBR) choose(s state, h int, acts string) {
	w := l.weights(s, h)
	pot, toCall := int64(s.in[0]+s.in[1]), int64(s.in[1-l.q]-s.in[l.q])
	best, bestV := 'c', CallValue(l.equity(s, h, w), pot, toCall)
	if toCall > 0 && bestV < 0 {
		best, bestV = 'f', 0
	}
	for _, act := range acts {
		if act != 'r' {
			continue
		}
		after := s.hist + "r"
		var fold, total float64
		var callers [3]float64
		for o := range 3 {
			f := l.p.Probs(l.index[l.label[o]+":"+after])[0] // facing a bet, fold is first
			fold += w[o] * f
			total += w[o]
			callers[o] = w[o] * (1 - f)
		}
		bet := int64(l.r.Bets[s.rd])
		if v := BetValue(fold/total, l.equity(s, h, callers), pot, toCall+bet, bet); v > bestV {
			best, bestV = 'r', v
		}
	}
	probs := make([]float64, len(acts))
	for a, act := range acts {
		if act == best {
			probs[a] = 1
		}
	}
	if err := l.out.SetProbs(l.index[l.label[h]+":"+s.hist], probs); err != nil {
		panic(err)
	}
}

// value returns what player q wins per game playing LBR against p.
func leducLBRValue(p *cfr.Profile, q int) float64 {
	l := newLeducLBR(p, q)
	l.walk(state{board: -1, in: [2]int{1, 1}, reach: [3]float64{1, 1, 1}})
	v := l.out.Value()
	if q == 1 {
		v = -v
	}
	return v
}

// On Leduc Hold'em LBR never wins more than the exact best response (it is one
// pure strategy among those the best response picks from), and it wins much of
// what the best response wins against weak strategies: against the uniform
// strategy and against CFR strategies of a few iterations, for both seats.
func TestLeducLBRBelowBestResponse(t *testing.T) {
	g := cfr.Leduc()
	profiles := map[string]*cfr.Profile{"uniform": cfr.Uniform(g)}
	for _, n := range []int{1, 10, 100} {
		s, err := cfr.NewSolver(g, cfr.Options{Algorithm: cfr.CFRPlus})
		if err != nil {
			t.Fatal(err)
		}
		s.Iterate(n)
		profiles[fmt.Sprintf("cfr+ %d", n)] = s.Average()
	}
	for name, p := range profiles {
		for q := range 2 {
			own := p.Value()
			if q == 1 {
				own = -own
			}
			lbr, br := leducLBRValue(p, q), p.BestResponseValue(q)
			t.Logf("%s, player %d: plays itself %+.4f, LBR %+.4f, best response %+.4f", name, q, own, lbr, br)
			if lbr > br+1e-9 {
				t.Errorf("%s, player %d: LBR %v above the best response %v", name, q, lbr, br)
			}
			if name == "uniform" && lbr < own+0.5*(br-own) {
				t.Errorf("%s, player %d: LBR %v wins less than half of what the best response %v adds to %v", name, q, lbr, br, own)
			}
		}
	}
}
