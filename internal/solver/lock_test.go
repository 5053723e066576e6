package solver

import (
	"errors"
	"math"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

// TestLockFirstStreet: a full flop solve with OOP's flop locked to a depth-limited
// solve's plays exactly that strategy on the flop however long it iterates, and its
// best responses respect the lock (the locked player cannot deviate there).
func TestLockFirstStreet(t *testing.T) {
	sp := smallFlop()
	dlSpot := sp
	dlSpot.LeafRunouts = 12
	dl := mustSolver(t, dlSpot, 1)
	for range 30 {
		dl.Iterate()
	}
	s := mustSolver(t, sp, 1)
	if err := s.LockFirstStreet(dl, OOP); err != nil {
		t.Fatal(err)
	}
	if s.Locked() == 0 {
		t.Fatal("no decision locked")
	}
	for range 30 {
		s.Iterate()
	}
	for _, path := range [][]string{nil, {"x", "b7.5"}} { // OOP's decisions
		want, err := dl.Strategy(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Strategy(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, h := range got.Hands {
			for a, f := range h.Strategy {
				if math.Abs(f-want.Hands[i].Strategy[a]) > 1e-6 {
					t.Fatalf("%v %s: locked %v, source %v", path, h.Hand, h.Strategy, want.Hands[i].Strategy)
				}
			}
		}
	}
	// OOP's best response, its flop locked, gains nothing over its average strategy
	// there: it cannot go below it.
	if a, b := s.value(modeBR, OOP), s.value(modeEV, OOP); a < b-1e-9 {
		t.Errorf("OOP's best response %v below its average strategy's %v", a, b)
	}
	// IP is never locked: its later decisions stay trained.
	if info, err := s.Strategy([]string{"x"}); err != nil || info.Player != "IP" {
		t.Fatalf("%+v %v", info, err)
	}
}

// TestLockMismatch: a lock from a solve of another tree or other ranges is refused.
func TestLockMismatch(t *testing.T) {
	sp := smallFlop()
	s := mustSolver(t, sp, 1)
	other := sp
	other.Tree.Sizes[OOP][Flop].Bet = []float64{50}
	o := mustSolver(t, other, 1)
	if err := s.LockFirstStreet(o, OOP); !errors.Is(err, ErrLock) {
		t.Errorf("another tree: %v, want ErrLock", err)
	}
	other = sp
	other.Range[IP] = sp.Range[OOP]
	o = mustSolver(t, other, 1)
	if err := s.LockFirstStreet(o, IP); !errors.Is(err, ErrLock) {
		t.Errorf("other ranges: %v, want ErrLock", err)
	}
	if err := s.LockFirstStreet(s, 2); !errors.Is(err, ErrLock) {
		t.Errorf("player 2: %v, want ErrLock", err)
	}
}

// TestLockedOwnStrategyLosesNothing: a solve's own turn strategy, locked into a
// fresh solve of the same game, gives the locked player the same value.
func TestLockedOwnStrategyLosesNothing(t *testing.T) {
	sp := smallFlop()
	sp.Board = cards.MustParseList("Qs Jh 2h 8d")
	ref := mustSolver(t, sp, 1)
	solveTo(t, ref, 0.1, 2000)
	v := ref.EV()
	for p := range 2 {
		s := mustSolver(t, sp, 1)
		if err := s.LockFirstStreet(ref, p); err != nil {
			t.Fatal(err)
		}
		solveTo(t, s, 0.1, 2000)
		if got := s.EV()[p]; math.Abs(got-v[p]) > 0.002*sp.Pot {
			t.Errorf("player %d: locked to its own flop %.4f, free %.4f", p, got, v[p])
		}
	}
}
