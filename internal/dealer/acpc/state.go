package acpc

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// ErrState is wrapped by every error about a MATCHSTATE line or an action in it.
var ErrState = errors.New("bad match state")

// Betting writes the hand's actions as ACPC betting: 'c' for a check or call, 'f'
// for a fold, 'r' for a limit bet or raise and "r<N>" in no limit, N being the
// seat's chips in the pot over the whole hand after the raise; '/' ends a round
// (one per board dealt, so an all-in run-out ends in "///").
func Betting(h *engine.Hand, limit bool) string {
	var b strings.Builder
	var total [engine.MaxSeats]int64
	for _, e := range h.Events() {
		switch e.Kind {
		case engine.EvSmallBlind, engine.EvBigBlind, engine.EvAnte:
			total[e.Seat] += e.Amount
		case engine.EvBoard:
			b.WriteByte('/')
		case engine.EvFold, engine.EvLeave:
			b.WriteByte('f')
		case engine.EvCheck:
			b.WriteByte('c')
		case engine.EvCall:
			total[e.Seat] += e.Amount
			b.WriteByte('c')
		case engine.EvBet, engine.EvRaise:
			total[e.Seat] += e.Amount
			b.WriteByte('r')
			if !limit {
				b.WriteString(strconv.FormatInt(total[e.Seat], 10))
			}
		case engine.EvUncalled:
			total[e.Seat] -= e.Amount
		}
	}
	return b.String()
}

