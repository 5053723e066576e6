package solver

import (
	"errors"
	"fmt"
)

// Node locking: a player's strategy fixed at some decisions, as another solve left
// it. The locked decisions are not trained; every traversal (CFR, best response,
// average strategy, walks) plays their fixed strategy, for the traverser too, so
// the solve finds the best play of both players everywhere else against it and
// Exploitability measures how far that is from converged in the locked game. Used
// to measure a depth-limited solve's first street in the whole game (a full solve
// with that street locked: docs/solver.md, "Depth-limited solving").

// ErrLock is wrapped by errors about a lock whose trees do not match.
var ErrLock = errors.New("cannot lock")

// LockFirstStreet fixes player p's strategy at every decision of the spot's first
// street to src's average strategy there. src must be a solve of the same spot's
// first street with the same tree (e.g. the same spot, depth-limited): same hands,
// same actions at every decision of that street.
func (s *Solver) LockFirstStreet(src *Solver, p int) error {
	if p != OOP && p != IP {
		return fmt.Errorf("%w: no player %d", ErrLock, p)
	}
	for q := range 2 {
		if len(s.hands[q]) != len(src.hands[q]) {
			return fmt.Errorf("%w: the ranges differ", ErrLock)
		}
		for h := range s.hands[q] {
			if s.hands[q][h].c != src.hands[q][h].c {
				return fmt.Errorf("%w: the ranges differ", ErrLock)
			}
		}
	}
	src.start()
	if s.locked == nil {
		s.locked = make([][]float64, len(s.off))
	}
	return s.lockFrom(src, 0, 0, p)
}

// lockFrom locks p's decisions under node ni of s, node si of src, down to the end of
// the first street.
func (s *Solver) lockFrom(src *Solver, ni, si int32, p int) error {
	n, sn := &s.nodes[ni], &src.nodes[si]
	if n.kind != actionNode || sn.kind != actionNode {
		if (n.kind == actionNode) != (sn.kind == actionNode) {
			return fmt.Errorf("%w: the trees differ at node %d", ErrLock, ni)
		}
		return nil
	}
	a, b := s.actions(n), src.actions(sn)
	if len(a) != len(b) || n.player != sn.player {
		return fmt.Errorf("%w: the trees differ at node %d", ErrLock, ni)
	}
	for i := range a {
		if a[i].Label() != b[i].Label() {
			return fmt.Errorf("%w: action %s against %s", ErrLock, a[i].Label(), b[i].Label())
		}
	}
	if int(n.player) == p {
		na, nh := len(a), len(s.hands[p])
		sigma := make([]float64, na*nh)
		src.average(sn, sigma, make([]float64, nh), make([]float32, na*nh))
		s.locked[n.dec] = sigma
	}
	for i, k := range s.children(n) {
		if err := s.lockFrom(src, k, src.children(sn)[i], p); err != nil {
			return err
		}
	}
	return nil
}

// lockOf returns decision n's locked strategy (action-major), or nil.
func (s *Solver) lockOf(n *node) []float64 {
	if s.locked == nil {
		return nil
	}
	return s.locked[n.dec]
}

// average sets sigma to decision n's average strategy: its locked one, or its
// normalized strategy sums (buf: scratch for decoding them).
func (s *Solver) average(n *node, sigma, sum []float64, buf []float32) {
	if l := s.lockOf(n); l != nil {
		copy(sigma, l)
		return
	}
	na, nh := int(n.nkids), len(s.hands[n.player])
	normalize(s.sums(n, buf), na, nh, sigma, false)
}

// Locked reports how many decisions are locked.
func (s *Solver) Locked() int {
	n := 0
	for _, x := range s.locked {
		if x != nil {
			n++
		}
	}
	return n
}
