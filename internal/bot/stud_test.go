package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// studHand starts a heads-up three card stud hand (stacks 100) dealt from deck in
// the engine's order: the hole cards, the first up cards, the second up cards.
func studHand(t *testing.T, deck string) *engine.Hand {
	t.Helper()
	h, err := engine.New(engine.Config{Variant: engine.StudThree, Stacks: []int64{100, 100}, Deck: cards.MustParseList(deck)})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// toRoundTwo checks or calls until the second round, then returns seat 0's view
// once it is to act there.
func toRoundTwo(t *testing.T, h *engine.Hand) engine.View {
	t.Helper()
	for h.Street() != engine.StudTwo || h.ToAct() != 0 {
		if h.ToAct() == engine.NoSeat {
			t.Fatal("hand over before seat 0 acts in round two")
		}
		v := h.View(h.ToAct())
		if err := h.Apply(checkOrCall(v.Legal)); err != nil {
			t.Fatal(err)
		}
	}
	return h.View(0)
}

// TestStudBot: in the second round with the king of spades in the hole and the ace
// of spades showing in the other's up cards, the spade half is locked and the bot
// raises the most it may; its exact equity (every hole card the other may hold)
// matches a simulation; with a weak hand and no spade against a pair of aces
// showing it does not raise.
func TestStudBot(t *testing.T) {
	// Heads-up with the button on seat 0, seat 1 is dealt first.
	v := toRoundTwo(t, studHand(t, "7d"+"Ks"+"As"+"Kd"+"3c"+"Kh"+"2c2h"))
	if got := cards.Format(v.Seats[0].Cards[:3]); got != "KsKdKh" {
		t.Fatalf("seat 0 holds %s", got)
	}
	b := newStud(Options{Samples: 20000})
	if a := b.Act(&v); a.Kind != engine.Raise && a.Kind != engine.Bet || a.Amount != v.Legal.MaxTo {
		t.Errorf("locked spade and trips: %v, want a raise to %d", a, v.Legal.MaxTo)
	}
	if !b.spadeLocked() {
		t.Error("king of spades with the ace showing is not locked")
	}
	exact := b.equity(&v)
	sim := b.sim.stud(rand.New(rand.NewPCG(1, 1)), &v, &b.s, 20000)
	if exact < 0.99 || exact-sim > 0.01 || sim-exact > 0.01 {
		t.Errorf("exact equity %.4f, simulated %.4f", exact, sim)
	}

	v = toRoundTwo(t, studHand(t, "5c"+"2d"+"As"+"7c"+"Ad"+"9h"+"3h3d"))
	if a := b.Act(&v); a.Kind == engine.Raise || a.Kind == engine.Bet {
		t.Errorf("nine high against aces showing: %v", a)
	}
	if exact := b.equity(&v); exact > 0.05 {
		t.Errorf("nine high against aces showing: equity %.3f", exact)
	}
}
