package bot

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// games are the configurations the legality test plays, every variant and structure.
var games = []struct {
	name string
	cfg  engine.Config
}{
	{"nl", engine.Config{Variant: engine.Holdem, Structure: engine.NoLimit, SmallBlind: 1, BigBlind: 2}},
	{"pl", engine.Config{Variant: engine.Holdem, Structure: engine.PotLimit, SmallBlind: 1, BigBlind: 2}},
	{"limit", engine.Config{Variant: engine.Holdem, Structure: engine.FixedLimit, SmallBlind: 1, BigBlind: 2}},
	{"stud", engine.Config{Variant: engine.StudThree}},
}

// TestBotsOnlyPlayLegalActions seats every bot with random others at tables of 2 to
// 6 seats with random stacks in every game, and checks that the engine accepts
// every action they return.
func TestBotsOnlyPlayLegalActions(t *testing.T) {
	hands := 600
	if testing.Short() {
		hands = 150
	}
	names := Names()
	for _, g := range games {
		for _, name := range names {
			t.Run(g.name+"/"+name, func(t *testing.T) {
				// Tables of up to six seats: a bot that plays heads-up limit
				// only (cfr) is tested in its game (TestCFRBlueprint) and
				// replaced by chart here.
				game := &Game{Variant: g.cfg.Variant, Structure: g.cfg.Structure, Seats: 6}
				if errors.Is(CheckGame(name, game), ErrWrongGame) {
					t.Skipf("%s does not play %s", name, game)
				}
				r := rand.New(rand.NewPCG(7, uint64(len(name))))
				var bots [engine.MaxSeats]Bot
				for i := range bots {
					n := name
					if i > 0 && r.IntN(2) == 0 {
						n = names[r.IntN(len(names))]
					}
					if CheckGame(n, game) != nil {
						n = "chart"
					}
					b, err := New(n, Options{Rand: rand.New(rand.NewPCG(uint64(i), 1)), Samples: 40, Game: game})
					if err != nil {
						t.Fatal(err)
					}
					bots[i] = b
				}
				h := new(engine.Hand)
				for k := range hands {
					cfg := g.cfg
					cfg.Stacks = make([]int64, 2+r.IntN(5))
					for i := range cfg.Stacks {
						cfg.Stacks[i] = 1 + r.Int64N(300)
					}
					cfg.Button = r.IntN(len(cfg.Stacks))
					cfg.Stacks[cfg.Button] += 10
					cfg.Seed = cards.SeedFromUint64(uint64(k))
					if err := h.Reset(cfg); err != nil {
						t.Fatalf("hand %d: %v", k, err)
					}
					if err := playHand(h, bots[:]); err != nil {
						t.Fatalf("hand %d: %v", k, err)
					}
				}
			})
		}
	}
}

// playHand plays h to its end with bots[i] in seat i.
func playHand(h *engine.Hand, bots []Bot) error {
	for h.ToAct() != engine.NoSeat {
		seat := h.ToAct()
		v := h.View(seat)
		a := bots[seat].Act(&v)
		if err := h.Apply(a); err != nil {
			return fmt.Errorf("%T in seat %d with legal %+v: %w", bots[seat], seat, v.Legal, err)
		}
	}
	return nil
}

func TestNew(t *testing.T) {
	for _, info := range List() {
		if info.Description == "" {
			t.Errorf("%s has no description", info.Name)
		}
		if _, err := New(info.Name, Options{Game: &Game{Variant: engine.Holdem, Structure: engine.FixedLimit, Seats: 2}}); err != nil {
			t.Errorf("New(%q): %v", info.Name, err)
		}
	}
	if _, err := New("montecarlo:samples=10,bluff=false", Options{}); err != nil {
		t.Errorf("options: %v", err)
	}
	for _, bad := range []string{"nobody", "montecarlo:samples=x", "montecarlo:samples=-1", "montecarlo:speed=3", "montecarlo:bluff"} {
		_, err := New(bad, Options{})
		if err == nil {
			t.Errorf("New(%q) gave no error", bad)
		}
		if !errors.Is(err, ErrUnknownBot) && !errors.Is(err, ErrBadOption) {
			t.Errorf("New(%q): %v wraps neither sentinel", bad, err)
		}
	}
	b, _ := New("montecarlo:bluff=false,samples=7", Options{})
	if mc := b.(*monteCarloBot); mc.bluff || mc.samples != 7 {
		t.Errorf("options not applied: %+v", mc)
	}
}

