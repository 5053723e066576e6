package bot_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/cfr"
	"github.com/felt-poker/felt/internal/engine"
)

// headsUp is heads-up fixed-limit Hold'em, the cfr bot's game.
var headsUp = &bot.Game{Variant: engine.Holdem, Structure: engine.FixedLimit, Seats: 2}

// writeFile writes a strategy through write to a file in dir.
func writeFile(t *testing.T, path string, write func(f *os.File) error) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := write(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCFRBot plays a uniform strategy of a small abstraction, from a JSON
// strategy file and from a packed one, through the cfr bot in duplicate limit
// hands (every action must be legal), and checks its file errors.
func TestCFRBot(t *testing.T) {
	a, err := cfr.BuildAbstraction(cfr.AbstractionConfig{Flop: 3, Turn: 3, River: 3, Bins: 4, Samples: 100}, cfr.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := cfr.NewHoldemSolver(a, cfr.HoldemOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	js := writeFile(t, filepath.Join(dir, "s.json"), func(f *os.File) error { return s.Average().StrategyFile(a).Write(f) })
	pack := writeFile(t, filepath.Join(dir, "s.pack"), func(f *os.File) error {
		return s.Average().WritePacked(f, a, cfr.PackHeader{})
	})
	g, _ := arena.ParseGame("limit")
	for _, path := range []string{js, pack} {
		r, err := arena.Match(context.Background(), arena.MatchConfig{A: "cfr:strategy=" + path, B: "call", Game: g, Hands: 20, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if r.Hands != 20 {
			t.Errorf("%d hands", r.Hands)
		}
	}
	for _, bad := range []string{"cfr:strategy=" + filepath.Join(t.TempDir(), "none.json"), "cfr:strategy=" + os.DevNull} {
		if _, err := bot.New(bad, bot.Options{Game: headsUp}); err == nil {
			t.Errorf("New(%q) gave no error", bad)
		}
	}
}

// TestCFRBlueprint plays the built-in strategy (cfr without a strategy file)
// against bots of every style in heads-up limit hands on the engine: every action
// is legal, and the bot is no calling station: it bets or raises on every street,
// and folds.
func TestCFRBlueprint(t *testing.T) {
	b, err := bot.New("cfr", bot.Options{Game: headsUp, Rand: rand.New(rand.NewPCG(1, 2))})
	if err != nil {
		t.Fatal(err)
	}
	var raised [4]int
	folds := 0
	for _, name := range []string{"call", "raise", "chart", "random"} {
		other, err := bot.New(name, bot.Options{Game: headsUp, Rand: rand.New(rand.NewPCG(3, 4))})
		if err != nil {
			t.Fatal(err)
		}
		for k := range 60 {
			cfg := engine.Config{Variant: engine.Holdem, Structure: engine.FixedLimit, SmallBlind: 1, BigBlind: 2,
				Stacks: []int64{200, 200}, Button: k % 2, Seed: cards.SeedFromUint64(uint64(k))}
			h, err := engine.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			players := [2]bot.Bot{b, other}
			if k%4 >= 2 {
				players = [2]bot.Bot{other, b}
			}
			for h.ToAct() != engine.NoSeat {
				v := h.View(h.ToAct())
				a := players[v.Viewer].Act(&v)
				if err := h.Apply(a); err != nil {
					t.Fatalf("%s hand %d: %v with legal %+v: %v", name, k, a, v.Legal, err)
				}
				if players[v.Viewer] != b {
					continue
				}
				switch a.Kind {
				case engine.Bet, engine.Raise:
					raised[map[int]int{0: 0, 3: 1, 4: 2, 5: 3}[len(v.Board)]]++
				case engine.Fold:
					folds++
				}
			}
		}
	}
	for street, n := range raised {
		if n == 0 {
			t.Errorf("never bet or raised on street %d (%v)", street, raised)
		}
	}
	if folds == 0 {
		t.Error("never folded")
	}
}

// The cfr bot refuses, when made, every game but heads-up fixed-limit Hold'em
// and a strategy file for another game, instead of playing as a calling station;
// so do the arena and the table configuration's check.
func TestCFRRefusesOtherGames(t *testing.T) {
	for _, g := range []*bot.Game{
		nil,
		{Variant: engine.Holdem, Structure: engine.NoLimit, Seats: 2},
		{Variant: engine.Holdem, Structure: engine.PotLimit, Seats: 2},
		{Variant: engine.Holdem, Structure: engine.FixedLimit, Seats: 3},
		{Variant: engine.Holdem, Structure: engine.FixedLimit, Seats: 0},
		{Variant: engine.StudThree, Seats: 2},
	} {
		if _, err := bot.New("cfr", bot.Options{Game: g}); !errors.Is(err, bot.ErrWrongGame) {
			t.Errorf("New(cfr) for %s: %v", g, err)
		}
		if err := bot.CheckGame("cfr", g); !errors.Is(err, bot.ErrWrongGame) {
			t.Errorf("CheckGame(cfr) for %s: %v", g, err)
		}
		if g != nil {
			if err := bot.CheckGame("chart", g); err != nil {
				t.Errorf("CheckGame(chart) for %s: %v", g, err)
			}
		}
	}
	if err := bot.CheckGame("cfr", headsUp); err != nil {
		t.Errorf("CheckGame(cfr) heads-up limit: %v", err)
	}
	// A Kuhn strategy file is refused for what it is.
	s, err := cfr.NewSolver(cfr.Kuhn(), cfr.Options{})
	if err != nil {
		t.Fatal(err)
	}
	kuhn := writeFile(t, filepath.Join(t.TempDir(), "kuhn.json"), func(f *os.File) error { return s.Average().StrategyFile().Write(f) })
	if _, err := bot.New("cfr:strategy="+kuhn, bot.Options{Game: headsUp}); !errors.Is(err, bot.ErrWrongGame) {
		t.Errorf("a Kuhn strategy: %v", err)
	}
	// The arena tells the bot its game: no-limit matches and three-handed
	// tournaments refuse cfr.
	nl, _ := arena.ParseGame("nl")
	if _, err := arena.Match(context.Background(), arena.MatchConfig{A: "cfr", B: "call", Game: nl, Hands: 4}); !errors.Is(err, bot.ErrWrongGame) {
		t.Errorf("a no-limit match: %v", err)
	}
	limit, _ := arena.ParseGame("limit")
	if _, err := arena.PlayTournament(context.Background(), arena.TournamentConfig{Bots: []string{"cfr", "call", "chart"}, Game: limit, Hands: 1}); !errors.Is(err, bot.ErrWrongGame) {
		t.Errorf("a three-handed tournament: %v", err)
	}
}
