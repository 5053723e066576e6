package engine

import (
	"slices"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/eval"
)

func studCfg(t *testing.T, stacks []int64, hands ...string) Config {
	return Config{Variant: StudThree, Stacks: stacks, Deck: studDeck(t, stacks, 1, 0, hands)}
}

func TestStudOpenersAndSpadeSplit(t *testing.T) {
	stacks := []int64{50, 50, 50}
	// hole, up, second up
	h := mustNew(t, studCfg(t, stacks, "AsKd2c", "3hKh7d", "Qs5c5d"))
	if got := eventsOf(h, EvAnte); !slices.Equal(got, []string{"ante 1 1", "ante 2 1", "ante 0 1"}) {
		t.Fatalf("antes %v", got)
	}
	// Round one: Kh beats Kd on suit.
	legalIs(t, h, 1, "fold,check,bet", 1, 10)
	play(t, h, "1:k 2:k 0:k")
	if h.Street() != StudTwo {
		t.Fatalf("street %v", h.Street())
	}
	// Round two: the pair of fives showing opens.
	legalIs(t, h, 2, "fold,check,bet", 1, 10)
	play(t, h, "2:k 0:k 1:k")
	// Pot 3: the poker half (2, with the odd chip) to the fives, the spade half to As.
	if got := eventsOf(h, EvAward); !slices.Equal(got, []string{"award 2 2", "award 0 1"}) {
		t.Fatalf("awards %v", got)
	}
	r := h.Result()
	if r.Pots[0].Awards[0].Share != PokerHalf || r.Pots[0].Awards[1].Share != SpadeHalf {
		t.Fatalf("shares %+v", r.Pots[0].Awards)
	}
	if len(r.Shown) != 3 || r.Shown[0].Name == "" {
		t.Fatalf("shown %+v", r.Shown)
	}
}

func TestStudBetsAndRaises(t *testing.T) {
	stacks := []int64{50, 50, 50}
	h := mustNew(t, studCfg(t, stacks, "AsKd2c", "3hKh7d", "Qs5c5d"))
	play(t, h, "1:b5")
	legalIs(t, h, 2, "fold,call,raise", 6, 15)
	reject(t, h, "2:r16", ErrBadAmount)
	reject(t, h, "2:r5", ErrBadAmount)
	play(t, h, "2:r15 0:c 1:r25")
	legalIs(t, h, 2, "fold,call,raise", 26, 35)
	if l := h.Legal(); l.CallAmount != 10 {
		t.Fatalf("call %d", l.CallAmount)
	}
	// Put maps the Casino Day "bet:n" reply.
	if a, ok := h.Legal().Put(10); !ok || a.Kind != Call {
		t.Fatalf("Put(10) = %v %v", a, ok)
	}
	if a, ok := h.Legal().Put(13); !ok || a.Kind != Raise || a.Amount != 28 {
		t.Fatalf("Put(13) = %v %v", a, ok)
	}
	if _, ok := h.Legal().Put(21); ok {
		t.Fatal("Put(21) accepted: a raise of 11")
	}
}

func TestStudForcedFold(t *testing.T) {
	stacks := []int64{50, 3, 50}
	// Seat 0 has the highest up card and opens; seat 1 has 2 chips after the ante.
	h := mustNew(t, studCfg(t, stacks, "2cAs3d", "4hKh7d", "Qs5c5d"))
	legalIs(t, h, 0, "fold,check,bet", 1, 10)
	play(t, h, "0:b5")
	last := h.events[len(h.events)-1]
	if last.Kind != EvFold || last.Seat != 1 || !last.Forced || h.ToAct() != 2 {
		t.Fatalf("last event %v, to act %d: seat 1 must be forced to fold", last, h.ToAct())
	}
	// A player whose stack is smaller than the call cannot be offered a short call.
	play(t, h, "2:c")
	if h.Street() != StudTwo {
		t.Fatalf("street %v", h.Street())
	}
	if h.seats[1].ncards != 2 {
		t.Fatal("a folded stud player must not get a second up card")
	}
}

