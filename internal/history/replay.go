package history

import (
	"fmt"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// MaxChips bounds every amount a history may hold (stacks, blinds, bets) so that no
// sum of them can overflow an int64.
const MaxChips = 1_000_000_000_000_000

// Config returns the engine configuration of the hand and the seat of each PHH
// player. A hand with a _seed is dealt from the seed; otherwise the deck is laid out
// from the cards the file names (hole cards, board, cards shown, _burns) and every
// unknown card is filled with the lowest card not named anywhere in the file.
func (p *PHH) Config() (engine.Config, []int, error) {
	acts, err := p.parseActions()
	if err != nil {
		return engine.Config{}, nil, err
	}
	return p.config(acts)
}

// Replay plays the hand through the engine and checks it against the file: every
// player action must be legal and by the player to act, every card the file names
// must be the card the engine dealt, and the finishing stacks and winnings, when
// written, must be the engine's. It returns the configuration and the hand (whose
// Actions are the engine's form of the file's actions). A history of part of a
// hand replays to a hand that is not over.
func (p *PHH) Replay() (engine.Config, *engine.Hand, error) {
	acts, err := p.parseActions()
	if err != nil {
		return engine.Config{}, nil, err
	}
	cfg, seats, err := p.config(acts)
	if err != nil {
		return cfg, nil, err
	}
	h, err := engine.New(cfg)
	if err != nil {
		return cfg, nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	nBoard := 0
	nDealt := make([]int, len(seats))
	for i, a := range acts {
		if err := replayAction(h, a, seats, &nBoard, nDealt); err != nil {
			return cfg, h, fmt.Errorf("action %d %q: %w", i+1, a.text, err)
		}
	}
	if err := p.checkOutcome(h, seats); err != nil {
		return cfg, h, err
	}
	if p.SecondBoard != "" {
		want, err := parseCards(p.SecondBoard)
		if err != nil {
			return cfg, h, fmt.Errorf("_second_board: %w", err)
		}
		if got := h.SecondBoard(); len(got) != len(want) {
			return cfg, h, fmt.Errorf("%w: _second_board has %d cards; the engine ran the board twice with %d", ErrMismatch, len(want), len(got))
		} else if err := sameCards(want, got); err != nil {
			return cfg, h, fmt.Errorf("_second_board: %w", err)
		}
	}
	return cfg, h, nil
}

// replayAction applies or checks one action.
func replayAction(h *engine.Hand, a action, seats []int, nBoard *int, nDealt []int) error {
	switch a.verb {
	case "":
		return nil
	case "db":
		cs, err := parseCards(a.cards)
		if err != nil {
			return err
		}
		board := h.Board()
		if *nBoard+len(cs) > len(board) {
			return fmt.Errorf("%w: the engine has dealt %d board cards", ErrMismatch, len(board))
		}
		if err := sameCards(cs, board[*nBoard:]); err != nil {
			return err
		}
		*nBoard += len(cs)
		return nil
	case "dh":
		cs, err := parseCards(a.cards)
		if err != nil {
			return err
		}
		got := h.Cards(seats[a.actor])
		k := nDealt[a.actor]
		if k+len(cs) > len(got) {
			return fmt.Errorf("%w: the engine has dealt p%d %d cards", ErrMismatch, a.actor+1, len(got))
		}
		nDealt[a.actor] += len(cs)
		return sameCards(cs, got[k:])
	case "sm":
		if a.cards == "" || a.cards == "-" {
			return nil
		}
		cs, err := parseCards(a.cards)
		if err != nil {
			return err
		}
		got := h.Cards(seats[a.actor])
		if len(cs) > len(got) {
			return fmt.Errorf("%w: p%d shows %d cards and holds %d", ErrMismatch, a.actor+1, len(cs), len(got))
		}
		return sameCards(cs, got)
	case "sd", "pb":
		return fmt.Errorf("%w: felt's games have no draws and no bring-in", ErrUnsupported)
	}
	seat := seats[a.actor]
	if a.verb == "f" && a.comment == "leave" {
		if err := h.Leave(seat); err != nil {
			return fmt.Errorf("%w: %w", ErrMismatch, err)
		}
		return nil
	}
	l := h.Legal()
	if l.Seat != seat {
		if l.Seat == engine.NoSeat {
			return fmt.Errorf("%w: nobody is to act", ErrMismatch)
		}
		return fmt.Errorf("%w: p%d is to act", ErrMismatch, playerOf(seats, l.Seat)+1)
	}
	act := engine.Action{Seat: seat}
	switch a.verb {
	case "f":
		act.Kind = engine.Fold
	case "cc":
		act.Kind = engine.Call
		if l.Can(engine.Check) {
			act.Kind = engine.Check
		}
	case "cbr":
		act.Kind, act.Amount = engine.Raise, a.amount
		if l.Can(engine.Bet) {
			act.Kind = engine.Bet
		}
	}
	if err := h.Apply(act); err != nil {
		return fmt.Errorf("%w: %w", ErrMismatch, err)
	}
	return nil
}

// sameCards checks that every known card of want is the card at its place in got.
func sameCards(want, got []cards.Card) error {
	for k, c := range want {
		if c != cards.NoCard && c != got[k] {
			return fmt.Errorf("%w: %v where the engine dealt %v", ErrMismatch, c, got[k])
		}
	}
	return nil
}

func playerOf(seats []int, seat int) int {
	for k, s := range seats {
		if s == seat {
			return k
		}
	}
	return -1
}

// checkOutcome compares the file's finishing stacks and winnings with the engine's.
func (p *PHH) checkOutcome(h *engine.Hand, seats []int) error {
	won := make([]int64, h.Seats())
	for _, e := range h.Events() {
		if e.Kind == engine.EvAward {
			won[e.Seat] += e.Amount
		}
	}
	for k, s := range seats {
		if len(p.FinishingStacks) > 0 && p.FinishingStacks[k] != h.Stack(s) {
			return fmt.Errorf("%w: p%d finishes with %d, the file says %d", ErrMismatch, k+1, h.Stack(s), p.FinishingStacks[k])
		}
		if len(p.Winnings) > 0 && p.Winnings[k] != won[s] {
			return fmt.Errorf("%w: p%d wins %d, the file says %d", ErrMismatch, k+1, won[s], p.Winnings[k])
		}
	}
	return nil
}

// parseActions reads the actions field.
func (p *PHH) parseActions() ([]action, error) {
	acts := make([]action, len(p.Actions))
	for i, s := range p.Actions {
		a, err := parseAction(s, len(p.StartingStacks))
		if err != nil {
			return nil, fmt.Errorf("action %d: %w", i+1, err)
		}
		acts[i] = a
	}
	return acts, nil
}

// config builds the engine configuration; acts supplies the cards for the deck.
func (p *PHH) config(acts []action) (engine.Config, []int, error) {
	var cfg engine.Config
	n := len(p.StartingStacks)
	if n < engine.MinSeats || n > engine.MaxSeats {
		return cfg, nil, fmt.Errorf("%w: %d players; felt deals %d to %d", ErrUnsupported, n, engine.MinSeats, engine.MaxSeats)
	}
	for _, v := range [][]int64{p.StartingStacks, p.Antes, p.BlindsOrStraddles, p.FinishingStacks, p.Winnings, {p.SmallBet, p.BigBet, p.MinBet, p.BringIn, p.MaxRaise}} {
		for _, x := range v {
			if x < 0 || x > MaxChips {
				return cfg, nil, fmt.Errorf("%w: amount %d outside 0..%d", ErrUnsupported, x, int64(MaxChips))
			}
		}
	}
	if err := p.game(&cfg); err != nil {
		return cfg, nil, err
	}
	if err := p.forced(&cfg, n); err != nil {
		return cfg, nil, err
	}
	seats, button, count, err := p.seating()
	if err != nil {
		return cfg, nil, err
	}
	cfg.Stacks = make([]int64, count)
	for k, s := range seats {
		st := p.StartingStacks[k]
		if st == 0 || (cfg.Variant == engine.StudThree && st < cfg.Ante) {
			return cfg, nil, unsupported("p%d's stack of %d cannot be dealt in", k+1, st)
		}
		cfg.Stacks[s] = st
	}
	cfg.Button = button
	cfg.RunTwice &= engine.SeatSet(1)<<count - 1
	cfg.Straddlers &= engine.SeatSet(1)<<count - 1
	if p.Seed != "" {
		seed, err := cards.ParseSeed(p.Seed)
		if err != nil {
			return cfg, nil, fmt.Errorf("%w: _seed: %v", ErrFormat, err)
		}
		cfg.Seed = seed
	} else if cfg.Deck, err = p.deck(acts, cfg.Variant); err != nil {
		return cfg, nil, err
	}
	if err := cfg.Validate(); err != nil {
		return cfg, nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	return cfg, seats, nil
}

// unsupported is an ErrUnsupported error: what felt does not deal.
func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrUnsupported}, args...)...)
}

