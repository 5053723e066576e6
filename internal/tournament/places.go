package tournament

import "sort"

// Bust is a player who lost their last chip in a hand, with the chips they
// started that hand with.
type Bust struct {
	ID         int64
	StartStack int64
}

// Finish is a busted player's place (1 is the winner) and how many players share
// it (tied, they share the prizes of places Place to Place+Tied-1).
type Finish struct {
	ID    int64
	Place int
	Tied  int
}

// Finishes places the players who busted in one hand, when remaining players
// (them included) were left before it: they take the last places, the player
// who started the hand with more chips finishing higher, and players who started
// it with as many chips tie. The result is best first; it is empty when busts is.
func Finishes(remaining int, busts []Bust) []Finish {
	b := append([]Bust(nil), busts...)
	sort.SliceStable(b, func(i, j int) bool { return b[i].StartStack > b[j].StartStack })
	out := make([]Finish, 0, len(b))
	place := remaining - len(b) + 1
	for i := 0; i < len(b); {
		j := i
		for j < len(b) && b[j].StartStack == b[i].StartStack {
			j++
		}
		for k := i; k < j; k++ {
			out = append(out, Finish{ID: b[k].ID, Place: place + i, Tied: j - i})
		}
		i = j
	}
	return out
}
