package history

import (
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// playRunTwice plays a four-handed hand with a straddle in which everyone is
// all in before the flop with the board run twice, from seed.
func playRunTwice(t *testing.T, seed uint64) (engine.Config, *engine.Hand) {
	t.Helper()
	cfg := engine.Config{Variant: engine.Holdem, Structure: engine.NoLimit, Stacks: []int64{200, 300, 250, 301},
		SmallBlind: 1, BigBlind: 2, Straddlers: 0b1111, RunTwice: 0b1111, Seed: cards.SeedFromUint64(seed)}
	h, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Button 0: SB 1, BB 2, straddle 3; seat 0 acts first.
	for _, a := range []engine.Action{{Seat: 0, Kind: engine.Raise, Amount: 200}, {Seat: 1, Kind: engine.Raise, Amount: 300},
		{Seat: 2, Kind: engine.Call}, {Seat: 3, Kind: engine.Call}} {
		if err := h.Apply(a); err != nil {
			t.Fatalf("%v: %v", a, err)
		}
	}
	if !h.Over() || h.SecondBoard() == nil || h.Straddler() != 3 {
		t.Fatalf("over %v, second board %v, straddler %d", h.Over(), h.SecondBoard(), h.Straddler())
	}
	return cfg, h
}

// TestPHHStraddleAndRunTwice: a hand with a straddle whose board ran twice is
// written as PHH (the straddle in blinds_or_straddles, the first run in the
// actions, the second in _second_board, winnings of both) and replays to the
// same outcome, from its seed and from its cards alone; the PokerStars text
// names both.
func TestPHHStraddleAndRunTwice(t *testing.T) {
	for seed := range uint64(5) {
		cfg, h := playRunTwice(t, seed)
		p, err := FromHand(cfg, h, Info{})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.BlindsOrStraddles; got[0] != 1 || got[1] != 2 || got[2] != 4 || got[3] != 0 {
			t.Fatalf("blinds_or_straddles %v", got)
		}
		if p.SecondBoard != cardText(h.SecondBoard()) || strings.Count(strings.Join(p.Actions, "\n"), "d db") != 3 {
			t.Fatalf("second board %q, actions %v", p.SecondBoard, p.Actions)
		}
		text, err := p.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		for _, withSeed := range []bool{true, false} {
			q, err := Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			if !withSeed {
				q.Seed = ""
			}
			_, got, err := q.Replay()
			if err != nil {
				t.Fatalf("seed %d, with seed %v: %v\n%s", seed, withSeed, err, text)
			}
			for i := range cfg.Stacks {
				if got.Stack(i) != h.Stack(i) {
					t.Fatalf("seed %d: seat %d replays to %d, played %d", seed, i, got.Stack(i), h.Stack(i))
				}
			}
		}
		if _, err := p.SeenBy(0); err != nil {
			t.Fatalf("redacted: %v", err)
		}
		var sb strings.Builder
		if err := WritePokerStars(&sb, cfg, h, Info{}); err != nil {
			t.Fatal(err)
		}
		if ps := sb.String(); !strings.Contains(ps, "posts straddle 4") || !strings.Contains(ps, "*** SECOND RUN ***") {
			t.Fatalf("PokerStars text:\n%s", sb.String())
		}
	}
}

// TestPHHSecondBoardMismatch: a _second_board other than the one the deal
// gives does not replay.
func TestPHHSecondBoardMismatch(t *testing.T) {
	cfg, h := playRunTwice(t, 1)
	p, err := FromHand(cfg, h, Info{})
	if err != nil {
		t.Fatal(err)
	}
	b := h.SecondBoard()
	p.SecondBoard = cardText(append([]cards.Card{b[1], b[0]}, b[2:]...))
	if _, _, err := p.Replay(); err == nil {
		t.Fatal("a wrong second board replayed")
	}
}
