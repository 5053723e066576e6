package solver

import (
	"errors"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/equity"
)

const tomlSpot = `
pot = 10
stack = 95
board = "Qs Jh 2h 8d 3c"
oop = "AA,KK,QQ,AK,JTs,T9s,98s,A5s,A4s"
ip = "QQ:0.5,JJ,TT,99,AQs,KQ,QJ,JTs,76s"
rake = 5
rake_cap = 1
accuracy = 0.5
iterations = 300

[[sizes]]
bet = [100]
raise = "50"
allin = true

[[sizes]]
player = "oop"
street = "river"
donk = 100
bet = "100"
raise = [50]
allin = true
`

const jsonSpot = `{"pot": 10, "stack": 95, "board": "QsJh2h8d3c",
 "oop": "AA,KK,QQ,AK,JTs,T9s,98s,A5s,A4s", "ip": "QQ:0.5,JJ,TT,99,AQs,KQ,QJ,JTs,76s",
 "rake": 5, "rake_cap": 1, "accuracy": 0.5, "iterations": 300,
 "sizes": [{"bet": [100], "raise": "50", "allin": true},
           {"player": "oop", "street": "river", "donk": 100, "bet": "100", "raise": [50], "allin": true}]}`

const scriptSpot = `set_pot 10
set_effective_stack 95
set_board Qs,Jh,2h,8d,3c
set_range_oop AA,KK,QQ,AK,JTs,T9s,98s,A5s,A4s
set_range_ip QQ:0.5,JJ,TT,99,AQs,KQ,QJ,JTs,76s
set_bet_sizes oop,river,bet,100
set_bet_sizes oop,river,donk,100
set_bet_sizes oop,river,raise,50
set_bet_sizes oop,river,allin
set_bet_sizes ip,river,bet,100
set_bet_sizes ip,river,raise,50
set_bet_sizes ip,river,allin
set_allin_threshold 1
set_accuracy 0.5
set_max_iteration 300
`

// TestSpotFileMatchesScript: the TOML and JSON forms of a spot give the command
// file's tree, ranges and limits, plus the rake only they can say.
func TestSpotFileMatchesScript(t *testing.T) {
	want, err := ReadScript(strings.NewReader(scriptSpot))
	if err != nil {
		t.Fatal(err)
	}
	w := mustSolver(t, want.Spot, 1)
	for name, asJSON := range map[string]bool{tomlSpot: false, jsonSpot: true} {
		got, err := ReadSpotFile(strings.NewReader(name), asJSON)
		if err != nil {
			t.Fatalf("JSON %v: %v", asJSON, err)
		}
		if got.Accuracy != 0.5 || got.MaxIterations != 300 || got.Spot.Rake != 5 || got.Spot.RakeCap != 1 {
			t.Errorf("JSON %v: limits and rake %+v", asJSON, got)
		}
		s := mustSolver(t, got.Spot, 1)
		if a, b := s.Hands(), w.Hands(); a != b {
			t.Errorf("JSON %v: hands %v, want %v", asJSON, a, b)
		}
		if len(s.nodes) != len(w.nodes) {
			t.Errorf("JSON %v: %d nodes, want %d", asJSON, len(s.nodes), len(w.nodes))
		}
		for i := range s.acts {
			if s.acts[i] != w.acts[i] {
				t.Fatalf("JSON %v: action %d is %v, want %v", asJSON, i, s.acts[i], w.acts[i])
			}
		}
	}
}

