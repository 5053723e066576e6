package casino

import (
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// TestQuestions pins what bet1 and bet2 say: the pot counts this round's bets,
// toCall is what the player must add, bet1 lists the up card of every player dealt
// in (one who folded included) and bet2 both up cards of the players still in, all
// in seat order.
func TestQuestions(t *testing.T) {
	cfg := engine.Config{
		Variant: engine.StudThree, Stacks: []int64{20, 20, 20},
		// Dealt from seat 1 (left of the button): holes, first up cards, second up cards.
		Deck: cards.MustParseList("2c 3c 4c Ah Kh Qh Jd Td 9d 8d"),
	}
	h, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	step := func(want, reply string) {
		t.Helper()
		s := h.ToAct()
		if got := question(h, s); got != want {
			t.Fatalf("seat %d asked %q, want %q", s, got, want)
		}
		a, err := Reply(h.Legal(), reply)
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	step("bet1:19:3:0:2C:AH:up:QH:AH:KH", "bet:5")
	step("bet1:19:8:5:3C:KH:up:QH:AH:KH", "fold")
	step("bet1:19:8:5:4C:QH:up:QH:AH:KH", "bet:5")
	step("bet2:14:13:0:2C:AH:JD:up:QH:10D:AH:JD", "bet:0")
	step("bet2:14:13:0:4C:QH:10D:up:QH:10D:AH:JD", "bet:0")
	if !h.Over() {
		t.Fatal("hand not over")
	}
	// Ace high wins the poker half; nobody has a spade in the hole.
	if got, want := WinningCards(h, cfg), [3]cards.Card(cards.MustParseList("2c Ah Jd")); got != want {
		t.Errorf("winning cards %v, want %v", got, want)
	}
}

// TestWinningCardsWithoutShowdown: when everybody else folds in round one, status
// names the winner's hole and up card and the card the deck would have dealt next.
func TestWinningCardsWithoutShowdown(t *testing.T) {
	cfg := engine.Config{
		Variant: engine.StudThree, Stacks: []int64{20, 20},
		Deck: cards.MustParseList("2c 3c Ah Kh Jd Td"),
	}
	h, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []string{"bet:3", "fold"} {
		a, err := Reply(h.Legal(), r)
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	// Seat 1 (2c hole, Ah up) opened and seat 0 folded; the next card was Jd.
	if got, want := WinningCards(h, cfg), [3]cards.Card(cards.MustParseList("2c Ah Jd")); got != want {
		t.Errorf("winning cards %v, want %v", got, want)
	}
}

// TestStandingsOrder: players still in by chips, then those out, the last to go
// out first; ties by seat (login) order.
func TestStandingsOrder(t *testing.T) {
	d := &Dealer{players: []*entrant{
		{id: "a", order: 0, chips: 0, out: true, outHand: 3, reason: ReasonNoChips},
		{id: "b", order: 1, chips: 50},
		{id: "c", order: 2, chips: 70},
		{id: "d", order: 3, chips: 9, out: true, outHand: 7, reason: ReasonTooSlow},
		{id: "e", order: 4, chips: 50},
		{id: "f", order: 5, chips: 4, out: true, outHand: 3, reason: ReasonIllegal},
	}}
	var got string
	for _, s := range d.standings() {
		got += s.ID
	}
	if got != "cbedfa" {
		t.Errorf("standings %s, want cbedfa", got)
	}
}