// TestSimpleBots checks the always-fold, -call and -raise bots on a no-limit hand.
func TestSimpleBots(t *testing.T) {
	cfg := engine.Config{Stacks: []int64{200, 200, 200}, SmallBlind: 1, BigBlind: 2, Seed: cards.SeedFromUint64(3)}
	h, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	v := h.View(h.ToAct())
	for name, want := range map[string]engine.Action{
		"fold":  {Seat: v.Viewer, Kind: engine.Fold},
		"call":  {Seat: v.Viewer, Kind: engine.Call, Amount: 2},
		"raise": {Seat: v.Viewer, Kind: engine.Raise, Amount: 200},
	} {
		b, _ := New(name, Options{})
		if got := b.Act(&v); got != want {
			t.Errorf("%s: got %v, want %v", name, got, want)
		}
	}
}

func TestHandStrengthKnownAnswers(t *testing.T) {
	for _, c := range []struct {
		hole, board string
		hs          float64
	}{
		{"Ah8h", "9h8c2c", 0.84},  // issue 6
		{"AdQc", "3h4cJh", 0.585}, // Billings et al. 1998, the worked example
	} {
		h := cards.MustParseList(c.hole)
		s := HandStrength([2]cards.Card{h[0], h[1]}, cards.MustParseList(c.board))
		if d := s.HS - c.hs; d > 0.005 || d < -0.005 {
			t.Errorf("%s on %s: HS %.4f, want %.3f", c.hole, c.board, s.HS, c.hs)
		}
		if s.PPot <= 0 || s.PPot >= 1 || s.NPot <= 0 || s.NPot >= 1 {
			t.Errorf("%s on %s: potentials out of range: %+v", c.hole, c.board, s)
		}
	}
	// The nuts on the river: HS 1, no potential either way.
	s := HandStrength([2]cards.Card{cards.MustParse("As"), cards.MustParse("Ks")}, cards.MustParseList("QsJsTs2c3d"))
	if s != (Strength{HS: 1}) {
		t.Errorf("royal flush: %+v", s)
	}
	// A flush draw on the flop has positive potential well above its NPot.
	s = HandStrength([2]cards.Card{cards.MustParse("5h"), cards.MustParse("6h")}, cards.MustParseList("Kh9h2c"))
	if s.PPot < 0.15 || s.PPot < s.NPot {
		t.Errorf("flush draw: %+v", s)
	}
	if e := s.Effective(1); e < s.HS {
		t.Errorf("flush draw: EHS %.3f below HS %.3f", e, s.HS)
	}
}

func TestStartingGroups(t *testing.T) {
	for hand, want := range map[string]int{"AsAd": 1, "AhKh": 1, "AhKd": 2, "7c2d": 9, "Ts9s": 4, "9sTd": 7, "2c2d": 7, "KhJc": 5} {
		cs := cards.MustParseList(hand)
		if g := startingGroup(cs[0], cs[1]); g != want {
			t.Errorf("%s: group %d, want %d", hand, g, want)
		}
	}
	n := 0
	for _, row := range chartGroups {
		for _, g := range row {
			if g < 9 {
				n++
			}
		}
	}
	words := 0
	for _, text := range chartGroupText {
		words += len(strings.Fields(text))
	}
	if n != words {
		t.Errorf("%d hands in groups 1-8, %d named: a hand is named twice", n, words)
	}
}

