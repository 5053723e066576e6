package solver

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
)

func benchIterate(b *testing.B, board string, workers int) {
	s := mustSolver(b, benchSpot(board), workers)
	s.Iterate()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.Iterate()
	}
}

func benchBR(b *testing.B, board string, workers int) {
	s := mustSolver(b, benchSpot(board), workers)
	for range 10 {
		s.Iterate()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.Exploitability()
	}
}

func BenchmarkIterateRiver(b *testing.B)         { benchIterate(b, "QsJh2h8d3c", 1) }
func BenchmarkIterateTurn(b *testing.B)          { benchIterate(b, "QsJh2h8d", 1) }
func BenchmarkIterateTurn2Workers(b *testing.B)  { benchIterate(b, "QsJh2h8d", 2) }
func BenchmarkExploitabilityRiver(b *testing.B)  { benchBR(b, "QsJh2h8d3c", 1) }
func BenchmarkExploitabilityTurn(b *testing.B)   { benchBR(b, "QsJh2h8d", 1) }
func BenchmarkExploitabilityTurn2W(b *testing.B) { benchBR(b, "QsJh2h8d", 2) }

// The benchmark flop (about 1.2 GB and 3 CPU-s an iteration): run it alone,
// e.g. go test -run XXX -bench Flop -benchtime 3x ./internal/solver.
func BenchmarkIterateFlop2Workers(b *testing.B)  { benchIterate(b, "QsJh2h", 2) }
func BenchmarkExploitabilityFlop2W(b *testing.B) { benchBR(b, "QsJh2h", 2) }

func benchIterateOpts(b *testing.B, sp Spot, opts Options) {
	s, err := New(sp, opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	s.Iterate()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.Iterate()
	}
}

func BenchmarkIterateTurnCompressed(b *testing.B) {
	benchIterateOpts(b, benchSpot("QsJh2h8d"), Options{Workers: 1, Compress: true})
}

// benchIterateSafe times an iteration of a safe re-solve: every hand of OOP bounded
// (by 0 chips), so that the gadget at the root works for every hand.
func benchIterateSafe(b *testing.B, board string) {
	sp := benchSpot(board)
	sp.Bound = &Bound{Player: OOP, Values: make([]float64, equity.NumCombos)}
	benchIterateOpts(b, sp, Options{Workers: 1})
}

func BenchmarkIterateRiverSafe(b *testing.B) { benchIterateSafe(b, "QsJh2h8d3c") }
func BenchmarkIterateTurnSafe(b *testing.B)  { benchIterateSafe(b, "QsJh2h8d") }

// benchIterateContext times an iteration under a context that could stop it (one
// with a deadline an hour away: the traversals poll it at every node, the clock
// every clockEvery nodes), to compare with benchIterate's.
func benchIterateContext(b *testing.B, sp Spot) {
	s := mustSolver(b, sp, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	s.Iterate()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if !s.IterateContext(ctx) {
			b.Fatal("an iteration was stopped")
		}
	}
}

func BenchmarkIterateRiverContext(b *testing.B) { benchIterateContext(b, benchSpot("QsJh2h8d3c")) }
func BenchmarkIterateTurnContext(b *testing.B)  { benchIterateContext(b, benchSpot("QsJh2h8d")) }

// BenchmarkIterateResolveTurnContext is BenchmarkIterateResolveTurn under a
// deadline: the clock read every clockEvery nodes.
func BenchmarkIterateResolveTurnContext(b *testing.B) {
	benchIterateContext(b, resolveSpot(b, "QsJh2h8d"))
}

// resolveSpot is a spot as the resolve bot re-solves it (internal/bot,
// roundTree): both ranges every live hand, of uneven weights, the pot 1,000 and
// 9,000 behind; on the turn one bet of 66% and a raise of the pot, two raises at
// most, the river one bet of 75%; on the river bets of 33, 75 and 125% and a raise
// of the pot, three at most.
func resolveSpot(tb testing.TB, board string) Spot {
	tb.Helper()
	sp := Spot{Pot: 1000, Stack: 9000, Board: cards.MustParseList(board)}
	for p := range 2 {
		var combos []equity.Combo
		for a := cards.Card(1); a < cards.NumCards; a++ { // in the bot's order (comboCards)
			for b := range a {
				w := float64((int(a)*7+int(b)*13+p*5)%23+1) / 23
				combos = append(combos, equity.Combo{Cards: [2]cards.Card{a, b}, Weight: w})
			}
		}
		r, err := equity.RangeOf(combos)
		if err != nil {
			tb.Fatal(err)
		}
		sp.Range[p] = r
	}
	t := Tree{AllInThreshold: 0.9, RaiseCap: 2}
	if len(sp.Board) == 5 {
		t.RaiseCap = 3
	}
	for p := range 2 {
		t.Sizes[p][Turn] = Sizes{Bet: []float64{66}, Raise: []float64{100}}
		t.Sizes[p][River] = Sizes{Bet: []float64{75}}
		if len(sp.Board) == 5 {
			t.Sizes[p][River] = Sizes{Bet: []float64{33, 75, 125}, Raise: []float64{100}}
		}
	}
	sp.Tree = t
	return sp
}

