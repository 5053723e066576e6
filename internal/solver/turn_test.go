package solver

import (
	"math"
	"testing"
)

func TestTurnExploitability(t *testing.T) {
	if testing.Short() {
		t.Skip("solves a turn spot")
	}
	s := mustSolver(t, benchSpot("QsJh2h8d"), 2)
	e := solveTo(t, s, 0.1, 1000)
	t.Logf("turn: %d iterations, exploitability %.4f%% of the pot, memory %d bytes", s.Iterations(), e, s.Memory())
	if e > 0.1 {
		t.Fatalf("exploitability %.4f%% after %d iterations, want at most 0.1%%", e, s.Iterations())
	}
}

// TestWorkersAgree: the chance outcomes are summed in the same order whatever the
// number of workers, so one and two workers give the same strategy.
func TestWorkersAgree(t *testing.T) {
	one := mustSolver(t, benchSpot("QsJh2h8d"), 1)
	two := mustSolver(t, benchSpot("QsJh2h8d"), 2)
	for range 20 {
		one.Iterate()
		two.Iterate()
	}
	for _, path := range [][]string{nil, {"x"}, {"x", "b10", "c", "3c"}} {
		a, err := one.Node(path)
		if err != nil {
			t.Fatal(err)
		}
		b, err := two.Node(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Hands) != len(b.Hands) || len(a.Hands) == 0 {
			t.Fatalf("%v: %d and %d hands", path, len(a.Hands), len(b.Hands))
		}
		for i := range a.Hands {
			for k := range a.Hands[i].Strategy {
				if d := math.Abs(a.Hands[i].Strategy[k] - b.Hands[i].Strategy[k]); d > 1e-9 {
					t.Fatalf("%v %s action %d: %v with one worker, %v with two", path, a.Hands[i].Hand, k, a.Hands[i].Strategy[k], b.Hands[i].Strategy[k])
				}
			}
		}
	}
	if a, b := one.Exploitability(), two.Exploitability(); math.Abs(a-b) > 1e-9 {
		t.Errorf("exploitability %v with one worker, %v with two", a, b)
	}
}