// game sets cfg's variant and betting structure from the file's.
func (p *PHH) game(cfg *engine.Config) error {
	switch p.Variant {
	case VariantNT:
		switch p.Betting {
		case "", "no-limit":
			cfg.Structure = engine.NoLimit
		case BettingPotLimit:
			cfg.Structure = engine.PotLimit
		default:
			return unsupported("_betting %q", p.Betting)
		}
	case VariantFT:
		cfg.Structure = engine.FixedLimit
		cfg.SmallBet, cfg.BigBet, cfg.RaiseCap = p.SmallBet, p.BigBet, p.RaiseCap
	case VariantStud3:
		cfg.Variant = engine.StudThree
		cfg.StudMaxRaise = p.MaxRaise
	default:
		return unsupported("variant %q (felt plays NT, FT and %s)", p.Variant, VariantStud3)
	}
	if p.Variant != VariantNT && p.Betting != "" {
		return unsupported("_betting %q with variant %s", p.Betting, p.Variant)
	}
	return nil
}

// forced sets cfg's antes, blinds, straddle and run-twice agreement from the
// file's, for n players.
func (p *PHH) forced(cfg *engine.Config, n int) error {
	if p.BringIn != 0 {
		return unsupported("a bring-in")
	}
	for _, a := range p.Antes {
		if a != p.Antes[0] {
			return unsupported("unequal antes %v", p.Antes)
		}
	}
	if len(p.Antes) > 0 {
		cfg.Ante = p.Antes[0]
	}
	if cfg.Variant != engine.Holdem {
		if len(p.BlindsOrStraddles) > 0 {
			return unsupported("blinds in stud")
		}
		if cfg.Ante == 0 {
			return unsupported("three card stud without an ante")
		}
		return nil
	}
	b := p.BlindsOrStraddles
	if len(b) != n {
		return fmt.Errorf("%w: blinds_or_straddles needs one entry a player", ErrFormat)
	}
	for k, x := range b[2:] {
		if k == 0 && n >= 3 && x == 2*b[1] && b[1] > 0 {
			cfg.Straddlers = engine.SeatSet(1)<<engine.MaxSeats - 1 // p3, under the gun, straddles
			continue
		}
		if x != 0 {
			return unsupported("straddles %v (felt deals one straddle, of p3, twice the big blind)", b)
		}
	}
	if p.SecondBoard != "" {
		cfg.RunTwice = engine.SeatSet(1)<<engine.MaxSeats - 1 // every seat agreed
	}
	// Heads-up the array is applied reversed: p1 (the big blind) posts b[1], the
	// button b[0]; so b[0] is the small blind and b[1] the big blind either way.
	cfg.SmallBlind, cfg.BigBlind = b[0], b[1]
	if p.MinBet != 0 && p.MinBet != cfg.BigBlind {
		return unsupported("min_bet %d differs from the big blind %d", p.MinBet, cfg.BigBlind)
	}
	return nil
}

