package solver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
)

// SpotFile is felt's own spot format, read from TOML or JSON with the same keys:
//
//	pot = 10
//	stack = 95
//	board = "Qs Jh 2h"
//	oop = "AA,KK,QQ:0.5,AKs"       # a range, or a list of 1,326 weights
//	ip = "QQ-22,AJs+,KQ"
//	rake = 5                       # % of the pot; rake_cap = 3 (chips)
//	allin_threshold = 0.67         # default 1 (off); raise_cap = 4
//	accuracy = 0.3                 # iterations = 500; threads = 2; isomorphism = true
//
//	[[sizes]]                      # applied in order, later ones override
//	player = "both"                # oop, ip or both (the default)
//	street = "all"                 # flop, turn, river or all (the default)
//	bet = "33, 75"                 # or [33, 75]
//	raise = "50, 3x"               # % of the pot after calling, or multiples of the bet
//	donk = "25"
//	allin = true
type SpotFile struct {
	Pot            *float64   `toml:"pot" json:"pot"`
	Stack          *float64   `toml:"stack" json:"stack"`
	Board          string     `toml:"board" json:"board"`
	OOP            any        `toml:"oop" json:"oop"`
	IP             any        `toml:"ip" json:"ip"`
	Rake           float64    `toml:"rake" json:"rake"`
	RakeCap        float64    `toml:"rake_cap" json:"rake_cap"`
	AllInThreshold *float64   `toml:"allin_threshold" json:"allin_threshold"`
	RaiseCap       *int       `toml:"raise_cap" json:"raise_cap"`
	Accuracy       float64    `toml:"accuracy" json:"accuracy"`
	Iterations     int        `toml:"iterations" json:"iterations"`
	Threads        int        `toml:"threads" json:"threads"`
	Isomorphism    *bool      `toml:"isomorphism" json:"isomorphism"`
	Sizes          []SizeRule `toml:"sizes" json:"sizes"`
}

// SizeRule sets the sizes of one player (or both) on one street (or all).
type SizeRule struct {
	Player string `toml:"player" json:"player"`
	Street string `toml:"street" json:"street"`
	Bet    any    `toml:"bet" json:"bet"`
	Raise  any    `toml:"raise" json:"raise"`
	Donk   any    `toml:"donk" json:"donk"`
	AllIn  bool   `toml:"allin" json:"allin"`
}

// ErrBadSpotFile is wrapped by every error reading a spot file.
var ErrBadSpotFile = errors.New("bad spot file")

// maxSpotFile bounds what ReadSpotFile reads.
const maxSpotFile = 1 << 20

// ReadSpotFile reads a spot in felt's TOML form (asJSON false) or JSON form. Unknown
// keys, missing ones (pot, stack, board, oop, ip) and bad values are errors naming
// them; the spot is checked as New would.
func ReadSpotFile(r io.Reader, asJSON bool) (Script, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxSpotFile+1))
	if err != nil {
		return Script{}, fmt.Errorf("%w: %v", ErrBadSpotFile, err)
	}
	if len(data) > maxSpotFile {
		return Script{}, fmt.Errorf("%w: over %d bytes", ErrBadSpotFile, maxSpotFile)
	}
	var f SpotFile
	if asJSON {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			return Script{}, fmt.Errorf("%w: JSON: %v", ErrBadSpotFile, err)
		}
		if dec.More() {
			return Script{}, fmt.Errorf("%w: JSON: more than one value", ErrBadSpotFile)
		}
	} else {
		md, err := toml.Decode(string(data), &f)
		if err != nil {
			return Script{}, fmt.Errorf("%w: TOML: %v", ErrBadSpotFile, err)
		}
		if keys := md.Undecoded(); len(keys) > 0 {
			return Script{}, fmt.Errorf("%w: unknown key %q", ErrBadSpotFile, keys[0].String())
		}
	}
	sc, err := f.Script()
	if err != nil {
		return Script{}, fmt.Errorf("%w: %v", ErrBadSpotFile, err)
	}
	return sc, nil
}

