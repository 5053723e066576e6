package arena

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// TestEquityIsTheMeanOfTheNextCard checks what the board cards' corrections rest
// on: A's exact equity before a card is the mean of its equities after each card
// that may come, so each correction has mean zero.
func TestEquityIsTheMeanOfTheNextCard(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 6 {
		var deck []cards.Card
		for c := cards.Card(0); c < cards.NumCards; c++ {
			deck = append(deck, c)
		}
		r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
		a, b := deck[0:2], deck[2:4]
		board := deck[4 : 4+3+trial%2] // a flop or a turn
		before, err := exactEquity(a, b, board)
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		var n int
		for _, c := range deck[4+len(board):] {
			e, err := exactEquity(a, b, append(append([]cards.Card(nil), board...), c))
			if err != nil {
				t.Fatal(err)
			}
			sum += e
			n++
		}
		if mean := sum / float64(n); math.Abs(mean-before) > 1e-9 {
			t.Errorf("%v vs %v on %v: equity %.6f, mean after the next card %.6f", a, b, board, before, mean)
		}
	}
}

// coin is a randomised bot that states its strategy: with nothing to call it
// checks or bets the pot, facing a bet it folds, calls or raises the pot, each
// with probabilities set by its hand's high card, so its dice add variance.
type coin struct{ r *rand.Rand }

func (c coin) Act(v *engine.View) engine.Action {
	probs, _ := c.Strategy(v, nil)
	x := c.r.Float64()
	for _, p := range probs {
		if x -= p.Prob; x < 0 {
			return p.Action
		}
	}
	return probs[len(probs)-1].Action
}

func (c coin) Strategy(v *engine.View, out []bot.ActionProb) ([]bot.ActionProb, bool) {
	l := v.Legal
	hi := float64(max(v.Seats[v.Viewer].Cards[0].Rank(), v.Seats[v.Viewer].Cards[1].Rank())) / 12
	out = out[:0]
	to := min(max(l.CurrentBet+v.Pot+(l.CurrentBet-l.Committed), l.MinTo), l.MaxTo)
	kind := engine.Raise
	if l.Can(engine.Bet) {
		kind = engine.Bet
	}
	canRaise := l.Can(kind)
	if l.Can(engine.Check) {
		if !canRaise {
			return append(out, bot.ActionProb{Action: engine.Action{Seat: l.Seat, Kind: engine.Check}, Prob: 1}), true
		}
		return append(out, bot.ActionProb{Action: engine.Action{Seat: l.Seat, Kind: engine.Check}, Prob: 1 - hi/2},
			bot.ActionProb{Action: engine.Action{Seat: l.Seat, Kind: kind, Amount: to}, Prob: hi / 2}), true
	}
	fold := 0.4 * (1 - hi)
	out = append(out, bot.ActionProb{Action: engine.Action{Seat: l.Seat, Kind: engine.Fold}, Prob: fold})
	if !canRaise {
		return append(out, bot.ActionProb{Action: engine.Action{Seat: l.Seat, Kind: engine.Call}, Prob: 1 - fold}), true
	}
	return append(out, bot.ActionProb{Action: engine.Action{Seat: l.Seat, Kind: engine.Call}, Prob: (1 - fold) * 0.8},
		bot.ActionProb{Action: engine.Action{Seat: l.Seat, Kind: kind, Amount: to}, Prob: (1 - fold) * 0.2}), true
}

// withCoin makes the test's coin bot as "coin", the registry's bots otherwise.
func withCoin(name string, o bot.Options) (bot.Bot, error) {
	if name == "coin" {
		r := o.Rand
		if r == nil {
			r = rand.New(rand.NewPCG(0, 0))
		}
		return coin{r}, nil
	}
	return bot.New(name, o)
}

