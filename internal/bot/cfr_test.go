package bot_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/cfr"
	"github.com/felt-poker/felt/internal/cfr/blueprint"
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

// limitHand deals heads-up fixed-limit hand k in the arena's blinds.
func limitHand(t *testing.T, k int) *engine.Hand {
	t.Helper()
	h, err := engine.New(engine.Config{Variant: engine.Holdem, Structure: engine.FixedLimit, SmallBlind: 50, BigBlind: 100,
		Stacks: []int64{20000, 20000}, Button: k % 2, Seed: cards.SeedFromUint64(uint64(1000 + k))})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// tableStrategy is what the blueprint's table says the viewer of v does after
// the betting hist (in the strategy's letters): the entry for its bucket, each
// letter turned into the action it stands for, equal actions added up.
func tableStrategy(t *testing.T, s *blueprint.Strategy, hist string, v *engine.View) map[engine.Action]float64 {
	t.Helper()
	me := v.Seats[v.Viewer]
	acts, probs, ok := s.Profile.Lookup(hist, s.Abstraction.Bucket([2]cards.Card{me.Cards[0], me.Cards[1]}, v.Board))
	if !ok {
		t.Fatalf("no entry for %q", hist)
	}
	l := v.Legal
	out := map[engine.Action]float64{}
	for i, c := range acts {
		a := engine.Action{Seat: l.Seat, Kind: engine.Check}
		switch {
		case c == 'f' && !l.Can(engine.Check):
			a.Kind = engine.Fold
		case c == 'r' && l.Can(engine.Bet):
			a = engine.Action{Seat: l.Seat, Kind: engine.Bet, Amount: l.MinTo}
		case c == 'r' && l.Can(engine.Raise):
			a = engine.Action{Seat: l.Seat, Kind: engine.Raise, Amount: l.MinTo}
		case l.Can(engine.Call):
			a = engine.Action{Seat: l.Seat, Kind: engine.Call, Amount: l.CallAmount}
		}
		if probs[i] > 0 {
			out[a] += probs[i]
		}
	}
	return out
}

// cfr states its strategy (felt lbr then asks it about each hand exactly instead
// of sampling Act): at every decision of hands walked to the river, Strategy is
// the blueprint's table entry for the viewer's bucket and betting, and Act's
// frequencies over many draws are Strategy's probabilities.
func TestCFRStrategyIsItsTable(t *testing.T) {
	b, err := bot.New("cfr", bot.Options{Game: headsUp, Rand: rand.New(rand.NewPCG(5, 6))})
	if err != nil {
		t.Fatal(err)
	}
	st, ok := b.(bot.Strategist)
	if !ok {
		t.Fatal("cfr is not a bot.Strategist: felt lbr samples Act for each of 1,326 hands")
	}
	s, err := blueprint.Hulhe()
	if err != nil {
		t.Fatal(err)
	}
	walk := rand.New(rand.NewPCG(7, 8))
	var out []bot.ActionProb
	drawn, streets := 0, map[engine.Street]int{}
	for k := range 24 {
		h := limitHand(t, k)
		hist := ""
		for h.ToAct() != engine.NoSeat {
			v := h.View(h.ToAct())
			out, ok = st.Strategy(&v, out)
			want := tableStrategy(t, s, hist, &v)
			sum := 0.0
			for _, p := range out {
				sum += p.Prob
				if math.Abs(p.Prob-want[p.Action]) > 1e-9 {
					t.Fatalf("deal %d %q: Strategy %v, the table %v", k, hist, out, want)
				}
			}
			if !ok || len(out) != len(want) || math.Abs(sum-1) > 1e-9 {
				t.Fatalf("deal %d %q: Strategy %v (ok %v), the table %v", k, hist, out, ok, want)
			}
			streets[v.Street]++
			if len(out) > 1 && drawn < 12 {
				drawn++
				actFrequencies(t, b, &v, out)
			}
			a := walkAction(walk, v.Legal)
			if err := h.Apply(a); err != nil {
				t.Fatal(err)
			}
			hist += map[engine.ActionKind]string{engine.Check: "c", engine.Call: "c", engine.Bet: "r", engine.Raise: "r"}[a.Kind]
			if h.ToAct() != engine.NoSeat && h.View(h.ToAct()).Street != v.Street {
				hist += "/"
			}
		}
	}
	if drawn < 12 || streets[engine.River] == 0 {
		t.Errorf("%d mixed decisions drawn, decisions by street %v", drawn, streets)
	}
}

// actFrequencies checks that Act, drawn many times at v, plays only the actions
// of probs, each about as often as its probability says (with 4,000 draws the
// standard error is at most 0.008).
func actFrequencies(t *testing.T, b bot.Bot, v *engine.View, probs []bot.ActionProb) {
	t.Helper()
	const n = 4000
	count := map[engine.Action]int{}
	for range n {
		count[b.Act(v)]++
	}
	for _, p := range probs {
		if f := float64(count[p.Action]) / n; math.Abs(f-p.Prob) > 0.04 {
			t.Errorf("%v: Act played %v %.3f of the time, Strategy says %.3f", v.Street, p.Action, f, p.Prob)
		}
		delete(count, p.Action)
	}
	if len(count) > 0 {
		t.Errorf("Act played %v, which Strategy %v does not hold", count, probs)
	}
}

// walkAction mostly checks or calls so that hands reach the river: a bet or
// raise a fifth of the time, a fold a twentieth.
func walkAction(r *rand.Rand, l engine.Legal) engine.Action {
	switch x := r.IntN(20); {
	case x == 0 && l.Can(engine.Fold) && !l.Can(engine.Check):
		return engine.Action{Seat: l.Seat, Kind: engine.Fold}
	case x < 5 && l.Can(engine.Bet):
		return engine.Action{Seat: l.Seat, Kind: engine.Bet, Amount: l.MinTo}
	case x < 5 && l.Can(engine.Raise):
		return engine.Action{Seat: l.Seat, Kind: engine.Raise, Amount: l.MinTo}
	case l.Can(engine.Check):
		return engine.Action{Seat: l.Seat, Kind: engine.Check}
	}
	return engine.Action{Seat: l.Seat, Kind: engine.Call, Amount: l.CallAmount}
}

// Views cfr has no entry for — cards no deal holds, a board of two cards, a
// player who left, another game's betting — get the check or call, with
// certainty, from Strategy as from Act, and no panic.
func TestCFRStrategyOffTheTree(t *testing.T) {
	b, err := bot.New("cfr", bot.Options{Game: headsUp, Rand: rand.New(rand.NewPCG(1, 1))})
	if err != nil {
		t.Fatal(err)
	}
	st, ok := b.(bot.Strategist)
	if !ok {
		t.Fatal("cfr is not a bot.Strategist")
	}
	h := limitHand(t, 3)
	for h.View(h.ToAct()).Street == engine.Preflop { // to the flop, checking and calling
		l := h.Legal()
		a := engine.Action{Seat: l.Seat, Kind: engine.Check}
		if l.Can(engine.Call) {
			a = engine.Action{Seat: l.Seat, Kind: engine.Call, Amount: l.CallAmount}
		}
		if err := h.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	flop := h.View(h.ToAct())
	me := flop.Seats[flop.Viewer].Cards
	edits := map[string]func(v *engine.View){
		"a board card past the deck": func(v *engine.View) { v.Board[1] = cards.Card(60) },
		"no card on the board":       func(v *engine.View) { v.Board[2] = cards.NoCard },
		"a hole card past the deck":  func(v *engine.View) { v.Seats[v.Viewer].Cards[1] = cards.NumCards },
		"a hole card unknown":        func(v *engine.View) { v.Seats[v.Viewer].Cards[0] = cards.NoCard },
		"a hole card on the board":   func(v *engine.View) { v.Board[0] = me[0] },
		"a pair of one card":         func(v *engine.View) { v.Seats[v.Viewer].Cards[1] = me[0] },
		"a board card twice":         func(v *engine.View) { v.Board[2] = v.Board[0] },
		"two board cards":            func(v *engine.View) { v.Board = v.Board[:2] },
		"six board cards":            func(v *engine.View) { v.Board = append(v.Board, 0, 1, 2) },
		"a viewer out of the table":  func(v *engine.View) { v.Viewer = 7 },
		"no-limit betting":           func(v *engine.View) { v.Structure = engine.NoLimit },
		"a player who left": func(v *engine.View) {
			v.Events = append(v.Events, engine.Event{Kind: engine.EvLeave, Seat: 1 - int8(flop.Viewer)})
		},
	}
	for name, edit := range edits {
		v := h.View(h.ToAct())
		edit(&v)
		probs, ok := st.Strategy(&v, nil)
		want := engine.Action{Seat: v.Legal.Seat, Kind: engine.Check}
		if !ok || len(probs) != 1 || probs[0].Prob != 1 || probs[0].Action != want {
			t.Errorf("%s: Strategy %v (ok %v), want %v with certainty", name, probs, ok, want)
		}
		if a := b.Act(&v); a != want {
			t.Errorf("%s: Act %v, want %v", name, a, want)
		}
	}
}
