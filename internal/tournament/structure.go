package tournament

import (
	"errors"
	"fmt"
	"time"
)

// ErrInvalid is wrapped by every error of Spec.Validate.
var ErrInvalid = errors.New("invalid tournament")

// Level is one blind level.
type Level struct {
	SmallBlind int64 `json:"small_blind"`
	BigBlind   int64 `json:"big_blind"`
	Ante       int64 `json:"ante"`
}

// DefaultLevels is the published blind structure: each level lasts
// Spec.LevelTime; the last level stays until the tournament ends.
var DefaultLevels = []Level{
	{10, 20, 0}, {15, 30, 0}, {25, 50, 0}, {50, 100, 0}, {75, 150, 0},
	{100, 200, 25}, {150, 300, 25}, {200, 400, 50}, {300, 600, 75}, {400, 800, 100},
	{600, 1200, 150}, {800, 1600, 200}, {1000, 2000, 250}, {1500, 3000, 400}, {2000, 4000, 500},
	{3000, 6000, 750}, {4000, 8000, 1000}, {6000, 12000, 1500}, {8000, 16000, 2000}, {10000, 20000, 2500},
}

// Kinds of tournament.
const (
	SitAndGo  = "sng" // one table that starts when full
	Scheduled = "mtt" // tables of Seats, starting at a set time
)

// Limits of a Spec.
const (
	MinSeats      = 2
	MaxSeats      = 9
	MaxEntrants   = 90
	MaxBuyIn      = 1_000_000
	MaxStack      = 1_000_000
	MinLevelTime  = time.Second
	MaxLevelTime  = 2 * time.Hour
	MaxLevelCount = 40
)

// Spec describes a tournament.
type Spec struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // SitAndGo or Scheduled
	// Seats is the size of a table; a sit-and-go starts when Seats have registered.
	Seats int `json:"seats"`
	// BuyIn is taken from a player's credits at registration; Stack is the chips
	// each player starts with.
	BuyIn int64 `json:"buy_in"`
	Stack int64 `json:"stack"`
	// Levels is the blind structure (default DefaultLevels), each level lasting
	// LevelTime.
	Levels    []Level       `json:"levels"`
	LevelTime time.Duration `json:"level_ns"`
	// Start is when a scheduled tournament starts (registration closes then);
	// MinEntrants is the fewest it starts with (fewer: cancelled, buy-ins
	// refunded); MaxEntrants the most that may register.
	Start       time.Time `json:"start"`
	MinEntrants int       `json:"min_entrants"`
	MaxEntrants int       `json:"max_entrants"`
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// Defaults fills the zero fields of s: DefaultLevels, 5 minutes a level, a
// field of one table for a sit-and-go, 2 to MaxEntrants for a scheduled one.
func (s *Spec) Defaults() {
	if len(s.Levels) == 0 {
		s.Levels = DefaultLevels
	}
	if s.LevelTime == 0 {
		s.LevelTime = 5 * time.Minute
	}
	if s.Kind == SitAndGo {
		s.MinEntrants, s.MaxEntrants = s.Seats, s.Seats
	}
	if s.MinEntrants == 0 {
		s.MinEntrants = 2
	}
	if s.MaxEntrants == 0 {
		s.MaxEntrants = MaxEntrants
	}
}

// Validate checks s (after Defaults).
func (s *Spec) Validate() error {
	switch {
	case s.Name == "" || len(s.Name) > 40:
		return invalid("name: 1 to 40 characters")
	case s.Kind != SitAndGo && s.Kind != Scheduled:
		return invalid("kind: must be %q or %q", SitAndGo, Scheduled)
	case s.Seats < MinSeats || s.Seats > MaxSeats:
		return invalid("seats: must be %d to %d", MinSeats, MaxSeats)
	case s.BuyIn < 0 || s.BuyIn > MaxBuyIn:
		return invalid("buy_in: must be 0 to %d", MaxBuyIn)
	case s.Stack < 1 || s.Stack > MaxStack:
		return invalid("stack: must be 1 to %d", MaxStack)
	case s.LevelTime < MinLevelTime || s.LevelTime > MaxLevelTime:
		return invalid("level time: must be %v to %v", MinLevelTime, MaxLevelTime)
	case len(s.Levels) > MaxLevelCount:
		return invalid("levels: at most %d", MaxLevelCount)
	case s.MinEntrants < 2 || s.MaxEntrants < s.MinEntrants || s.MaxEntrants > MaxEntrants:
		return invalid("entrants: between 2 and %d, the minimum not above the maximum", MaxEntrants)
	case s.Kind == Scheduled && s.Start.IsZero():
		return invalid("start: a scheduled tournament needs a start time")
	}
	for i, l := range s.Levels {
		if l.SmallBlind < 1 || l.BigBlind < l.SmallBlind || l.Ante < 0 || l.Ante >= l.BigBlind {
			return invalid("level %d: blinds must be positive, the big at least the small, the ante below the big blind", i+1)
		}
		if i > 0 && l.BigBlind < s.Levels[i-1].BigBlind {
			return invalid("level %d: the blinds never fall", i+1)
		}
	}
	return nil
}

// LevelAt returns the level (0-based) after elapsed time of play and the time
// left in it (0 at the last level, which lasts until the end).
func (s *Spec) LevelAt(elapsed time.Duration) (level int, left time.Duration) {
	if elapsed < 0 {
		elapsed = 0
	}
	level = int(elapsed / s.LevelTime)
	if level >= len(s.Levels)-1 {
		return len(s.Levels) - 1, 0
	}
	return level, s.LevelTime*time.Duration(level+1) - elapsed
}
