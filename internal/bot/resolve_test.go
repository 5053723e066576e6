package bot

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/solver"
)

// newTestResolve makes a resolve bot with the smallest budget, so that its
// re-solves run one or a few iterations.
func newTestResolve(t *testing.T, seed uint64) *resolveBot {
	t.Helper()
	b, err := New("resolve:budget=50ms", Options{Rand: rand.New(rand.NewPCG(seed, 3))})
	if err != nil {
		t.Fatal(err)
	}
	return b.(*resolveBot)
}

// riverAllIn plays a 100-big-blind hand to the river, where the big blind (seat 1)
// moves all-in, and returns the small blind's view: it holds hole.
func riverAllIn(t *testing.T, hole string) engine.View {
	t.Helper()
	h := headsUp(t, hole, "8s8c", "KdJs9h7d2c")
	play(t, h, "r5", "c", "k", "k", "k", "k", "r195")
	return h.View(0)
}

// onItsOwnLine plays a 100-big-blind hand in which the bot (seat 0, the small
// blind) holds hole and takes its likeliest action each time, while the big blind
// checks or calls to the river and moves all-in there; it returns the bot's view
// facing the all-in.
func onItsOwnLine(t *testing.T, b *resolveBot, hole string) engine.View {
	t.Helper()
	h := headsUp(t, hole, "8s8c", "KdJs9h7d2c")
	for {
		v := h.View(h.ToAct())
		var a engine.Action
		switch {
		case h.ToAct() == 0:
			probs, _ := b.Strategy(&v, nil)
			best := probs[0]
			for _, p := range probs {
				if p.Prob > best.Prob {
					best = p
				}
			}
			a = best.Action
		case v.Street == engine.River && (v.Legal.Can(engine.Bet) || v.Legal.Can(engine.Raise)):
			a = raiseTo(v.Legal, v.Legal.MaxTo)
		default:
			a = checkOrCall(v.Legal)
		}
		a.Seat = h.ToAct()
		if err := h.Apply(a); err != nil {
			t.Fatal(err)
		}
		if h.ToAct() == 0 && h.View(0).Legal.CallAmount == h.View(0).Legal.Stack {
			return h.View(0)
		}
		if h.Over() {
			t.Fatalf("%s: the hand ended before the all-in", hole)
		}
	}
}

// TestResolveRiverFoldAndCall: facing a river all-in on its own line, the bot's
// re-solve (not its fallback: the hand is in its range) calls with the nuts and
// folds queen high, as any solution of the spot does.
func TestResolveRiverFoldAndCall(t *testing.T) {
	for _, c := range []struct {
		hole string
		want engine.ActionKind
	}{{"TcQh", engine.Call}, {"Qc3h", engine.Fold}} {
		b := newTestResolve(t, 2)
		b.budget = DefaultResolveBudget
		v := onItsOwnLine(t, b, c.hole)
		if v.Street != engine.River {
			t.Fatalf("%s: all-in on the %v", c.hole, v.Street)
		}
		probs, ok := b.Strategy(&v, nil)
		h, _ := readHistory(&v)
		if p := b.cache[h.key]; !ok || p == nil || p.probs[int(comboIndex[v.Seats[0].Cards[0]][v.Seats[0].Cards[1]])] == nil {
			t.Fatalf("%s: no re-solved plan covers the hand", c.hole)
		}
		p := 0.0
		for _, x := range probs {
			if x.Action.Kind == c.want {
				p += x.Prob
			}
		}
		if p < 0.8 {
			t.Errorf("%s facing the all-in: %v; want %v at least 80%%", c.hole, probs, c.want)
		}
	}
}

// TestResolveOffItsLine: a hand the bot's own range gave up (it would not have
// checked it) still gets an answer from its equity: the nuts call the all-in.
func TestResolveOffItsLine(t *testing.T) {
	b := newTestResolve(t, 1)
	v := riverAllIn(t, "TcQh")
	if a := b.Act(&v); a.Kind != engine.Call {
		t.Errorf("the nuts off the bot's line: %v, want a call", a)
	}
}

