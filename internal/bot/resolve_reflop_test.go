package bot

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/solver"
)

// deepFlop deals a hand of blinds 50/100 with the given stacks, the small blind
// (seat 0, the bot's) holding AhQd against 8s8c on Kd7s2h, raising to 250 and
// called: the flop begins with 500 in the pot, the big blind to act.
func deepFlop(t *testing.T, stacks ...int64) *engine.Hand {
	t.Helper()
	h := dealt(t, "AhQd", "8s8c", "Kd7s2hTc3d", engine.Config{Stacks: stacks, SmallBlind: 50, BigBlind: 100})
	play(t, h, "r250", "c")
	return h
}

// newFlopResolve makes a resolve bot with the arena's budget (a few dozen flop
// iterations) and the given extra options (",flop=true" re-solves the flop).
func newFlopResolve(t *testing.T, opts string) *resolveBot {
	t.Helper()
	b, err := New("resolve:budget=300ms"+opts, Options{Rand: rand.New(rand.NewPCG(7, 3))})
	if err != nil {
		t.Fatal(err)
	}
	return b.(*resolveBot)
}

// finish plays h to its end, seat 0 by b, seat 1 checking or calling, and checks
// that every action of b is legal and the chips are conserved.
func finish(t *testing.T, b *resolveBot, h *engine.Hand) {
	t.Helper()
	for h.ToAct() != engine.NoSeat {
		v := h.View(h.ToAct())
		a := checkOrCall(v.Legal)
		if h.ToAct() == 0 {
			a = b.Act(&v)
		}
		a.Seat = h.ToAct()
		if err := h.Apply(a); err != nil {
			t.Fatalf("%v refused (legal %+v): %v", a, v.Legal, err)
		}
	}
	if h.Net(0)+h.Net(1) != 0 {
		t.Fatalf("nets %d and %d", h.Net(0), h.Net(1))
	}
}

// TestResolveFlopTakesActualSizes: facing flop bets the blueprint has no size for
// (0.37 and 3.1 pots, a min-bet, an all-in for less than a min-bet), the bot
// re-solves the flop with the bet as made in its tree (never rounded), plays a
// re-solved strategy for its hand, and acts legally to the hand's end. Without
// flop=true (and with flop=false) it plays the blueprint there (no re-solve).
func TestResolveFlopTakesActualSizes(t *testing.T) {
	for _, c := range []struct {
		name   string
		bet    int64
		stacks []int64
	}{
		{"0.37 pot", 185, []int64{20000, 20000}},
		{"3.1 pots", 1550, []int64{20000, 20000}},
		{"min-bet", 100, []int64{20000, 20000}},
		{"all-in for less", 40, []int64{20000, 290}},
	} {
		b := newFlopResolve(t, ",flop=true")
		h := deepFlop(t, c.stacks...)
		play(t, h, "r"+strconv.FormatInt(c.bet, 10))
		v := h.View(0)
		if _, ok := b.Strategy(&v, nil); !ok {
			t.Fatalf("%s: no strategy", c.name)
		}
		if b.kept.s == nil {
			t.Fatalf("%s: the flop was not re-solved", c.name)
		}
		root, err := b.kept.s.Node(nil)
		if err != nil {
			t.Fatal(err)
		}
		label := "b" + strconv.FormatInt(c.bet, 10)
		if !slices.Contains(root.Actions, label) {
			t.Errorf("%s: the re-solved flop's root has %v, not the bet as made (%s)", c.name, root.Actions, label)
		}
		hist, _ := readHistory(&v)
		p := b.cache[hist.key]
		if p == nil || p.probs[int(comboIndex[v.Seats[0].Cards[0]][v.Seats[0].Cards[1]])] == nil {
			t.Errorf("%s: no re-solved plan for AhQd", c.name)
		}
		finish(t, b, h)

		for _, opts := range []string{"", ",flop=false"} {
			old := newFlopResolve(t, opts)
			h = deepFlop(t, c.stacks...)
			play(t, h, "r"+strconv.FormatInt(c.bet, 10))
			v = h.View(0)
			if _, ok := old.Strategy(&v, nil); !ok || old.kept.s != nil {
				t.Errorf("%s, %q: strategy %v, re-solved %v; want the blueprint's", c.name, opts, ok, old.kept.s != nil)
			}
		}
	}
}

// stopAfter is a context that reports itself cancelled once the re-solve s holds
// has completed n iterations: a re-solve stopped between iterations,
// deterministically.
type stopAfter struct {
	context.Context
	s *solver.Solver
	n int
}

func (c *stopAfter) Err() error {
	if c.s != nil && c.s.Iterations() >= c.n {
		return context.Canceled
	}
	return nil
}