func cvMatch(t *testing.T, a, b string, hands int, seed uint64, workers int) Result {
	t.Helper()
	g, _ := ParseGame("nl")
	r, err := Match(context.Background(), MatchConfig{A: a, B: b, Game: g, Hands: hands, Seed: seed,
		Workers: workers, NewBot: withCoin, ControlVariate: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.CV == nil {
		t.Fatalf("%s against %s: no control variate estimate", a, b)
	}
	return r
}

// TestControlVariateUnbiasedAndNarrower: a randomised strategist against itself
// is worth 0; with the control variate the estimate stays within its (narrower)
// interval of 0, and against other bots it stays within the plain interval of the
// plain estimate while narrowing it.
func TestControlVariateUnbiasedAndNarrower(t *testing.T) {
	for _, tc := range []struct {
		a, b   string
		narrow float64 // the least narrowing expected
	}{
		{"coin", "coin", 1.5},
		{"coin", "call", 1.5},
		{"maniac", "coin", 1.5},
		{"chart:samples=50", "call", 1.05}, // chart states no strategy after the flop: the cards alone
	} {
		r := cvMatch(t, tc.a, tc.b, 1200, 31, 2)
		t.Logf("%s against %s: %+.1f ± %.1f bb/100, with the control variate %v (%.2f× narrower)",
			tc.a, tc.b, r.BBPer100, r.CI95, *r.CV, r.CV.Narrowing)
		if math.Abs(r.CV.BBPer100-r.BBPer100) > r.CI95 {
			t.Errorf("%s against %s: the control variate moved the estimate from %.1f to %.1f, beyond the interval ±%.1f",
				tc.a, tc.b, r.BBPer100, r.CV.BBPer100, r.CI95)
		}
		if r.CV.Narrowing < tc.narrow {
			t.Errorf("%s against %s: interval ±%.1f → ±%.1f, narrowed %.2f×, want at least %.1f×",
				tc.a, tc.b, r.CI95, r.CV.CI95, r.CV.Narrowing, tc.narrow)
		}
		if tc.a == tc.b && math.Abs(r.CV.BBPer100) > r.CV.CI95 {
			t.Errorf("%s against itself: %v, want 0 within the interval", tc.a, *r.CV)
		}
	}
}

// TestControlVariateSameForAnyWorkers: the estimate depends on the seed alone.
func TestControlVariateSameForAnyWorkers(t *testing.T) {
	a := cvMatch(t, "coin", "maniac", 200, 4, 1)
	b := cvMatch(t, "coin", "maniac", 200, 4, 3)
	if *a.CV != *b.CV || a.Chips != b.Chips {
		t.Errorf("1 worker: %v, %d chips; 3 workers: %v, %d chips", *a.CV, a.Chips, *b.CV, b.Chips)
	}
}

// TestControlVariateValuesAllInsAtEquity: raise against call goes all-in before
// the flop every hand, so the control variate's estimate of each hand is A's
// equity share of the pot: the two hands of a deal cancel exactly, and the
// estimate is 0 ± 0 where the plain one is not (without the duplicate's pairing
// it would be the all-in luck).
func TestControlVariateValuesAllInsAtEquity(t *testing.T) {
	g, _ := ParseGame("nl")
	var cv ControlVariate
	var h engine.Hand
	cfg := g.HandConfig()
	cfg.Seed = cards.SeedFromUint64(77)
	if err := h.Reset(cfg); err != nil {
		t.Fatal(err)
	}
	if err := cv.Begin(&h, 0); err != nil {
		t.Fatal(err)
	}
	for h.ToAct() != engine.NoSeat {
		l := h.Legal()
		a := engine.Action{Seat: l.Seat, Kind: engine.Call}
		if l.Can(engine.Raise) {
			a = engine.Action{Seat: l.Seat, Kind: engine.Raise, Amount: l.MaxTo}
		}
		cv.Decision(l, a, nil, nil)
		if err := h.Apply(a); err != nil {
			t.Fatal(err)
		}
		if err := cv.Dealt(&h); err != nil {
			t.Fatal(err)
		}
	}
	e, err := exactEquity(h.Cards(0), h.Cards(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := (2*e - 1) * (20000 - 100) // the all-in's equity less the hole cards' share of the blinds
	if got := float64(h.Net(0)) - cv.Correction(); math.Abs(got-want) > 1e-6 {
		t.Errorf("all-in estimate %.3f, want the equity's %.3f (net %d)", got, want, h.Net(0))
	}
}

// TestControlVariateRefusesStud: three card stud has no value function here.
func TestControlVariateRefusesStud(t *testing.T) {
	g, _ := ParseGame("stud")
	if _, err := Match(context.Background(), MatchConfig{A: "call", B: "call", Game: g, Hands: 10, ControlVariate: true}); err == nil {
		t.Error("a stud match with the control variate: no error")
	}
}