// TestChartByPosition checks the chart bot under the gun at six seats: it folds 72o
// and raises AA.
func TestChartByPosition(t *testing.T) {
	b, _ := New("chart", Options{})
	for hole, want := range map[string]engine.ActionKind{"7h2c": engine.Fold, "AhAc": engine.Raise, "KsQs": engine.Raise, "KhJc": engine.Fold, "Js9s": engine.Call} {
		cfg := engine.Config{Stacks: []int64{200, 200, 200, 200, 200, 200}, SmallBlind: 1, BigBlind: 2, Button: 0}
		// Seat 3 is under the gun (button 0, blinds 1 and 2); it gets the 3rd and 9th card.
		deck := cards.MustParseList("2d3d" + hole[:2] + "4d5d6d7d8d" + hole[2:] + "9dTdJdQdKdAd")
		cfg.Deck = append(deck, cards.MustParseList("3c4c5c6c8c9cTcQc")...)
		h, err := engine.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if h.ToAct() != 3 {
			t.Fatalf("seat %d to act, want 3", h.ToAct())
		}
		v := h.View(3)
		if got := cards.Format(v.Seats[3].Cards[:2]); got != hole {
			t.Fatalf("dealt %s, want %s", got, hole)
		}
		if got := b.Act(&v); got.Kind != want {
			t.Errorf("%s under the gun: %v, want %v", hole, got, want)
		}
	}
}

// TestMonteCarloEquity checks the Hold'em simulation against a known pre-flop
// equity and that it does not allocate.
func TestMonteCarloEquity(t *testing.T) {
	cfg := engine.Config{Stacks: []int64{200, 200}, SmallBlind: 1, BigBlind: 2}
	// Seat 1 (big blind) gets As Ad, seat 0 gets 7h 2c.
	cfg.Deck = cards.MustParseList("As7hAd2c" + "3s4s5s6s8s9sTsJs")
	h, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	v := h.View(h.ToAct())
	var s situation
	s.read(&v)
	var sim simulator
	r := rand.New(rand.NewPCG(1, 2))
	eq := sim.equity(r, &v, &s, 20000)
	// 72o against one random hand: about 0.35 (0.346 exactly).
	if eq < 0.33 || eq > 0.36 {
		t.Errorf("72o pre-flop equity %.3f, want about 0.35", eq)
	}
	if allocs := testing.AllocsPerRun(20, func() { sim.equity(r, &v, &s, 200) }); allocs != 0 {
		t.Errorf("equity allocates %.0f times", allocs)
	}
}

// TestMonteCarloBluffSwitch puts 72o in the big blind against a raise to half its
// stack (rate of return about 0.7: mostly fold, bluff-raise 15% of the time) and
// checks that bluffing off never raises there while bluffing on sometimes does.
func TestMonteCarloBluffSwitch(t *testing.T) {
	cfg := engine.Config{Stacks: []int64{200, 200}, SmallBlind: 1, BigBlind: 2}
	cfg.Deck = cards.MustParseList("7hAs2cAd" + "3s4s5s6s8s9sTsJs")
	h, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Apply(engine.Action{Seat: 0, Kind: engine.Raise, Amount: 100}); err != nil {
		t.Fatal(err)
	}
	v := h.View(1)
	if got := cards.Format(v.Seats[1].Cards[:2]); got != "7h2c" {
		t.Fatalf("big blind holds %s", got)
	}
	for _, bluff := range []bool{false, true} {
		b, _ := New("montecarlo", Options{Rand: rand.New(rand.NewPCG(5, 5)), Samples: 300, NoBluff: !bluff})
		count := map[engine.ActionKind]int{}
		for range 400 {
			count[b.Act(&v).Kind]++
		}
		if raised := count[engine.Raise]; bluff != (raised > 0) || count[engine.Fold] < 200 {
			t.Errorf("bluff %v: %v", bluff, count)
		}
	}
}
