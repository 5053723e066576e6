package bot

import (
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/cfr/blueprint"
)

// The kept buckets are the abstraction's, whichever way they were found (one
// hand rated, or the whole board): on boards that share cards (a flop and the
// turn after it whose fourth card is card 0, which pads the key), on more boards
// than are kept (the first ones dropped and rated again), with hole cards in
// either order. Cards no deal holds are refused.
func TestCFRBucketsAreTheAbstractions(t *testing.T) {
	s, err := blueprint.Hulhe()
	if err != nil {
		t.Fatal(err)
	}
	c := cfrBuckets{a: s.Abstraction}
	full := cards.MustParseList("Ah 7c Td 2c 9s") // 2c is card 0
	if full[3] != 0 {
		t.Fatalf("2c is card %d", full[3])
	}
	boards := [][]cards.Card{nil, full[:3], full[:4], full, cards.MustParseList("Kd Qd Jd"),
		cards.MustParseList("3h 4h 5h 6h"), full[:3], cards.MustParseList("Th 7c Ah"), full[:4]}
	holes := [][2]cards.Card{
		{cards.MustParse("Qh"), cards.MustParse("Jh")}, {cards.MustParse("Jh"), cards.MustParse("Qh")},
		{cards.MustParse("7d"), cards.MustParse("8d")}, {cards.MustParse("Ks"), cards.MustParse("Kc")},
	}
	checked := 0
	for round := range 2 {
		for _, board := range boards {
			for _, hole := range holes {
				if !distinctCards(hole, board) {
					continue
				}
				got, ok := c.bucket(hole, board)
				if want := s.Abstraction.Bucket(hole, board); !ok || got != want {
					t.Fatalf("round %d: %v on %v: bucket %d (ok %v), the abstraction's %d", round, hole, board, got, ok, want)
				}
				checked++
			}
		}
	}
	if checked < 60 {
		t.Fatalf("%d buckets checked", checked)
	}
	hole := holes[0]
	for _, board := range [][]cards.Card{full[:2], append(full[:5:5], 40), {full[0], full[1], 52}, {full[0], full[1], cards.NoCard}, {full[0], full[0], full[1]}, {hole[0], full[1], full[2]}} {
		if b, ok := c.bucket(hole, board); ok {
			t.Errorf("%v on %v: bucket %d, want a refusal", hole, board, b)
		}
	}
	if b, ok := c.bucket([2]cards.Card{hole[0], hole[0]}, full[:3]); ok {
		t.Errorf("a pair of one card: bucket %d, want a refusal", b)
	}
}
