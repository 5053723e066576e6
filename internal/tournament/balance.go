package tournament

import "sort"

// TableCount is a table of a multi-table tournament and its players.
type TableCount struct {
	ID      int
	Players int
}

// Move sends N players from table From to table To.
type Move struct {
	From, To, N int
}

// Plan is what a multi-table tournament does to its tables: Break lists the
// tables that close (their players all move), Moves every move, the breaking
// ones included.
type Plan struct {
	Break []int
	Moves []Move
}

// TablesFor returns how many tables of seats seats the players need.
func TablesFor(players, seats int) int {
	if players <= 0 {
		return 0
	}
	return (players + seats - 1) / seats
}

// Balance plans the moves that leave the tables of seats seats each as few as the
// players need (the tables with fewest players break first, the highest ID
// among equals) and their sizes differing by at most one, moving as few players
// as it can: each table gives its players above the size it should have to the
// tables below theirs. The final table is the one table left when the players
// fit at one.
func Balance(tables []TableCount, seats int) Plan {
	total := 0
	for _, t := range tables {
		total += t.Players
	}
	keep := append([]TableCount(nil), tables...)
	sort.SliceStable(keep, func(i, j int) bool {
		if keep[i].Players != keep[j].Players {
			return keep[i].Players > keep[j].Players
		}
		return keep[i].ID < keep[j].ID
	})
	n := TablesFor(total, seats)
	var plan Plan
	broken := keep[min(n, len(keep)):]
	keep = keep[:min(n, len(keep))]
	for _, t := range broken {
		plan.Break = append(plan.Break, t.ID)
	}
	if len(keep) == 0 {
		return plan
	}
	// Target sizes: the larger tables keep the extra player.
	target := make([]int, len(keep))
	for i := range keep {
		target[i] = total / len(keep)
		if i < total%len(keep) {
			target[i]++
		}
	}
	type surplus struct{ id, n int }
	var give []surplus
	for _, t := range broken {
		if t.Players > 0 {
			give = append(give, surplus{t.ID, t.Players})
		}
	}
	for i, t := range keep {
		if t.Players > target[i] {
			give = append(give, surplus{t.ID, t.Players - target[i]})
		}
	}
	for i, t := range keep {
		need := target[i] - t.Players
		for need > 0 && len(give) > 0 {
			n := min(need, give[0].n)
			plan.Moves = append(plan.Moves, Move{From: give[0].id, To: t.ID, N: n})
			need -= n
			if give[0].n -= n; give[0].n == 0 {
				give = give[1:]
			}
		}
	}
	return plan
}