// seating returns the 0-based seat of each player, the button's seat and the number
// of seats. Without seats the players sit in seats 1..n, the button in the last.
func (p *PHH) seating() (seats []int, button, count int, err error) {
	n := len(p.StartingStacks)
	seats = make([]int, n)
	for k := range seats {
		seats[k] = k
		if len(p.Seats) > 0 {
			seats[k] = p.Seats[k] - 1
		}
		count = max(count, seats[k]+1)
	}
	if p.SeatCount != 0 {
		if p.SeatCount < count || p.SeatCount > engine.MaxSeats {
			return nil, 0, 0, fmt.Errorf("%w: seat_count %d with seats %v (felt seats at most %d)", ErrUnsupported, p.SeatCount, p.Seats, engine.MaxSeats)
		}
		count = p.SeatCount
	}
	if count > engine.MaxSeats {
		return nil, 0, 0, fmt.Errorf("%w: seat %d (felt seats at most %d)", ErrUnsupported, count, engine.MaxSeats)
	}
	button = seats[n-1]
	if p.Button != 0 {
		button = p.Button - 1
		if button < 0 || button >= count {
			return nil, 0, 0, fmt.Errorf("%w: _button %d outside seats 1..%d", ErrFormat, p.Button, count)
		}
	}
	// The players must sit clockwise from the first seat left of the button.
	prev := -1
	for k, s := range seats {
		if s < 0 {
			return nil, 0, 0, fmt.Errorf("%w: seat %d", ErrFormat, s+1)
		}
		d := (s - button - 1 + 2*count) % count
		if d <= prev {
			return nil, 0, 0, fmt.Errorf("%w: seats %v are not clockwise from the left of the button in seat %d (at p%d)", ErrFormat, p.Seats, button+1, k+1)
		}
		prev = d
	}
	return seats, button, count, nil
}

