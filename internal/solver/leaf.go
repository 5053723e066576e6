package solver

import (
	"math/rand/v2"

	"github.com/felt-poker/felt/internal/cards"
)

// Depth-limited solving (Spot.LeafRunouts). The subgame is its first street only:
// where the hand would go on to the next card, it ends at a leaf, worth to each hand
// its showdown against the other player's reach at the leaf over a fixed sample of
// runouts of the board (the turn and river cards), the whole pot won or lost on each:
// the hand's equity, realized in full, as if both were all-in. A runout holding one
// of a hand's cards does not count for it, nor for the hands of the other player that
// hold one. The runouts are the same for every leaf and every iteration, drawn from a
// seed fixed by the board, the turn cards spread over every card that can come
// (stratified), so that a solve is deterministic.

// MaxLeafRunouts bounds Spot.LeafRunouts.
const MaxLeafRunouts = 1000

// leafRunouts draws the spot's sampled runouts and adds their boards; it fills
// s.leafBoards and s.leafScale.
func (s *Solver) leafRunouts() {
	var dead cards.Set
	seed := uint64(1)
	for _, c := range s.spot.Board {
		dead = dead.Add(c)
		seed = seed*53 + uint64(c)
	}
	var left []cards.Card
	for c := cards.Card(0); c < cards.NumCards; c++ {
		if !dead.Has(c) {
			left = append(left, c)
		}
	}
	r := rand.New(rand.NewPCG(seed, 11))
	r.Shuffle(len(left), func(i, j int) { left[i], left[j] = left[j], left[i] })
	seen := map[cards.Set]bool{}
	for i := 0; len(s.leafBoards) < s.spot.LeafRunouts && i < 4*s.spot.LeafRunouts; i++ {
		set := dead.Add(left[i%len(left)]) // the next card steps through left (stratified)
		for set.Len() < 5 {
			set = set.Add(left[r.IntN(len(left))])
		}
		if !seen[set] {
			seen[set] = true
			s.leafBoards = append(s.leafBoards, s.boardIndex(set))
		}
	}
	// A pair of hands can meet on a runout that holds none of their four cards: of
	// the n cards that can come, m dealt, that is C(n-4, m) runouts of C(n, m).
	n, m := float64(cards.NumCards-dead.Len()), float64(5-dead.Len())
	meet := (n - 4) / n * (n - 5) / (n - 1)
	if m == 1 {
		meet = (n - 4) / n
	}
	s.leafScale = 1 / (meet * float64(len(s.leafBoards)))
}

// leaf sets out to the traverser's values at leaf n: x = each player's chips in, rake
// r, its showdown over the runouts as rakedShowdown counts one board, summed and
// divided by the number of runouts a pair of hands meets on in the mean. Every pair
// counts on the runouts where both can be, alike for both players: the leaf is
// zero-sum without rake.
func (s *Solver) leaf(w *worker, n *node, trav int, opp, out []float64) {
	r := s.spot.rake(2 * n.payoff)
	x := n.payoff - r/2
	clear(out)
	one := w.sum[:len(out)]
	for _, bi := range s.leafBoards {
		s.showdown(w, &s.boards[bi], trav, opp, one, x)
		addTo(out, one)
	}
	for h := range out {
		out[h] *= s.leafScale
	}
	if r == 0 {
		return
	}
	s.compatible(trav, opp, one, &w.cs)
	for h, c := range one {
		out[h] -= r / 2 * c
	}
}

// leafEquity returns each of p's hands' equity against opp over the leaf runouts, as
// handEquity does over every runout: -1 for a hand that meets none.
func (s *Solver) leafEquity(p int, opp []float64) []float64 {
	n := len(s.hands[p])
	diff, meet, a, b := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	live := make([]float64, len(opp)) // opp's reach that can be on each runout
	for _, bi := range s.leafBoards {
		bd := &s.boards[bi]
		clear(live)
		for _, o := range bd.seats[1-p] {
			live[o.h] = opp[o.h]
		}
		s.showdown(s.main, bd, p, live, a, 1)
		s.compatible(p, live, b, &s.main.cs2)
		for _, e := range bd.seats[p] {
			diff[e.h] += a[e.h]
			meet[e.h] += b[e.h]
		}
	}
	return shares(diff, meet)
}
