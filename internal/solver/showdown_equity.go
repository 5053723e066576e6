package solver

import "github.com/felt-poker/felt/internal/cards"

// handEquity returns each of p's hands' equity against opp's reach on board: its
// share of the pot at a showdown after every runout, (wins + ties/2) over the
// opponent reach it can meet, summed over the runouts; -1 for a hand that meets none.
func (s *Solver) handEquity(p int, board cards.Set, opp []float64) []float64 {
	n := len(s.hands[p])
	diff, meet := make([]float64, n), make([]float64, n)
	s.runouts(p, board, 0, opp, diff, meet, make([]float64, n), make([]float64, n))
	return shares(diff, meet)
}

// shares turns each hand's summed showdown result against the opponent's reach
// (diff: wins minus losses) and the reach it met (meet) into its share of the
// pot, (meet + diff) / (2 meet); -1 for a hand that met none.
func shares(diff, meet []float64) []float64 {
	out := make([]float64, len(diff))
	for h := range out {
		out[h] = -1
		if meet[h] > 0 {
			out[h] = (meet[h] + diff[h]) / (2 * meet[h])
		}
	}
	return out
}

// runouts adds to diff the opponent reach each hand beats minus the reach it loses to,
// and to meet the reach it can meet, on every river that board can run out to (each
// set of cards once: they are dealt from the card from up). Hands holding a board card
// are left out on both sides.
func (s *Solver) runouts(p int, board cards.Set, from cards.Card, opp, diff, meet, a, b []float64) {
	if board.Len() < 5 {
		for c := from; c < cards.NumCards; c++ {
			if !board.Has(c) {
				s.runouts(p, board.Add(c), c+1, opp, diff, meet, a, b)
			}
		}
		return
	}
	live := make([]float64, len(opp))
	copy(live, opp)
	for o, hd := range s.hands[1-p] {
		if board.Has(hd.c[0]) || board.Has(hd.c[1]) {
			live[o] = 0
		}
	}
	s.showdown(s.main, &s.boards[s.boardIndex(board)], p, live, a, 1)
	s.compatible(p, live, b, &s.main.cs2)
	for h, hd := range s.hands[p] {
		if !board.Has(hd.c[0]) && !board.Has(hd.c[1]) {
			diff[h] += a[h]
			meet[h] += b[h]
		}
	}
}
