package cfr

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

// Known answers.
const (
	kuhnValue  = -1.0 / 18 // player 0's equilibrium value
	leducValue = -0.0856064
	// OpenSpiel's exploitability (NashConv/2) of its C++ CFRSolver's average policy
	// after 1,024 iterations on leduc_poker.
	leducVanilla1024 = 0.012256
)

func solve(t testing.TB, g *Game, o Options, iters int) *Solver {
	t.Helper()
	s, err := NewSolver(g, o)
	if err != nil {
		t.Fatal(err)
	}
	s.Iterate(iters)
	return s
}

func TestTreeSizes(t *testing.T) {
	for _, tc := range []struct {
		g        *Game
		infosets int
	}{{Kuhn(), 12}, {Leduc(), 288}} { // Leduc: 936 with suits told apart, 288 by rank
		if got := tc.g.Infosets(); got != tc.infosets {
			t.Errorf("%s: %d information sets, want %d", tc.g.Name(), got, tc.infosets)
		}
		keys := map[string]bool{}
		for i := range tc.g.Infosets() {
			k := tc.g.Infoset(i).Key
			if keys[k] {
				t.Errorf("%s: key %q repeated", tc.g.Name(), k)
			}
			keys[k] = true
		}
	}
}

// OpenSpiel's NashConv of the uniform random policy is 11/12 in Kuhn and
// 4.747222 in Leduc; the uniform policy's value in Leduc is −0.078125.
func TestUniform(t *testing.T) {
	for _, tc := range []struct {
		g           *Game
		value, expl float64
	}{{Kuhn(), 0.125, 11.0 / 24}, {Leduc(), -0.078125, 4.747222222222222 / 2}} {
		u := Uniform(tc.g)
		if v := u.Value(); math.Abs(v-tc.value) > 1e-12 {
			t.Errorf("%s: uniform value %v, want %v", tc.g.Name(), v, tc.value)
		}
		if e := u.Exploitability(); math.Abs(e-tc.expl) > 1e-9 {
			t.Errorf("%s: uniform exploitability %v, want %v", tc.g.Name(), e, tc.expl)
		}
	}
}

func TestKuhnValue(t *testing.T) {
	for _, a := range []Algorithm{Vanilla, CFRPlus, DCFR} {
		avg := solve(t, Kuhn(), Options{Algorithm: a}, 2000).Average()
		if v := avg.Value(); math.Abs(v-kuhnValue) > 1e-4 {
			t.Errorf("%v: Kuhn value %.6f, want %.6f", a, v, kuhnValue)
		}
		if e := avg.Exploitability(); e > 1e-3 {
			t.Errorf("%v: Kuhn exploitability %v after 2000 iterations", a, e)
		}
	}
}

func TestLeducValue(t *testing.T) {
	s := solve(t, Leduc(), Options{Algorithm: DCFR}, 4096)
	avg := s.Average()
	if v := avg.Value(); math.Abs(v-leducValue) > 1e-6 {
		t.Errorf("Leduc value %.7f, want %.7f", v, leducValue)
	}
	// The goal from issue 8: below 0.01 milli-chips per game. 4,096 iterations give
	// 0.011; 5,000 are enough.
	s.Iterate(5000 - 4096)
	if e := s.Average().Exploitability() * 1000; e >= 0.01 {
		t.Errorf("DCFR: %.4f milli-chips after 5000 iterations, want < 0.01", e)
	}
}

func TestLeducVanillaMatchesOpenSpiel(t *testing.T) {
	avg := solve(t, Leduc(), Options{Algorithm: Vanilla}, 1024).Average()
	if e := avg.Exploitability(); math.Abs(e-leducVanilla1024) > 5e-6 {
		t.Errorf("vanilla CFR, 1024 iterations: exploitability %.7f, OpenSpiel's %.6f", e, leducVanilla1024)
	}
	// Simultaneous updates are a different algorithm, further from equilibrium here.
	sim := solve(t, Leduc(), Options{Algorithm: Vanilla, Updates: Simultaneous}, 1024).Average()
	if e := sim.Exploitability(); e < 0.02 {
		t.Errorf("simultaneous vanilla CFR: exploitability %v, expected about 0.038", e)
	}
}

func TestCFRPlusLeduc(t *testing.T) {
	avg := solve(t, Leduc(), Options{Algorithm: CFRPlus}, 1000).Average()
	if e := avg.Exploitability(); e > 3e-4 {
		t.Errorf("CFR+: exploitability %v after 1000 iterations", e)
	}
}

func TestMCCFR(t *testing.T) {
	k := solve(t, Kuhn(), Options{Algorithm: MCCFR}, 100_000).Average()
	if v := k.Value(); math.Abs(v-kuhnValue) > 3e-3 {
		t.Errorf("MCCFR Kuhn value %v, want about %v", v, kuhnValue)
	}
	if e := k.Exploitability(); e > 5e-3 {
		t.Errorf("MCCFR Kuhn exploitability %v", e)
	}
	l := solve(t, Leduc(), Options{Algorithm: MCCFR}, 50_000).Average()
	if e := l.Exploitability(); e > 0.08 {
		t.Errorf("MCCFR Leduc exploitability %v after 50,000 iterations", e)
	}
	// The same seed gives the same strategy.
	a := solve(t, Kuhn(), Options{Algorithm: MCCFR, Seed: [32]byte{1}}, 1000).Average()
	b := solve(t, Kuhn(), Options{Algorithm: MCCFR, Seed: [32]byte{1}}, 1000).Average()
	for i := range a.prob {
		if a.prob[i] != b.prob[i] {
			t.Fatal("MCCFR with one seed is not deterministic")
		}
	}
}

