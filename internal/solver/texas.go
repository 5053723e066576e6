package solver

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
)

// ErrBadScript is wrapped by every error reading a command file.
var ErrBadScript = errors.New("bad command file")

// Script is what a TexasSolver command file asks for.
type Script struct {
	Spot          Spot
	Accuracy      float64 // set_accuracy: target exploitability, % of the pot
	MaxIterations int     // set_max_iteration
	Threads       int     // set_thread_num
	Dump          string  // dump_result: the file to write the result to
	NoIsomorphism bool    // set_use_isomorphism 0
}

// DefaultTree is the tree a command file starts from: no sizes, TexasSolver's all-in
// threshold (0.67) and raise limit (4 bets and raises a street).
func DefaultTree() Tree { return Tree{AllInThreshold: 0.67, RaiseCap: 4} }

// ReadScript reads TexasSolver's command file format, one command a line:
//
//	set_pot 10                      set_effective_stack 95
//	set_board Qs,Jh,2h              set_range_oop AA,KK:0.5,AKs   set_range_ip ...
//	set_bet_sizes oop,turn,bet,50,100   (kinds: bet, raise, donk, allin)
//	set_allin_threshold 0.67        set_raise_limit 4   set_accuracy 0.3
//	set_max_iteration 200           set_thread_num 2    dump_result out.json
//
// set_use_isomorphism 0 turns suit isomorphism off. build_tree, start_solve,
// set_print_interval and set_dump_rounds are accepted and have nothing to set; blank lines and lines starting
// with # are skipped. Any other command is an error naming its line.
func ReadScript(r io.Reader) (Script, error) {
	sc := Script{Spot: Spot{Tree: DefaultTree()}}
	lines := bufio.NewScanner(r)
	lines.Buffer(make([]byte, 64<<10), 1<<20)
	seen := map[string]bool{}
	for no := 1; lines.Scan(); no++ {
		line := strings.TrimSpace(lines.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cmd, arg, _ := strings.Cut(line, " ")
		arg = strings.TrimSpace(arg)
		if err := sc.apply(cmd, arg); err != nil {
			return Script{}, fmt.Errorf("%w: line %d %q: %v", ErrBadScript, no, cmd, err)
		}
		seen[cmd] = true
	}
	if err := lines.Err(); err != nil {
		return Script{}, fmt.Errorf("%w: %v", ErrBadScript, err)
	}
	for _, need := range []string{"set_pot", "set_effective_stack", "set_board", "set_range_oop", "set_range_ip"} {
		if !seen[need] {
			return Script{}, fmt.Errorf("%w: %s is missing", ErrBadScript, need)
		}
	}
	return sc, nil
}

// apply carries out one command.
func (sc *Script) apply(cmd, arg string) error {
	var err error
	switch cmd {
	case "set_pot":
		sc.Spot.Pot, err = number(arg)
	case "set_effective_stack":
		sc.Spot.Stack, err = number(arg)
	case "set_board":
		sc.Spot.Board, err = cards.ParseList(strings.ReplaceAll(arg, ",", ""))
	case "set_range_oop":
		sc.Spot.Range[OOP], err = equity.ParseRange(arg)
	case "set_range_ip":
		sc.Spot.Range[IP], err = equity.ParseRange(arg)
	case "set_bet_sizes":
		err = sc.Spot.Tree.SetSizes(arg)
	case "set_allin_threshold":
		sc.Spot.Tree.AllInThreshold, err = number(arg)
	case "set_raise_limit":
		sc.Spot.Tree.RaiseCap, err = strconv.Atoi(arg)
	case "set_accuracy":
		sc.Accuracy, err = number(arg)
	case "set_max_iteration":
		sc.MaxIterations, err = strconv.Atoi(arg)
	case "set_thread_num":
		sc.Threads, err = strconv.Atoi(arg)
	case "dump_result":
		sc.Dump = arg
	case "set_use_isomorphism":
		var on int
		on, err = strconv.Atoi(arg)
		sc.NoIsomorphism = on == 0
	case "build_tree", "start_solve", "set_print_interval", "set_dump_rounds":
	default:
		return errors.New("unknown command")
	}
	return err
}

func number(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return v, nil
}

// SetSizes reads "oop,turn,bet,50,100": a player, a street, a kind (bet, raise, donk or
// allin) and, but for allin, the sizes in % of the pot (none clears them); raises may
// also be multiples of the bet faced ("oop,flop,raise,50,3x", a felt extension).
func (t *Tree) SetSizes(arg string) error {
	f := strings.Split(strings.ReplaceAll(arg, " ", ""), ",")
	if len(f) < 3 {
		return errors.New("want player,street,kind[,sizes...]")
	}
	var p int
	switch f[0] {
	case "oop":
	case "ip":
		p = IP
	default:
		return fmt.Errorf("player %q: want oop or ip", f[0])
	}
	st, err := ParseStreet(f[1])
	if err != nil {
		return err
	}
	z := &t.Sizes[p][st]
	list := strings.Join(f[3:], ",")
	switch f[2] {
	case "allin":
		z.AllIn = true
	case "bet":
		z.Bet, _, err = ParseSizes(list, false)
	case "raise":
		z.Raise, z.RaiseX, err = ParseSizes(list, true)
	case "donk":
		z.Donk, _, err = ParseSizes(list, false)
	default:
		return fmt.Errorf("kind %q: want bet, raise, donk or allin", f[2])
	}
	return err
}
