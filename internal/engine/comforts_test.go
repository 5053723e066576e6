package engine

import (
	"errors"
	"slices"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

// TestStraddle: under the gun posts twice the big blind before the cards, the
// seat after it acts first, the least raise is to four big blinds, and the
// straddler acts last before the flop (its option when everyone calls).
func TestStraddle(t *testing.T) {
	cfg := nl(100, 100, 100, 100) // button 0: SB 1, BB 2, UTG 3
	cfg.Straddlers = 0b1111111111 >> (10 - len(cfg.Stacks))
	h := mustNew(t, cfg)
	if got := eventsOf(h, EvSmallBlind, EvBigBlind, EvStraddle); !slices.Equal(got, []string{"small blind 1 1", "big blind 2 2", "straddle 3 4"}) {
		t.Fatalf("blinds %v", got)
	}
	if h.Straddler() != 3 {
		t.Fatalf("straddler %d", h.Straddler())
	}
	legalIs(t, h, 0, "fold,call,raise", 8, 100)
	play(t, h, "0:c 1:c 2:c")
	legalIs(t, h, 3, "fold,check,raise", 8, 100) // the straddler's option
	play(t, h, "3:k")
	if h.Street() != Flop || h.pot != 16 {
		t.Fatalf("after the straddler's check: %v, pot %d", h.Street(), h.pot)
	}
	// Under the gun not among the straddlers: no straddle.
	cfg.Straddlers = 0b0111
	if h := mustNew(t, cfg); h.Straddler() != NoSeat {
		t.Fatal("seat 3 straddled without wanting to")
	}
	cfg.Straddlers = 0b1000
	// A raise over the straddle, and the straddler may re-raise.
	h = mustNew(t, cfg)
	play(t, h, "0:r10 1:f 2:f")
	legalIs(t, h, 3, "fold,call,raise", 16, 100)
}

// TestNoStraddle: heads-up, a short stack under the gun, or a table without
// the setting deal no straddle; fixed limit and stud refuse the setting.
func TestNoStraddle(t *testing.T) {
	for name, cfg := range map[string]Config{
		"heads-up":            nl(100, 100),
		"short under the gun": nl(100, 100, 100, 4),
		"off":                 nl(100, 100, 100, 100),
	} {
		if name != "off" {
			cfg.Straddlers = 0b1111111111 >> (10 - len(cfg.Stacks))
		}
		h := mustNew(t, cfg)
		if got := eventsOf(h, EvStraddle); len(got) != 0 || h.Straddler() != NoSeat {
			t.Errorf("%s: straddle %v", name, got)
		}
	}
	for _, cfg := range []Config{{Variant: Holdem, Structure: FixedLimit, Stacks: []int64{9, 9, 9}, BigBlind: 2, Straddlers: 0b111},
		{Variant: StudThree, Stacks: []int64{9, 9, 9}, Straddlers: 0b111}, {Variant: StudThree, Stacks: []int64{9, 9}, RunTwice: 3},
		{Variant: Holdem, Stacks: []int64{9, 9}, BigBlind: 2, RunTwice: 1 << 5}} {
		if err := cfg.Validate(); !errors.Is(err, ErrBadConfig) {
			t.Errorf("%+v: %v, want ErrBadConfig", cfg, err)
		}
	}
}

// runTwiceCfg is a three-handed all-in hand whose first run the deck fixes:
// seat 1 (aces) loses to seat 2's flush on the first board.
func runTwiceCfg(t *testing.T, agree SeatSet) Config {
	stacks := []int64{100, 100, 101}
	cfg := nl(stacks...)
	cfg.RunTwice = agree
	cfg.Deck = holdemDeck(t, stacks, 0, []string{"7h2h", "AsAh", "KdQd"}, "2d5d9dJcTh")
	// The second run: burn 6s, flop 7s8s9h, burn Qc, turn Qh, burn 4h, river 5h.
	for _, c := range cards.MustParseList("6s7s8s9hQcQh4h5h") {
		if slices.Contains(cfg.Deck, c) {
			t.Fatalf("%v is dealt already", c)
		}
		cfg.Deck = append(cfg.Deck, c)
	}
	return cfg
}

// TestRunItTwice: all in before the flop, every seat in agreeing: the board is
// dealt twice and each pot split between the runs, the odd chip to the first.
func TestRunItTwice(t *testing.T) {
	h := mustNew(t, runTwiceCfg(t, 0b110))
	play(t, h, "0:f 1:r100 2:c")
	if !h.Over() {
		t.Fatal("the hand is not over")
	}
	checkChips(t, h)
	if got, want := h.SecondBoard(), cards.MustParseList("7s8s9hQh5h"); !slices.Equal(got, want) {
		t.Fatalf("second board %v, want %v (first %v)", got, want, h.Board())
	}
	// The pot is 200 (seat 2 keeps its extra chip): the first run's flush wins
	// 100 for seat 2, the second run's aces 100 for seat 1.
	if got := eventsOf(h, EvAward); !slices.Equal(got, []string{"award 2 100", "award 1 100"}) {
		t.Fatalf("awards %v", got)
	}
	for _, e := range h.Events() {
		if e.Kind == EvAward && (e.Seat == 2) != (e.Share == FirstRun) {
			t.Fatalf("award %v: seat 2 wins the first run, seat 1 the second", e)
		}
	}
	// The same configuration and actions replay to the same hand.
	again, err := Replay(runTwiceCfg(t, 0b110), h.Actions())
	if err != nil || !sameHand(h, again) {
		t.Fatalf("replay differs: %v", err)
	}
	// One seat not agreeing: one run, the whole pot to its winner.
	h = mustNew(t, runTwiceCfg(t, 0b010))
	play(t, h, "0:f 1:r100 2:c")
	if h.SecondBoard() != nil || len(eventsOf(h, EvSecondRun)) != 0 {
		t.Fatal("ran twice without every seat's agreement")
	}
}

// TestRunItTwiceOddChip: a pot of an odd amount gives its odd chip to the
// first run.
func TestRunItTwiceOddChip(t *testing.T) {
	for seed := range uint64(20) {
		cfg := nl(100, 100, 100)
		cfg.Ante, cfg.RunTwice, cfg.Seed = 1, 0b110, cards.SeedFromUint64(seed)
		h := mustNew(t, cfg)
		play(t, h, "0:f 1:r99 2:c") // pot: 3 antes and 99 + 99
		var runs [2]int64
		for _, e := range h.Events() {
			if e.Kind == EvAward {
				runs[e.Share-FirstRun] += e.Amount
			}
		}
		if runs != [2]int64{101, 100} {
			t.Fatalf("seed %d: runs won %v of 201; want 101 and 100", seed, runs)
		}
		checkChips(t, h)
	}
}