// TestResolveExpiredContext: with its context already done the bot answers at once
// with a legal action, without solving anything.
func TestResolveExpiredContext(t *testing.T) {
	b := newTestResolve(t, 1)
	v := riverAllIn(t, "TcQh")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a := b.ActContext(ctx, &v)
	if a.Kind != engine.Fold && a.Kind != engine.Call {
		t.Errorf("expired context: %v, want a fold or call", a)
	}
	if len(b.cache) != 0 || len(b.starts) != 0 {
		t.Errorf("expired context: %d plans and %d beliefs made", len(b.cache), len(b.starts))
	}
	h := headsUp(t, "TcQh", "8s8c", "KdJs9h7d2c")
	a.Seat = 0
	play(t, h, "r5", "c", "k", "k", "k", "k", "r195")
	if err := h.Apply(a); err != nil {
		t.Errorf("expired context: %v refused: %v", a, err)
	}
}

// TestResolveStrategyContextExpired: StrategyContext with its context already
// done answers at once, with certainty, without solving anything (Strategy, with
// no deadline, re-solves): felt lbr stopped does not wait for a re-solve.
func TestResolveStrategyContextExpired(t *testing.T) {
	b := newTestResolve(t, 1)
	v := riverAllIn(t, "TcQh")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	probs, ok := b.StrategyContext(ctx, &v, nil)
	if !ok || len(probs) != 1 || probs[0].Prob != 1 || len(b.cache) != 0 || len(b.starts) != 0 {
		t.Fatalf("expired context: %v, %v, %d plans and %d beliefs made; want one action at once", probs, ok, len(b.cache), len(b.starts))
	}
}

// TestResolvePlaysLegallyAtAnyDepth: against the random bot (odd bet sizes, min
// raises, all-ins) at 20 to 350 big blinds, every action is legal, the chips are
// conserved, and the beliefs stay normalized.
func TestResolvePlaysLegallyAtAnyDepth(t *testing.T) {
	hands := 24
	if testing.Short() {
		hands = 8
	}
	r := rand.New(rand.NewPCG(5, 5))
	for _, bb := range []int64{20, 47, 200, 350} {
		b := newTestResolve(t, uint64(bb))
		other := &randomBot{r: r}
		for k := range hands {
			h, err := engine.New(engine.Config{Stacks: []int64{bb * 100, bb*100 + int64(k)*37}, SmallBlind: 50, BigBlind: 100,
				Seed: cards.SeedFromUint64(uint64(k) + uint64(bb)<<20), Button: k % 2})
			if err != nil {
				t.Fatal(err)
			}
			seat := k / 2 % 2
			for h.ToAct() != engine.NoSeat {
				v := h.View(h.ToAct())
				var a engine.Action
				if h.ToAct() == seat {
					a = b.Act(&v)
				} else {
					a = other.Act(&v)
				}
				if err := h.Apply(a); err != nil {
					t.Fatalf("%d bb, hand %d: %v refused (legal %+v): %v", bb, k, a, v.Legal, err)
				}
			}
			if h.Net(0)+h.Net(1) != 0 {
				t.Fatalf("%d bb, hand %d: nets %d and %d", bb, k, h.Net(0), h.Net(1))
			}
			checkBeliefs(t, b)
		}
	}
}

// checkBeliefs fails when a belief the bot keeps is not normalized: weights from 0
// to 1, the heaviest 1.
func checkBeliefs(t *testing.T, b *resolveBot) {
	t.Helper()
	for key, bel := range b.starts {
		for r := range bel {
			top := 0.0
			for _, w := range bel[r] {
				if !(w >= 0 && w <= 1) {
					t.Fatalf("belief %q role %d: weight %v", key, r, w)
				}
				top = max(top, w)
			}
			if top != 1 {
				t.Fatalf("belief %q role %d: heaviest hand %v, want 1", key, r, top)
			}
		}
	}
}

