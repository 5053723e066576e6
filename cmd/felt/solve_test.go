package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var riverArgs = []string{"--pot", "10", "--stack", "95", "--board", "QsJh2h8d3c", "--oop", "AA,KK,QQ,AK,JTs,T9s,98s,A5s,A4s",
	"--ip", "QQ:0.5,JJ,TT,99,AQs,KQ,QJ,JTs,76s", "--no-progress", "--no-color"}

func TestSolveCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	args := append(append([]string{}, riverArgs...), "--accuracy", "0.3", "--node", "b10", "--hands", "--json", "-", "--json-depth", "1")
	if err := runSolve(context.Background(), args, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"tree:", "memory about", "solved:", "node b10: decision on the river", "IP to act", "f c r25 r95", "JTs"} {
		if !strings.Contains(text, want) && !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	js := text[strings.Index(text, "\n{")+1:]
	var node struct {
		Kind     string
		Actions  []string
		Hands    []struct{ Strategy []float64 }
		Children map[string]json.RawMessage
	}
	if err := json.Unmarshal([]byte(js), &node); err != nil {
		t.Fatalf("JSON: %v\n%s", err, js)
	}
	if node.Kind != "decision" || len(node.Actions) != 4 || len(node.Hands) == 0 || node.Children["r25"] == nil {
		t.Errorf("JSON node %+v", node)
	}
}

func TestSolveScriptFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "river.txt")
	dump := filepath.Join(dir, "out.json")
	script := "set_pot 10\nset_effective_stack 95\nset_board Qs,Jh,2h,8d,3c\nset_range_oop AA,KK,AK,JTs,A5s\nset_range_ip QQ,JJ,KQ,T9s\n" +
		"set_bet_sizes oop,river,bet,50\nset_bet_sizes ip,river,bet,50\nset_bet_sizes ip,river,raise,60\nbuild_tree\nset_accuracy 0.5\nstart_solve\ndump_result " + dump + "\n"
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := runSolve(context.Background(), []string{file, "--no-progress", "--node", "x"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "node x: decision on the river") || !strings.Contains(out.String(), "b5 ") {
		t.Errorf("IP after a check should have check and a 5-chip bet:\n%s", out.String())
	}
	if b, err := os.ReadFile(dump); err != nil || !json.Valid(b) {
		t.Errorf("dump_result: %v, valid JSON %v", err, json.Valid(b))
	}
}

func TestSolveBadInput(t *testing.T) {
	dir := t.TempDir()
	unknown := filepath.Join(dir, "bad.txt")
	os.WriteFile(unknown, []byte("set_pot 10\nset_effective_stack 95\nset_board Qs,Jh,2h,8d\nset_range_oop AA\nset_range_ip KK\nsolve_now\n"), 0o644)
	negative := filepath.Join(dir, "negative.txt")
	os.WriteFile(negative, []byte("set_pot -10\nset_effective_stack 95\nset_board Qs,Jh,2h,8d\nset_range_oop AA\nset_range_ip KK\n"), 0o644)
	with := func(flag, value string) []string {
		args := append([]string{}, riverArgs...)
		for i := range args {
			if args[i] == flag {
				args[i+1] = value
			}
		}
		return args
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{with("--oop", "AA,KX"), "--oop: bad range"},
		{with("--board", "QsJh2hQs3c"), "--board"},
		{append(append([]string{}, riverArgs...), "--pot=-10"), "the pot must be a positive number"},
		{[]string{negative}, "the pot must be a positive number"},
		{with("--board", "QsJh2h8d3c9c"), "the board has 6 cards"},
		{[]string{unknown}, `line 6 "solve_now": unknown command`},
		{append(with("--node", "x"), "--node", "b10 b10"), "--node"},
		{append(append([]string{}, riverArgs...), "--sizes", "oop,river,jam"), `kind "jam"`},
		{append(append([]string{}, riverArgs...), "--rake", "150"), "the rake must be from 0 to 100"},
		{append(append([]string{}, riverArgs...), "--rake-cap=-1"), "the rake cap must be"},
	} {
		var out bytes.Buffer
		err := runSolve(context.Background(), c.args, &out, &out)
		var e *exitError
		if !errors.As(err, &e) || e.code != 2 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want exit code 2 mentioning %q", c.args, err, c.want)
		}
	}
}

