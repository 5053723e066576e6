package arena

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/engine"
)

func match(t *testing.T, a, b, game string, hands int, seed uint64, workers int) Result {
	t.Helper()
	g, err := ParseGame(game)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Match(context.Background(), MatchConfig{A: a, B: b, Game: g, Hands: hands, Seed: seed, Workers: workers})
	if err != nil {
		t.Fatalf("%s vs %s (%s): %v", a, b, game, err)
	}
	return r
}

// TestEveryBotEveryGame plays short matches of every bot against random in every
// game it plays (cfr: limit only). Each hand's two results must sum to 0 (Match
// checks it and fails with ErrChipsNotConserved) and every action must be legal.
func TestEveryBotEveryGame(t *testing.T) {
	for _, g := range Games() {
		for _, name := range bot.Names() {
			if errors.Is(bot.CheckGame(name, g.Bot(2)), bot.ErrWrongGame) {
				continue
			}
			r := match(t, name+samplesFor(name), "random", g.Name, 40, 3, 2)
			if r.Hands != 40 || r.Deals != 20 {
				t.Errorf("%s %s: %d hands in %d deals", g.Name, name, r.Hands, r.Deals)
			}
		}
	}
}

func samplesFor(name string) string {
	if name == "montecarlo" || name == "chart" || name == "hsppot" {
		return ":samples=50"
	}
	return ""
}

// TestDuplicateSymmetry: a bot against itself in duplicate with a deterministic
// bot nets exactly zero, since each deal's two hands are mirror images.
func TestDuplicateSymmetry(t *testing.T) {
	for _, g := range []string{"nl", "limit", "stud"} {
		r := match(t, "call", "call", g, 200, 9, 2)
		if r.Chips != 0 || r.BBPer100 != 0 || r.CI95 != 0 {
			t.Errorf("%s: call against call: %+v", g, r)
		}
	}
	// raise against fold wins the big blind (100) when it is the button and the
	// small blind (50) when the folder is: 150 chips a deal.
	r := match(t, "raise", "fold", "nl", 200, 9, 2)
	if want := int64(150 * 100); r.Chips != want || r.BBPer100 != 75 || r.CI95 != 0 {
		t.Errorf("raise against fold: %+v, want %d chips, 75 bb/100 ± 0", r, want)
	}
}

// TestDeterministicAcrossWorkers: the seed alone fixes the result.
func TestDeterministicAcrossWorkers(t *testing.T) {
	a := match(t, "montecarlo:samples=30", "random", "nl", 300, 42, 1)
	b := match(t, "montecarlo:samples=30", "random", "nl", 300, 42, 3)
	if a.Chips != b.Chips || a.BBPer100 != b.BBPer100 || a.CI95 != b.CI95 {
		t.Errorf("1 worker: %+v\n3 workers: %+v", a, b)
	}
	c := match(t, "montecarlo:samples=30", "random", "nl", 300, 43, 2)
	if c.Chips == a.Chips {
		t.Errorf("seeds 42 and 43 gave the same result %d", a.Chips)
	}
}

// TestMonteCarloBeatsCallAndRandom: over 2,000 duplicate hands the Monte Carlo bot
// wins against always-call and random with a 95% interval clear of zero.
func TestMonteCarloBeatsCallAndRandom(t *testing.T) {
	hands := 2000
	if testing.Short() {
		hands = 600
	}
	for _, opp := range []string{"call", "random"} {
		for _, g := range []string{"nl", "limit"} {
			r := match(t, "montecarlo:samples=100", opp, g, hands, 1, 0)
			t.Logf("montecarlo vs %s (%s): %+.1f ± %.1f bb/100", opp, g, r.BBPer100, r.CI95)
			if r.BBPer100-r.CI95 <= 0 {
				t.Errorf("montecarlo vs %s (%s): %+.1f ± %.1f bb/100 does not exclude zero", opp, g, r.BBPer100, r.CI95)
			}
		}
	}
}