// TestResolveStrategyMatchesAct: Strategy's probabilities sum to 1 and Act only
// takes actions Strategy gives weight.
func TestResolveStrategyMatchesAct(t *testing.T) {
	b := newTestResolve(t, 9)
	r := rand.New(rand.NewPCG(9, 9))
	for seed := range uint64(6) {
		h, err := engine.New(engine.Config{Stacks: []int64{10000, 10000}, SmallBlind: 50, BigBlind: 100, Seed: cards.SeedFromUint64(seed)})
		if err != nil {
			t.Fatal(err)
		}
		for h.ToAct() != engine.NoSeat {
			v := h.View(h.ToAct())
			probs, ok := b.Strategy(&v, nil)
			sum := 0.0
			for _, p := range probs {
				sum += p.Prob
			}
			if !ok || sum < 0.999 || sum > 1.001 {
				t.Fatalf("Strategy %v (ok %v): sum %v", probs, ok, sum)
			}
			a := b.Act(&v)
			found := false
			for _, p := range probs {
				found = found || p.Action == a && p.Prob > 0
			}
			if !found {
				t.Fatalf("Act %v not in Strategy %v", a, probs)
			}
			if err := h.Apply(engine.RandomAction(r, v.Legal)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestResolveBudgetOption: budget= takes a duration within bounds, and a player may
// ask for at most MaxUntrustedBudget.
func TestResolveBudgetOption(t *testing.T) {
	if err := CheckUntrusted("resolve:budget=1s"); err != nil {
		t.Errorf("1s from a player: %v", err)
	}
	for _, bad := range []string{"resolve:budget=3s", "resolve:budget=x", "resolve:budget=10ms"} {
		if err := CheckUntrusted(bad); err == nil {
			t.Errorf("CheckUntrusted(%q) accepted", bad)
		}
	}
	if _, err := New("resolve:budget=10ms", Options{}); err == nil {
		t.Error("a 10ms budget was accepted")
	}
	b, err := New("resolve:budget=30s", Options{})
	if err != nil || b.(*resolveBot).budget != 30*time.Second {
		t.Errorf("operator's 30s budget: %v", err)
	}
}

// TestResolveKeptSolveGivesSameBeliefs: the ranges at the river's start are the same
// whether they come from the bot's kept turn re-solve or from a new one.
func TestResolveKeptSolveGivesSameBeliefs(t *testing.T) {
	b := newTestResolve(t, 4)
	v := onItsOwnLine(t, b, "TcQh")
	h, _ := readHistory(&v)
	river := h.key[:h.cur().keyAt]
	if !b.kept.covers(h.key[:h.streets[2].keyAt], &h.streets[2], roleSB) {
		t.Fatalf("the kept solve is not the turn's: %q %v, turn %q %v", b.kept.start, b.kept.acts, h.key[:h.streets[2].keyAt], h.streets[2].acts)
	}
	if _, ok := b.Strategy(&v, nil); !ok {
		t.Fatal("no strategy")
	}
	fresh := newTestResolve(t, 4)
	if _, ok := fresh.Strategy(&v, nil); !ok {
		t.Fatal("no strategy")
	}
	x, y := b.starts[river], fresh.starts[river]
	if x == nil || y == nil || *x != *y {
		t.Fatalf("river beliefs differ (kept %v, new %v)", x != nil, y != nil)
	}
}

// TestResolveSafeOption: re-solving safely (the default), the bot's river re-solve
// is bounded by the opponent's values at the river's start from its turn re-solve;
// with safe=false it is not. safe takes a boolean, from anyone.
func TestResolveSafeOption(t *testing.T) {
	for _, safe := range []bool{true, false} {
		name := "resolve:budget=50ms"
		if !safe {
			name += ",safe=false"
		}
		x, err := New(name, Options{Rand: rand.New(rand.NewPCG(4, 3))})
		if err != nil {
			t.Fatal(err)
		}
		b := x.(*resolveBot)
		v := onItsOwnLine(t, b, "TcQh")
		if _, ok := b.Strategy(&v, nil); !ok {
			t.Fatal("no strategy")
		}
		h, _ := readHistory(&v)
		bound := b.bounds[h.key[:h.cur().keyAt]]
		bounded := b.kept.s != nil && b.kept.s.Following() != nil
		if safe && (bound == nil || bound.Player != solverPlayer(roleBB) || !bounded) {
			t.Errorf("safe: the river's bound %v, the river re-solve bounded %v; want the big blind's values and a bounded re-solve", bound != nil, bounded)
		}
		if !safe && (bound != nil || bounded) {
			t.Errorf("safe=false: the river has a bound (%v) or a bounded re-solve (%v)", bound != nil, bounded)
		}
	}
	if err := CheckUntrusted("resolve:safe=false"); err != nil {
		t.Errorf("safe=false from a player: %v", err)
	}
	if _, err := New("resolve:safe=maybe", Options{}); err == nil {
		t.Error("safe=maybe was accepted")
	}
}

// TestResolveDeadlineInsideFirstIteration: when the deadline comes as the turn's
// re-solve begins (its context cancelled by a hook once the beliefs and the tree
// are made), no iteration completes, and the bot still answers at once, legally,
// by its hand's equity against the opponent's range: the straight bets the pot.
// That answer is not cached, the turn teaches the beliefs nothing (the river starts
// from the turn's beliefs) and the river, solved without a deadline, is re-solved
// and played as usual with normalized beliefs.
func TestResolveDeadlineInsideFirstIteration(t *testing.T) {
	b := newTestResolve(t, 1)
	b.budget = time.Hour // only the hook ends the decision
	h := headsUp(t, "TcQh", "8s8c", "KdJs9h7d2c")
	play(t, h, "r5", "c", "k", "k", "k")
	v := h.View(0)
	if v.Street != engine.Turn || h.ToAct() != 0 {
		t.Fatalf("the bot is not to act on the turn: %v, seat %d", v.Street, h.ToAct())
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	solves := 0
	b.beforeSolve = func(*solver.Solver) {
		if solves++; solves == 1 {
			cancel()
		}
	}
	a := b.ActContext(ctx, &v)
	if b.kept.s == nil || b.kept.s.Iterations() != 0 || solves != 1 {
		t.Fatalf("the turn's re-solve: kept %v, %d solves; want one with no iteration completed", b.kept.s != nil, solves)
	}
	if a.Kind != engine.Bet || a.Amount != v.Pot {
		t.Errorf("the straight with no iteration: %v, want a bet of the pot (%d)", a, v.Pot)
	}
	turn, _ := readHistory(&v)
	if _, ok := b.cache[turn.key]; ok {
		t.Error("the plan of a re-solve with no iteration was cached")
	}
	a.Seat = 0
	if err := h.Apply(a); err != nil {
		t.Fatalf("%v refused: %v", a, err)
	}
	b.beforeSolve = nil
	play(t, h, "c", "k")
	v = h.View(0)
	if v.Street != engine.River {
		t.Fatalf("not on the river: %v", v.Street)
	}
	a = b.ActContext(context.Background(), &v)
	a.Seat = 0
	if err := h.Apply(a); err != nil {
		t.Fatalf("river %v refused: %v", a, err)
	}
	river, _ := readHistory(&v)
	if p := b.cache[river.key]; p == nil || p.unsolved || b.kept.s.Iterations() == 0 {
		t.Fatal("the river was not re-solved")
	}
	x, y := b.starts[turn.key[:turn.cur().keyAt]], b.starts[river.key[:river.cur().keyAt]]
	if x == nil || y == nil || *x != *y {
		t.Errorf("the river's beliefs are not the turn's (turn %v, river %v)", x != nil, y != nil)
	}
	checkBeliefs(t, b)
}

// TestResolveOneIterationFallsBack: a turn re-solve the deadline stops after one
// iteration has only the uniform strategy (DCFR starts from zero regrets: every
// action alike for every hand), so the bot answers by equity as with none, and the
// round teaches its beliefs nothing; after two it plays the re-solve.
func TestResolveOneIterationFallsBack(t *testing.T) {
	for _, n := range []int{1, 2} {
		b := newTestResolve(t, 1)
		b.budget = time.Hour
		h := headsUp(t, "TcQh", "8s8c", "KdJs9h7d2c")
		play(t, h, "r5", "c", "k", "k", "k")
		v := h.View(0)
		hist, _ := readHistory(&v)
		ctx := &stopAfter{Context: context.Background(), n: n}
		b.beforeSolve = func(s *solver.Solver) { ctx.s = s }
		b.cache, b.starts = map[string]*plan{}, map[string]*[2]belief{}
		p := b.planAt(ctx, &hist)
		if p == nil || b.kept.s == nil || b.kept.s.Iterations() != n {
			t.Fatalf("%d iterations: plan %v, kept %v", n, p != nil, b.kept.s != nil)
		}
		if n == 1 {
			root, err := b.kept.s.Strategy(nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, hd := range root.Hands {
				for _, q := range hd.Strategy {
					if math.Abs(q-1/float64(len(root.Actions))) > 1e-9 {
						t.Fatalf("one iteration: %s plays %v at the root, not uniformly", hd.Hand, hd.Strategy)
					}
				}
			}
		}
		if p.unsolved != (n == 1) || len(p.probs) == 0 == (n == 2) {
			t.Errorf("%d iterations: unsolved %v with %d hands covered; want the equity fallback only after one", n, p.unsolved, len(p.probs))
		}
	}
}