// A best response does at least as well as any strategy, and an equilibrium is not
// exploitable by one.
func TestBestResponseBounds(t *testing.T) {
	g := Leduc()
	u := Uniform(g)
	if br, v := u.BestResponseValue(0), u.Value(); br < v {
		t.Errorf("best response %v below the profile's own value %v", br, v)
	}
	if br, v := u.BestResponseValue(1), -u.Value(); br < v {
		t.Errorf("player 1: best response %v below the profile's own value %v", br, v)
	}
	eq := solve(t, g, Options{Algorithm: DCFR}, 2000).Average()
	if br := eq.BestResponseValue(0); br < leducValue-1e-9 || br > leducValue+1e-3 {
		t.Errorf("player 0's best response to an equilibrium wins %v, want about %v", br, leducValue)
	}
}

// Stopping, saving and resuming gives exactly the run that never stopped.
func TestCheckpointResume(t *testing.T) {
	for _, a := range []Algorithm{Vanilla, CFRPlus, DCFR, MCCFR} {
		whole := solve(t, Leduc(), Options{Algorithm: a, Seed: [32]byte{7}}, 200)
		half := solve(t, Leduc(), Options{Algorithm: a, Seed: [32]byte{7}}, 100)
		var buf bytes.Buffer
		if err := half.WriteCheckpoint(&buf, 1234); err != nil {
			t.Fatal(err)
		}
		back, elapsed, err := ReadCheckpoint(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if elapsed != 1234 || back.Iterations() != 100 || back.Algorithm() != a {
			t.Fatalf("%v: read back %v iterations %d elapsed %v", a, back.Algorithm(), back.Iterations(), elapsed)
		}
		back.Iterate(100)
		for i := range whole.regret {
			if whole.regret[i] != back.regret[i] || whole.sum[i] != back.sum[i] {
				t.Fatalf("%v: resumed run differs at slot %d", a, i)
			}
		}
	}
	if _, _, err := ReadCheckpoint(bytes.NewBufferString("not a checkpoint")); !errors.Is(err, ErrBadFile) {
		t.Errorf("garbage checkpoint: %v", err)
	}
}

func TestStrategyFileRoundTrip(t *testing.T) {
	g := Leduc()
	p := solve(t, g, Options{Algorithm: DCFR}, 100).Average()
	var buf bytes.Buffer
	if err := p.StrategyFile().Write(&buf); err != nil {
		t.Fatal(err)
	}
	f, err := ReadStrategyFile(&buf)
	if err != nil {
		t.Fatal(err)
	}
	q, err := f.Profile(g)
	if err != nil {
		t.Fatal(err)
	}
	for i := range p.prob {
		if p.prob[i] != q.prob[i] {
			t.Fatalf("slot %d: %v read back as %v", i, p.prob[i], q.prob[i])
		}
	}
	if _, err := f.Profile(Kuhn()); !errors.Is(err, ErrBadFile) {
		t.Errorf("Leduc strategy as Kuhn's: %v", err)
	}
	f.Infosets[0].Probs[0] += 0.5
	if _, err := f.Profile(g); !errors.Is(err, ErrBadFile) {
		t.Errorf("probabilities not summing to 1: %v", err)
	}
	if _, err := ReadStrategyFile(bytes.NewBufferString(`{"format":"x","version":1}`)); !errors.Is(err, ErrBadFile) {
		t.Errorf("wrong format: %v", err)
	}
}

func TestParseAlgorithm(t *testing.T) {
	for _, a := range []Algorithm{Vanilla, CFRPlus, DCFR, MCCFR} {
		if b, err := ParseAlgorithm(a.String()); err != nil || b != a {
			t.Errorf("%v: %v %v", a, b, err)
		}
	}
	if _, err := ParseAlgorithm("cfr++"); !errors.Is(err, ErrUnknownAlgorithm) {
		t.Errorf("cfr++: %v", err)
	}
	if _, err := NewGame("holdem"); !errors.Is(err, ErrUnknownGame) {
		t.Errorf("holdem: %v", err)
	}
}

func BenchmarkLeducIteration(b *testing.B) {
	for _, a := range []Algorithm{Vanilla, CFRPlus, DCFR, MCCFR} {
		b.Run(a.String(), func(b *testing.B) {
			s, _ := NewSolver(Leduc(), Options{Algorithm: a})
			for b.Loop() {
				s.Iterate(1)
			}
		})
	}
}

func BenchmarkLeducExploitability(b *testing.B) {
	p := Uniform(Leduc())
	for b.Loop() {
		p.Exploitability()
	}
}

// BenchmarkLeducDCFRGoal measures the goal: DCFR on Leduc to below 0.01
// milli-chips per game (5,000 iterations).
func BenchmarkLeducDCFRGoal(b *testing.B) {
	for b.Loop() {
		s, _ := NewSolver(Leduc(), Options{Algorithm: DCFR})
		s.Iterate(5000)
	}
}

func TestInfosetKeys(t *testing.T) {
	g := Leduc()
	want := map[string]Infoset{
		"J:":       {Key: "J:", Player: 0, Actions: "cr"},
		"K:r":      {Key: "K:r", Player: 1, Actions: "fcr"},
		"Q:rr":     {Key: "Q:rr", Player: 0, Actions: "fc"},
		"K:rc/Q:r": {Key: "K:rc/Q:r", Player: 1, Actions: "fcr"},
		"J:cc/J:c": {Key: "J:cc/J:c", Player: 1, Actions: "cr"},
	}
	for i := range g.Infosets() {
		in := g.Infoset(i)
		if w, ok := want[in.Key]; ok {
			if in != w {
				t.Errorf("%q: %+v, want %+v", in.Key, in, w)
			}
			delete(want, in.Key)
		}
	}
	for k := range want {
		t.Errorf("no information set %q", k)
	}
}
