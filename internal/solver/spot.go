package solver

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
)

// ErrBadSpot is wrapped by every error about a spot that cannot be solved.
var ErrBadSpot = errors.New("bad spot")

// Street is a betting round of the subgame.
type Street uint8

// The postflop streets.
const (
	Flop Street = iota
	Turn
	River
)

var streetNames = [...]string{"flop", "turn", "river"}

// String returns "flop", "turn" or "river".
func (s Street) String() string { return streetNames[s] }

// ParseStreet reads "flop", "turn" or "river".
func ParseStreet(s string) (Street, error) {
	for i, n := range streetNames {
		if n == s {
			return Street(i), nil
		}
	}
	return 0, fmt.Errorf("%w: street %q: want flop, turn or river", ErrBadSpot, s)
}

// The players: OOP acts first on every street.
const (
	OOP = 0
	IP  = 1
)

// Sizes are one player's bet sizes on one street, in percent of the pot.
type Sizes struct {
	Bet   []float64 // first bet of the street, % of the pot
	Raise []float64 // raise, % of the pot after calling (plus the call)
	// RaiseX are raises as multiples of the bet faced: 3 raises a bet of 10 to 30 (the
	// player's total on the street).
	RaiseX []float64
	Donk   []float64 // OOP's first bet when IP bet the street before; Bet when empty
	AllIn  bool      // all-in is always an option
}

// Tree is the bet tree: the sizes per player and street and the limits on betting.
type Tree struct {
	Sizes [2][3]Sizes // [player][street]
	// AllInThreshold: a bet or raise that would put in more than this share of the
	// effective stack becomes all-in (1 turns it off).
	AllInThreshold float64
	// RaiseCap is the most bets and raises on one street (the first bet counts).
	RaiseCap int
}

// Spot is a subgame to solve.
type Spot struct {
	Pot   float64      // chips in the pot when the subgame starts
	Stack float64      // effective stack behind, for each player
	Board []cards.Card // 3, 4 or 5 cards
	Range [2]equity.Range
	Tree  Tree
	// Rake is the house's share of the pot when the hand ends, in percent, at most
	// RakeCap chips when RakeCap > 0. It is taken at showdowns and folds from the pot
	// both players put in (a bet folded to goes back whole), the starting pot included.
	Rake    float64
	RakeCap float64
	// Bound, when set, makes the solve a safe re-solve: the bounded player's hands
	// may each take their bound instead of entering (gadget.go).
	Bound *Bound
	// LeafRunouts, when above 0, limits the subgame to its first street (depth-limited
	// solving, leaf.go): a line that would go on to the next card ends at a leaf worth
	// each hand's equity against the other's reach there, over this many sampled
	// runouts of the board. It makes a flop subgame about as cheap as a river one. 0
	// solves to the river; on a river spot it changes nothing.
	LeafRunouts int
	// Sample, when set, deals a fixed sample of the turn and river cards instead of
	// every card (sample.go).
	Sample Sample
}

// rake returns the rake of a hand that ends with pot chips called.
func (s *Spot) rake(pot float64) float64 {
	r := pot * s.Rake / 100
	if s.RakeCap > 0 {
		r = min(r, s.RakeCap)
	}
	return r
}

// street returns the street the spot starts on.
func (s *Spot) street() Street { return Street(len(s.Board) - 3) }

// Validate reports the first thing wrong with the spot, wrapping ErrBadSpot.
func (s *Spot) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrBadSpot}, args...)...)
	}
	switch {
	case !(s.Pot > 0) || math.IsInf(s.Pot, 0):
		return bad("the pot must be a positive number, not %v", s.Pot)
	case !(s.Stack >= 0) || math.IsInf(s.Stack, 0):
		return bad("the effective stack must be 0 or more, not %v", s.Stack)
	case len(s.Board) < 3 || len(s.Board) > 5:
		return bad("the board has %d cards: want 3 (flop), 4 (turn) or 5 (river)", len(s.Board))
	case !(s.Tree.AllInThreshold > 0 && s.Tree.AllInThreshold <= 1):
		return bad("the all-in threshold must be above 0 and at most 1, not %v", s.Tree.AllInThreshold)
	case !(s.Rake >= 0 && s.Rake <= 100):
		return bad("the rake must be from 0 to 100 (%% of the pot), not %v", s.Rake)
	case !(s.RakeCap >= 0) || math.IsInf(s.RakeCap, 0):
		return bad("the rake cap must be 0 (none) or more chips, not %v", s.RakeCap)
	case s.Tree.RaiseCap < 1 || s.Tree.RaiseCap > 20:
		return bad("the raise cap must be from 1 to 20, not %d", s.Tree.RaiseCap)
	case s.LeafRunouts < 0 || s.LeafRunouts > MaxLeafRunouts:
		return bad("the leaf runouts must be from 0 (no depth limit) to %d, not %d", MaxLeafRunouts, s.LeafRunouts)
	}
	if err := s.Sample.check(); err != nil {
		return bad("%v", err)
	}
	if s.Bound != nil {
		if err := s.Bound.check(); err != nil {
			return bad("%v", err)
		}
	}
	var seen cards.Set
	for _, c := range s.Board {
		if !c.Valid() || seen.Has(c) {
			return bad("board %s: card %s is invalid or given twice", cards.Format(s.Board), c)
		}
		seen = seen.Add(c)
	}
	for p, name := range [2]string{"OOP", "IP"} {
		if s.Range[p].Len() == 0 {
			return bad("the %s range is empty", name)
		}
		if len(liveCombos(s.Range[p], seen)) == 0 {
			return bad("every hand of the %s range holds a board card", name)
		}
		for st := range s.Tree.Sizes[p] {
			if err := s.Tree.Sizes[p][st].check(); err != nil {
				return bad("%s %s sizes: %v", name, Street(st), err)
			}
		}
	}
	return nil
}

func (z Sizes) check() error {
	if len(z.Raise)+len(z.RaiseX) > 8 {
		return errors.New("at most 8 raise sizes")
	}
	for _, x := range z.RaiseX {
		if !(x > 1 && x <= 100) {
			return fmt.Errorf("raise %vx must be above 1 and at most 100 times the bet", x)
		}
	}
	for _, list := range [][]float64{z.Bet, z.Raise, z.Donk} {
		if len(list) > 8 {
			return errors.New("at most 8 sizes per kind")
		}
		for _, v := range list {
			if !(v > 0 && v <= 10000) {
				return fmt.Errorf("size %v%% must be above 0 and at most 10000", v)
			}
		}
	}
	return nil
}

// liveCombos returns the range's combos that hold no card of dead.
func liveCombos(r equity.Range, dead cards.Set) []equity.Combo {
	var out []equity.Combo
	for _, c := range r.Combos() {
		if c.Set()&dead == 0 {
			out = append(out, c)
		}
	}
	return out
}

// ParseSizes reads a list of sizes separated by commas or spaces: numbers are % of the
// pot ("33, 75"); for raises a number followed by x is a multiple of the bet faced
// ("2.5x"). An empty list is no size.
func ParseSizes(list string, raise bool) (pct, mult []float64, err error) {
	for _, f := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		num, x := strings.CutSuffix(strings.ToLower(f), "x")
		if x && !raise {
			return nil, nil, fmt.Errorf("size %q: multiples of the bet are for raises; bets are %% of the pot", f)
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, nil, fmt.Errorf("size %q is not a number (%% of the pot, or for a raise 3x)", f)
		}
		if x {
			mult = append(mult, v)
		} else {
			pct = append(pct, v)
		}
	}
	return pct, mult, nil
}
