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

// Under the gun straddles at a four-handed table, and when two players are all
// in before the flop, both having agreed, the board is run twice: each pot is
// split between the two runs.
func ExampleConfig_straddleAndRunTwice() {
	h, err := engine.New(engine.Config{
		Variant: engine.Holdem, Structure: engine.NoLimit,
		Stacks: []int64{100, 100, 100, 100}, SmallBlind: 1, BigBlind: 2,
		Straddlers: 0b1000, // seat 3, under the gun, straddles
		RunTwice:   0b1001, // seats 0 and 3 agree to run it twice
		Seed:       cards.SeedFromUint64(7),
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("straddler:", h.Straddler(), "first to act:", h.ToAct(), "least raise to:", h.Legal().MinTo)
	for _, a := range []engine.Action{{Seat: 0, Kind: engine.Raise, Amount: 100}, {Seat: 1, Kind: engine.Fold},
		{Seat: 2, Kind: engine.Fold}, {Seat: 3, Kind: engine.Call}} {
		if err := h.Apply(a); err != nil {
			panic(err)
		}
	}
	var runs [2]int64
	for _, e := range h.Events() {
		if e.Kind == engine.EvAward {
			runs[e.Share-engine.FirstRun] += e.Amount
		}
	}
	fmt.Println("boards:", len(h.Board()), "and", len(h.SecondBoard()), "cards; the runs won", runs[0], "and", runs[1])
	// Output:
	// straddler: 3 first to act: 0 least raise to: 8
	// boards: 5 and 5 cards; the runs won 102 and 101
}
