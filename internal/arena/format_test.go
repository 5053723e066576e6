package arena

import (
	"context"
	"math"
	"strings"
	"testing"
)

// In seed 001's format the blinds double (here every 2 hands, so every deal, up
// to 1,600 with 10,000-chip stacks) and each hand counts in its own big blinds:
// raise against fold still wins 1.5 big blinds a deal, 75 bb/100 ± 0, while the
// chips grow with the blinds; a hand's result is +1 or +0.5 big blind, a spread
// of 0.25.
func TestSeed001Format(t *testing.T) {
	g, _ := ParseGame("nl")
	r, err := Match(context.Background(), MatchConfig{A: "raise", B: "fold", Game: g, Hands: 40, Seed: 3, Workers: 2, Format: Seed001(2)})
	if err != nil {
		t.Fatal(err)
	}
	var chips int64
	for d := range 20 {
		chips += 150 << min(d, 4)
	}
	if r.Chips != chips || r.BBPer100 != 75 || r.CI95 != 0 || r.BBPerHand != 0.75 || math.Abs(r.BBSpread-0.25*math.Sqrt(40.0/39)) > 1e-9 {
		t.Fatalf("%+v; want %d chips, 75 bb/100 ± 0, 0.75 bb/hand spread 0.25", r, chips)
	}
	if s := r.Format.String(); !strings.Contains(s, "10000 chips") || !strings.Contains(s, "doubling every 2 hands") {
		t.Errorf("format %q", s)
	}
	def, err := Match(context.Background(), MatchConfig{A: "raise", B: "fold", Game: g, Hands: 40, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if def.Chips != 150*20 || def.BBPerHand != 0.75 || !strings.Contains(def.Format.String(), "200 big blinds") {
		t.Errorf("the arena's format: %+v", def)
	}
	for _, f := range []Format{{Stack: 300}, {Stack: -1}, {DoubleEvery: -2}} {
		if _, err := Match(context.Background(), MatchConfig{A: "raise", B: "fold", Game: g, Hands: 4, Format: f}); err == nil {
			t.Errorf("format %+v accepted", f)
		}
	}
}

// Every game can be dealt in seed 001's format: the blinds, the ante and the
// bet sizes double together and every action stays legal.
func TestSeed001EveryGame(t *testing.T) {
	for _, g := range Games() {
		r, err := Match(context.Background(), MatchConfig{A: "chart:samples=20", B: "random", Game: g, Hands: 60, Seed: 4, Format: Seed001(6)})
		if err != nil {
			t.Fatalf("%s: %v", g.Name, err)
		}
		if r.Hands != 60 || r.BBSpread <= 0 {
			t.Errorf("%s: %+v", g.Name, r)
		}
	}
}
