package engine

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

// holdemDeck builds a Config.Deck that deals holes[i] to seat i and then the board
// (burns and unused places get cards nobody named). Seats with 0 chips get nothing.
func holdemDeck(t *testing.T, stacks []int64, button int, holes []string, board string) []cards.Card {
	t.Helper()
	n := len(stacks)
	var used cards.Set
	parse := func(s string) []cards.Card {
		cs := cards.MustParseList(s)
		for _, c := range cs {
			if used.Has(c) {
				t.Fatalf("card %v named twice", c)
			}
			used = used.Add(c)
		}
		return cs
	}
	hc := make([][]cards.Card, n)
	for i := range holes {
		hc[i] = parse(holes[i])
	}
	bc := parse(board)
	spare := func() cards.Card {
		for c := cards.Card(0); c < cards.NumCards; c++ {
			if !used.Has(c) {
				used = used.Add(c)
				return c
			}
		}
		t.Fatal("no cards left")
		return cards.NoCard
	}
	pick := func(cs []cards.Card, k int) cards.Card {
		if k < len(cs) {
			return cs[k]
		}
		return spare()
	}
	var deck []cards.Card
	for r := 0; r < 2; r++ {
		for d := 1; d <= n; d++ {
			if i := (button + d) % n; stacks[i] > 0 {
				deck = append(deck, pick(hc[i], r))
			}
		}
	}
	deck = append(deck, spare(), pick(bc, 0), pick(bc, 1), pick(bc, 2), spare(), pick(bc, 3), spare(), pick(bc, 4))
	return deck
}

// studDeck deals hole[i], up1[i] and up2[i] to seat i (seats given "" get spares).
func studDeck(t *testing.T, stacks []int64, ante int64, button int, hands []string) []cards.Card {
	t.Helper()
	n := len(stacks)
	var used cards.Set
	hc := make([][]cards.Card, n)
	for i, s := range hands {
		hc[i] = cards.MustParseList(s)
		for _, c := range hc[i] {
			used = used.Add(c)
		}
	}
	var deck []cards.Card
	for r := 0; r < 3; r++ {
		for d := 1; d <= n; d++ {
			i := (button + d) % n
			if stacks[i] < ante {
				continue
			}
			if r < len(hc[i]) {
				deck = append(deck, hc[i][r])
				continue
			}
			for c := cards.Card(0); c < cards.NumCards; c++ {
				if !used.Has(c) {
					used = used.Add(c)
					deck = append(deck, c)
					break
				}
			}
		}
	}
	return deck
}

// mustNew builds a hand or fails the test.
func mustNew(t *testing.T, cfg Config) *Hand {
	t.Helper()
	h, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	checkChips(t, h)
	return h
}

// play applies a script of actions such as "3:r6 4:c 5:f 0:k 1:b10 2:L"
// (f fold, k check, c call, b bet to, r raise to, L leave).
func play(t *testing.T, h *Hand, script string) {
	t.Helper()
	for _, tok := range strings.Fields(script) {
		a := parseAction(t, tok)
		if err := h.Apply(a); err != nil {
			t.Fatalf("%s: %v (legal %+v)", tok, err, h.Legal())
		}
		checkChips(t, h)
	}
}

func parseAction(t *testing.T, tok string) Action {
	t.Helper()
	seat, rest, ok := strings.Cut(tok, ":")
	if !ok || rest == "" {
		t.Fatalf("bad action %q", tok)
	}
	i, err := strconv.Atoi(seat)
	if err != nil {
		t.Fatalf("bad seat in %q", tok)
	}
	a := Action{Seat: i}
	switch rest[0] {
	case 'f':
		a.Kind = Fold
	case 'k':
		a.Kind = Check
	case 'c':
		a.Kind = Call
	case 'b':
		a.Kind = Bet
	case 'r':
		a.Kind = Raise
	case 'L':
		a.Kind = Leave
	default:
		t.Fatalf("bad kind in %q", tok)
	}
	if len(rest) > 1 {
		if a.Amount, err = strconv.ParseInt(rest[1:], 10, 64); err != nil {
			t.Fatalf("bad amount in %q", tok)
		}
	}
	return a
}

// reject applies an action that must fail with want and change nothing.
func reject(t *testing.T, h *Hand, tok string, want error) {
	t.Helper()
	a := parseAction(t, tok)
	before := h.Clone()
	err := h.Apply(a)
	if !errors.Is(err, want) {
		t.Fatalf("%s: got error %v, want %v", tok, err, want)
	}
	if !sameHand(before, h) {
		t.Fatalf("%s: rejected action changed the hand", tok)
	}
}

// sameHand compares two hands field by field (the deck pointer aside).
func sameHand(a, b *Hand) bool {
	x, y := *a, *b
	x.deck, y.deck = nil, nil
	x.events, y.events = nil, nil
	x.actions, y.actions = nil, nil
	return reflect.DeepEqual(x, y) && reflect.DeepEqual(a.events, b.events) && reflect.DeepEqual(a.actions, b.actions)
}

// checkChips verifies that every chip is either in a stack or in the pot.
func checkChips(t *testing.T, h *Hand) {
	t.Helper()
	var start, now int64
	for i := 0; i < h.s.n; i++ {
		s := &h.seats[i]
		start += s.start
		now += s.stack
		if !h.over {
			now += s.total
		}
		if s.stack < 0 || s.total < 0 || s.bet < 0 || s.bet > s.total {
			t.Fatalf("seat %d: negative or inconsistent chips %+v", i, *s)
		}
	}
	if start != now {
		t.Fatalf("chips not conserved: %d at start, %d now", start, now)
	}
}

// legalIs checks the kinds and bounds of the current Legal.
func legalIs(t *testing.T, h *Hand, seat int, kinds string, minTo, maxTo int64) {
	t.Helper()
	l := h.Legal()
	if l.Seat != seat || l.Kinds.String() != kinds || (minTo != 0 || maxTo != 0) && (l.MinTo != minTo || l.MaxTo != maxTo) {
		t.Fatalf("legal = seat %d %s %d..%d; want seat %d %s %d..%d", l.Seat, l.Kinds, l.MinTo, l.MaxTo, seat, kinds, minTo, maxTo)
	}
}

// eventsOf returns the events of the given kinds, formatted.
func eventsOf(h *Hand, kinds ...EventKind) []string {
	var out []string
	for _, e := range h.events {
		for _, k := range kinds {
			if e.Kind == k {
				out = append(out, e.Kind.String()+" "+strconv.Itoa(int(e.Seat))+" "+strconv.FormatInt(e.Amount, 10))
			}
		}
	}
	return out
}

func nl(stacks ...int64) Config {
	return Config{Variant: Holdem, Structure: NoLimit, Stacks: stacks, SmallBlind: 1, BigBlind: 2}
}
