package solver

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/equity"
)

// nodeState is a copy of every decision's regrets and strategy sums (decoded when
// compressed), and the gadget's regrets and sums.
type nodeState struct {
	regret, sums [][]float32
	gadget       []float64
}

func stateOf(s *Solver) nodeState {
	var st nodeState
	buf := make([]float32, s.maxA*s.maxH)
	for i := range s.nodes {
		n := &s.nodes[i]
		if n.kind != actionNode {
			continue
		}
		st.regret = append(st.regret, slices.Clone(s.regrets(n, buf)))
		st.sums = append(st.sums, slices.Clone(s.sums(n, buf)))
	}
	if g := s.gadget; g != nil {
		st.gadget = append(slices.Clone(g.regret), g.sum...)
	}
	return st
}

// interruptCases: a turn (its river cards dealt at chance nodes), the same with the
// compressed store, with two workers, and with a bound on OOP (the gadget's player,
// whose traversal comes first). slack is how much higher the exploitability may be
// 10 iterations after an interrupted one than without it: the bounded game's swings
// early (after 30 it was 47.5% of the pot against 48.4%, docs/solver.md).
func interruptCases() []struct {
	name  string
	spot  Spot
	opts  Options
	slack float64
} {
	bounded := benchSpot("QsJh2h8d")
	bounded.Bound = &Bound{Player: OOP, Values: make([]float64, equity.NumCombos)}
	return []struct {
		name  string
		spot  Spot
		opts  Options
		slack float64
	}{
		{"turn", benchSpot("QsJh2h8d"), Options{Workers: 1}, 1.02},
		{"compressed", benchSpot("QsJh2h8d"), Options{Workers: 1, Compress: true}, 1.02},
		{"two workers", benchSpot("QsJh2h8d"), Options{Workers: 2}, 1.02},
		{"bounded", bounded, Options{Workers: 1}, 1.6},
	}
}

// TestIterateContextStopsInsideAnIteration: a context cancelled (by a hook) at a
// chance node in the middle of an iteration stops it there: no further node is
// entered, IterateContext reports it unfinished and Iterations does not count it.
// Every decision node then holds either its state before the iteration or exactly
// the state the whole iteration gives it (a node it finished keeps its update, the
// nodes above the stop, the root among them, and the gadget are untouched), so the
// average strategy is still a strategy; iterating on from there converges as usual.
func TestIterateContextStopsInsideAnIteration(t *testing.T) {
	for _, tc := range interruptCases() {
		var s [2]*Solver // s[0] is interrupted, s[1] runs the whole iteration
		for i := range s {
			var err error
			if s[i], err = New(tc.spot, tc.opts); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(s[i].Close)
			for range 2 {
				s[i].Iterate()
			}
		}
		before := stateOf(s[0])
		chances := 0
		s[1].onChance = func() { chances++ }
		if !s[1].IterateContext(context.Background()) {
			t.Fatalf("%s: an iteration without a deadline was not completed", tc.name)
		}
		full := stateOf(s[1])

		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		entered, stopAt := 0, chances/3
		s[0].onChance = func() {
			if entered++; entered == stopAt {
				cancel()
			}
		}
		if s[0].IterateContext(ctx) {
			t.Fatalf("%s: the interrupted iteration reports itself completed", tc.name)
		}
		if entered != stopAt || s[0].Iterations() != 2 {
			t.Fatalf("%s: %d chance nodes entered (stopped at %d of %d), %d iterations counted; want no node after the stop and 2",
				tc.name, entered, stopAt, chances, s[0].Iterations())
		}
		checkPartialState(t, tc.name, before, stateOf(s[0]), full)

		s[0].onChance = nil
		for i := range s {
			for range 10 {
				s[i].Iterate()
			}
		}
		e0, e1 := s[0].Exploitability(), s[1].Exploitability()
		if math.IsNaN(e0) || e0 > tc.slack*e1 {
			t.Errorf("%s: exploitability %.3f%% after the interrupted iteration and 10 more, %.3f%% without it", tc.name, e0, e1)
		}
	}
}

