package bot_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

func ExampleHandStrength() {
	s := bot.HandStrength([2]cards.Card{cards.MustParse("Ah"), cards.MustParse("8h")}, cards.MustParseList("9h8c2c"))
	fmt.Printf("HS %.2f, PPot %.2f, NPot %.2f, EHS against 1: %.2f, against 3: %.2f\n",
		s.HS, s.PPot, s.NPot, s.Effective(1), s.Effective(3))
	// Output: HS 0.84, PPot 0.10, NPot 0.09, EHS against 1: 0.78, against 3: 0.58
}

func ExampleNew() {
	b, err := bot.New("montecarlo:samples=200,bluff=false", bot.Options{Rand: rand.New(rand.NewPCG(1, 2))})
	if err != nil {
		panic(err)
	}
	h, _ := engine.New(engine.Config{Stacks: []int64{200, 200}, SmallBlind: 1, BigBlind: 2, Seed: cards.SeedFromUint64(1)})
	for h.ToAct() != engine.NoSeat {
		v := h.View(h.ToAct()) // the seat's own view: no card it may not see
		if err := h.Apply(b.Act(&v)); err != nil {
			panic(err)
		}
	}
	fmt.Println(h.Result().Net[0] + h.Result().Net[1])
	// Output: 0
}