// TestSolveSpotFiles: felt's TOML and JSON spot files run by their extension, a range
// flag reads 1,326 weights from @file, and raises may be multiples of the bet.
func TestSolveSpotFiles(t *testing.T) {
	dir := t.TempDir()
	toml := filepath.Join(dir, "river.toml")
	os.WriteFile(toml, []byte("pot = 10\nstack = 95\nboard = \"QsJh2h8d3c\"\noop = \"AA,KK,AK,JTs\"\nip = \"QQ,JJ,KQ\"\nrake = 5\niterations = 50\n"+
		"[[sizes]]\nbet = [50]\nraise = \"3x\"\n"), 0o644)
	js := filepath.Join(dir, "river.json")
	os.WriteFile(js, []byte(`{"pot": 10, "stack": 95, "board": "QsJh2h8d3c", "oop": "AA,KK,AK,JTs", "ip": "QQ,JJ,KQ", "iterations": 50,
		"sizes": [{"bet": [50], "raise": "3x"}]}`), 0o644)
	for _, file := range []string{toml, js} {
		var out bytes.Buffer
		if err := runSolve(context.Background(), []string{file, "--no-progress", "--node", "x b5"}, &out, &out); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if !strings.Contains(out.String(), "f ") || !strings.Contains(out.String(), "r15") {
			t.Errorf("%s: facing a bet of 5, OOP should fold, call or raise to 15 (3x):\n%s", file, out.String())
		}
	}
	weights := make([]string, 1326)
	for i := range weights {
		weights[i] = "0"
	}
	weights[1325] = "1" // AsAh
	wf := filepath.Join(dir, "oop.txt")
	os.WriteFile(wf, []byte(strings.Join(weights, "\n")), 0o644)
	args := append([]string{}, riverArgs...)
	args[7] = "@" + wf
	var out bytes.Buffer
	if err := runSolve(context.Background(), append(args, "--iterations", "10"), &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "1 hands OOP") {
		t.Errorf("a weight file with AsAh alone:\n%s", out.String())
	}
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("pot = 10\nstack = 95\nboard = \"QsJh2h\"\noop = \"AA\"\nip = \"KK\"\nsizes = 3\n"), 0o644)
	err := runSolve(context.Background(), []string{bad}, &out, &out)
	var e *exitError
	if !errors.As(err, &e) || e.code != 2 || !strings.Contains(err.Error(), "bad spot file") {
		t.Errorf("a bad TOML file: %v, want exit code 2 and bad spot file", err)
	}
}

// TestSolveCurve: --curve draws the exploitability against time as SVG, or appends
// it to a CSV file whose runs --chart draws together; a file of another kind is
// refused before solving.
func TestSolveCurve(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "curve.svg")
	args := append(append([]string{}, riverArgs...), "--iterations", "40")
	var out bytes.Buffer
	if err := runSolve(context.Background(), append(args, "--curve", svg), &out, &out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(svg)
	if err != nil || !bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte("% of the pot")) {
		t.Fatalf("curve.svg: %v, %d bytes", err, len(b))
	}
	csv, chart := filepath.Join(dir, "runs.csv"), filepath.Join(dir, "runs.svg")
	for _, extra := range [][]string{{}, {"--compress"}} {
		if err := runSolve(context.Background(), append(append(args, extra...), "--curve", csv, "--chart", chart), &out, &out); err != nil {
			t.Fatal(err)
		}
	}
	b, _ = os.ReadFile(csv)
	if n := strings.Count(string(b), "\n"); n != 1+2*4 || !strings.Contains(string(b), "felt (16-bit store)") {
		t.Errorf("runs.csv has %d lines, want a header and 4 checks of 2 runs:\n%s", n, b)
	}
	if b, err := os.ReadFile(chart); err != nil || !bytes.Contains(b, []byte("16-bit store")) {
		t.Errorf("runs.svg: %v, lacks the second run", err)
	}
	for _, bad := range [][]string{{"--curve", filepath.Join(dir, "c.txt")}, {"--curve", svg, "--chart", chart}, {"--curve", csv, "--chart", csv}} {
		err := runSolve(context.Background(), append(append([]string{}, args...), bad...), &out, &out)
		var e *exitError
		if !errors.As(err, &e) || e.code != 2 {
			t.Errorf("%v: %v, want exit code 2", bad, err)
		}
	}
}

