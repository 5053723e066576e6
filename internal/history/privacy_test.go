package history

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// namedCards returns the cards that the actions of p name, by line kind: "dh"
// lines per player (0-based), and every card of every line.
func namedCards(t *testing.T, p *PHH) (dealt map[int]string, all map[cards.Card]bool) {
	t.Helper()
	dealt, all = map[int]string{}, map[cards.Card]bool{}
	for _, line := range p.Actions {
		a, err := parseAction(line, len(p.StartingStacks))
		if err != nil {
			t.Fatal(err)
		}
		if a.cards == "" || a.cards == "-" {
			continue
		}
		if a.verb == "dh" {
			dealt[a.actor] += a.cards
		}
		cs, err := parseCards(a.cards)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if c.Valid() {
				all[c] = true
			}
		}
	}
	return dealt, all
}

// TestSeenByHidesWhatTheViewerMayNotSee plays random hands of every game and
// checks each one as every seat and a spectator see it: no hole card of another
// seat unless shown at showdown (stud up cards are public), the viewer's own hole
// cards, every card shown, no seed and no burns, and the true outcome.
func TestSeenByHidesWhatTheViewerMayNotSee(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for name, base := range configs {
		t.Run(name, func(t *testing.T) {
			hidden := 0
			for i := 0; i < 150; i++ {
				cfg, h := randomHand(t, base, 2+r.IntN(engine.MaxSeats-1), r)
				p, err := FromHand(cfg, h, Info{Hand: int64(i + 1)})
				if err != nil {
					t.Fatal(err)
				}
				p.HandKey, p.SeedSHA256 = "table:t#1/1", SeedCommitment("table:t#1/1", cfg.Seed)
				fullDealt, _ := namedCards(t, p)
				seats := order(h, cfg.Button)
				for viewer := -1; viewer < len(cfg.Stacks); viewer++ {
					q, err := p.SeenBy(viewer)
					if err != nil {
						t.Fatal(err)
					}
					if q.Seed != "" || q.Burns != "" || q.HandKey != p.HandKey || q.SeedSHA256 != p.SeedSHA256 {
						t.Fatalf("viewer %d: seed %q, burns %q, key %q, commitment %q", viewer, q.Seed, q.Burns, q.HandKey, q.SeedSHA256)
					}
					_, seen := namedCards(t, q)
					for k, s := range seats {
						var shown []cards.Card
						for _, e := range h.Events() {
							if e.Kind == engine.EvShow && int(e.Seat) == s {
								shown = e.Cards[:e.NCards]
							}
						}
						hole, _ := parseCards(fullDealt[k])
						for r, c := range hole {
							public := s == viewer || base.Variant == engine.StudThree && r > 0 || containsCard(shown, c)
							if public != seen[c] {
								t.Fatalf("viewer %d: card %s of seat %d (shown %v): seen %v, want %v\n%s", viewer, c, s, shown, seen[c], public, strings.Join(q.Actions, "\n"))
							}
							if !public {
								hidden++
							}
						}
					}
					text, err := q.Marshal()
					if err != nil {
						t.Fatal(err)
					}
					// Still a PHH file, with the true outcome (a mucked hand is
					// unknown, so it no longer replays to that outcome).
					again, err := Parse(text)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(again.FinishingStacks, p.FinishingStacks) || !slices.Equal(again.Winnings, p.Winnings) {
						t.Fatalf("viewer %d: outcome %v %v, want %v %v", viewer, again.FinishingStacks, again.Winnings, p.FinishingStacks, p.Winnings)
					}
				}
			}
			if hidden == 0 {
				t.Fatal("no card was ever hidden")
			}
		})
	}
}

func containsCard(cs []cards.Card, c cards.Card) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}