// deck lays out the cards the file names in the order the engine deals them (see
// engine.Config.Deck) and fills the unknown places with unused cards.
func (p *PHH) deck(acts []action, v engine.Variant) ([]cards.Card, error) {
	holes, board, err := p.dealt(acts)
	if err != nil {
		return nil, err
	}
	var deck []cards.Card
	if v == engine.StudThree {
		deck, err = studDeck(holes)
	} else {
		deck, err = p.holdemDeck(holes, board)
	}
	if err != nil {
		return nil, err
	}
	return fillDeck(deck)
}

// dealt returns each player's hole cards and the board as the actions deal them,
// hole cards dealt unknown filled in from the cards shown.
func (p *PHH) dealt(acts []action) (holes [][]cards.Card, board []cards.Card, err error) {
	holes = make([][]cards.Card, len(p.StartingStacks))
	for _, a := range acts {
		if a.verb != "dh" && a.verb != "db" {
			continue
		}
		cs, err := parseCards(a.cards)
		if err != nil {
			return nil, nil, err
		}
		if a.verb == "dh" {
			holes[a.actor] = append(holes[a.actor], cs...)
		} else {
			board = append(board, cs...)
		}
	}
	for _, a := range acts { // cards shown fill in hole cards dealt unknown
		if a.verb != "sm" || a.cards == "" || a.cards == "-" {
			continue
		}
		cs, err := parseCards(a.cards)
		if err != nil {
			return nil, nil, err
		}
		for j, c := range cs {
			if j < len(holes[a.actor]) && holes[a.actor][j] == cards.NoCard {
				holes[a.actor][j] = c
			}
		}
	}
	return holes, board, nil
}

// place is cs[j], or cards.NoCard past its end.
func place(cs []cards.Card, j int) cards.Card {
	if j < len(cs) {
		return cs[j]
	}
	return cards.NoCard
}

