// Package acpc speaks the Annual Computer Poker Competition protocol 2.0.0: game
// definition files, MATCHSTATE lines, a dealer that plays duplicate heads-up
// Hold'em matches on felt's engine with a port per seat, and a client that lets
// any felt bot play on an ACPC dealer.
package acpc

import (
	"bufio"
	"embed"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/felt-poker/felt/internal/engine"
)

// ErrGameDef is wrapped by every error about a game definition.
var ErrGameDef = errors.New("bad game definition")

// GameDef is an ACPC game definition (the GAMEDEF ... END GAMEDEF block).
type GameDef struct {
	Limit         bool // "limit"; false for "nolimit"
	NumPlayers    int
	NumRounds     int
	Stack         []int64 // per player (nolimit)
	Blind         []int64 // per player, in position order
	RaiseSize     []int64 // per round (limit)
	FirstPlayer   []int   // per round, 1-based
	MaxRaises     []int   // per round (limit)
	NumSuits      int
	NumRanks      int
	NumHoleCards  int
	NumBoardCards []int // per round
}

//go:embed testdata/*.game
var games embed.FS

// Builtin returns one of the game definitions felt ships:
// "holdem.limit.2p.reverse_blinds" or "holdem.nolimit.2p.reverse_blinds".
func Builtin(name string) (*GameDef, error) {
	f, err := games.Open("testdata/" + strings.TrimSuffix(name, ".game") + ".game")
	if err != nil {
		return nil, fmt.Errorf("%w: no built-in game %q", ErrGameDef, name)
	}
	defer f.Close()
	return ParseGameDef(f)
}

// ParseGameDef reads a game definition. Keys are case-insensitive; lines starting
// with '#' and text outside the block are ignored.
func ParseGameDef(r io.Reader) (*GameDef, error) {
	g := &GameDef{}
	sc := bufio.NewScanner(r)
	in, ended := false, false
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		low := strings.ToLower(t)
		switch {
		case low == "gamedef":
			in = true
			continue
		case low == "end gamedef":
			ended = true
		case !in:
			continue
		case low == "limit":
			g.Limit = true
			continue
		case low == "nolimit":
			g.Limit = false
			continue
		}
		if ended {
			break
		}
		key, val, ok := strings.Cut(low, "=")
		if !ok {
			return nil, fmt.Errorf("%w: line %d: %q", ErrGameDef, line, t)
		}
		nums, err := ints(strings.Fields(val))
		if err != nil || len(nums) == 0 {
			return nil, fmt.Errorf("%w: line %d: %q", ErrGameDef, line, t)
		}
		switch strings.TrimSpace(key) {
		case "numplayers":
			g.NumPlayers = int(nums[0])
		case "numrounds":
			g.NumRounds = int(nums[0])
		case "stack":
			g.Stack = nums
		case "blind":
			g.Blind = nums
		case "raisesize":
			g.RaiseSize = nums
		case "firstplayer":
			g.FirstPlayer = small(nums)
		case "maxraises":
			g.MaxRaises = small(nums)
		case "numsuits":
			g.NumSuits = int(nums[0])
		case "numranks":
			g.NumRanks = int(nums[0])
		case "numholecards":
			g.NumHoleCards = int(nums[0])
		case "numboardcards":
			g.NumBoardCards = small(nums)
		default:
			return nil, fmt.Errorf("%w: line %d: unknown key %q", ErrGameDef, line, key)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("game definition: %w", err)
	}
	if !ended {
		return nil, fmt.Errorf("%w: no END GAMEDEF", ErrGameDef)
	}
	return g, nil
}

func ints(f []string) ([]int64, error) {
	out := make([]int64, len(f))
	for i, s := range f {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		out[i] = n
	}
	return out, nil
}

func small(n []int64) []int {
	out := make([]int, len(n))
	for i, v := range n {
		out[i] = int(v)
	}
	return out
}

// limitStack is the stack each seat gets in a limit game, which has none: more than
// a hand can cost.
const limitStack = 1_000_000

// Config returns the engine configuration of one hand of g, with seat i at
// position i. felt plays the ACPC heads-up Hold'em games with reversed blinds: two
// players, four rounds of 0, 3, 1, 1 board cards, position 1 (the button) posting
// the small blind and acting first before the flop, position 0 first after it; in
// limit, maxRaises must be one less before the flop (the big blind counts as the
// bet) than on the later rounds, as felt's cap counts bets.
func (g *GameDef) Config() (engine.Config, error) {
	bad := func(why string) (engine.Config, error) {
		return engine.Config{}, fmt.Errorf("%w: felt plays heads-up reverse-blinds Hold'em only: %s", ErrGameDef, why)
	}
	switch {
	case g.NumPlayers != 2 || len(g.Blind) != 2:
		return bad("numPlayers must be 2")
	case g.NumRounds != 4 || fmt.Sprint(g.NumBoardCards) != "[0 3 1 1]" || g.NumHoleCards != 2:
		return bad("four rounds with 0 3 1 1 board cards and 2 hole cards")
	case g.NumSuits != 4 || g.NumRanks != 13:
		return bad("a 52-card deck")
	case fmt.Sprint(g.FirstPlayer) != "[2 1 1 1]":
		return bad("firstPlayer must be 2 1 1 1")
	case g.Blind[1] > g.Blind[0] || g.Blind[1] == 0:
		return bad("position 1 posts the small blind")
	}
	cfg := engine.Config{Variant: engine.Holdem, Button: 1, SmallBlind: g.Blind[1], BigBlind: g.Blind[0]}
	if g.Limit {
		if len(g.RaiseSize) != 4 || len(g.MaxRaises) != 4 || g.RaiseSize[0] != g.RaiseSize[1] || g.RaiseSize[2] != g.RaiseSize[3] ||
			g.MaxRaises[1] != g.MaxRaises[2] || g.MaxRaises[2] != g.MaxRaises[3] || g.MaxRaises[0]+1 != g.MaxRaises[1] {
			return bad("raiseSize a a b b and maxRaises n-1 n n n")
		}
		cfg.Structure, cfg.SmallBet, cfg.BigBet, cfg.RaiseCap = engine.FixedLimit, g.RaiseSize[0], g.RaiseSize[2], g.MaxRaises[1]
		cfg.Stacks = []int64{limitStack, limitStack}
	} else {
		if len(g.Stack) != 2 {
			return bad("nolimit needs a stack per player")
		}
		cfg.Structure, cfg.Stacks = engine.NoLimit, []int64{g.Stack[0], g.Stack[1]}
	}
	if err := cfg.Validate(); err != nil {
		return engine.Config{}, fmt.Errorf("%w: %w", ErrGameDef, err)
	}
	return cfg, nil
}