func BenchmarkIterateResolveTurn(b *testing.B) {
	benchIterateOpts(b, resolveSpot(b, "QsJh2h8d"), Options{Workers: 1})
}

func BenchmarkIterateResolveRiver(b *testing.B) {
	benchIterateOpts(b, resolveSpot(b, "QsJh2h8d3c"), Options{Workers: 1})
}

// kernelSolver is a river resolveSpot after a few iterations: regrets of both
// signs, reach of uneven weights.
func kernelSolver(b *testing.B) (*Solver, []float64) {
	s, err := New(resolveSpot(b, "QsJh2h8d3c"), Options{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	for range 5 {
		s.Iterate()
	}
	return s, s.weights[1]
}

// BenchmarkRegretMatch times regret matching at the river's root (4 actions,
// 1,081 hands).
func BenchmarkRegretMatch(b *testing.B) {
	s, _ := kernelSolver(b)
	n := &s.nodes[0]
	na, nh := int(n.nkids), len(s.hands[n.player])
	sigma, reach := make([]float64, na*nh), make([]float64, na*nh)
	b.ReportAllocs()
	for b.Loop() {
		regretMatch(s.regrets(n, nil), na, nh, sigma, s.weights[n.player], reach, nh)
	}
}

// BenchmarkShowdown times one showdown over the river's 1,081 hands a player.
func BenchmarkShowdown(b *testing.B) {
	s, opp := kernelSolver(b)
	out := make([]float64, len(s.hands[0]))
	bd := &s.boards[0]
	b.ReportAllocs()
	for b.Loop() {
		s.showdown(s.main, bd, 0, opp, out, 1)
	}
}

// sparseReach returns weights with two hands in three set to 0 at random, as most
// of the opponent's hands at a re-solve's showdowns are.
func sparseReach(weights []float64) []float64 {
	rng := rand.New(rand.NewPCG(7, 8))
	opp := make([]float64, len(weights))
	for h, v := range weights {
		if rng.IntN(3) == 0 {
			opp[h] = v
		}
	}
	return opp
}

// BenchmarkShowdownSparse is BenchmarkShowdown with a third of the opponent's hands
// with reach.
func BenchmarkShowdownSparse(b *testing.B) {
	s, opp := kernelSolver(b)
	opp = sparseReach(opp)
	out := make([]float64, len(s.hands[0]))
	bd := &s.boards[0]
	b.ReportAllocs()
	for b.Loop() {
		s.showdown(s.main, bd, 0, opp, out, 1)
	}
}

// BenchmarkGather times picking out the opponent's hands with reach at a showdown
// (a third of 1,081).
func BenchmarkGather(b *testing.B) {
	s, opp := kernelSolver(b)
	opp = sparseReach(opp)
	bd := &s.boards[0]
	b.ReportAllocs()
	for b.Loop() {
		gather(bd.seats[1], opp, s.main.live)
	}
}

// BenchmarkCompatible times the blocker sums over the river's 1,081 hands a player.
func BenchmarkCompatible(b *testing.B) {
	s, opp := kernelSolver(b)
	out := make([]float64, len(s.hands[0]))
	b.ReportAllocs()
	for b.Loop() {
		s.compatible(0, opp, out, &s.main.cs)
	}
}

// kernelRows returns the inputs of a two-action decision over the river's 1,081
// hands: regrets of both signs, strategies, values and reach.
func kernelRows() (regret []float32, sigma, vals, r []float64) {
	const nh = 1081
	rng := rand.New(rand.NewPCG(5, 6))
	regret, sigma, vals, r = make([]float32, 2*nh), make([]float64, 2*nh), make([]float64, 2*nh), make([]float64, nh)
	for i := range regret {
		regret[i] = float32(rng.NormFloat64())
		sigma[i] = rng.Float64()
		vals[i] = rng.NormFloat64() * 100
	}
	for i := range r {
		r[i] = rng.Float64()
	}
	return regret, sigma, vals, r
}

// BenchmarkMatch2 times regret matching at a two-action decision (1,081 hands):
// the most common decision of resolve's turn re-solve.
func BenchmarkMatch2(b *testing.B) {
	regret, sigma, _, r := kernelRows()
	reach := make([]float64, len(sigma))
	b.ReportAllocs()
	for b.Loop() {
		regretMatch(regret, 2, len(r), sigma, r, reach, len(r))
	}
}

// BenchmarkUpdate2 times the value, regret and strategy-sum update of a
// two-action decision (1,081 hands).
func BenchmarkUpdate2(b *testing.B) {
	regret, sigma, vals, r := kernelRows()
	strat, out := make([]float32, len(regret)), make([]float64, len(r))
	k := discounts{pos: 0.9, neg: 0.5, g: 0.8}
	b.ReportAllocs()
	for b.Loop() {
		update2(regret, strat, vals, sigma, r, out, len(r), k)
	}
}
