package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/store"
)

// headsUp starts a no-limit hand, blinds 1/2, stacks 200: seat 0 (the button and
// small blind) holds hole0, seat 1 hole1, and the board is board (five cards).
func headsUp(t *testing.T, hole0, hole1, board string) *engine.Hand {
	t.Helper()
	return dealt(t, hole0, hole1, board, engine.Config{})
}

// dealt is headsUp with cfg's stacks and blinds (the zero Config: headsUp's).
func dealt(t *testing.T, hole0, hole1, board string, cfg engine.Config) *engine.Hand {
	t.Helper()
	h0, h1 := cards.MustParseList(hole0), cards.MustParseList(hole1)
	b := cards.MustParseList(board)
	// Hole cards go out one at a time from the seat left of the button: 1, 0, 1, 0;
	// then burn, flop, burn, turn, burn, river.
	deck := []cards.Card{h1[0], h0[0], h1[1], h0[1]}
	used := cards.SetOf(append(append(h0, h1...), b...)...)
	var burns []cards.Card
	for c := cards.Card(0); len(burns) < 3; c++ {
		if !used.Has(c) {
			burns = append(burns, c)
		}
	}
	deck = append(deck, burns[0], b[0], b[1], b[2], burns[1], b[3], burns[2], b[4])
	if cfg.Stacks == nil {
		cfg = engine.Config{Stacks: []int64{200, 200}, SmallBlind: 1, BigBlind: 2}
	}
	cfg.Deck = deck
	h, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// play applies actions ("r10" raise or bet to 10, "c" call, "k" check, "f" fold),
// each by the seat to act.
func play(t *testing.T, h *engine.Hand, actions ...string) {
	t.Helper()
	for _, a := range actions {
		l := h.Legal()
		act := engine.Action{Seat: l.Seat}
		switch a[0] {
		case 'f':
			act.Kind = engine.Fold
		case 'k':
			act.Kind = engine.Check
		case 'c':
			act.Kind, act.Amount = engine.Call, l.CallAmount
		case 'r':
			act.Kind = engine.Raise
			if l.Can(engine.Bet) {
				act.Kind = engine.Bet
			}
			var n int64
			for _, d := range a[1:] {
				n = 10*n + int64(d-'0')
			}
			act.Amount = n
		}
		if err := h.Apply(act); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
}

// end tells l the end of h from seat's side.
func end(l Learner, h *engine.Hand, seat int) {
	v, r := h.View(seat), h.Result()
	l.HandEnd(&v, &r)
}

// TestAdaptiveLearnsAndPersists: the raise threshold steps up after a raised hand
// lost and down after one won, not after a hand without a raise, and the state
// survives in a file from one bot to the next.
func TestAdaptiveLearnsAndPersists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "adaptive.json")
	b, err := New("adaptive:state="+path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := b.(*adaptiveBot)
	lost := headsUp(t, "7h2c", "AsAd", "Ks9d5c4h3s") // seat 0 raises and loses
	play(t, lost, "r6", "c", "k", "k", "k", "k", "k", "k")
	end(a, lost, 0)
	if got := a.State().RaiseThreshold; got != adaptiveStart+adaptiveStep {
		t.Errorf("after a raised hand lost: threshold %v, want %v", got, adaptiveStart+adaptiveStep)
	}
	won := headsUp(t, "AsAd", "7h2c", "Ks9d5c4h3s")
	for range 3 {
		play(t, won, "r6", "c", "k", "k", "k", "k", "k", "k")
		end(a, won, 0)
		won = headsUp(t, "AsAd", "7h2c", "Ks9d5c4h3s")
	}
	called := headsUp(t, "AsAd", "7h2c", "Ks9d5c4h3s") // won without raising
	play(t, called, "c", "k", "k", "k", "k", "k", "k", "k")
	end(a, called, 0)
	want := AdaptiveState{RaiseThreshold: adaptiveStart - 2*adaptiveStep, Hands: 5, RaisedWon: 3, RaisedLost: 1}
	if d := a.State().RaiseThreshold - want.RaiseThreshold; d > 1e-9 || d < -1e-9 {
		t.Errorf("threshold %v, want %v", a.State().RaiseThreshold, want.RaiseThreshold)
	}
	b2, err := New("adaptive:state="+path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := b2.(*adaptiveBot).State(); got != a.State() || got.Hands != want.Hands || got.RaisedWon != want.RaisedWon {
		t.Errorf("loaded %+v, saved %+v", got, a.State())
	}
	// A state out of range is refused.
	if err := FileModels(path).SaveModel(context.Background(), "adaptive", "", []byte(`{"raise_threshold": 9}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := New("adaptive:state="+path, Options{}); err == nil {
		t.Error("threshold 9 accepted")
	}
}

// memModels is a store.BotModelStore in memory.
type memModels map[[2]string][]byte

func (m memModels) PutBotModel(_ context.Context, bm store.BotModel) error {
	m[[2]string{bm.Bot, bm.Opponent}] = bm.Model
	return nil
}

func (m memModels) BotModel(_ context.Context, bot, opp string) (store.BotModel, error) {
	data, ok := m[[2]string{bot, opp}]
	if !ok {
		return store.BotModel{}, store.ErrNotFound
	}
	return store.BotModel{Bot: bot, Opponent: opp, Model: data}, nil
}

// TestModelStores: both ModelStores give ErrNoModel for a missing model and return
// what was saved, each (bot, opponent) apart.
func TestModelStores(t *testing.T) {
	ctx := context.Background()
	for name, ms := range map[string]ModelStore{
		"file":  FileModels(filepath.Join(t.TempDir(), "models.json")),
		"store": StoreModels{memModels{}},
	} {
		if _, err := ms.LoadModel(ctx, "bayes", "call"); !errors.Is(err, ErrNoModel) {
			t.Errorf("%s: missing model: %v", name, err)
		}
		for _, opp := range []string{"call", "chart", ""} {
			if err := ms.SaveModel(ctx, "bayes", opp, []byte(`{"hands":`+string(rune('1'+len(opp)%5))+`}`)); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		for _, opp := range []string{"call", "chart", ""} {
			got, err := ms.LoadModel(ctx, "bayes", opp)
			var compact bytes.Buffer
			if err == nil {
				err = json.Compact(&compact, got)
			}
			got = compact.Bytes()
			if want := `{"hands":` + string(rune('1'+len(opp)%5)) + `}`; err != nil || string(got) != want {
				t.Errorf("%s: %q: %s, %v; want %s", name, opp, got, err, want)
			}
		}
	}
	if err := FileModels(filepath.Join(t.TempDir(), "x.json")).SaveModel(ctx, "a", "", []byte("{")); err == nil {
		t.Error("bad JSON saved")
	}
}

// TestBayesModel: the opponent model counts folds to bets on the flop and calls on the
// turn, and the small blind's calls of the big blind before the flop, and the bot's models (named by SeatNames) survive in the store.
func TestBayesModel(t *testing.T) {
	models := StoreModels{memModels{}}
	b, _ := New("bayes", Options{Models: models})
	by := b.(*bayesBot)
	for k := range 30 {
		h := headsUp(t, "AsAd", "7h2c", "Ks9d5c4h3s")
		if k%2 == 0 {
			play(t, h, "c", "k", "r4", "f") // seat 0 (the button) folds to a flop bet
		} else {
			play(t, h, "c", "k", "r4", "c", "r8", "c", "k", "k")
		}
		by.SeatNames([]string{"villain", "me"})
		end(by, h, 1)
	}
	m := by.Model("villain")
	if m.Hands != 30 || m.Faced[engine.Flop] != 30 || m.Folded[engine.Flop] != 15 || m.Faced[engine.Turn] != 15 || m.Folded[engine.Turn] != 0 || m.Faced[engine.Preflop] != 30 || m.Folded[engine.Preflop] != 0 {
		t.Errorf("model %+v", m)
	}
	if f := m.FoldRatio(engine.Flop); f < 0.45 || f > 0.5 {
		t.Errorf("flop fold ratio %.3f, want about (15+4·0.35)/34", f)
	}
	if f := (&OpponentModel{Hands: ModelHands - 1, Faced: m.Faced, Folded: m.Folded}).FoldRatio(engine.Flop); f != defaultFold[engine.Flop] {
		t.Errorf("before %d hands: fold ratio %.3f, want the default", ModelHands, f)
	}
	b2, _ := New("bayes", Options{Models: models})
	if got := b2.(*bayesBot).Model("villain"); *got != *m {
		t.Errorf("loaded %+v, saved %+v", got, m)
	}
}

// TestBayesBluffsAFolder: on the river with nothing made and nothing to call, the
// Bayesian bot bets far more often against an opponent who folds 90% of the time
// than against one who never folds, and more often still for value with the nuts.
func TestBayesBluffsAFolder(t *testing.T) {
	bets := func(hole string, foldRatio float64) int {
		h := headsUp(t, hole, "7h7c", "Ks9d5c4h2s")
		play(t, h, "c", "k", "k", "k", "k", "k", "k") // seat 1 checks the river to seat 0
		b, _ := New("bayes", Options{Rand: rand.New(rand.NewPCG(1, 2))})
		by := b.(*bayesBot)
		by.SeatNames([]string{"me", "villain"})
		m := by.Model("villain")
		m.Hands = 100
		m.Faced[engine.River] = 100
		m.Folded[engine.River] = int64(foldRatio * 100)
		v := h.View(0)
		n := 0
		for range 400 {
			if a := by.Act(&v); a.Kind == engine.Bet {
				n++
			}
		}
		return n
	}
	folder, caller := bets("Jh8c", 0.9), bets("Jh8c", 0)
	nuts := bets("6h3c", 0) // a straight against a caller
	t.Logf("bets in 400 with jack high: against a folder %d, a caller %d; with the nuts against a caller %d", folder, caller, nuts)
	if folder < 200 || caller > 80 || nuts < 200 {
		t.Errorf("bets with jack high: against a folder %d, a caller %d; with the nuts %d", folder, caller, nuts)
	}
}

// TestDrawOuts checks the partial straights and flushes the Bayesian bot counts.
func TestDrawOuts(t *testing.T) {
	for _, c := range []struct {
		hole, board string
		outs        int
	}{
		{"AhKh", "2h7h9c", 9},  // four to a flush
		{"8c9d", "TsJh2c", 8},  // open-ended
		{"8c9d", "Ts Qh2c", 4}, // gutshot
		{"As2d", "3h4c9s", 4},  // wheel gutshot (needs the five)
		{"8h9h", "ThJh2c", 15}, // both, capped
		{"2c3d", "9hJsKd", 0},  // nothing
		{"8c9d", "TsJhQc", 0},  // a made straight
		{"KhQd", "AsJc2d", 4},  // needs the ten
		{"Ah2h", "KhQh5c", 9},  // flush draw only
		{"5c6d", "7h8s2c", 8},  // open-ended, both hole cards
	} {
		h := cards.MustParseList(c.hole)
		if got := drawOuts(h[0], h[1], cards.MustParseList(c.board)); got != c.outs {
			t.Errorf("%s on %s: %d outs, want %d", c.hole, c.board, got, c.outs)
		}
	}
}
