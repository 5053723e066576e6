// Package history writes and reads hand histories: PHH, the Poker Hand History
// standard that PokerKit reads and writes (with felt's extension for pot-limit Hold'em
// and three card stud, docs/phh.md), and PokerStars-style text for hand trackers.
// Every history converts to an engine configuration and actions and back.
package history

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Sentinel errors; every error of this package wraps one of them.
var (
	// ErrFormat: the text is not a well-formed PHH file.
	ErrFormat = errors.New("bad hand history")
	// ErrUnsupported: a valid PHH hand that felt cannot play (another variant,
	// straddles, unequal antes, ...).
	ErrUnsupported = errors.New("unsupported hand history")
	// ErrMismatch: replaying the hand through the engine disagrees with the file (an
	// illegal action, a card other than the one dealt, other finishing stacks).
	ErrMismatch = errors.New("hand history does not replay")
)

// Variant codes written in the variant field. NT and FT are PHH's own; Stud3 is
// felt's extension (a leading underscore marks every felt-only name).
const (
	VariantNT    = "NT"   // no-limit Texas Hold'em (and, with _betting, pot-limit)
	VariantFT    = "FT"   // fixed-limit Texas Hold'em
	VariantStud3 = "_3CS" // three card stud, the Casino Day game (felt extension)
)

// BettingPotLimit is the _betting value of a pot-limit Hold'em hand written as NT.
const BettingPotLimit = "pot-limit"

// PHH is one hand in the Poker Hand History format. Fields follow the standard's
// names; arrays that describe players are in PHH player order: p1 is the first seat
// left of the button (the small blind, or heads-up the big blind) and the last
// player holds the button. Fields whose TOML name starts with "_" are felt's
// extension (docs/phh.md); other PHH readers keep them as user-defined fields.
type PHH struct {
	Variant           string   `toml:"variant"`
	Antes             []int64  `toml:"antes"`
	BlindsOrStraddles []int64  `toml:"blinds_or_straddles,omitempty"`
	BringIn           int64    `toml:"bring_in,omitzero"`
	SmallBet          int64    `toml:"small_bet,omitzero"`
	BigBet            int64    `toml:"big_bet,omitzero"`
	MinBet            int64    `toml:"min_bet,omitzero"`
	StartingStacks    []int64  `toml:"starting_stacks"`
	Actions           []string `toml:"actions"`

	// Hand and Table are a number (int64) or a name (string), or nil.
	Hand            any      `toml:"hand,omitempty"`
	Table           any      `toml:"table,omitempty"`
	Seats           []int    `toml:"seats,omitempty"`
	SeatCount       int      `toml:"seat_count,omitzero"`
	Players         []string `toml:"players,omitempty"`
	FinishingStacks []int64  `toml:"finishing_stacks,omitempty"`
	Winnings        []int64  `toml:"winnings,omitempty"`

	// Betting is "pot-limit" for pot-limit Hold'em written as NT ("" or "no-limit"
	// otherwise).
	Betting string `toml:"_betting,omitempty"`
	// RaiseCap is felt's fixed-limit cap when it is not the default (engine.Config).
	RaiseCap int `toml:"_raise_cap,omitzero"`
	// MaxRaise is the most a three card stud bet or raise adds over the call.
	MaxRaise int64 `toml:"_max_raise,omitzero"`
	// Button is the button's seat number (as in Seats) when the button is not the
	// last player's seat (three card stud, where the button may hold no chips).
	Button int `toml:"_button,omitzero"`
	// Seed is the 64-hex-digit deck seed (cards.Seed): with it felt deals the same
	// cards, burns and undealt cards included.
	Seed string `toml:"_seed,omitempty"`
	// SecondBoard is the second run's whole board ("9h7s2d4c4d") of a hand whose
	// board was run twice (engine.Config.RunTwice): the cards the betting closed
	// on and the second run's. The actions deal the first run; winnings and
	// finishing_stacks are the outcome of both (docs/phh.md, "Run it twice").
	SecondBoard string `toml:"_second_board,omitempty"`
	// Burns lists the burned cards in order, as PHH writes cards ("2c8h??"),
	// the second run's last.
	Burns string `toml:"_burns,omitempty"`
	// HandKey names the hand in the house that dealt it (its table's reference and
	// the hand's number); SeedSHA256 is the commitment published before the deal,
	// SeedCommitment(HandKey, seed) (docs/phh.md, "Provably fair deals").
	HandKey    string `toml:"_hand_key,omitempty"`
	SeedSHA256 string `toml:"_seed_sha256,omitempty"`
}

// Parse reads one hand from a .phh file.
func Parse(data []byte) (*PHH, error) {
	var p PHH
	if _, err := toml.Decode(string(data), &p); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return &p, nil
}

// ParseAll reads every hand of a file: a .phhs file (PokerKit's HandHistory.dump_all:
// one TOML table per hand, named "1", "2", ... and read in numeric order) or a
// single-hand .phh file.
func ParseAll(data []byte) ([]*PHH, error) {
	var top map[string]toml.Primitive
	md, err := toml.Decode(string(data), &top)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if _, single := top["variant"]; single {
		p, err := Parse(data)
		if err != nil {
			return nil, err
		}
		return []*PHH{p}, nil
	}
	type entry struct {
		n   int64
		key string
	}
	keys := make([]entry, 0, len(top))
	for k := range top {
		n, err := strconv.ParseInt(k, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: key %q is neither a PHH field nor a hand number", ErrFormat, k)
		}
		keys = append(keys, entry{n, k})
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].n < keys[j].n })
	hands := make([]*PHH, 0, len(keys))
	for _, e := range keys {
		var p PHH
		if err := md.PrimitiveDecode(top[e.key], &p); err != nil {
			return nil, fmt.Errorf("%w: hand [%s]: %v", ErrFormat, e.key, err)
		}
		if err := p.check(); err != nil {
			return nil, fmt.Errorf("hand [%s]: %w", e.key, err)
		}
		hands = append(hands, &p)
	}
	return hands, nil
}

