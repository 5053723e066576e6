package engine

import (
	"fmt"

	"github.com/felt-poker/felt/internal/cards"
)

// MaxSeats is the most seats a hand may have; MinSeats the fewest.
const (
	MaxSeats = 10
	MinSeats = 2
)

// NoSeat stands for "no seat": nobody to act, no aggressor, a spectator.
const NoSeat = -1

// Variant is the game dealt.
type Variant uint8

// The games felt deals.
const (
	Holdem    Variant = iota // Texas Hold'em
	StudThree                // three card stud, the Casino Day game
)

// String names the variant.
func (v Variant) String() string {
	switch v {
	case Holdem:
		return "holdem"
	case StudThree:
		return "stud3"
	}
	return "unknown variant"
}

// Structure is a Hold'em betting structure. Three card stud has its own betting
// (RULES.md) and ignores it.
type Structure uint8

// The Hold'em betting structures.
const (
	NoLimit    Structure = iota // bets and raises up to the whole stack
	PotLimit                    // raises up to the pot after the raiser's call
	FixedLimit                  // bets and raises of one small or big bet, capped
)

// String names the structure.
func (s Structure) String() string {
	switch s {
	case NoLimit:
		return "no-limit"
	case PotLimit:
		return "pot-limit"
	case FixedLimit:
		return "fixed-limit"
	}
	return "unknown structure"
}

// DefaultRaiseCap is the fixed-limit cap used when Config.RaiseCap is 0: one bet and
// three raises per round (before the flop the big blind counts as the bet).
const DefaultRaiseCap = 4

// NoRaiseCap as Config.RaiseCap turns the fixed-limit cap off.
const NoRaiseCap = -1

// DefaultStudAnte and DefaultStudMaxRaise are the Casino Day values used when the
// corresponding Config fields are 0.
const (
	DefaultStudAnte     = 1
	DefaultStudMaxRaise = 10
)

// Config describes one hand. The zero values of the optional fields choose the
// defaults of RULES.md, so a no-limit hand needs only Stacks, blinds and a Seed.
type Config struct {
	// Variant is the game; Structure the Hold'em betting structure.
	Variant   Variant
	Structure Structure

	// Stacks holds each seat's chips at the start of the hand, seat 0 first; its length
	// (2 to 10) is the number of seats. A seat with 0 chips (an empty or sitting-out
	// seat; in stud a seat that cannot pay the ante) is not dealt in.
	Stacks []int64

	// SmallBlind and BigBlind are the Hold'em blinds. In fixed limit they default to
	// half a small bet and one small bet.
	SmallBlind, BigBlind int64

	// Ante is taken from every seat dealt in (Hold'em: optional; stud: default 1).
	Ante int64

	// SmallBet and BigBet are the fixed-limit bet sizes: the small bet pre-flop and on
	// the flop, the big bet on the turn and river. SmallBet defaults to the big blind,
	// BigBet to twice the small bet.
	SmallBet, BigBet int64

	// RaiseCap is the most bets (a bet and its raises) in a fixed-limit round:
	// 0 means DefaultRaiseCap, NoRaiseCap means no cap.
	RaiseCap int

	// StudMaxRaise is the most a stud bet or raise may add over the amount to call
	// (default 10).
	StudMaxRaise int64

	// Button is the dealer button's seat. In Hold'em it must hold chips.
	Button int

	// Straddlers are the seats that straddle when under the gun: the first seat
	// left of the big blind, if it is one of them, posts a straddle, a blind
	// raise to twice the big blind, before the cards, and then acts last before
	// the flop. No-limit and pot-limit Hold'em only, with at least three seats
	// dealt in; a seat whose stack is not more than twice the big blind does not
	// straddle (docs/rules.md, "Straddle").
	Straddlers SeatSet

	// RunTwice is the seats that agree to run it twice: when the betting closes
	// before the river with every seat still in the hand among them, the rest of
	// the board is dealt twice and each pot is split between the two runs
	// (Hold'em only; docs/rules.md, "Run it twice").
	RunTwice SeatSet

	// Seed fixes the shuffle; the same seed deals the same cards.
	Seed cards.Seed

	// Deck, when not nil, is dealt in its order instead of a shuffle by Seed: for
	// tests and for replaying histories whose cards are known. Cards go out one at a
	// time starting left of the button: Hold'em deals two rounds of hole cards, then
	// burn, three flop cards, burn, turn, burn, river; stud deals the hole cards, the
	// first up cards, then the second up cards to those still in. It must hold at least
	// as many distinct valid cards as the hand can deal.
	Deck []cards.Card
}

// settings is a Config with its defaults filled in, held by value in a Hand.
type settings struct {
	variant      Variant
	structure    Structure
	n            int
	sb, bb, ante int64
	smallBet     int64
	bigBet       int64
	raiseCap     int // 0: none
	studMax      int64
	button       int
	straddlers   SeatSet
	runTwice     SeatSet
	seed         cards.Seed
	deck         []cards.Card
}

// Validate reports the first problem with the configuration, wrapping ErrBadConfig.
func (c *Config) Validate() error {
	var s settings
	var stacks [MaxSeats]int64
	return c.settle(&s, &stacks)
}