// TestRaiseMultiples: a raise of 3x the bet faced raises a bet of 10 to 30, and 2.5x a
// raise to 30 (a bet of 10) to 75; as % of the pot the same tree has other amounts.
func TestRaiseMultiples(t *testing.T) {
	sp := benchSpot("QsJh2h8d3c")
	sp.Tree = riverTree(100)
	sp.Tree.Sizes[IP][River].Raise, sp.Tree.Sizes[IP][River].RaiseX, _ = ParseSizes("3x", true)
	_, sp.Tree.Sizes[OOP][River].RaiseX, _ = ParseSizes("2.5X", true)
	s := mustSolver(t, sp, 1)
	info, err := s.Node([]string{"b10"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(info.Actions, " "); got != "f c r30" {
		t.Errorf("facing a bet of 10: %s, want f c r30", got)
	}
	info, err = s.Node([]string{"b10", "r30"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(info.Actions, " "); got != "f c r75" {
		t.Errorf("facing a raise to 30: %s, want f c r75", got)
	}
	if _, _, err := ParseSizes("50,3x", false); err == nil {
		t.Error("a bet of 3x was taken")
	}
	sp.Tree.Sizes[IP][River].RaiseX = []float64{0.5}
	if _, err := New(sp, Options{}); !errors.Is(err, ErrBadSpot) {
		t.Errorf("a raise of 0.5x: %v, want ErrBadSpot", err)
	}
}

// TestSpotFileWeights: a range can be a list of 1,326 weights.
func TestSpotFileWeights(t *testing.T) {
	w := make([]string, equity.NumCombos)
	for i := range w {
		w[i] = "0"
	}
	want := equity.MustParseRange("AA,KQs:0.5")
	for _, c := range want.Combos() {
		w[equity.ComboIndex(c.Cards[0], c.Cards[1])] = map[bool]string{true: "1", false: "0.5"}[c.Weight == 1]
	}
	text := strings.Replace(tomlSpot, `oop = "AA,KK,QQ,AK,JTs,T9s,98s,A5s,A4s"`, "oop = ["+strings.Join(w, ",")+"]", 1)
	sc, err := ReadSpotFile(strings.NewReader(text), false)
	if err != nil {
		t.Fatal(err)
	}
	got := sc.Spot.Range[OOP].Combos()
	if len(got) != want.Len() {
		t.Fatalf("%d combos, want %d", len(got), want.Len())
	}
	for i := range got {
		if got[i] != want.Combos()[i] {
			t.Errorf("combo %d: %v, want %v", i, got[i], want.Combos()[i])
		}
	}
}

func TestSpotFileErrors(t *testing.T) {
	cases := map[string]struct {
		old, new string
		want     string
	}{
		"unknown key":    {"rake = 5", "rak = 5", `unknown key "rak"`},
		"no pot":         {"pot = 10", "", "pot is missing"},
		"no stack":       {"stack = 95", "", "stack is missing"},
		"bad board":      {`"Qs Jh 2h 8d 3c"`, `"Qs Qs 2h"`, "board"},
		"bad range":      {`"AA,KK,QQ,AK,JTs,T9s,98s,A5s,A4s"`, `"AA,KX"`, "oop"},
		"range type":     {`"AA,KK,QQ,AK,JTs,T9s,98s,A5s,A4s"`, `true`, "oop: want a range"},
		"short weights":  {`"AA,KK,QQ,AK,JTs,T9s,98s,A5s,A4s"`, `[1, 0.5]`, "2 weights"},
		"bet multiple":   {"bet = [100]", `bet = "3x"`, "multiples of the bet are for raises"},
		"bad size":       {"bet = [100]", `bet = "big"`, "not a number"},
		"nested sizes":   {"bet = [100]", `bet = [[100]]`, "sizes 1: bet"},
		"bad player":     {`player = "oop"`, `player = "hero"`, `player "hero"`},
		"bad street":     {`street = "river"`, `street = "preflop"`, `street "preflop"`},
		"negative pot":   {"pot = 10", "pot = -10", "the pot must be a positive number"},
		"rake over 100":  {"rake = 5", "rake = 500", "the rake must be from 0 to 100"},
		"small multiple": {`raise = [50]`, `raise = "0.9x"`, "above 1"},
		"not TOML":       {"pot = 10", "pot = = 10", "TOML"},
	}
	for name, c := range cases {
		text := strings.Replace(tomlSpot, c.old, c.new, 1)
		if text == tomlSpot {
			t.Fatalf("%s: %q is not in the spot", name, c.old)
		}
		_, err := ReadSpotFile(strings.NewReader(text), false)
		if !errors.Is(err, ErrBadSpotFile) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrBadSpotFile mentioning %q", name, err, c.want)
		}
	}
	for name, text := range map[string]string{
		"unknown field": `{"pot": 10, "stack": 95, "board": "QsJh2h", "oop": "AA", "ip": "KK", "bets": [1]}`,
		"two values":    `{"pot": 10, "stack": 95, "board": "QsJh2h", "oop": "AA", "ip": "KK"} {}`,
		"not JSON":      `pot = 10`,
		"string pot":    `{"pot": "10", "stack": 95, "board": "QsJh2h", "oop": "AA", "ip": "KK"}`,
	} {
		if _, err := ReadSpotFile(strings.NewReader(text), true); !errors.Is(err, ErrBadSpotFile) {
			t.Errorf("%s: %v, want ErrBadSpotFile", name, err)
		}
	}
}

// FuzzReadSpotFile: no input makes the reader panic, and whatever it accepts is a
// spot New takes.
func FuzzReadSpotFile(f *testing.F) {
	f.Add([]byte(tomlSpot), false)
	f.Add([]byte(jsonSpot), true)
	f.Add([]byte(`pot = 1e308`+"\nstack = 0\nboard = \"AsKsQs\"\noop = [1]\nip = \"random\""), false)
	f.Fuzz(func(t *testing.T, data []byte, asJSON bool) {
		sc, err := ReadSpotFile(strings.NewReader(string(data)), asJSON)
		if err != nil {
			if !errors.Is(err, ErrBadSpotFile) {
				t.Fatalf("error %v does not wrap ErrBadSpotFile", err)
			}
			return
		}
		if err := sc.Spot.Validate(); err != nil {
			t.Fatalf("accepted a spot New refuses: %v", err)
		}
	})
}

// FuzzReadScript: no command file makes the reader panic; its errors wrap
// ErrBadScript.
func FuzzReadScript(f *testing.F) {
	f.Add([]byte(scriptSpot))
	f.Add([]byte("set_bet_sizes oop,flop,raise,50,3x\nset_raise_limit x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := ReadScript(strings.NewReader(string(data))); err != nil && !errors.Is(err, ErrBadScript) {
			t.Fatalf("error %v does not wrap ErrBadScript", err)
		}
	})
}
