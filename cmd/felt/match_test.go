package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
)

func TestMatchText(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := runMatch(context.Background(), []string{"raise", "fold", "--hands", "100", "--seed", "7"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	// raise wins the big blind as the button and the small blind as the big blind.
	for _, want := range []string{"raise vs fold: no-limit Hold'em, 100 hands (50 duplicate deals), seed 7",
		"raise: +75.00 bb/100 ± 0.00 (95%), +750.0 mbb/g ± 0.0, +7,500 chips", "hands/s"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errOut.String(), "raise vs fold") {
		t.Errorf("no progress bar on standard error: %q", errOut.String())
	}
}

func TestMatchJSONDeterministic(t *testing.T) {
	run := func(workers string) map[string]any {
		var out bytes.Buffer
		args := []string{"montecarlo:samples=50", "random", "--hands", "200", "--seed", "11", "--variant", "limit",
			"--json", "--no-progress", "--workers", workers}
		if err := runMatch(context.Background(), args, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("%v:\n%s", err, out.String())
		}
		return got
	}
	a, b := run("1"), run("2")
	for _, k := range []string{"bb_per_100", "ci95", "mbb_per_game", "hands", "seed", "variant", "bots", "chips"} {
		if _, ok := a[k]; !ok {
			t.Errorf("JSON lacks %q: %v", k, a)
		}
		if ak, bk := a[k], b[k]; !jsonEqual(ak, bk) {
			t.Errorf("%s: %v with 1 worker, %v with 2", k, ak, bk)
		}
	}
	if a["hands"] != 200.0 || a["seed"] != 11.0 || a["variant"] != "limit" || a["a"] != "montecarlo:samples=50" {
		t.Errorf("JSON %v", a)
	}
	if bb, ci := a["bb_per_100"].(float64), a["ci95"].(float64); ci <= 0 || math.Abs(bb*10-a["mbb_per_game"].(float64)) > 1e-9 {
		t.Errorf("bb/100 %v ± %v, mbb/g %v", bb, ci, a["mbb_per_game"])
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestLeagueTableAndJSON(t *testing.T) {
	var out bytes.Buffer
	args := []string{"call", "fold", "raise", "--hands", "40", "--seed", "3", "--variant", "stud", "--no-progress"}
	if err := runLeague(context.Background(), args, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"league: three card stud, 40 hands per pairing", "rank", "bb/100", "call", "fold", "raise", " - "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := runLeague(context.Background(), append(args, "--json"), &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Bots  []string
		Table [][]*struct {
			BBPer100 float64 `json:"bb_per_100"`
			CI95     float64 `json:"ci95"`
		}
		Ranking []struct {
			Bot      string
			BBPer100 float64 `json:"bb_per_100"`
		}
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out.String())
	}
	if len(got.Table) != 3 || got.Table[1][1] != nil || got.Table[0][1] == nil || got.Table[0][1].BBPer100 != -got.Table[1][0].BBPer100 {
		t.Errorf("table %+v", got.Table)
	}
	if len(got.Ranking) != 3 || got.Ranking[0].BBPer100 < got.Ranking[2].BBPer100 {
		t.Errorf("ranking %+v", got.Ranking)
	}
}

func TestArenaCommandsBadInputExitTwo(t *testing.T) {
	for _, c := range []struct {
		league bool
		args   []string
	}{
		{false, []string{"nobody", "call"}},
		{false, []string{"call", "montecarlo:samples=zero"}},
		{false, []string{"call", "fold", "--variant", "omaha"}},
		{false, []string{"call", "fold", "--hands", "2"}},
		{false, []string{"call", "fold", "--seed", "-1"}},
		{false, []string{"call", "fold", "--hands", "many"}},
		{false, []string{"call"}},
		{false, []string{"call", "fold", "--workers", "-2"}},
		{false, []string{"call", "fold", "--budget", "-1s"}},
		{false, []string{"call", "fold", "--budget", "soon"}},
		{false, []string{"call", "fold", "--timing", "--nats", "nats://127.0.0.1:1"}},
		{true, []string{"call"}},
		{true, []string{"call", "fold", "nobody"}},
		{true, []string{"call", "fold", "--variant", "razz"}},
		{false, []string{"cfr", "call", "--variant", "nl"}}, // cfr plays limit only
		{true, []string{"cfr", "call", "--variant", "stud"}},
	} {
		var err error
		if c.league {
			err = runLeague(context.Background(), append(c.args, "--no-progress"), io.Discard, io.Discard)
		} else {
			err = runMatch(context.Background(), append(c.args, "--no-progress"), io.Discard, io.Discard)
		}
		var e *exitError
		if !errors.As(err, &e) || e.code != 2 {
			t.Errorf("league %v %v: %v, want exit code 2", c.league, c.args, err)
		}
	}
}

// felt match --stack 10000 --double-every N plays seed 001's format, says so, and
// reports bb/hand with its spread; a stack under 4 big blinds is a usage error.
func TestMatchSeed001Format(t *testing.T) {
	var out bytes.Buffer
	args := []string{"raise", "fold", "--hands", "40", "--seed", "3", "--stack", "10000", "--double-every", "2", "--no-progress"}
	if err := runMatch(context.Background(), args, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"format: stacks of 10000 chips reset every hand, blinds doubling every 2 hands",
		"raise: +75.00 bb/100 ± 0.00", "+0.750 bb/hand, spread 0.25 bb", "+40,650 chips"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := runMatch(context.Background(), append(args, "--json"), &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var got matchOutput
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Stack != 10000 || got.DoubleEvery != 2 || got.BBPerHand != 0.75 || !strings.Contains(got.Format, "doubling") {
		t.Errorf("%+v", got)
	}
	for _, bad := range [][]string{{"--stack", "100"}, {"--double-every", "-1"}} {
		err := runMatch(context.Background(), append([]string{"raise", "fold", "--no-progress"}, bad...), io.Discard, io.Discard)
		var e *exitError
		if !errors.As(err, &e) || e.code != 2 {
			t.Errorf("%v: %v, want exit code 2", bad, err)
		}
	}
}

// TestMatchControlVariate: --cv adds the estimate with the control variate and how
// much it narrows the interval, in text and JSON; stud has no value function.
func TestMatchControlVariate(t *testing.T) {
	var out bytes.Buffer
	if err := runMatch(context.Background(), []string{"maniac", "chart:samples=20", "--hands", "200", "--seed", "3", "--cv", "--no-progress"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "maniac with the control variate: ") || !strings.Contains(out.String(), "× narrower)") {
		t.Errorf("no control variate line:\n%s", out.String())
	}
	out.Reset()
	if err := runMatch(context.Background(), []string{"maniac", "chart:samples=20", "--hands", "200", "--seed", "3", "--cv", "--json", "--no-progress"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var got struct {
		CI95 float64 `json:"ci95"`
		CV   *struct {
			CI95      float64 `json:"ci95"`
			Narrowing float64 `json:"narrowing"`
		} `json:"cv"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || got.CV == nil || got.CV.CI95 <= 0 || got.CV.Narrowing <= 1 {
		t.Errorf("--json --cv: %v, %+v:\n%s", err, got, out.String())
	}
	err := runMatch(context.Background(), []string{"call", "call", "--hands", "20", "--variant", "stud", "--cv", "--no-progress"}, &out, io.Discard)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 2 {
		t.Errorf("--cv in stud: %v, want a usage error", err)
	}
}

// felt match --timing prints each bot's decision times by street, and --json
// carries them with the budget; felt gauntlet --timing reports the measured bot
// only.
func TestMatchAndGauntletTiming(t *testing.T) {
	var out bytes.Buffer
	if err := runMatch(context.Background(), []string{"call", "random", "--hands", "20", "--seed", "3", "--timing", "--budget", "300ms", "--no-progress"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"decision times (wall clock, budget 300ms):", "p50", "p99", "call  preflop", "random  preflop"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("felt match --timing lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := runGauntlet(context.Background(), []string{"chart", "--hands", "8", "--seed", "3", "--timing", "--budget", "1s", "--json", "--no-progress"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var g struct {
		BudgetNS int64 `json:"budget_ns"`
		Timing   []struct {
			Bot       string `json:"bot"`
			Street    string `json:"street"`
			Decisions int    `json:"decisions"`
		} `json:"timing"`
	}
	if err := json.Unmarshal(out.Bytes(), &g); err != nil {
		t.Fatal(err)
	}
	if g.BudgetNS != 1e9 || len(g.Timing) == 0 {
		t.Fatalf("gauntlet --json: budget %d, timing %+v", g.BudgetNS, g.Timing)
	}
	for _, r := range g.Timing {
		if r.Bot != "chart" || r.Decisions == 0 {
			t.Fatalf("gauntlet timing row %+v: want the measured bot's only", r)
		}
	}
}

// --cpuprofile writes a CPU profile of the match (pprof's gzip-compressed format);
// a path that cannot be created fails the run before it plays.
func TestMatchCPUProfile(t *testing.T) {
	checkCPUProfile(t, runMatch, "raise", "fold", "--hands", "20", "--seed", "3", "--no-progress")
}
