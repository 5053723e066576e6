package equity

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/felt-poker/felt/internal/cards"
)

// ErrBadRange is wrapped by every range parsing error.
var ErrBadRange = errors.New("bad range")

// Combo is one two-card starting hand and the weight (relative frequency, 0 to 1)
// its range gives it. Cards[0] is the higher card.
type Combo struct {
	Cards  [2]cards.Card
	Weight float64
}

// String writes the combo's cards, higher first, such as "AhKh".
func (c Combo) String() string { return c.Cards[0].String() + c.Cards[1].String() }

// Set returns the combo's two cards as a set.
func (c Combo) Set() cards.Set { return cards.SetOf(c.Cards[0], c.Cards[1]) }

// Range is what one player may hold: a list of distinct weighted combos. The zero
// Range is empty. Build one with ParseRange.
type Range struct {
	text   string
	combos []Combo
}

// String returns the range as written (trimmed).
func (r Range) String() string { return r.text }

// Len returns the number of combos in the range.
func (r Range) Len() int { return len(r.combos) }

// Combos returns the range's combos. The slice is shared: do not modify it.
func (r Range) Combos() []Combo { return r.combos }

// Fixed reports whether the range is a single combo (a known hand).
func (r Range) Fixed() bool { return len(r.combos) == 1 }

// without returns the range minus every combo holding a card in dead.
func (r Range) without(dead cards.Set) Range {
	out := Range{text: r.text, combos: make([]Combo, 0, len(r.combos))}
	for _, c := range r.combos {
		if c.Set()&dead == 0 {
			out.combos = append(out.combos, c)
		}
	}
	return out
}

// ParseRange reads a range as players write it: tokens separated by commas or spaces.
//
//	QQ        a pair (6 combos)            AKs, AKo, AK   suited (4), offsuit (12), both (16)
//	QQ+       QQ, KK, AA                   ATo+           ATo, AJo, AQo, AKo (kicker up to one below the top card)
//	22-55     22, 33, 44, 55               KTs-K7s        KTs, K9s, K8s, K7s (same top card, same s/o)
//	AhKh      one specific hand            random, any    all 1,326 hands
//
// Any token may carry a weight, a number from 0 to 1 after a colon ("AKs:0.5"): the
// share of those combos the player holds; 1 when omitted, 0 removes them. A token that
// names combos already listed sets their weight again, so "QQ+,AA:0.5" weighs aces half.
// Ranks are case-insensitive and "10" may stand for "T".
func ParseRange(s string) (Range, error) {
	text := strings.TrimSpace(s)
	tokens := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
	if len(tokens) == 0 {
		return Range{}, fmt.Errorf("%w: empty range %q", ErrBadRange, s)
	}
	var weight [cards.NumCards][cards.NumCards]float64 // [hi][lo], -1 when not listed
	for i := range weight {
		for j := range weight[i] {
			weight[i][j] = -1
		}
	}
	for _, tok := range tokens {
		body, w, err := splitWeight(tok)
		if err != nil {
			return Range{}, err
		}
		combos, err := parseToken(body)
		if err != nil {
			return Range{}, err
		}
		for _, c := range combos {
			weight[c[0]][c[1]] = w
		}
	}
	var r Range
	for hi := cards.NumCards - 1; hi >= 0; hi-- {
		for lo := hi - 1; lo >= 0; lo-- {
			if w := weight[hi][lo]; w > 0 {
				r.combos = append(r.combos, Combo{Cards: [2]cards.Card{cards.Card(hi), cards.Card(lo)}, Weight: w})
			}
		}
	}
	if len(r.combos) == 0 {
		return Range{}, fmt.Errorf("%w: %q holds no hand with a weight above 0", ErrBadRange, text)
	}
	r.text = text
	return r, nil
}

// MustParseRange is ParseRange for constants in code and tests; it panics on bad input.
func MustParseRange(s string) Range {
	r, err := ParseRange(s)
	if err != nil {
		panic(err)
	}
	return r
}

// splitWeight separates "AKs:0.5" into "AKs" and 0.5.
func splitWeight(tok string) (string, float64, error) {
	body, ws, ok := strings.Cut(tok, ":")
	if !ok {
		return tok, 1, nil
	}
	w, err := strconv.ParseFloat(ws, 64)
	if err != nil || w < 0 || w > 1 || w != w {
		return "", 0, fmt.Errorf("%w: %q: weight %q must be a number from 0 to 1", ErrBadRange, tok, ws)
	}
	return body, w, nil
}

// parseToken returns the combos one token names, each as {higher card, lower card}.
func parseToken(tok string) ([][2]cards.Card, error) {
	switch strings.ToLower(tok) {
	case "random", "any":
		var out [][2]cards.Card
		for hi := cards.Card(1); hi < cards.NumCards; hi++ {
			for lo := cards.Card(0); lo < hi; lo++ {
				out = append(out, [2]cards.Card{hi, lo})
			}
		}
		return out, nil
	}
	if out, ok, err := parseClassToken(tok); ok || err != nil {
		return out, err
	}
	cs, err := cards.ParseList(tok)
	if err == nil && len(cs) == 2 {
		return [][2]cards.Card{order(cs[0], cs[1])}, nil
	}
	if err != nil && len(tok) >= 4 && strings.Contains(err.Error(), "given twice") {
		return nil, fmt.Errorf("%w: %q: the same card twice", ErrBadRange, tok)
	}
	return nil, fmt.Errorf("%w: token %q: want a hand class (QQ, QQ+, AKs, AKo, AK, ATo+, 22-55, KTs-K7s), a hand (AhKh) or random", ErrBadRange, tok)
}

