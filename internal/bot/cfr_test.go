package bot_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cfr"
)

// TestCFRBot plays a uniform strategy of a small abstraction through the cfr bot
// in duplicate limit hands (every action must be legal), and checks its errors.
func TestCFRBot(t *testing.T) {
	a, err := cfr.BuildAbstraction(cfr.AbstractionConfig{Flop: 3, Turn: 3, River: 3, Bins: 4, Samples: 100}, cfr.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := cfr.NewHoldemSolver(a, cfr.HoldemOptions{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Average().StrategyFile(a).Write(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	g, _ := arena.ParseGame("limit")
	r, err := arena.Match(context.Background(), arena.MatchConfig{A: "cfr:strategy=" + path, B: "call", Game: g, Hands: 20, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Hands != 20 {
		t.Errorf("%d hands", r.Hands)
	}
	for _, bad := range []string{"cfr:strategy=" + filepath.Join(t.TempDir(), "none.json"), "cfr:strategy=" + os.DevNull} {
		if _, err := bot.New(bad, bot.Options{}); err == nil {
			t.Errorf("New(%q) gave no error", bad)
		}
	}
}
