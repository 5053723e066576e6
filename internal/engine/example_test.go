package engine_test

import (
	"fmt"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// A heads-up no-limit hand: the button raises, the big blind folds.
func Example() {
	h, err := engine.New(engine.Config{
		Variant: engine.Holdem, Structure: engine.NoLimit,
		Stacks: []int64{100, 100}, SmallBlind: 1, BigBlind: 2,
		Seed: cards.SeedFromUint64(42),
	})
	if err != nil {
		panic(err)
	}
	l := h.Legal()
	fmt.Println("seat", l.Seat, "may", l.Kinds, "raise to", l.MinTo, "..", l.MaxTo)
	if err := h.Apply(engine.Action{Seat: 0, Kind: engine.Raise, Amount: 6}); err != nil {
		panic(err)
	}
	err = h.Apply(engine.Action{Seat: 0, Kind: engine.Call})
	fmt.Println(err)
	_ = h.Apply(engine.Action{Seat: 1, Kind: engine.Fold})
	fmt.Println("over:", h.Over(), "net:", h.Result().Net)
	// Output:
	// seat 0 may fold,call,raise raise to 4 .. 100
	// not your turn: seat 0 tried to call; seat 1 is to act
	// over: true net: [2 -2]
}
