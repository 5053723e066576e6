// Package cards holds playing cards, card sets and a seeded deck: the vocabulary
// every other felt package speaks. Text forms follow ../shared/RULES.md.
package cards

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// Rank is a card's rank: Two (0) up to Ace (12).
type Rank uint8

// The thirteen ranks, lowest first.
const (
	Two Rank = iota
	Three
	Four
	Five
	Six
	Seven
	Eight
	Nine
	Ten
	Jack
	Queen
	King
	Ace
)

// NumRanks is the number of ranks in a deck.
const NumRanks = 13

// Suit is a card's suit, in the order of RULES.md: clubs < diamonds < hearts < spades.
type Suit uint8

// The four suits, lowest first.
const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
)

// NumSuits is the number of suits in a deck.
const NumSuits = 4

// Card is one of the 52 cards, numbered rank*4 + suit (2c = 0, As = 51).
type Card uint8

// NumCards is the number of cards in a deck.
const NumCards = 52

// NoCard is the zero-information placeholder for an unknown or absent card.
// It is never a valid card.
const NoCard Card = 255

const rankChars = "23456789TJQKA"
const suitChars = "cdhs"

// ErrBadCard is wrapped by every card parsing error.
var ErrBadCard = errors.New("bad card")

// New returns the card of rank r and suit s.
func New(r Rank, s Suit) Card { return Card(uint8(r)*4 + uint8(s)) }

// Rank returns the card's rank.
func (c Card) Rank() Rank { return Rank(c >> 2) }

// Suit returns the card's suit.
func (c Card) Suit() Suit { return Suit(c & 3) }

// Valid reports whether c is one of the 52 cards.
func (c Card) Valid() bool { return c < NumCards }

// String returns the canonical form, such as "As" or "Td"; "??" for an invalid card.
func (c Card) String() string {
	if !c.Valid() {
		return "??"
	}
	return string([]byte{rankChars[c.Rank()], suitChars[c.Suit()]})
}

// MarshalText writes the canonical form.
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("%w: card number %d", ErrBadCard, uint8(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads any form Parse accepts.
func (c *Card) UnmarshalText(b []byte) error {
	p, err := Parse(string(b))
	if err != nil {
		return err
	}
	*c = p
	return nil
}

// String returns the rank's character: "2".."9", "T", "J", "Q", "K", "A".
func (r Rank) String() string {
	if r >= NumRanks {
		return "?"
	}
	return rankChars[r : r+1]
}

// Name returns the rank's English name, such as "king".
func (r Rank) Name() string {
	if r >= NumRanks {
		return "?"
	}
	return rankNames[r]
}

// Plural returns the rank's plural English name, such as "sixes".
func (r Rank) Plural() string {
	if r == Six {
		return "sixes"
	}
	return r.Name() + "s"
}

var rankNames = [NumRanks]string{"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"}

// String returns the suit's character: "c", "d", "h" or "s".
func (s Suit) String() string {
	if s >= NumSuits {
		return "?"
	}
	return suitChars[s : s+1]
}

// ParseRank reads a rank: "2".."9", "10", "T", "J", "Q", "K", "A", in either case.
func ParseRank(s string) (Rank, error) {
	if s == "10" {
		return Ten, nil
	}
	if len(s) == 1 {
		if i := strings.IndexByte(rankChars, upper(s[0])); i >= 0 {
			return Rank(i), nil
		}
	}
	return 0, fmt.Errorf("%w: rank %q (want 2-9, 10, T, J, Q, K or A)", ErrBadCard, s)
}

// ParseSuit reads a suit: "c", "d", "h" or "s", in either case.
func ParseSuit(s string) (Suit, error) {
	if len(s) == 1 {
		if i := strings.IndexByte(suitChars, lower(s[0])); i >= 0 {
			return Suit(i), nil
		}
	}
	return 0, fmt.Errorf("%w: suit %q (want c, d, h or s)", ErrBadCard, s)
}

// Parse reads one card: "As", "AS", "10s", "Ts", "tS".
func Parse(s string) (Card, error) {
	if len(s) < 2 || len(s) > 3 {
		return NoCard, fmt.Errorf("%w: %q (want a rank and a suit, such as As or 10h)", ErrBadCard, s)
	}
	r, err := ParseRank(s[:len(s)-1])
	if err != nil {
		return NoCard, fmt.Errorf("%w: %q: bad rank %q", ErrBadCard, s, s[:len(s)-1])
	}
	su, err := ParseSuit(s[len(s)-1:])
	if err != nil {
		return NoCard, fmt.Errorf("%w: %q: bad suit %q", ErrBadCard, s, s[len(s)-1:])
	}
	return New(r, su), nil
}

// MustParse is Parse for constants in code and tests; it panics on bad input.
func MustParse(s string) Card {
	c, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return c
}

// ParseList reads cards written together ("AhKd", "10s9s") or separated by
// spaces or commas ("Ah Kd", "Ah,Kd"). A card given twice is an error.
func ParseList(s string) ([]Card, error) {
	var out []Card
	var seen Set
	i := 0
	for i < len(s) {
		switch s[i] {
		case ' ', ',', '\t':
			i++
			continue
		}
		n := 2
		if s[i] == '1' && i+1 < len(s) && s[i+1] == '0' {
			n = 3
		}
		if i+n > len(s) {
			return nil, fmt.Errorf("%w: %q: incomplete card %q at the end", ErrBadCard, s, s[i:])
		}
		c, err := Parse(s[i : i+n])
		if err != nil {
			return nil, fmt.Errorf("in %q: %w", s, err)
		}
		if seen.Has(c) {
			return nil, fmt.Errorf("%w: %q: %s given twice", ErrBadCard, s, c)
		}
		seen = seen.Add(c)
		out = append(out, c)
		i += n
	}
	return out, nil
}

// MustParseList is ParseList for constants in code and tests; it panics on bad input.
func MustParseList(s string) []Card {
	cs, err := ParseList(s)
	if err != nil {
		panic(err)
	}
	return cs
}

// Format writes cards in canonical form, joined without separators ("AhKd").
func Format(cs []Card) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(c.String())
	}
	return b.String()
}

func upper(b byte) byte {
	if 'a' <= b && b <= 'z' {
		return b - 'a' + 'A'
	}
	return b
}

func lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b - 'A' + 'a'
	}
	return b
}

// Set is a set of cards as a 52-bit mask (bit i is card i).
type Set uint64

// SetOf returns the set holding the given cards.
func SetOf(cs ...Card) Set {
	var s Set
	for _, c := range cs {
		s |= 1 << c
	}
	return s
}

// FullSet holds all 52 cards.
const FullSet Set = 1<<NumCards - 1

// Has reports whether c is in the set.
func (s Set) Has(c Card) bool { return c < NumCards && s&(1<<c) != 0 }

// Add returns the set with c added.
func (s Set) Add(c Card) Set { return s | 1<<c }

// Remove returns the set without c.
func (s Set) Remove(c Card) Set { return s &^ (1 << c) }

// Len returns the number of cards in the set.
func (s Set) Len() int { return bits.OnesCount64(uint64(s)) }

// Cards returns the set's cards in ascending order.
func (s Set) Cards() []Card {
	out := make([]Card, 0, s.Len())
	for m := uint64(s); m != 0; m &= m - 1 {
		out = append(out, Card(bits.TrailingZeros64(m)))
	}
	return out
}

// String writes the set's cards in ascending order.
func (s Set) String() string { return Format(s.Cards()) }