// checkPartialState fails unless every node of got is as in before or as in full,
// some of each, the root as before, and every strategy sum a finite weight of at
// least 0; the gadget must be as before.
func checkPartialState(t *testing.T, name string, before, got, full nodeState) {
	t.Helper()
	kept, untouched := 0, 0
	for i := range got.sums {
		switch {
		case slices.Equal(got.regret[i], before.regret[i]) && slices.Equal(got.sums[i], before.sums[i]):
			untouched++
		case slices.Equal(got.regret[i], full.regret[i]) && slices.Equal(got.sums[i], full.sums[i]):
			kept++
		default:
			t.Fatalf("%s: decision %d is neither as before the iteration nor as after it", name, i)
		}
		if i == 0 && !slices.Equal(got.sums[0], before.sums[0]) {
			t.Errorf("%s: the root was updated by an iteration stopped below it", name)
		}
		for _, x := range got.sums[i] {
			if !(x >= 0) || math.IsInf(float64(x), 0) {
				t.Fatalf("%s: decision %d has a strategy sum %v", name, i, x)
			}
		}
	}
	if kept == 0 || untouched == 0 {
		t.Errorf("%s: %d decisions updated, %d untouched; want some of each", name, kept, untouched)
	}
	if !slices.Equal(got.gadget, before.gadget) {
		t.Errorf("%s: the gadget was updated by an interrupted iteration", name)
	}
}

