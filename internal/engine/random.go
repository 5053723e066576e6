package engine

import (
	"fmt"
	"math/rand/v2"

	"github.com/felt-poker/felt/internal/cards"
)

// RandomAction returns a random legal action for l, for simulations and tests. With
// nothing to call it checks three times in four and otherwise bets; facing a bet it
// folds, calls or raises. A bet or raise goes to the minimum half the time, all-in
// (the maximum) a quarter of the time and otherwise to a uniform amount in between.
// It never folds when it could check. It returns an Action with Seat NoSeat when
// nobody is to act.
func RandomAction(r *rand.Rand, l Legal) Action { return randomAction(r, &l) }

// randomAction is RandomAction reading l through a pointer, field by field: PlayOut
// passes &h.legal, which setLegal has just written, and copying it whole with wide
// loads would stall on those narrower stores (see Hand.emit).
func randomAction(r *rand.Rand, l *Legal) Action {
	a := Action{Seat: l.Seat}
	if l.Seat == NoSeat {
		return a
	}
	raise := Raise
	if l.Kinds.Has(Bet) {
		raise = Bet
	}
	canRaise := l.Kinds.Has(raise)
	x := r.Uint64() & 7
	switch {
	case l.Kinds.Has(Check):
		a.Kind = Check
		if x < 2 && canRaise {
			a.Kind = raise
		}
	case x < 3:
		a.Kind = Fold
	case x < 6 || !canRaise:
		a.Kind = Call
	default:
		a.Kind = raise
	}
	if a.Kind == raise {
		a.Amount = randomAmount(r, l.MinTo, l.MaxTo)
	}
	return a
}

// AnyRandomAction is like RandomAction but picks uniformly among all legal kinds,
// folding when it could check included; property tests use it to reach every path.
func AnyRandomAction(r *rand.Rand, l Legal) Action {
	a := Action{Seat: l.Seat}
	if l.Seat == NoSeat {
		return a
	}
	var kinds [5]ActionKind
	n := 0
	for k := Fold; k <= Raise; k++ {
		if l.Kinds.Has(k) {
			kinds[n] = k
			n++
		}
	}
	a.Kind = kinds[r.IntN(n)]
	if a.Kind == Bet || a.Kind == Raise {
		a.Amount = randomAmount(r, l.MinTo, l.MaxTo)
	}
	return a
}

func randomAmount(r *rand.Rand, lo, hi int64) int64 {
	switch x := r.Uint64() & 3; {
	case x < 2 || hi <= lo:
		return lo
	case x == 2:
		return hi
	}
	return lo + r.Int64N(hi-lo+1)
}

// PlayOut plays h to its end with RandomAction. It does not allocate. It returns an
// error only if the engine rejected one of its own legal actions, which is a bug.
func PlayOut(h *Hand, r *rand.Rand) error {
	for h.toAct != NoSeat {
		if err := h.Apply(randomAction(r, &h.legal)); err != nil {
			return err
		}
	}
	return nil
}

// SimulateRandom plays n complete hands of cfg with random legal actions in one
// reused Hand: hand i is shuffled by seed+i and the button moves one seat each hand
// among seats with chips; stacks start from cfg.Stacks every hand. It returns the total
// number of actions applied. After its first hand it does not allocate; the arena
// and the engine benchmark use it.
func SimulateRandom(cfg Config, n int, seed uint64) (actions int, err error) {
	h := &Hand{events: make([]Event, 0, 128), actions: make([]Action, 0, 64)}
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	for i := 0; i < n; i++ {
		if actions, err = simulateOne(h, &cfg, r, seed+uint64(i), actions); err != nil {
			return actions, err
		}
		cfg.Button = nextButton(&cfg)
	}
	return actions, nil
}

func simulateOne(h *Hand, cfg *Config, r *rand.Rand, seed uint64, actions int) (int, error) {
	cfg.Seed = cards.SeedFromUint64(seed)
	if err := h.Reset(*cfg); err != nil {
		return actions, err
	}
	if err := PlayOut(h, r); err != nil {
		return actions, fmt.Errorf("hand with seed %d: %w", seed, err)
	}
	return actions + len(h.actions), nil
}

// nextButton moves the button one seat left among seats with chips.
func nextButton(cfg *Config) int {
	n := len(cfg.Stacks)
	for d := 1; d <= n; d++ {
		if i := (cfg.Button + d) % n; cfg.Stacks[i] > 0 {
			return i
		}
	}
	return cfg.Button
}
