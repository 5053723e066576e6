package acpc

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

func TestBuiltinGames(t *testing.T) {
	for _, name := range []string{"holdem.limit.2p.reverse_blinds", "holdem.nolimit.2p.reverse_blinds"} {
		g, err := Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := g.Config()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if cfg.Button != 1 || cfg.BigBlind != g.Blind[0] || cfg.SmallBlind != g.Blind[1] {
			t.Errorf("%s: %+v", name, cfg)
		}
	}
	g, _ := Builtin("holdem.limit.2p.reverse_blinds")
	if !g.Limit || g.RaiseSize[2] != 20 || g.MaxRaises[0] != 3 {
		t.Errorf("limit game %+v", g)
	}
	if _, err := ParseGameDef(strings.NewReader("GAMEDEF\nnolimit\nnumPlayers = x\nEND GAMEDEF\n")); err == nil {
		t.Error("bad number accepted")
	}
}

// TestStateRoundTrip plays random hands on the engine and checks that every state a
// dealer would send parses back to a hand with the same betting and cards.
func TestStateRoundTrip(t *testing.T) {
	for _, name := range []string{"holdem.limit.2p.reverse_blinds", "holdem.nolimit.2p.reverse_blinds"} {
		g, _ := Builtin(name)
		cfg, _ := g.Config()
		limit := g.Limit
		for i := range 40 {
			c := cfg
			c.Seed = cards.SeedFromUint64(uint64(i))
			h, _ := engine.New(c)
			for {
				for pos := range 2 {
					line := MatchState(h, limit, pos, i)
					s, err := ParseState(line)
					if err != nil {
						t.Fatalf("%s: %v", line, err)
					}
					back, err := s.Replay(cfg, limit)
					if err != nil {
						t.Fatalf("%s: %v", line, err)
					}
					if again := MatchState(back, limit, pos, i); again != line && !h.Over() {
						t.Fatalf("%s -> %s", line, again)
					}
				}
				if h.Over() {
					break
				}
				a := engine.RandomAction(rnd(i), h.Legal())
				if a.Kind == engine.Fold && h.Legal().Can(engine.Check) {
					a.Kind = engine.Check // ACPC has no fold with nothing to call
				}
				if got, err := Action(h, limit, ActionString(h, limit, a)); err != nil || got.Kind != a.Kind || (a.Kind >= engine.Bet && got.Amount != a.Amount) {
					t.Fatalf("action %v -> %q -> %v, %v", a, ActionString(h, limit, a), got, err)
				}
				if err := h.Apply(a); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// TestRoundTrip plays a duplicate match between felt's ACPC dealer and two of felt's
// ACPC clients over loopback sockets.
func TestRoundTrip(t *testing.T) {
	for _, name := range []string{"holdem.limit.2p.reverse_blinds", "holdem.nolimit.2p.reverse_blinds"} {
		t.Run(name, func(t *testing.T) {
			g, _ := Builtin(name)
			var lns [2]net.Listener
			for i := range lns {
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				lns[i] = ln
			}
			var log bytes.Buffer
			seed := cards.SeedFromUint64(3)
			m := Match{Game: g, Deals: 25, Seed: &seed, Timeout: 2 * time.Second, Names: [2]string{"chart", "random"}, Log: &log}
			done := make(chan int, 2)
			for i, bn := range []string{"chart", "random"} {
				b, err := bot.New(bn, bot.Options{})
				if err != nil {
					t.Fatal(err)
				}
				addr := lns[i].Addr().String()
				go func() {
					conn, err := net.Dial("tcp", addr)
					if err != nil {
						t.Error(err)
						done <- 0
						return
					}
					c := Client{Game: g, Bot: b}
					sum, err := c.Play(context.Background(), conn)
					if err != nil {
						t.Error(err)
					}
					done <- sum.Hands
				}()
			}
			score, err := m.Run(context.Background(), lns)
			if err != nil {
				t.Fatal(err)
			}
			for range 2 {
				if n := <-done; n != 50 {
					t.Errorf("client saw %d hands, want 50", n)
				}
			}
			if score.Hands != 50 || score.Total[0]+score.Total[1] != 0 {
				t.Errorf("score %+v", score)
			}
			lines := strings.Split(strings.TrimSpace(log.String()), "\n")
			if len(lines) != 51 || !strings.HasPrefix(lines[50], "SCORE:") {
				t.Fatalf("log has %d lines, last %q", len(lines), lines[len(lines)-1])
			}
			// Hands 2k and 2k+1 deal the same cards with the players swapped.
			a, b := strings.Split(lines[0], ":"), strings.Split(lines[1], ":")
			if a[5] != "chart|random" || b[5] != "random|chart" || strings.Split(a[3], "/")[0] != strings.Split(b[3], "/")[0] {
				t.Errorf("not duplicate:\n%s\n%s", lines[0], lines[1])
			}
		})
	}
}

func rnd(i int) *rand.Rand { return rand.New(rand.NewPCG(uint64(i), 1)) }