// TestIterateContextDoneOnEntry: with its context already done IterateContext does
// nothing (not even allocate the arrays); without a deadline it is Iterate.
func TestIterateContextDoneOnEntry(t *testing.T) {
	s := mustSolver(t, benchSpot("QsJh2h8d3c"), 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if s.IterateContext(ctx) || s.Iterations() != 0 || s.main != nil {
		t.Fatalf("done context: completed %v, %d iterations, arrays allocated %v", s.IterateContext(ctx), s.Iterations(), s.main != nil)
	}
	plain := mustSolver(t, benchSpot("QsJh2h8d3c"), 1)
	for range 5 {
		plain.Iterate()
		if !s.IterateContext(context.Background()) {
			t.Fatal("an iteration without a deadline was not completed")
		}
	}
	sameStrategies(t, s, plain, [][]string{nil, {"x"}}, 0)
}

// TestHandValuesContext: values whose traversal is cancelled inside return the
// context's error and no values; without a deadline they are HandValues'.
func TestHandValuesContext(t *testing.T) {
	s := mustSolver(t, benchSpot("QsJh2h8d"), 1)
	for range 3 {
		s.Iterate()
	}
	want, err := s.HandValues(nil, IP, true)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.HandValuesContext(context.Background(), nil, IP, true)
	if err != nil || !slices.EqualFunc(got, want, func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }) {
		t.Fatalf("without a deadline: %v, values differ from HandValues'", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	entered := 0
	s.onChance = func() {
		if entered++; entered == 2 {
			cancel()
		}
	}
	if v, err := s.HandValuesContext(ctx, nil, IP, true); err != context.Canceled || v != nil || entered != 2 {
		t.Fatalf("cancelled inside: %d values, error %v, %d chance nodes entered; want none, context.Canceled, 2", len(v), err, entered)
	}
}

// TestSolveStopsInsideAnIteration: Solve (felt solve's Ctrl-C) cancelled by a hook
// at a chance node a third of the way through its third iteration stops there, as
// IterateContext does: it returns the context's error with two iterations counted
// and the progress marked interrupted, every decision as before that iteration or
// as the whole iteration leaves it. Saved and loaded, the solve counts the same
// iterations and goes on exactly as the one in memory. The old Solve finished the
// iteration (three counted) and the save counted the interrupted one.
func TestSolveStopsInsideAnIteration(t *testing.T) {
	sp := benchSpot("QsJh2h8d")
	whole := mustSolver(t, sp, 1) // the same solve, run to the end of its third iteration
	chances := 0
	whole.onChance = func() { chances++ }
	whole.Iterate()
	whole.Iterate()
	before, two := stateOf(whole), chances
	whole.Iterate()
	full, third := stateOf(whole), chances-two

	s := mustSolver(t, sp, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	entered, stopAt := 0, two+third/3
	s.onChance = func() {
		if entered++; entered == stopAt {
			cancel()
		}
	}
	var reports []Progress
	pr, err := s.Solve(ctx, Limits{MaxIterations: 100}, func(p Progress) { reports = append(reports, p) })
	s.onChance = nil
	if !errors.Is(err, context.Canceled) || pr.Iterations != 2 || !pr.Interrupted || !pr.Done || s.Iterations() != 2 {
		t.Fatalf("Solve: %v, progress %+v, %d iterations; want context.Canceled, 2 iterations, interrupted and done", err, pr, s.Iterations())
	}
	if len(reports) != 1 || reports[0] != pr {
		t.Errorf("reported %+v, want the final progress once", reports)
	}
	checkPartialState(t, "Solve", before, stateOf(s), full)

	var buf bytes.Buffer
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(bytes.NewReader(buf.Bytes()), Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(loaded.Close)
	if loaded.Iterations() != 2 {
		t.Fatalf("loaded %d iterations, want 2 (the interrupted one not counted)", loaded.Iterations())
	}
	for range 3 {
		s.Iterate()
		loaded.Iterate()
	}
	if a, b := stateOf(s), stateOf(loaded); !slices.EqualFunc(a.sums, b.sums, slices.Equal) || !slices.EqualFunc(a.regret, b.regret, slices.Equal) {
		t.Error("the loaded solve did not go on as the one in memory")
	}
	if s.Iterations() != 5 || loaded.Iterations() != 5 {
		t.Errorf("%d and %d iterations after 3 more, want 5", s.Iterations(), loaded.Iterations())
	}
}

// lateTimer is a context past its deadline whose timer has not run yet: Done is
// open and Err nil, as they stay for a while when the runtime is slow to run the
// timer (no P free for it, a loaded machine).
type lateTimer struct {
	context.Context
	done chan struct{}
}

func newLateTimer() lateTimer {
	return lateTimer{Context: context.Background(), done: make(chan struct{})}
}

func (c lateTimer) Deadline() (time.Time, bool) { return time.Now().Add(-time.Hour), true }
func (c lateTimer) Done() <-chan struct{}       { return c.done }

// TestStopsAtDeadlineBeforeItsTimer: past its context's deadline, before the
// context says so, IterateContext enters no node and counts no iteration,
// HandValuesContext gives no values, NewContext builds no tree and Solve returns,
// each with context.DeadlineExceeded; a context that is done only by its Done channel
// stops them too. Before, they read only Done: under load the turn's iteration
// ran on for hundreds of milliseconds past the bot's deadline.
func TestStopsAtDeadlineBeforeItsTimer(t *testing.T) {
	s := mustSolver(t, benchSpot("QsJh2h8d"), 1)
	entered := 0
	s.onChance = func() { entered++ }
	if s.IterateContext(newLateTimer()) || s.Iterations() != 0 || entered != 0 || s.main != nil {
		t.Fatalf("past the deadline: iteration completed %v, %d counted, %d chance nodes entered, arrays allocated %v; want nothing done",
			s.Iterations() > 0, s.Iterations(), entered, s.main != nil)
	}
	s.onChance = nil
	s.Iterate()
	s.onChance = func() { entered++ }
	if v, err := s.HandValuesContext(newLateTimer(), nil, IP, true); v != nil || err != context.DeadlineExceeded || entered != 0 {
		t.Fatalf("values past the deadline: %d values, error %v, %d chance nodes entered", len(v), err, entered)
	}
	if _, err := s.HandValuesContext(context.Background(), nil, IP, true); err != nil {
		t.Fatalf("after a stop: %v", err)
	}
	if got, err := NewContext(newLateTimer(), benchSpot("QsJh2h8d"), Options{Workers: 1}); got != nil || err != context.DeadlineExceeded {
		t.Fatalf("a build past the deadline: solver %v, error %v; want none, context.DeadlineExceeded", got != nil, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got, err := NewContext(ctx, benchSpot("QsJh2h8d"), Options{Workers: 1}); got != nil || err != context.Canceled {
		t.Fatalf("a build with its context cancelled: solver %v, error %v", got != nil, err)
	}
	if got, err := NewContext(context.Background(), benchSpot("QsJh2h8d"), Options{Workers: 1}); err != nil || got.Memory() != s.Memory() {
		t.Fatalf("a build without a deadline: %v, or not New's tree", err)
	}
	n := s.Iterations()
	if pr, err := s.Solve(newLateTimer(), Limits{MaxIterations: 5}, nil); err != context.DeadlineExceeded || !pr.Done || s.Iterations() != n {
		t.Fatalf("Solve past the deadline: %v, progress %+v, %d iterations run; want context.DeadlineExceeded at once, none",
			err, pr, s.Iterations()-n)
	}
}

// TestSortByRankIsStable: sortByRank orders hands by rank, those of equal rank
// as they came (the showdown's order, and so every solve, as before it sorted
// packed keys instead of a stable sort).
func TestSortByRankIsStable(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		n := r.IntN(1200)
		order, rank := make([]int32, n), make([]uint16, n)
		for i := range order {
			order[i], rank[i] = int32(r.IntN(1326)), uint16(r.IntN(1+r.IntN(7462)))
		}
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return int(rank[a]) - int(rank[b]) })
		wantO, wantR := make([]int32, n), make([]uint16, n)
		for i, j := range idx {
			wantO[i], wantR[i] = order[j], rank[j]
		}
		sortByRank(order, rank)
		if !slices.Equal(order, wantO) || !slices.Equal(rank, wantR) {
			t.Fatalf("%d hands: not a stable sort by rank", n)
		}
	}
}
