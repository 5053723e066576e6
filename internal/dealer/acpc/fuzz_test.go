package acpc

import (
	"errors"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// fuzzGame returns the configuration of the no-limit or the limit game.
func fuzzGame(t testing.TB, nolimit bool) (engine.Config, bool) {
	name := "holdem.limit.2p.reverse_blinds"
	if nolimit {
		name = "holdem.nolimit.2p.reverse_blinds"
	}
	g, err := Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := g.Config()
	if err != nil {
		t.Fatal(err)
	}
	return cfg, g.Limit
}

// FuzzParseState feeds a client's parser (ParseState, then Replay, as Client.Play
// does with every line from a dealer) any line: no panic, errors wrap ErrState
// or come from the engine, and a state that replays writes back to a state that
// replays to the same betting, with no fold ACPC would refuse.
func FuzzParseState(f *testing.F) {
	for _, s := range []string{
		"MATCHSTATE:0:0::Ah2c|", "MATCHSTATE:1:7:cr:|9s8s", "MATCHSTATE:0:3:cc/r:AhKh|/2c3d4s",
		"MATCHSTATE:1:30:r250c/cr500c/cc/r1000f:QsQd|KcKh/2c3d4s/5h/9c", "MATCHSTATE:0:2:rrrc/rrrrc/rrrrc/rrrrc:TdJd|5s5c/2c3d4s/5h/9c",
		"MATCHSTATE:0:0:cf:Ah2c|", "MATCHSTATE:2:0::Ah2c|", "MATCHSTATE:0:0:r20000c///:Ah2c|KdKs/3c4d5s/6h/9c",
		"MATCHSTATE:0:0:r99999999999999999999:Ah2c|", "MATCHSTATE:0:-1:x:Ah|", "STATE:0:cc:Ah2c|KdKs",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	// and every state of a few hands played at random, as a dealer sends them
	for _, nolimit := range []bool{false, true} {
		cfg, limit := fuzzGame(f, nolimit)
		for i := range 3 {
			cfg.Seed = cards.SeedFromUint64(uint64(i))
			h, _ := engine.New(cfg)
			for r := rnd(i); !h.Over(); {
				f.Add(MatchState(h, limit, i%2, i), nolimit)
				a := engine.RandomAction(r, h.Legal())
				if a.Kind == engine.Fold && h.Legal().Can(engine.Check) {
					a.Kind = engine.Check
				}
				if err := h.Apply(a); err != nil {
					f.Fatal(err)
				}
			}
			f.Add(MatchState(h, limit, i%2, i), nolimit)
		}
	}
	f.Fuzz(func(t *testing.T, line string, nolimit bool) {
		cfg, limit := fuzzGame(t, nolimit)
		s, err := ParseState(line)
		if err != nil {
			if !errors.Is(err, ErrState) {
				t.Fatalf("ParseState(%q): %v wraps no ErrState", line, err)
			}
			return
		}
		h, err := s.Replay(cfg, limit)
		if err != nil {
			return
		}
		again := MatchState(h, limit, s.Position, s.Hand)
		s2, err := ParseState(again)
		if err != nil {
			t.Fatalf("%q wrote back %q: %v", line, again, err)
		}
		h2, err := s2.Replay(cfg, limit)
		if err != nil || Betting(h2, limit) != Betting(h, limit) {
			t.Fatalf("%q wrote back %q, which replays to %v, %v", line, again, h2, err)
		}
	})
}

// FuzzAnswer feeds the dealer's reading of a player's answer (answer, as Match
// does with every line while a player is to act) any line, at a point of a hand
// reached by a few actions: no panic; an accepted action is legal on the engine
// and never a fold with nothing to call; a refused one wraps ErrState.
func FuzzAnswer(f *testing.F) {
	for _, s := range []string{"c", "f", "r", "r300", "r20000", "r20001", "r-1", "r+5", "r99999999999999999999",
		"r-9223372036854775808", "rr", "cc", "F", "# comment", "MATCHSTATE:0:0::Ah2c|:c", ""} {
		for moves := range uint8(4) {
			f.Add(s, moves, false)
			f.Add(s, moves, true)
		}
	}
	f.Fuzz(func(t *testing.T, act string, moves uint8, nolimit bool) {
		cfg, limit := fuzzGame(t, nolimit)
		cfg.Seed = cards.SeedFromUint64(uint64(moves))
		h, err := engine.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		r := rnd(int(moves))
		for range moves % 12 {
			if h.Over() {
				break
			}
			a := engine.RandomAction(r, h.Legal())
			if a.Kind == engine.Fold {
				a, _ = Action(h, limit, "c")
			}
			if err := h.Apply(a); err != nil {
				t.Fatal(err)
			}
		}
		if h.Over() {
			return
		}
		state := MatchState(h, limit, h.ToAct(), 0)
		for _, line := range []string{act, state + ":" + act} {
			a, skip, err := answer(h, limit, state, line)
			switch {
			case skip:
				if !comment(line) && !strings.HasPrefix(line, "MATCHSTATE:") {
					t.Fatalf("%q skipped", line)
				}
			case err != nil:
				if !errors.Is(err, ErrState) {
					t.Fatalf("%q: %v wraps no ErrState", line, err)
				}
			case a.Kind == engine.Fold && h.Legal().Can(engine.Check):
				t.Fatalf("%q accepted as a fold with nothing to call", line)
			default:
				if err := h.Clone().Apply(a); err != nil {
					t.Fatalf("%q accepted as %v, which the engine refuses: %v", line, a, err)
				}
			}
		}
	})
}