// TestSolveSaveLoad: --save writes the solve, also when Ctrl-C stopped it; --load
// shows it again or goes on solving; flags that would change the spot, and a file
// that is not a save, are refused.
func TestSolveSaveLoad(t *testing.T) {
	dir := t.TempDir()
	save := filepath.Join(dir, "river.solve")
	var out bytes.Buffer
	args := append(append([]string{}, riverArgs...), "--iterations", "20", "--save", save)
	if err := runSolve(context.Background(), args, &out, &out); err != nil {
		t.Fatal(err)
	}
	first := out.String()
	out.Reset()
	if err := runSolve(context.Background(), []string{"--load", save, "--no-progress", "--no-color"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	// The reloaded solve shows the same exploitability, EV and grid.
	after := func(s, from string) string { return s[strings.Index(s, from):] }
	if !strings.Contains(out.String(), "solved: 20 iterations") || after(out.String(), "EV:") != after(first, "EV:") {
		t.Errorf("reloaded:\n%s\nsaved:\n%s", out.String(), first)
	}
	out.Reset()
	if err := runSolve(context.Background(), []string{"--load", save, "--iterations", "10", "--save", save, "--no-progress"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "solved: 30 iterations") {
		t.Errorf("going on from 20 iterations:\n%s", out.String())
	}
	// Ctrl-C: the solve stops at an iteration boundary and is saved.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stopped := filepath.Join(dir, "stopped.solve")
	if err := runSolve(ctx, append(append([]string{}, riverArgs...), "--save", stopped), &out, &out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stopped); err != nil {
		t.Errorf("Ctrl-C did not save: %v", err)
	}
	for _, bad := range [][]string{{"--load", save, "--pot", "10"}, {"--load", save, "--compress"}, {"--load", filepath.Join(dir, "none")}} {
		err := runSolve(context.Background(), bad, &out, &out)
		var e *exitError
		if !errors.As(err, &e) || e.code != 2 {
			t.Errorf("%v: %v, want exit code 2", bad, err)
		}
	}
	notSave := filepath.Join(dir, "x.solve")
	os.WriteFile(notSave, []byte("set_pot 10\n"), 0o644)
	if err := runSolve(context.Background(), []string{"--load", notSave}, &out, &out); err == nil || !strings.Contains(err.Error(), "bad saved solve") {
		t.Errorf("a command file loaded as a save: %v", err)
	}
}

// ctrlCHook is a context cancelled by a hook: as Done is asked for the nth time.
// Solve asks for it once per iteration, as IterateContext begins one (which then
// polls it at every node), so the nth iteration is stopped inside, at its first
// node: Ctrl-C pressed just as it began, without a timer.
type ctrlCHook struct {
	context.Context
	mu    sync.Mutex
	calls int
	n     int
	done  chan struct{}
}

func (c *ctrlCHook) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.calls++; c.calls == c.n {
		close(c.done)
	}
	return c.done
}

func (c *ctrlCHook) Err() error {
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}

// TestSolveCtrlCInsideAnIteration: Ctrl-C stops felt solve inside the iteration
// under way (not counted), which still prints and saves the solve; the save
// loads with the iterations that were completed. The old felt solve ran on to
// the end of the iteration, and to --iterations, since it looked at the context
// only between iterations and this one is cancelled as an iteration begins.
func TestSolveCtrlCInsideAnIteration(t *testing.T) {
	save := filepath.Join(t.TempDir(), "stopped.solve")
	ctx := &ctrlCHook{Context: context.Background(), n: 4, done: make(chan struct{})}
	var out bytes.Buffer
	args := append(append([]string{}, riverArgs...), "--iterations", "20", "--workers", "1", "--save", save)
	if err := runSolve(ctx, args, &out, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"solved: 3 iterations", "stopped inside iteration 4", "saved: " + save, "EV: OOP"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := runSolve(context.Background(), []string{"--load", save, "--no-progress", "--no-color"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "solved: 3 iterations") {
		t.Errorf("reloaded:\n%s", out.String())
	}
}