// studDeck lays out three card stud's deck: a round of down cards, a round of up
// cards, then the last cards of the players who got one.
func studDeck(holes [][]cards.Card) ([]cards.Card, error) {
	n := len(holes)
	deck := make([]cards.Card, 0, 3*n)
	for r := range 2 {
		for k := range n {
			deck = append(deck, place(holes[k], r))
		}
	}
	for k := range n {
		if len(holes[k]) > 3 {
			return nil, fmt.Errorf("%w: p%d is dealt %d cards; stud deals 3", ErrFormat, k+1, len(holes[k]))
		}
		if len(holes[k]) == 3 {
			deck = append(deck, holes[k][2])
		}
	}
	for len(deck) < 3*n {
		deck = append(deck, cards.NoCard)
	}
	return deck, nil
}

// holdemDeck lays out Hold'em's deck: two rounds of hole cards, then burns and
// board cards as the engine deals them, then a second run's.
func (p *PHH) holdemDeck(holes [][]cards.Card, board []cards.Card) ([]cards.Card, error) {
	n := len(holes)
	burns := []cards.Card{}
	if p.Burns != "" {
		var err error
		if burns, err = parseCards(p.Burns); err != nil {
			return nil, fmt.Errorf("_burns: %w", err)
		}
	}
	maxBurns := 3
	if p.SecondBoard != "" {
		maxBurns = 6
	}
	if len(board) > 5 || len(burns) > maxBurns {
		return nil, fmt.Errorf("%w: %d board cards and %d burns; Hold'em deals 5 and burns 3 (6 with a second run)", ErrFormat, len(board), len(burns))
	}
	deck := make([]cards.Card, 0, 2*n+8)
	for r := range 2 {
		for k := range n {
			if len(holes[k]) > 2 {
				return nil, fmt.Errorf("%w: p%d is dealt %d hole cards; Hold'em deals 2", ErrFormat, k+1, len(holes[k]))
			}
			deck = append(deck, place(holes[k], r))
		}
	}
	deck = append(deck, place(burns, 0), place(board, 0), place(board, 1), place(board, 2),
		place(burns, 1), place(board, 3), place(burns, 2), place(board, 4))
	if p.SecondBoard != "" {
		second, err := p.secondRun(board, burns)
		if err != nil {
			return nil, err
		}
		deck = append(deck, second...)
	}
	return deck, nil
}

// fillDeck refuses a card dealt twice and puts the lowest unused cards in the
// unknown places, in order.
func fillDeck(deck []cards.Card) ([]cards.Card, error) {
	var used cards.Set
	for _, c := range deck {
		if c == cards.NoCard {
			continue
		}
		if used.Has(c) {
			return nil, fmt.Errorf("%w: %v is dealt twice", ErrFormat, c)
		}
		used = used.Add(c)
	}
	next := cards.Card(0)
	for k, c := range deck {
		if c != cards.NoCard {
			continue
		}
		for used.Has(next) {
			next++
		}
		deck[k] = next
		used = used.Add(next)
	}
	return deck, nil
}

// secondRun lays out the deck's cards of a board run twice after the first
// run's: for each street the betting closed before, a burn (the burns after the
// first three) and the second run's cards.
func (p *PHH) secondRun(board, burns []cards.Card) ([]cards.Card, error) {
	b2, err := parseCards(p.SecondBoard)
	if err != nil {
		return nil, fmt.Errorf("_second_board: %w", err)
	}
	from := 0 // the cards both runs share
	for from < len(b2) && from < len(board) && b2[from] == board[from] {
		from++
	}
	if len(b2) != 5 || len(board) != 5 || from != 0 && from != 3 && from != 4 {
		return nil, fmt.Errorf("%w: _second_board %q does not run out the board %v", ErrFormat, p.SecondBoard, board)
	}
	var out []cards.Card
	burn := 3
	place := func(c cards.Card) { out = append(out, c) }
	for k := from; k < 5; {
		if burn < len(burns) {
			place(burns[burn])
		} else {
			place(cards.NoCard)
		}
		burn++
		n := 1
		if k == 0 {
			n = 3
		}
		for j := 0; j < n; j++ {
			place(b2[k+j])
		}
		k += n
	}
	return out, nil
}
