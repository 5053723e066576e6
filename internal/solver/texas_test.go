package solver

import (
	"errors"
	"strings"
	"testing"
)

const riverScript = `set_pot 10
set_effective_stack 95
set_board Qs,Jh,2h,8d,3c
set_range_oop ` + benchOOP + `
set_range_ip ` + benchIP + `
set_bet_sizes oop,river,bet,100
set_bet_sizes oop,river,donk,100
set_bet_sizes oop,river,raise,50
set_bet_sizes oop,river,allin
set_bet_sizes ip,river,bet,100
set_bet_sizes ip,river,raise,50
set_bet_sizes ip,river,allin
set_allin_threshold 1.0
build_tree
set_thread_num 2
set_accuracy 0.3
set_max_iteration 200
set_print_interval 10
set_use_isomorphism 1
start_solve
set_dump_rounds 1
dump_result output_result.json
`

func TestReadScript(t *testing.T) {
	sc, err := ReadScript(strings.NewReader(riverScript))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Spot.Pot != 10 || sc.Spot.Stack != 95 || len(sc.Spot.Board) != 5 || sc.Accuracy != 0.3 ||
		sc.MaxIterations != 200 || sc.Threads != 2 || sc.Dump != "output_result.json" || sc.Spot.Tree.AllInThreshold != 1 {
		t.Fatalf("read %+v", sc)
	}
	if z := sc.Spot.Tree.Sizes[IP][River]; len(z.Bet) != 1 || z.Bet[0] != 100 || z.Raise[0] != 50 || !z.AllIn {
		t.Fatalf("IP river sizes %+v", z)
	}
	s, err := New(sc.Spot, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	root, _ := s.Node(nil)
	if got := strings.Join(root.Actions, " "); got != "x b10 b95" {
		t.Errorf("root actions %q, want x b10 b95", got)
	}
	raise, _ := s.Node([]string{"b10"})
	if got := strings.Join(raise.Actions, " "); got != "f c r25 r95" {
		t.Errorf("facing a pot bet: %q, want f c r25 r95 (a raise of half the pot after calling is to 25)", got)
	}
}

func TestReadScriptErrors(t *testing.T) {
	for _, c := range []struct{ edit, want string }{
		{"set_pot 10\nset_pott 10", `line 24 "set_pott": unknown command`},
		{"set_pot ten", `"ten" is not a number`},
		{"set_range_oop AA,KX", "bad range"},
		{"set_bet_sizes mid,river,bet,50", `player "mid"`},
		{"set_bet_sizes oop,preflop,bet,50", `street "preflop"`},
		{"set_bet_sizes oop,river,shove", `kind "shove"`},
		{"set_board Qs,Qs,2h", "given twice"},
	} {
		_, err := ReadScript(strings.NewReader(riverScript + c.edit + "\n"))
		if !errors.Is(err, ErrBadScript) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want ErrBadScript mentioning %s", c.edit, err, c.want)
		}
	}
	if _, err := ReadScript(strings.NewReader("set_pot 10\n")); err == nil || !strings.Contains(err.Error(), "set_effective_stack is missing") {
		t.Errorf("a file without a stack: err = %v", err)
	}
}