func order(a, b cards.Card) [2]cards.Card {
	if a < b {
		a, b = b, a
	}
	return [2]cards.Card{a, b}
}

// class is a hand class such as "AKs": two ranks (hi ≥ lo) and 's', 'o' or 0 for both.
type class struct {
	hi, lo cards.Rank
	kind   byte
}

// readClass reads a class at the start of s and returns the rest of s.
func readClass(s string) (class, string, bool) {
	hi, s, ok := readRank(s)
	if !ok {
		return class{}, s, false
	}
	lo, s, ok := readRank(s)
	if !ok {
		return class{}, s, false
	}
	if hi < lo {
		hi, lo = lo, hi
	}
	c := class{hi: hi, lo: lo}
	if len(s) > 0 {
		switch s[0] {
		case 's', 'S':
			c.kind = 's'
			s = s[1:]
		case 'o', 'O':
			c.kind = 'o'
			s = s[1:]
		}
	}
	return c, s, true
}

func readRank(s string) (cards.Rank, string, bool) {
	if strings.HasPrefix(s, "10") {
		return cards.Ten, s[2:], true
	}
	if len(s) == 0 {
		return 0, s, false
	}
	r, err := cards.ParseRank(s[:1])
	return r, s[1:], err == nil
}

// parseClassToken reads "AKs", "QQ+", "ATo+", "22-55" or "KTs-K7s". ok is false when tok
// is not written as a class at all (it may be a hand such as "AhKh").
func parseClassToken(tok string) (out [][2]cards.Card, ok bool, err error) {
	c, rest, ok := readClass(tok)
	if !ok {
		return nil, false, nil
	}
	bad := func(why string) ([][2]cards.Card, bool, error) {
		return nil, true, fmt.Errorf("%w: %q: %s", ErrBadRange, tok, why)
	}
	pair := c.hi == c.lo
	if pair && c.kind != 0 {
		return bad("a pair cannot be suited or offsuit")
	}
	var classes []class
	switch {
	case rest == "":
		classes = []class{c}
	case rest == "+":
		if pair {
			for r := c.hi; r <= cards.Ace; r++ {
				classes = append(classes, class{hi: r, lo: r})
			}
		} else {
			for k := c.lo; k < c.hi; k++ {
				classes = append(classes, class{hi: c.hi, lo: k, kind: c.kind})
			}
		}
	case rest[0] == '-':
		d, rest2, ok := readClass(rest[1:])
		if !ok || rest2 != "" {
			if len(rest) > 1 && strings.ContainsAny(rest[1:2], "23456789tjqkaTJQKA1") {
				return bad("the part after the dash is not a hand class")
			}
			return nil, false, nil
		}
		switch {
		case pair && d.hi == d.lo:
			lo, hi := min(c.hi, d.hi), max(c.hi, d.hi)
			for r := lo; r <= hi; r++ {
				classes = append(classes, class{hi: r, lo: r})
			}
		case !pair && d.hi == c.hi && d.lo != d.hi && d.kind == c.kind:
			lo, hi := min(c.lo, d.lo), max(c.lo, d.lo)
			for k := lo; k <= hi; k++ {
				classes = append(classes, class{hi: c.hi, lo: k, kind: c.kind})
			}
		default:
			return bad("a dash joins two pairs (22-55) or two hands with the same top card and the same s/o (KTs-K7s)")
		}
	default:
		if len(tok) >= 4 {
			return nil, false, nil // perhaps a hand such as "AhKh"
		}
		return bad(fmt.Sprintf("unexpected %q after the hand class", rest))
	}
	for _, cl := range classes {
		out = append(out, cl.combos()...)
	}
	return out, true, nil
}

// combos lists the class's combos: 6 for a pair, 4 suited, 12 offsuit, 16 for both.
func (c class) combos() [][2]cards.Card {
	var out [][2]cards.Card
	for s1 := cards.Suit(0); s1 < cards.NumSuits; s1++ {
		for s2 := cards.Suit(0); s2 < cards.NumSuits; s2++ {
			if c.hi == c.lo && s2 <= s1 {
				continue
			}
			if (c.kind == 's' && s1 != s2) || (c.kind == 'o' && s1 == s2) {
				continue
			}
			out = append(out, order(cards.New(c.hi, s1), cards.New(c.lo, s2)))
		}
	}
	return out
}

// RangeOf builds a range from weighted combos (a program's range, not a player's
// text): combos with a weight of 0 or less are left out, weights above 1 are an
// error, and so is a combo listed twice or a range left empty.
func RangeOf(combos []Combo) (Range, error) {
	var seen [cards.NumCards][cards.NumCards]bool
	out := Range{text: "(computed)", combos: make([]Combo, 0, len(combos))}
	for _, c := range combos {
		if !(c.Weight <= 1) || !c.Cards[0].Valid() || !c.Cards[1].Valid() || c.Cards[0] == c.Cards[1] {
			return Range{}, fmt.Errorf("%w: combo %v weight %v", ErrBadRange, c.Cards, c.Weight)
		}
		if c.Weight <= 0 {
			continue
		}
		o := order(c.Cards[0], c.Cards[1])
		if seen[o[0]][o[1]] {
			return Range{}, fmt.Errorf("%w: combo %s listed twice", ErrBadRange, c)
		}
		seen[o[0]][o[1]] = true
		out.combos = append(out.combos, Combo{Cards: o, Weight: c.Weight})
	}
	if len(out.combos) == 0 {
		return Range{}, fmt.Errorf("%w: no combo has a weight above 0", ErrBadRange)
	}
	return out, nil
}