// Script turns the file's fields into a spot and limits, checked.
func (f *SpotFile) Script() (Script, error) {
	switch {
	case f.Pot == nil:
		return Script{}, errors.New("pot is missing")
	case f.Stack == nil:
		return Script{}, errors.New("stack is missing")
	case f.Board == "":
		return Script{}, errors.New("board is missing")
	case f.Accuracy < 0 || f.Iterations < 0 || f.Threads < 0:
		return Script{}, errors.New("accuracy, iterations and threads cannot be negative")
	}
	sc := Script{Accuracy: f.Accuracy, MaxIterations: f.Iterations, Threads: f.Threads,
		Spot: Spot{Pot: *f.Pot, Stack: *f.Stack, Rake: f.Rake, RakeCap: f.RakeCap, Tree: Tree{AllInThreshold: 1, RaiseCap: 4}}}
	sc.NoIsomorphism = f.Isomorphism != nil && !*f.Isomorphism
	if f.AllInThreshold != nil {
		sc.Spot.Tree.AllInThreshold = *f.AllInThreshold
	}
	if f.RaiseCap != nil {
		sc.Spot.Tree.RaiseCap = *f.RaiseCap
	}
	var err error
	if sc.Spot.Board, err = cards.ParseList(f.Board); err != nil {
		return Script{}, fmt.Errorf("board: %v", err)
	}
	for p, v := range [2]any{f.OOP, f.IP} {
		name := [2]string{"oop", "ip"}[p]
		if sc.Spot.Range[p], err = readRange(v); err != nil {
			return Script{}, fmt.Errorf("%s: %v", name, err)
		}
	}
	for i, rule := range f.Sizes {
		if err := rule.apply(&sc.Spot.Tree); err != nil {
			return Script{}, fmt.Errorf("sizes %d: %v", i+1, err)
		}
	}
	if err := sc.Spot.Validate(); err != nil {
		return Script{}, err
	}
	return sc, nil
}

// readRange reads a range string or a list of 1,326 weights.
func readRange(v any) (equity.Range, error) {
	switch v := v.(type) {
	case nil:
		return equity.Range{}, errors.New("missing")
	case string:
		return equity.ParseRange(v)
	case []any:
		w := make([]float64, len(v))
		for i, x := range v {
			n, ok := number64(x)
			if !ok {
				return equity.Range{}, fmt.Errorf("weight %d is %v, not a number", i+1, x)
			}
			w[i] = n
		}
		return equity.RangeFromWeights(w)
	}
	return equity.Range{}, fmt.Errorf("want a range (\"AA,KQs\") or a list of %d weights, not %T", equity.NumCombos, v)
}

// number64 reads the numbers TOML and JSON decode into an any.
func number64(x any) (float64, bool) {
	switch x := x.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	}
	return 0, false
}

// sizeText turns "33, 75", [33, 75] or ["50", "3x"] into the text ParseSizes reads.
func sizeText(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	case float64, int64:
		n, _ := number64(v)
		return strconv.FormatFloat(n, 'g', -1, 64), nil
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			s, err := sizeText(x)
			if err != nil {
				return "", err
			}
			if _, nested := x.([]any); nested {
				return "", errors.New("a list of sizes inside a list")
			}
			parts[i] = s
		}
		return strings.Join(parts, ","), nil
	}
	return "", fmt.Errorf("want sizes as \"33, 75\" or [33, 75], not %T", v)
}

// apply sets the rule's sizes on the players and streets it names.
func (r SizeRule) apply(t *Tree) error {
	players := []int{OOP, IP}
	switch r.Player {
	case "", "both":
	case "oop":
		players = []int{OOP}
	case "ip":
		players = []int{IP}
	default:
		return fmt.Errorf("player %q: want oop, ip or both", r.Player)
	}
	streets := []Street{Flop, Turn, River}
	if r.Street != "" && r.Street != "all" {
		st, err := ParseStreet(r.Street)
		if err != nil {
			return fmt.Errorf("street %q: want flop, turn, river or all", r.Street)
		}
		streets = []Street{st}
	}
	var z Sizes
	for _, k := range []struct {
		name      string
		v         any
		pct, mult *[]float64
		raise     bool
	}{{"bet", r.Bet, &z.Bet, nil, false}, {"raise", r.Raise, &z.Raise, &z.RaiseX, true}, {"donk", r.Donk, &z.Donk, nil, false}} {
		text, err := sizeText(k.v)
		if err != nil {
			return fmt.Errorf("%s: %v", k.name, err)
		}
		pct, mult, err := ParseSizes(text, k.raise)
		if err != nil {
			return fmt.Errorf("%s: %v", k.name, err)
		}
		*k.pct = pct
		if k.mult != nil {
			*k.mult = mult
		}
	}
	z.AllIn = r.AllIn
	for _, p := range players {
		for _, st := range streets {
			t.Sizes[p][st] = z
		}
	}
	return nil
}