func TestProgressAndErrors(t *testing.T) {
	g, _ := ParseGame("nl")
	var seen atomic.Int64
	r, err := Match(context.Background(), MatchConfig{A: "call", B: "raise", Game: g, Hands: 101, Seed: 1,
		Progress: func(n int) { seen.Add(int64(n)) }})
	if err != nil {
		t.Fatal(err)
	}
	if r.Hands != 102 || seen.Load() != 102 {
		t.Errorf("hands %d, progress %d, want 102", r.Hands, seen.Load())
	}
	if _, err := Match(context.Background(), MatchConfig{A: "nobody", B: "call", Game: g, Hands: 10}); !errors.Is(err, bot.ErrUnknownBot) {
		t.Errorf("unknown bot: %v", err)
	}
	if _, err := Match(context.Background(), MatchConfig{A: "call", B: "call", Game: g, Hands: 3}); err == nil {
		t.Error("3 hands: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Match(ctx, MatchConfig{A: "call", B: "call", Game: g, Hands: 100}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := ParseGame("omaha"); err == nil {
		t.Error("omaha: no error")
	}
}

func TestLeague(t *testing.T) {
	g, _ := ParseGame("limit")
	l, err := PlayLeague(context.Background(), LeagueConfig{Bots: []string{"call", "fold", "montecarlo:samples=50"}, Game: g, Hands: 400, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	for i := range l.Bots {
		for j := range l.Bots {
			if a, b := l.Matches[i][j], l.Matches[j][i]; a.Chips != -b.Chips || a.BBPer100 != -b.BBPer100 || a.CI95 != b.CI95 {
				t.Errorf("matches %d,%d and %d,%d are not mirrors: %+v %+v", i, j, j, i, a, b)
			}
		}
	}
	if l.Ranking[2].Bot != "fold" {
		t.Errorf("fold is not last: %+v", l.Ranking)
	}
	for k := 1; k < len(l.Ranking); k++ {
		if l.Ranking[k].BBPer100 > l.Ranking[k-1].BBPer100 {
			t.Errorf("ranking out of order: %+v", l.Ranking)
		}
	}
	if _, err := PlayLeague(context.Background(), LeagueConfig{Bots: []string{"call"}, Game: g, Hands: 10}); err == nil {
		t.Error("one bot: no error")
	}
}

// BenchmarkMatch measures arena hands per second with the random bot on both sides
// (compare the engine's BenchmarkRandomHands) and with the Monte Carlo bot.
func BenchmarkMatch(b *testing.B) {
	for _, bots := range [][2]string{{"random", "random"}, {"call", "raise"}, {"montecarlo", "call"}} {
		b.Run(bots[0]+"-"+bots[1], func(b *testing.B) {
			g, _ := ParseGame("nl")
			hands := max(b.N, MinHands)
			b.ReportAllocs()
			if _, err := Match(context.Background(), MatchConfig{A: bots[0], B: bots[1], Game: g, Hands: hands, Seed: 1}); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(hands)/b.Elapsed().Seconds(), "hands/s")
		})
	}
}

// learner calls, and records what it is told at the end of each hand.
type learner struct {
	bot.Bot
	hands, bad int
}

func (l *learner) HandEnd(v *engine.View, r *engine.Result) {
	l.hands++
	var sum int64
	for _, n := range r.Net {
		sum += n
	}
	if !v.Over || sum != 0 || !v.Seats[v.Viewer].Cards[0].Valid() {
		l.bad++
	}
}

// TestLearnersHearEveryHand: a Learner's HandEnd is called once per hand it plays,
// with its final view and a result whose nets sum to zero.
func TestLearnersHearEveryHand(t *testing.T) {
	g, _ := ParseGame("nl")
	var made []*learner
	newBot := func(name string, o bot.Options) (bot.Bot, error) {
		b, err := bot.New(name, o)
		if err != nil || name != "call" {
			return b, err
		}
		l := &learner{Bot: b}
		made = append(made, l)
		return l, nil
	}
	if _, err := Match(context.Background(), MatchConfig{A: "call", B: "random", Game: g, Hands: 100, Workers: 1, NewBot: newBot}); err != nil {
		t.Fatal(err)
	}
	if len(made) != 2 || made[0].hands != 0 || made[1].hands != 100 || made[1].bad != 0 {
		t.Errorf("learners (the first is Match's check of the name): %+v", made)
	}
}

// TestStudBotBeatsCallAndRandom: in three card stud the stud bot wins against
// always-call and random with a 95% interval clear of zero.
func TestStudBotBeatsCallAndRandom(t *testing.T) {
	hands := 2000
	if testing.Short() {
		hands = 800
	}
	for _, opp := range []string{"call", "random"} {
		r := match(t, "stud:samples=100", opp, "stud", hands, 1, 0)
		t.Logf("stud vs %s: %+.1f ± %.1f bb/100", opp, r.BBPer100, r.CI95)
		if r.BBPer100-r.CI95 <= 0 {
			t.Errorf("stud vs %s: %+.1f ± %.1f bb/100 does not exclude zero", opp, r.BBPer100, r.CI95)
		}
	}
}

// TestWorkerCount: the workers asked, GOMAXPROCS for 0 or less, never more
// than the jobs and never none (Match and lbr.Run share it).
func TestWorkerCount(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	for _, c := range []struct{ asked, jobs, want int }{
		{3, 10, 3}, {3, 2, 2}, {0, 1 << 20, procs}, {-1, 1 << 20, procs}, {0, 1, 1}, {5, 0, 1},
	} {
		if got := WorkerCount(c.asked, c.jobs); got != c.want {
			t.Errorf("WorkerCount(%d, %d) = %d, want %d", c.asked, c.jobs, got, c.want)
		}
	}
}

// TestParallel: f runs once for each worker number, and each error comes back
// at its worker's place.
func TestParallel(t *testing.T) {
	var ran [5]atomic.Int32
	boom := errors.New("boom")
	errs := Parallel(len(ran), func(w int) error {
		ran[w].Add(1)
		if w == 3 {
			return boom
		}
		return nil
	})
	for w := range ran {
		if ran[w].Load() != 1 || (errs[w] == boom) != (w == 3) {
			t.Errorf("worker %d ran %d times, error %v", w, ran[w].Load(), errs[w])
		}
	}
}