// settle checks c and fills s and stacks. It allocates only when it returns an error.
func (c *Config) settle(s *settings, stacks *[MaxSeats]int64) error {
	n := len(c.Stacks)
	if n < MinSeats || n > MaxSeats {
		return fmt.Errorf("%w: %d seats; want %d to %d", ErrBadConfig, n, MinSeats, MaxSeats)
	}
	// Field by field rather than one literal, which would be built and copied (see emit).
	*s = settings{}
	s.variant, s.structure, s.n, s.button, s.seed = c.Variant, c.Structure, n, c.Button, c.Seed
	s.straddlers, s.runTwice = c.Straddlers, c.RunTwice
	s.sb, s.bb, s.ante, s.smallBet, s.bigBet, s.studMax = c.SmallBlind, c.BigBlind, c.Ante, c.SmallBet, c.BigBet, c.StudMaxRaise
	for i, st := range c.Stacks {
		if st < 0 {
			return fmt.Errorf("%w: seat %d has a negative stack %d", ErrBadConfig, i, st)
		}
		stacks[i] = st
	}
	for i := n; i < MaxSeats; i++ {
		stacks[i] = 0
	}
	if c.Button < 0 || c.Button >= n {
		return fmt.Errorf("%w: button seat %d is not one of seats 0..%d", ErrBadConfig, c.Button, n-1)
	}
	if c.Ante < 0 {
		return fmt.Errorf("%w: negative ante %d", ErrBadConfig, c.Ante)
	}
	if c.Deck != nil {
		var seen cards.Set
		for _, d := range c.Deck {
			if !d.Valid() || seen.Has(d) {
				return fmt.Errorf("%w: deck holds %v twice or an invalid card", ErrBadConfig, d)
			}
			seen = seen.Add(d)
		}
		s.deck = c.Deck
	}
	switch c.Variant {
	case Holdem:
		return c.settleHoldem(s, stacks)
	case StudThree:
		if c.Straddlers != 0 || c.RunTwice != 0 {
			return fmt.Errorf("%w: straddles and running it twice are Hold'em's", ErrBadConfig)
		}
		if s.ante == 0 {
			s.ante = DefaultStudAnte
		}
		if s.studMax == 0 {
			s.studMax = DefaultStudMaxRaise
		}
		if s.studMax < 0 {
			return fmt.Errorf("%w: negative stud maximum raise %d", ErrBadConfig, s.studMax)
		}
		players := 0
		for i := 0; i < n; i++ {
			if stacks[i] >= s.ante {
				players++
			}
		}
		if players < 2 {
			return fmt.Errorf("%w: %d seats can pay the ante of %d; want at least 2", ErrBadConfig, players, s.ante)
		}
		return nil
	}
	return fmt.Errorf("%w: unknown variant %d", ErrBadConfig, c.Variant)
}

func (c *Config) settleHoldem(s *settings, stacks *[MaxSeats]int64) error {
	if c.SmallBlind < 0 || c.BigBlind < 0 || c.SmallBet < 0 || c.BigBet < 0 {
		return fmt.Errorf("%w: negative blind or bet size (blinds %d/%d, bets %d/%d)", ErrBadConfig, c.SmallBlind, c.BigBlind, c.SmallBet, c.BigBet)
	}
	switch c.Structure {
	case NoLimit, PotLimit:
	case FixedLimit:
		if s.smallBet == 0 {
			s.smallBet = s.bb
		}
		if s.bb == 0 {
			s.bb = s.smallBet
			if s.sb == 0 {
				s.sb = s.smallBet / 2
			}
		}
		if s.bigBet == 0 {
			s.bigBet = 2 * s.smallBet
		}
		switch {
		case c.RaiseCap == 0:
			s.raiseCap = DefaultRaiseCap
		case c.RaiseCap == NoRaiseCap:
			s.raiseCap = 0
		case c.RaiseCap < 1:
			return fmt.Errorf("%w: raise cap %d; want 0 (default %d), %d (none) or at least 1", ErrBadConfig, c.RaiseCap, DefaultRaiseCap, NoRaiseCap)
		default:
			s.raiseCap = c.RaiseCap
		}
		if s.smallBet <= 0 || s.bigBet <= 0 {
			return fmt.Errorf("%w: fixed limit needs a small bet (or big blind) above 0", ErrBadConfig)
		}
	default:
		return fmt.Errorf("%w: unknown betting structure %d", ErrBadConfig, c.Structure)
	}
	if s.bb <= 0 {
		return fmt.Errorf("%w: big blind %d; want more than 0", ErrBadConfig, s.bb)
	}
	if c.Straddlers != 0 && c.Structure == FixedLimit {
		return fmt.Errorf("%w: no straddle in fixed limit", ErrBadConfig)
	}
	if (c.RunTwice|c.Straddlers)>>uint(s.n) != 0 {
		return fmt.Errorf("%w: run-twice seats %v or straddlers %v outside seats 0..%d", ErrBadConfig, c.RunTwice.Seats(), c.Straddlers.Seats(), s.n-1)
	}
	if s.sb > s.bb {
		return fmt.Errorf("%w: small blind %d is larger than the big blind %d", ErrBadConfig, s.sb, s.bb)
	}
	players := 0
	for i := 0; i < s.n; i++ {
		if stacks[i] > 0 {
			players++
		}
	}
	if players < 2 {
		return fmt.Errorf("%w: %d seats have chips; want at least 2", ErrBadConfig, players)
	}
	if stacks[c.Button] == 0 {
		return fmt.Errorf("%w: button seat %d has no chips", ErrBadConfig, c.Button)
	}
	return nil
}