// check verifies what TOML types cannot: the fields present and their lengths.
func (p *PHH) check() error {
	if p.Variant == "" {
		return fmt.Errorf("%w: no variant", ErrFormat)
	}
	n := len(p.StartingStacks)
	if n == 0 {
		return fmt.Errorf("%w: no starting_stacks", ErrFormat)
	}
	for _, f := range []struct {
		name string
		len  int
	}{{"antes", len(p.Antes)}, {"blinds_or_straddles", len(p.BlindsOrStraddles)}, {"seats", len(p.Seats)},
		{"players", len(p.Players)}, {"finishing_stacks", len(p.FinishingStacks)}, {"winnings", len(p.Winnings)}} {
		if f.len != 0 && f.len != n {
			return fmt.Errorf("%w: %s has %d entries for %d players", ErrFormat, f.name, f.len, n)
		}
	}
	for _, v := range []struct {
		name string
		v    any
	}{{"hand", p.Hand}, {"table", p.Table}} {
		switch v.v.(type) {
		case nil, int64, string:
		default:
			return fmt.Errorf("%w: %s must be a number or a string", ErrFormat, v.name)
		}
	}
	return nil
}

// Marshal writes the hand as a .phh file.
func (p *PHH) Marshal() ([]byte, error) {
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(p); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	return b.Bytes(), nil
}

// MarshalAll writes hands as a .phhs file, as PokerKit's HandHistory.dump_all does:
// each hand under a table header [1], [2], ...
func MarshalAll(hands []*PHH) ([]byte, error) {
	var b bytes.Buffer
	w := NewWriter(&b)
	for _, p := range hands {
		if err := w.Write(p); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

// Writer streams hands to a .phhs file, numbering them [1], [2], ... as MarshalAll
// does, without holding them all in memory.
type Writer struct {
	w io.Writer
	n int
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write appends one hand.
func (w *Writer) Write(p *PHH) error {
	body, err := p.Marshal()
	if err != nil {
		return fmt.Errorf("hand %d: %w", w.n+1, err)
	}
	sep := ""
	if w.n > 0 {
		sep = "\n"
	}
	w.n++
	if _, err := fmt.Fprintf(w.w, "%s[%d]\n%s", sep, w.n, body); err != nil {
		return err
	}
	return nil
}

// label returns Hand or Table as text ("" when absent).
func label(v any) string {
	switch x := v.(type) {
	case int64:
		return strconv.FormatInt(x, 10)
	case string:
		return x
	}
	return ""
}

// action is one parsed entry of the actions field.
type action struct {
	text    string // as written
	actor   int    // 0-based player, or -1 for the dealer and no-ops
	verb    string // "db", "dh", "f", "cc", "cbr", "sm", "sd", "pb"; "" for a no-op
	cards   string // the card argument of db, dh and sm ("-" for sm as dealt)
	amount  int64  // cbr
	comment string // after "#", trimmed
}

// parseAction reads one action notation for a hand of n players.
func parseAction(s string, n int) (action, error) {
	a := action{text: s, actor: -1}
	body := s
	if k := strings.IndexByte(s, '#'); k >= 0 {
		body, a.comment = s[:k], strings.TrimSpace(s[k+1:])
	}
	w := strings.Fields(body)
	bad := func(why string) (action, error) {
		return a, fmt.Errorf("%w: action %q: %s", ErrFormat, s, why)
	}
	if len(w) == 0 {
		return a, nil
	}
	player := func(t string) (int, bool) {
		if len(t) < 2 || t[0] != 'p' {
			return 0, false
		}
		k, err := strconv.Atoi(t[1:])
		if err != nil || k < 1 || k > n {
			return 0, false
		}
		return k - 1, true
	}
	if w[0] == "d" {
		switch {
		case len(w) == 3 && w[1] == "db":
			a.verb, a.cards = "db", w[2]
		case len(w) == 4 && w[1] == "dh":
			k, ok := player(w[2])
			if !ok {
				return bad("no such player")
			}
			a.verb, a.actor, a.cards = "dh", k, w[3]
		default:
			return bad("the dealer deals with \"d db CARDS\" or \"d dh pN CARDS\"")
		}
		return a, nil
	}
	k, ok := player(w[0])
	if !ok {
		return bad("the actor is \"d\" or a player p1..p" + strconv.Itoa(n))
	}
	a.actor = k
	if len(w) < 2 {
		return bad("no action")
	}
	a.verb = w[1]
	switch {
	case len(w) == 2 && (a.verb == "f" || a.verb == "cc" || a.verb == "sm" || a.verb == "pb" || a.verb == "sd"):
	case len(w) == 3 && (a.verb == "sm" || a.verb == "sd"):
		a.cards = w[2]
	case len(w) == 3 && a.verb == "cbr":
		v, err := strconv.ParseInt(w[2], 10, 64)
		if err != nil || v <= 0 {
			return bad("felt plays whole chips: the amount must be a positive integer")
		}
		a.amount = v
	default:
		return bad("unknown action")
	}
	return a, nil
}