func TestStudCannotAnteIsOut(t *testing.T) {
	cfg := Config{Variant: StudThree, Stacks: []int64{50, 1, 50}, Ante: 2}
	h := mustNew(t, cfg)
	if h.seats[1].status != statusOut || len(h.Cards(1)) != 0 {
		t.Fatal("seat 1 cannot ante and must not be dealt in")
	}
}

func TestStudWholePot(t *testing.T) {
	stacks := []int64{50, 50, 50}
	// Seat 2 has the best hand and the highest spade in the hole: the whole pot.
	h := mustNew(t, studCfg(t, stacks, "2sKd3c", "3hKh7d", "As5c5d"))
	play(t, h, "1:k 2:k 0:k 2:k 0:k 1:k")
	if got := eventsOf(h, EvAward); !slices.Equal(got, []string{"award 2 3"}) {
		t.Fatalf("awards %v", got)
	}
	// Nobody has a spade in the hole: the best hand takes it all.
	h = mustNew(t, studCfg(t, stacks, "2dKd3c", "3hKh7d", "Ac5c5d"))
	play(t, h, "1:k 2:k 0:k 2:k 0:k 1:k")
	if got := eventsOf(h, EvAward); !slices.Equal(got, []string{"award 2 3"}) {
		t.Fatalf("awards %v", got)
	}
	// A folded player's spade does not count.
	h = mustNew(t, studCfg(t, stacks, "4sKd3c", "3hKh7d", "As5c5d"))
	play(t, h, "1:k 2:k 0:b3 1:c 2:c 2:k 0:b5 1:c 2:f")
	if got := eventsOf(h, EvAward); !slices.Equal(got, []string{"award 1 11", "award 0 11"}) {
		t.Fatalf("awards %v (pot 22: poker half to K-7-3, spade half to 4s, not the folded As)", got)
	}
}

func TestStudOnlyOneLeftWinsAtOnce(t *testing.T) {
	h := mustNew(t, studCfg(t, []int64{50, 50}, "AsKd2c", "3hKh7d"))
	play(t, h, "1:b4 0:f")
	if !h.Over() || h.Net(1) != 1 || h.Net(0) != -1 {
		t.Fatalf("over %v nets %d %d", h.Over(), h.Net(0), h.Net(1))
	}
}

func TestStudSplitPokerHalf(t *testing.T) {
	// Seats 0 and 1 tie on the poker hand (K-7-3); seat 2 has the spade.
	stacks := []int64{50, 50, 50}
	h := mustNew(t, studCfg(t, stacks, "3cKd7c", "3hKh7d", "2sQc4d"))
	play(t, h, "1:k 2:k 0:k 1:b2 2:c 0:c")
	// Pot 9: poker half 5 split 3 (seat 1, first left of the button) and 2; spade half 4.
	if got := eventsOf(h, EvAward); !slices.Equal(got, []string{"award 1 3", "award 0 2", "award 2 4"}) {
		t.Fatalf("awards %v", got)
	}
}

func TestShowingKey(t *testing.T) {
	k := func(s string) int { cs := cards.MustParseList(s); return showingKey(cs[0], cs[1]) }
	order := []string{"3c2d", "4c2c", "4d2c", "Kc2c", "KcQd", "KsQc", "Ac2c", "2c2d", "2h2s", "3c3d", "AcAd", "AhAs"}
	for i := 1; i < len(order); i++ {
		if k(order[i-1]) >= k(order[i]) {
			t.Errorf("%s should show lower than %s", order[i-1], order[i])
		}
	}
	if eval.Stud(cards.MustParse("As"), cards.MustParse("Ad"), cards.MustParse("2c")) <= eval.Stud(cards.MustParse("Ks"), cards.MustParse("Kd"), cards.MustParse("Qc")) {
		t.Fatal("eval.Stud ordering assumption broken")
	}
}
