package solver

import (
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
// number of workers, so one and two workers give the same strategies: on the turn, on
// a flop (its turn cards spread over the workers, isomorphic ones read through their
// permutation) and with the compressed store.
func TestWorkersAgree(t *testing.T) {
	cases := []struct {
		name  string
		spot  Spot
		opts  Options
		paths [][]string
	}{
		{"turn", benchSpot("QsJh2h8d"), Options{}, [][]string{nil, {"x"}, {"x", "b10", "c", "3c"}}},
		{"flop", smallFlop(), Options{}, [][]string{nil, {"x", "x", "4d", "x"}, {"b7.5", "c", "9c", "x", "x", "Td"}}},
		{"turn compressed", benchSpot("QsJh2h8h"), Options{Compress: true}, [][]string{nil, {"x", "b10", "c", "3d"}}},
	}
	for _, tc := range cases {
		var s [2]*Solver
		for i := range s {
			opts := tc.opts
			opts.Workers = i + 1
			var err error
			if s[i], err = New(tc.spot, opts); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(s[i].Close)
			for range 12 {
				s[i].Iterate()
			}
		}
		sameStrategies(t, s[0], s[1], tc.paths, 1e-12)
		if a, b := s[0].Exploitability(), s[1].Exploitability(); a != b {
			t.Errorf("%s: exploitability %v with one worker, %v with two", tc.name, a, b)
		}
	}
}