// TestResolveFlopCancelledMidSolve: a flop re-solve whose context is cancelled
// after its first iterations stops there and still gives a plan covering the hand,
// and the bot's action is legal; a context done on entry gives a legal action at
// once, with no re-solve.
func TestResolveFlopCancelledMidSolve(t *testing.T) {
	b := newFlopResolve(t, ",flop=true")
	b.budget = DefaultResolveBudget // flopIterations, were it not cancelled
	h := deepFlop(t, 20000, 20000)
	play(t, h, "r185")
	v := h.View(0)
	hist, _ := readHistory(&v)
	b.cache, b.starts = map[string]*plan{}, map[string]*[2]belief{}
	ctx := &stopAfter{Context: context.Background(), n: 3}
	b.beforeSolve = func(s *solver.Solver) { ctx.s = s }
	p := b.planAt(ctx, &hist)
	if p == nil || b.kept.s == nil {
		t.Fatal("no plan from a cancelled re-solve")
	}
	if n := b.kept.s.Iterations(); n != 3 {
		t.Errorf("the cancelled re-solve ran %d iterations, want 3 (of %d)", n, flopIterations)
	}
	if p.probs[int(comboIndex[v.Seats[0].Cards[0]][v.Seats[0].Cards[1]])] == nil {
		t.Error("the cancelled re-solve's plan leaves out AhQd")
	}
	finish(t, b, h)

	fresh := newFlopResolve(t, ",flop=true")
	h = deepFlop(t, 20000, 20000)
	play(t, h, "r185")
	v = h.View(0)
	done, cancel := context.WithCancel(context.Background())
	cancel()
	a := fresh.ActContext(done, &v)
	a.Seat = 0
	if err := h.Apply(a); err != nil || fresh.kept.s != nil {
		t.Errorf("done context: %v refused (%v) or re-solved (%v)", a, err, fresh.kept.s != nil)
	}
}

// TestResolveFlopEmptyRange: beliefs that leave a player no hand to re-solve with
// (every weight zero, or only on hands holding a board card) give no re-solve, a
// plan by equity and a legal action, without panicking.
func TestResolveFlopEmptyRange(t *testing.T) {
	var blocked belief
	kk := cards.MustParseList("KdKs")
	blocked[comboIndex[kk[0]][kk[1]]] = 1
	for name, opp := range map[string]belief{"zero": {}, "blocked": blocked} {
		b := newFlopResolve(t, ",flop=true")
		h := deepFlop(t, 20000, 20000)
		play(t, h, "r185")
		v := h.View(0)
		hist, _ := readHistory(&v)
		b.cache, b.starts = map[string]*plan{}, map[string]*[2]belief{}
		b.starts[hist.key[:hist.cur().keyAt]] = &[2]belief{uniform(), opp}
		a := b.Act(&v)
		a.Seat = 0
		if err := h.Apply(a); err != nil {
			t.Errorf("%s: %v refused: %v", name, a, err)
		}
		if p := b.cache[hist.key]; b.kept.s != nil || p == nil || len(p.acts) > 0 {
			t.Errorf("%s: a re-solve without a range, or no plan by equity (%+v)", name, p)
		}
	}
}

// TestResolveFlopOption: flop re-solving is off by default; flop=true (from
// anyone) turns it on, and a value that is not a boolean is refused by name.
func TestResolveFlopOption(t *testing.T) {
	if b := newFlopResolve(t, ""); b.flop {
		t.Error("flop re-solving is on by default")
	}
	if b := newFlopResolve(t, ",flop=true"); !b.flop {
		t.Error("flop=true does not re-solve the flop")
	}
	if b := newFlopResolve(t, ",flop=false"); b.flop {
		t.Error("flop=false re-solves the flop")
	}
	for _, ok := range []string{"resolve:flop=false", "resolve:flop=true"} {
		if err := CheckUntrusted(ok); err != nil {
			t.Errorf("%s from a player: %v", ok, err)
		}
	}
	for _, bad := range []string{"resolve:flop=maybe", "resolve:flop="} {
		_, err := New(bad, Options{})
		if !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), "flop=") {
			t.Errorf("%s: %v, want ErrBadOption naming flop=", bad, err)
		}
	}
}

// TestResolveFlopSafeAtRoot: re-solving safely, the bot's first flop re-solve
// records the opponent's values at the flop's start, and its next flop re-solve
// (after a re-raise of a size its tree did not have) is bounded by them, through
// the gadget at the subgame's root; with safe=false neither.
func TestResolveFlopSafeAtRoot(t *testing.T) {
	for _, safe := range []bool{true, false} {
		opts := ",flop=true"
		if !safe {
			opts += ",safe=false"
		}
		b := newFlopResolve(t, opts)
		h := deepFlop(t, 20000, 20000)
		play(t, h, "r185")
		v := h.View(0)
		if _, ok := b.Strategy(&v, nil); !ok {
			t.Fatal("no strategy")
		}
		hist, _ := readHistory(&v)
		start := hist.key[:hist.cur().keyAt]
		if got := b.bounds[start] != nil; got != safe {
			t.Errorf("safe %v: the flop's bound recorded %v", safe, got)
		}
		if b.kept.s.Following() != nil {
			t.Errorf("safe %v: the first flop re-solve is bounded", safe)
		}
		play(t, h, "r1055", "r2900")
		v = h.View(0)
		if _, ok := b.Strategy(&v, nil); !ok {
			t.Fatal("no strategy")
		}
		root, err := b.kept.s.Node(nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.kept.s.Following() != nil; got != safe || !slices.Contains(root.Actions, "b185") {
			t.Errorf("safe %v: the re-solve after the re-raise bounded %v, root %v", safe, got, root.Actions)
		}
		hist, _ = readHistory(&v)
		if path, err := pathOf(b.kept.s, hist.cur(), 3); err != nil || path[2] != "r2900" {
			t.Errorf("safe %v: the re-raise is %v in the tree (%v), want r2900", safe, path, err)
		}
		finish(t, b, h)
	}
}