// Cards writes the cards viewer may see: both positions' hole cards separated by
// '|' (empty where hidden), then '/' and each round's board cards.
func Cards(h *engine.Hand, viewer int) string {
	v := h.View(viewer)
	var b strings.Builder
	for i, s := range v.Seats {
		if i > 0 {
			b.WriteByte('|')
		}
		if s.Cards[0].Valid() && s.Cards[1].Valid() {
			b.WriteString(s.Cards[0].String() + s.Cards[1].String())
		}
	}
	for i, c := range v.Board {
		if i == 0 || i >= 3 {
			b.WriteByte('/')
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// MatchState writes the line a dealer sends to position viewer before hand number
// hand (from 0): "MATCHSTATE:<position>:<hand>:<betting>:<cards>".
func MatchState(h *engine.Hand, limit bool, viewer, hand int) string {
	return fmt.Sprintf("MATCHSTATE:%d:%d:%s:%s", viewer, hand, Betting(h, limit), Cards(h, viewer))
}

// ErrIdleFold is wrapped by Action for a fold when the seat has nothing to call.
// The engine allows it, but ACPC does not (game.c, isValidAction): such a state
// does not parse, and the reference dealer turns such an answer into a call.
var ErrIdleFold = errors.New("fold with nothing to call")

// Action turns an ACPC action ("f", "c", "r", "r<N>") into the engine action for
// the seat to act in h. A fold when the seat could check is refused with
// ErrIdleFold, as ACPC refuses it.
func Action(h *engine.Hand, limit bool, act string) (engine.Action, error) {
	l := h.Legal()
	if l.Seat == engine.NoSeat {
		return engine.Action{}, fmt.Errorf("%w: nobody is to act", ErrState)
	}
	a := engine.Action{Seat: l.Seat}
	switch {
	case act == "f" && l.Can(engine.Check):
		return a, fmt.Errorf("%w: %w", ErrState, ErrIdleFold)
	case act == "f":
		a.Kind = engine.Fold
	case act == "c" && l.Can(engine.Check):
		a.Kind = engine.Check
	case act == "c":
		a.Kind, a.Amount = engine.Call, l.CallAmount
	case strings.HasPrefix(act, "r"):
		a.Kind = engine.Raise
		if l.Can(engine.Bet) {
			a.Kind = engine.Bet
		}
		if limit || act == "r" {
			if !limit {
				return a, fmt.Errorf("%w: no-limit raise %q without a size", ErrState, act)
			}
			a.Amount = l.MinTo
			break
		}
		n, err := strconv.ParseInt(act[1:], 10, 64)
		if err != nil {
			return a, fmt.Errorf("%w: raise %q", ErrState, act)
		}
		s := h.View(l.Seat).Seats[l.Seat]
		a.Amount = n - (s.Total - s.Bet) // the hand's total to this round's "raise to"
	default:
		return a, fmt.Errorf("%w: action %q", ErrState, act)
	}
	return a, nil
}

// ActionString writes an engine action of the seat to act in h as ACPC does. A
// fold when the seat could check, which ACPC has not, is written as the check.
func ActionString(h *engine.Hand, limit bool, a engine.Action) string {
	switch a.Kind {
	case engine.Fold:
		if h.Legal().Can(engine.Check) {
			return "c"
		}
		return "f"
	case engine.Bet, engine.Raise:
		if limit {
			return "r"
		}
		s := h.View(a.Seat).Seats[a.Seat]
		return "r" + strconv.FormatInt(s.Total-s.Bet+a.Amount, 10)
	}
	return "c"
}

// State is a parsed MATCHSTATE line.
type State struct {
	Position, Hand int
	Betting        string
	Hole           [2][]cards.Card // per position; nil where hidden
	Board          []cards.Card
}

// ParseState reads "MATCHSTATE:<position>:<hand>:<betting>:<cards>".
func ParseState(line string) (State, error) {
	var s State
	f := strings.Split(line, ":")
	if len(f) != 5 || f[0] != "MATCHSTATE" {
		return s, fmt.Errorf("%w: %q", ErrState, line)
	}
	var err1, err2 error
	s.Position, err1 = strconv.Atoi(f[1])
	s.Hand, err2 = strconv.Atoi(f[2])
	if err1 != nil || err2 != nil || s.Position < 0 || s.Position > 1 || s.Hand < 0 {
		return s, fmt.Errorf("%w: %q", ErrState, line)
	}
	s.Betting = f[3]
	if err := s.parseCards(f[4]); err != nil {
		return s, err
	}
	if s.Hole[s.Position] == nil {
		return s, fmt.Errorf("%w: no hole cards for my position", ErrState)
	}
	return s, nil
}

// boardSizes is the number of board cards each round deals: none before the flop,
// then the flop, the turn and the river.
var boardSizes = [...]int{0, 3, 1, 1}

// parseCards reads the cards field: "<hole>|<hole>" then "/<board>" for each round
// dealt, each board of its round's size and no card twice in the whole field.
func (s *State) parseCards(field string) error {
	rounds := strings.Split(field, "/")
	if len(rounds) > len(boardSizes) {
		return fmt.Errorf("%w: %d boards in %q", ErrState, len(rounds)-1, field)
	}
	holes := strings.Split(rounds[0], "|")
	if len(holes) != 2 {
		return fmt.Errorf("%w: hole cards %q", ErrState, rounds[0])
	}
	var seen cards.Set
	for i, h := range holes {
		if h == "" {
			continue
		}
		cs, err := cards.ParseList(h)
		if err != nil || len(cs) != 2 {
			return fmt.Errorf("%w: hole cards %q", ErrState, h)
		}
		s.Hole[i] = cs
	}
	for i, r := range rounds[1:] {
		cs, err := cards.ParseList(r)
		if err != nil || len(cs) != boardSizes[i+1] {
			return fmt.Errorf("%w: board %q", ErrState, r)
		}
		s.Board = append(s.Board, cs...)
	}
	for _, c := range slices.Concat(s.Hole[0], s.Hole[1], s.Board) {
		if seen.Has(c) {
			return fmt.Errorf("%w: %s dealt twice in %q", ErrState, c, field)
		}
		seen = seen.Add(c)
	}
	return nil
}

// Replay rebuilds the hand a state describes from the player's side: the deck is laid
// out with the known cards where the engine deals them and unseen cards elsewhere,
// and the betting is replayed. The viewer's View of it holds only cards it may see.
func (s State) Replay(cfg engine.Config, limit bool) (*engine.Hand, error) {
	var known cards.Set
	for _, h := range s.Hole {
		for _, c := range h {
			known = known.Add(c)
		}
	}
	for _, c := range s.Board {
		known = known.Add(c)
	}
	next := cards.Card(0)
	filler := func() cards.Card {
		for known.Has(next) {
			next++
		}
		c := next
		next++
		return c
	}
	pick := func(cs []cards.Card, i int) cards.Card {
		if i < len(cs) {
			return cs[i]
		}
		return filler()
	}
	// Button 1: seat 0 is dealt first; two rounds of hole cards, then burn, flop,
	// burn, turn, burn, river.
	deck := []cards.Card{pick(s.Hole[0], 0), pick(s.Hole[1], 0), pick(s.Hole[0], 1), pick(s.Hole[1], 1), filler()}
	for i := range 5 {
		if i == 3 || i == 4 {
			deck = append(deck, filler())
		}
		deck = append(deck, pick(s.Board, i))
	}
	cfg.Deck = deck
	h, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	if err := s.replayBetting(h, limit); err != nil {
		return nil, err
	}
	return h, nil
}

// replayBetting applies the state's betting to h. Every '/' must stand for a round
// the betting has dealt (so an action is refused until the rounds dealt before it
// are all marked), and the state must end having marked every round dealt and
// shown exactly the board they dealt: a state that skips or adds a '/' or a board
// card would otherwise be played on board cards made up to fill the deck.
func (s State) replayBetting(h *engine.Hand, limit bool) error {
	rounds := 0 // the '/'s read
	dealt := func() int { return roundsFor(len(h.Board())) }
	for i := 0; i < len(s.Betting); {
		j := i + 1
		if s.Betting[i] == '/' {
			if rounds++; rounds > dealt() {
				return fmt.Errorf("%w: %q: '/' at %d ends no round", ErrState, s.Betting, i)
			}
			i = j
			continue
		}
		if rounds != dealt() {
			return fmt.Errorf("%w: %q: no '/' before %d where a round ended", ErrState, s.Betting, i)
		}
		for j < len(s.Betting) && s.Betting[j] >= '0' && s.Betting[j] <= '9' {
			j++
		}
		a, err := Action(h, limit, s.Betting[i:j])
		if err != nil {
			return err
		}
		if err := h.Apply(a); err != nil {
			return fmt.Errorf("%w: %q at %d: %w", ErrState, s.Betting, i, err)
		}
		i = j
	}
	if rounds != dealt() {
		return fmt.Errorf("%w: %q ends %d rounds, not %d", ErrState, s.Betting, rounds, dealt())
	}
	if len(s.Board) != len(h.Board()) {
		return fmt.Errorf("%w: %q deals %d board cards, the state shows %d", ErrState, s.Betting, len(h.Board()), len(s.Board))
	}
	return nil
}

// roundsFor returns the number of board rounds that deal n board cards (0 to 3).
func roundsFor(n int) int {
	r := 0
	for sum := 0; r+1 < len(boardSizes) && sum+boardSizes[r+1] <= n; r++ {
		sum += boardSizes[r+1]
	}
	return r
}
