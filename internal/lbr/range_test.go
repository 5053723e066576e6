package lbr

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

// only returns a range holding just the hands given.
func only(hands ...string) *Range {
	var r Range
	for _, h := range hands {
		cs := cards.MustParseList(h)
		for i, c := range combos {
			if (c[0] == cs[0] && c[1] == cs[1]) || (c[0] == cs[1] && c[1] == cs[0]) {
				r[i] = 1
			}
		}
	}
	return &r
}

// Equity against known ranges: exact on the river and the turn, sampled before.
func TestEquity(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	aces := [2]cards.Card{cards.MustParse("As"), cards.MustParse("Ah")}
	river := cards.MustParseList("2c 7d 9h Js 3c")
	if eq := Equity(aces, river, only("KsKh", "QsQh"), rng, 0); eq != 1 {
		t.Errorf("aces against kings and queens on the river: %v, want 1", eq)
	}
	if eq := Equity(aces, river, only("KsKh", "9s9d"), rng, 0); eq != 0.5 {
		t.Errorf("aces against kings and a set: %v, want 0.5", eq)
	}
	if eq := Equity(aces, river, only("AdAc"), rng, 0); eq != 0.5 {
		t.Errorf("aces against aces: %v, want a tie", eq)
	}
	// On the turn, kings need one of the 2 kings left among 44 rivers.
	if eq := Equity(aces, river[:4], only("KsKh"), rng, 0); math.Abs(eq-42.0/44) > 1e-12 {
		t.Errorf("aces against kings on the turn: %v, want 42/44", eq)
	}
	var all Range
	all.Reset(cards.SetOf(aces[0], aces[1]))
	if eq := Equity(aces, nil, &all, rng, 20000); math.Abs(eq-0.852) > 0.015 {
		t.Errorf("aces against a random hand before the flop: %v, want about 0.852", eq)
	}
}

// An action no hand of the range takes leaves the range as it was.
func TestUpdateKeepsAnUnexplainedRange(t *testing.T) {
	var r Range
	r.Reset(0)
	before := r
	if r.Update(func(int) float64 { return 0 }) || r != before {
		t.Fatal("a range with no weight left was kept")
	}
	if !r.Update(func(i int) float64 { return float64(i % 2) }) || r[0] != 0 || r[1] != 1 {
		t.Fatal("the likelihoods were not applied")
	}
}
