package lbr

import (
	"context"
	"errors"
	"testing"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/engine"
)

// run plays LBR against name and fails the test on an error.
func run(t *testing.T, c Config) Result {
	t.Helper()
	r, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Against a bot that always folds, LBR wins the blinds: as the big blind the
// small blind's 50 (the bot folds to the blind), as the small blind it calls, the
// bot checks, and its pot-size bet on the flop takes the big blind's 100. That is
// 150 chips a deal, 75 a hand: 750 mbb/g, 75 bb/100, with no variance.
func TestFoldLosesTheBlinds(t *testing.T) {
	r := run(t, Config{Bot: "fold", Hands: 40, Seed: 1})
	if r.Chips != 150*int64(r.Deals) || r.MBBPerGame != 750 || r.BBPer100 != 75 || r.MBBCI95 != 0 {
		t.Fatalf("against fold: %+v; want 150 chips a deal, 750 mbb/g ± 0", r)
	}
	// The control variate stays unbiased where nothing is left to take out (its
	// flop corrections, where LBR bets into the folder, only add noise).
	if cv := r.CV; cv == nil || cv.MBBPerGame < 750-cv.MBBCI95 || cv.MBBPerGame > 750+cv.MBBCI95 {
		t.Fatalf("against fold with the control variate: %+v; want 750 within the interval", cv)
	}
}

// A calling station never folds, so LBR bets only for value, with its equity
// against every hand: it must win far more than the blinds.
func TestCallLosesALot(t *testing.T) {
	r := run(t, Config{Bot: "call", Hands: 200, Seed: 2})
	if r.MBBPerGame-r.MBBCI95 < 2000 {
		t.Fatalf("against call: %.0f ± %.0f mbb/g; want well above 2,000", r.MBBPerGame, r.MBBCI95)
	}
	// The control variate counts LBR's value bets called down at their equity:
	// the same win within the interval, the interval no wider (most of what is
	// left is which flops LBR gets, which a check-down value cannot see).
	cv := r.CV
	t.Logf("against call: %.0f ± %.0f mbb/g, with the control variate %.0f ± %.0f", r.MBBPerGame, r.MBBCI95, cv.MBBPerGame, cv.MBBCI95)
	if cv.MBBPerGame < r.MBBPerGame-r.MBBCI95 || cv.MBBPerGame > r.MBBPerGame+r.MBBCI95 || cv.Narrowing < 1 {
		t.Fatalf("against call with the control variate: %+v; want %.0f ± %.0f narrowed", cv, r.MBBPerGame, r.MBBCI95)
	}
}

// The result for a seed does not depend on the number of workers, for a bot LBR
// must sample (random), with so few runouts that LBR's decisions rest on its own
// stream: both streams must be reseeded from the deal, not carried over.
func TestWorkersDoNotChangeTheResult(t *testing.T) {
	c := Config{Bot: "random", Hands: 40, Seed: 7, Preflop: true, Runouts: 3}
	c.Workers = 1
	one := run(t, c)
	c.Workers = 3
	three := run(t, c)
	if one.Chips != three.Chips || one.MBBCI95 != three.MBBCI95 || one.Misses != three.Misses {
		t.Fatalf("1 worker: %+v\n3 workers: %+v", one, three)
	}
}

// Bad configurations are refused before anything is played.
func TestBadConfig(t *testing.T) {
	for _, c := range []Config{
		{Bot: "nobody", Hands: 10},
		{Bot: "call", Hands: 2},
		{Bot: "call", Hands: 10, Samples: MaxSamples + 1},
		{Bot: "call", Hands: 10, Runouts: -1},
		{Bot: "call", Hands: 10, Sizes: []Size{}},
	} {
		if _, err := Run(context.Background(), c); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	for _, s := range []string{"", "0", "-1", "pot", "1,,allin", "1e9"} {
		if _, err := ParseSizes(s); err == nil {
			t.Errorf("ParseSizes(%q): no error", s)
		}
	}
	if got, err := ParseSizes("0.5, 1,allin"); err != nil || len(got) != 3 || got[2] != AllIn {
		t.Errorf("ParseSizes: %v, %v", got, err)
	}
}

// limitGame is the arena's fixed-limit Hold'em (blinds 50/100, bets 100/200).
func limitGame(t *testing.T) arena.Game {
	t.Helper()
	g, err := arena.ParseGame("limit")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// In fixed-limit LBR's sizes all come to the one raise the rules allow, and
// against a folder it wins the blinds as in no-limit: the big blind takes the
// small blind's 50, the small blind calls and its flop bet (100, the small bet)
// takes the big blind's 100. 150 chips a deal: 750 mbb/g, no variance.
func TestLimitFoldLosesTheBlinds(t *testing.T) {
	r := run(t, Config{Bot: "fold", Game: limitGame(t), Hands: 40, Seed: 1})
	if r.Variant != "limit" || r.Chips != 150*int64(r.Deals) || r.MBBPerGame != 750 || r.MBBCI95 != 0 {
		t.Fatalf("against fold in limit: %+v; want 150 chips a deal, 750 mbb/g ± 0", r)
	}
}

// Against a calling station in fixed-limit LBR bets its equity (one bet a
// street at most, the station never raising): it wins, but far less than in
// no-limit, where a pot-size bet or all-in is called.
func TestLimitCallLoses(t *testing.T) {
	g := limitGame(t)
	r := run(t, Config{Bot: "call", Game: g, Hands: 400, Seed: 2, Preflop: true})
	t.Logf("LBR against call in limit: %.0f ± %.0f mbb/g", r.MBBPerGame, r.MBBCI95)
	// Betting every street it is ahead, LBR can win at most 2+2+4+4 big bets'
	// worth (1,200 chips a hand) with every hand, far below that on average.
	if r.MBBPerGame-r.MBBCI95 < 200 || r.MBBPerGame > 12000 {
		t.Fatalf("against call in limit: %.0f ± %.0f mbb/g; want clearly above 200, below 12,000", r.MBBPerGame, r.MBBCI95)
	}
}

// Stud has no two-card ranges: LBR refuses it before playing.
func TestStudRefused(t *testing.T) {
	g, err := arena.ParseGame("stud")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), Config{Bot: "call", Game: g, Hands: 10}); !errors.Is(err, ErrNotHoldem) {
		t.Fatalf("stud: %v; want ErrNotHoldem", err)
	}
}

// The bot is told the game LBR plays: cfr, a fixed-limit bot, is refused in
// no-limit and made in fixed-limit (it was told no-limit whatever the game).
func TestBotToldTheGame(t *testing.T) {
	c := Config{Bot: "cfr", Hands: 10}
	if _, err := c.Prepare(); !errors.Is(err, bot.ErrWrongGame) {
		t.Fatalf("cfr in no-limit: %v, want bot.ErrWrongGame", err)
	}
	c = Config{Bot: "cfr", Game: limitGame(t), Hands: 10}
	if _, err := c.Prepare(); err != nil {
		t.Fatalf("cfr in fixed-limit: %v", err)
	}
	if g := c.BotGame(); g.Structure != engine.FixedLimit || g.Seats != 2 {
		t.Fatalf("LBR in limit tells its bot %v", g)
	}
}
