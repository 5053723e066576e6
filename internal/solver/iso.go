package solver

import (
	"math"

	"github.com/felt-poker/felt/internal/cards"
)

// Suit isomorphism. A permutation of the four suits that maps the starting board and
// both ranges (every combo with its weight) onto themselves maps the game onto
// itself. At a chance node, two cards that such a permutation, also fixing the board
// so far, takes one to the other lead to the same subgame with the suits renamed:
// only the smallest card of each class (its representative) gets a subtree, and the
// values of the others are the representative's, read through the permutation.

// suitPerm maps each suit to a suit.
type suitPerm [4]uint8

// perms lists the 24 permutations of the suits; perms[0] is the identity.
var perms = func() []suitPerm {
	var out []suitPerm
	var rec func(p suitPerm, used uint8, i int)
	rec = func(p suitPerm, used uint8, i int) {
		if i == 4 {
			out = append(out, p)
			return
		}
		for s := range uint8(4) {
			if used&(1<<s) == 0 {
				p[i] = s
				rec(p, used|1<<s, i+1)
			}
		}
	}
	rec(suitPerm{}, 0, 0)
	return out
}()

// permIndex returns p's index in perms.
func permIndex(p suitPerm) uint8 {
	for i, q := range perms {
		if q == p {
			return uint8(i)
		}
	}
	panic("solver: not a permutation of the suits")
}

func (p suitPerm) card(c cards.Card) cards.Card {
	return cards.New(c.Rank(), cards.Suit(p[c.Suit()]))
}

func (p suitPerm) set(s cards.Set) cards.Set {
	var out cards.Set
	for _, c := range s.Cards() {
		out = out.Add(p.card(c))
	}
	return out
}

// then returns the permutation that applies p, then q.
func (p suitPerm) then(q suitPerm) suitPerm {
	var out suitPerm
	for s := range p {
		out[s] = q[p[s]]
	}
	return out
}

func (p suitPerm) inverse() suitPerm {
	var out suitPerm
	for s, t := range p {
		out[t] = uint8(s)
	}
	return out
}

// findSymmetries fills s.handMap for every permutation that fixes the starting board
// and both ranges: handMap[i][p][h] is the index of the image of p's hand h under
// perms[i]. The others are left nil. Off with Options.NoIsomorphism (but the
// identity).
func (s *Solver) findSymmetries(off bool) {
	var start cards.Set
	for _, c := range s.spot.Board {
		start = start.Add(c)
	}
	index := [2]map[cards.Set]int32{{}, {}}
	for p := range 2 {
		for h, hd := range s.hands[p] {
			index[p][cards.SetOf(hd.c[0], hd.c[1])] = int32(h)
		}
	}
	s.handMap = make([][2][]int32, len(perms))
	for i, pm := range perms {
		if (off && i != 0) || pm.set(start) != start {
			continue
		}
		var maps [2][]int32
		ok := true
		for p := 0; p < 2 && ok; p++ {
			maps[p] = make([]int32, len(s.hands[p]))
			for h, hd := range s.hands[p] {
				o, found := index[p][cards.SetOf(pm.card(hd.c[0]), pm.card(hd.c[1]))]
				if !found || s.hands[p][o].w != hd.w || !s.sameBound(p, h, int(o)) {
					ok = false
					break
				}
				maps[p][h] = o
			}
		}
		if ok {
			s.handMap[i] = maps
			s.symmetries = append(s.symmetries, uint8(i))
		}
	}
}

// dealClasses returns, for each card not on board in increasing order, the card, the
// permutation (an index into perms) that maps it to its class's representative (0 for
// a representative) and the representative's position in the list.
func (s *Solver) dealClasses(board cards.Set) (deal []cards.Card, perm, from []uint8) {
	var group []uint8
	for _, i := range s.symmetries {
		if perms[i].set(board) == board {
			group = append(group, i)
		}
	}
	pos := map[cards.Card]uint8{}
	for c := cards.Card(0); c < cards.NumCards; c++ {
		if board.Has(c) {
			continue
		}
		rep, via := c, uint8(0)
		for _, i := range group {
			if d := perms[i].card(c); d < rep {
				rep, via = d, i
			}
		}
		pos[c] = uint8(len(deal))
		deal = append(deal, c)
		perm = append(perm, via)
		from = append(from, pos[rep])
	}
	return deal, perm, from
}

// sameBound reports whether p's hands h and o have the same bound (both none, or
// equal), so that a permutation taking one to the other keeps a safe re-solve's game.
func (s *Solver) sameBound(p, h, o int) bool {
	g := s.gadget
	if g == nil || g.player != p {
		return true
	}
	a, b := g.bound[h], g.bound[o]
	return a == b || math.IsNaN(a) && math.IsNaN(b)
}
