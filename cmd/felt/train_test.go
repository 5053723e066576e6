package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/cfr"
)

// trainJSON runs "felt train" with --json and returns what it printed.
func trainJSON(t *testing.T, ctx context.Context, args ...string) (trainOutput, error) {
	t.Helper()
	var out bytes.Buffer
	err := runTrain(ctx, append(args, "--json", "--no-progress"), &out, io.Discard)
	var got trainOutput
	if out.Len() > 0 {
		if jerr := json.Unmarshal(out.Bytes(), &got); jerr != nil {
			t.Fatalf("%v:\n%s", jerr, out.String())
		}
	}
	return got, err
}

func TestTrainLeducJSON(t *testing.T) {
	dir := t.TempDir()
	strat := filepath.Join(dir, "leduc.json")
	got, err := trainJSON(t, context.Background(), "leduc", "--algo", "dcfr", "--iterations", "5000", "--out", strat)
	if err != nil {
		t.Fatal(err)
	}
	if got.Game != "leduc" || got.Algo != "dcfr" || got.Iterations != 5000 || got.Seconds <= 0 || got.Out != strat {
		t.Fatalf("%+v", got)
	}
	if got.ExploitabilityMChips <= 0 || got.ExploitabilityMChips >= 0.01 {
		t.Errorf("exploitability %v milli-chips, want below 0.01", got.ExploitabilityMChips)
	}
	// The strategy file loads and is the strategy reported.
	f, err := os.Open(strat)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sf, err := cfr.ReadStrategyFile(f)
	if err != nil {
		t.Fatal(err)
	}
	p, err := sf.Profile(cfr.Leduc())
	if err != nil {
		t.Fatal(err)
	}
	if e := p.Exploitability() * 1000; e != got.ExploitabilityMChips || sf.Iterations != 5000 || sf.Algo != "dcfr" {
		t.Errorf("file: %v milli-chips, %d iterations, %s", e, sf.Iterations, sf.Algo)
	}
}

func TestTrainText(t *testing.T) {
	var out, progress bytes.Buffer
	if err := runTrain(context.Background(), []string{"kuhn", "--algo", "cfr+", "--iterations", "300"}, &out, &progress); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "kuhn cfr+: 300 iterations") || !strings.Contains(out.String(), "milli-chips per game") {
		t.Errorf("output: %s", out.String())
	}
}

// An interrupted run writes a checkpoint, exits with 130, and resuming it reaches
// exactly what an uninterrupted run reaches.
func TestTrainInterruptAndResume(t *testing.T) {
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "run.ckpt")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := trainJSON(t, ctx, "leduc", "--algo", "mccfr", "--iterations", "3000", "--checkpoint", ckpt)
	var e *exitError
	if !errors.As(err, &e) || e.code != 130 || got.Checkpoint != ckpt || got.Iterations != 0 {
		t.Fatalf("interrupted run: %v %+v", err, got)
	}
	half, err := trainJSON(t, context.Background(), "leduc", "--algo", "mccfr", "--iterations", "1000", "--checkpoint", ckpt)
	if err != nil || half.Iterations != 1000 {
		t.Fatalf("first half: %v %+v", err, half)
	}
	resumed, err := trainJSON(t, context.Background(), "leduc", "--resume", ckpt, "--iterations", "3000")
	if err != nil || resumed.Iterations != 3000 || resumed.Algo != "mccfr" {
		t.Fatalf("resumed: %v %+v", err, resumed)
	}
	whole, err := trainJSON(t, context.Background(), "leduc", "--algo", "mccfr", "--iterations", "3000")
	if err != nil {
		t.Fatal(err)
	}
	if whole.ExploitabilityMChips != resumed.ExploitabilityMChips {
		t.Errorf("resumed run %v milli-chips, uninterrupted %v", resumed.ExploitabilityMChips, whole.ExploitabilityMChips)
	}
	if resumed.Seconds < half.Seconds {
		t.Errorf("training time went back from %v to %v", half.Seconds, resumed.Seconds)
	}
}

func TestTrainCurveAndChart(t *testing.T) {
	dir := t.TempDir()
	csv, svg := filepath.Join(dir, "c.csv"), filepath.Join(dir, "c.svg")
	for _, algo := range []string{"vanilla", "dcfr"} {
		if _, err := trainJSON(t, context.Background(), "leduc", "--algo", algo, "--iterations", "200",
			"--curve", csv, "--chart", svg); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "game,algo"); n != 1 {
		t.Errorf("%d header rows", n)
	}
	if !strings.Contains(string(b), "leduc,vanilla,200,") || !strings.Contains(string(b), "leduc,dcfr,200,") {
		t.Errorf("curve:\n%s", b)
	}
	if st, err := os.Stat(svg); err != nil || st.Size() < 1000 {
		t.Errorf("chart: %v", err)
	}
}

func TestTrainTimeLimit(t *testing.T) {
	got, err := trainJSON(t, context.Background(), "kuhn", "--time", "50ms")
	if err != nil || got.Iterations == 0 || got.Seconds < 0.05 {
		t.Fatalf("%v %+v", err, got)
	}
}

func TestTrainUsageErrors(t *testing.T) {
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "k.ckpt")
	if _, err := trainJSON(t, context.Background(), "kuhn", "--iterations", "10", "--checkpoint", ckpt); err != nil {
		t.Fatal(err)
	}
	junk := filepath.Join(dir, "junk")
	if err := os.WriteFile(junk, []byte("junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"holdem"},
		{"kuhn", "--algo", "cfr++"},
		{"kuhn", "--iterations", "-1"},
		{"kuhn", "--iterations", "10", "--time", "1s"},
		{"kuhn", "--seed", "x", "--algo", "mccfr"},
		{"kuhn", "--chart", "x.svg"},
		{"kuhn", "--resume", filepath.Join(dir, "missing")},
		{"kuhn", "--resume", junk},
		{"leduc", "--resume", ckpt},
		{"kuhn", "--resume", ckpt, "--algo", "vanilla"},
		{"leduc", "--pack", filepath.Join(dir, "l.pack")},
	} {
		var e *exitError
		if err := runTrain(context.Background(), append(args, "--no-progress"), io.Discard, io.Discard); !errors.As(err, &e) || e.code != 2 {
			t.Errorf("%q: %v, want exit code 2", args, err)
		}
	}
}

// felt train hulhe on a tiny abstraction (four preflop groups, one flop and turn
// bucket, three river buckets; no tables, so buckets are computed on the fly):
// the --json keys, the exact exploitability in the abstract game, and exit code 2
// on bad flags.
func TestTrainHoldem(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "tiny.abs")
	a, err := cfr.BuildAbstraction(cfr.AbstractionConfig{Preflop: 4, Flop: 1, Turn: 1, River: 3, Bins: 2, Samples: 50, Seed: 1}, cfr.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic(abs, a.Write); err != nil {
		t.Fatal(err)
	}
	strat := filepath.Join(dir, "tiny.json")
	run := func(args ...string) map[string]any {
		t.Helper()
		var out bytes.Buffer
		if err := runTrain(context.Background(), append([]string{"hulhe", "--buckets", "4,1,1,3", "--abstraction", abs,
			"--deals", "0", "--exact-boards", "40", "--seed", "3", "--json", "--no-progress"}, args...), &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("%v:\n%s", err, out.String())
		}
		return got
	}
	short := run("--iterations", "2000")
	pack := filepath.Join(dir, "tiny.pack")
	got := run("--iterations", "60000", "--out", strat, "--pack", pack)
	for _, k := range []string{"game", "algo", "iterations", "seconds", "buckets", "infosets", "abstraction", "fingerprint",
		"exploitability_mchips", "exploitability_mbb", "exact_boards", "out", "pack"} {
		if _, ok := got[k]; !ok {
			t.Errorf("--json has no %q: %v", k, got)
		}
	}
	if _, ok := got["br_lower_bound_mbb"]; ok {
		t.Errorf("--deals 0 but a lower bound: %v", got)
	}
	if got["game"] != "hulhe" || got["algo"] != "mccfr" || got["iterations"] != 60000.0 || got["exact_boards"] != 40.0 ||
		got["fingerprint"] != a.Fingerprint() || got["out"] != strat {
		t.Errorf("%v", got)
	}
	if b, _ := json.Marshal(got["buckets"]); string(b) != "[4,1,1,3]" {
		t.Errorf("buckets %s", b)
	}
	if got["averaging"] != (cfr.HoldemOptions{}).Averaging.String() {
		t.Errorf("averaging %v, want the default", got["averaging"])
	}
	// A checkpoint keeps its averaging: resuming goes on with it, and refuses another.
	ckpt := filepath.Join(dir, "tiny.ckpt")
	run("--iterations", "1000", "--averaging", "uniform", "--checkpoint", ckpt)
	if r := run("--iterations", "2000", "--resume", ckpt); r["averaging"] != "uniform" || r["iterations"] != 2000.0 {
		t.Errorf("resumed: %v", r)
	}
	var e *exitError
	if err := runTrain(context.Background(), []string{"hulhe", "--buckets", "4,1,1,3", "--abstraction", abs, "--deals", "0",
		"--no-progress", "--resume", ckpt, "--averaging", "linear", "--iterations", "3000"}, io.Discard, io.Discard); !errors.As(err, &e) || e.code != 2 {
		t.Errorf("resumed with another averaging: %v, want exit code 2", err)
	}
	mchips, _ := got["exploitability_mchips"].(float64)
	mbb, _ := got["exploitability_mbb"].(float64)
	before, _ := short["exploitability_mchips"].(float64)
	if mchips <= 0 || mbb != mchips/2 || mchips >= before {
		t.Errorf("exploitability %v milli-chips (%v mbb/g) after 60,000 iterations, %v after 2,000", mchips, mbb, before)
	}
	// The strategy file reloads with its abstraction's buckets.
	f, err := os.Open(strat)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sf, err := cfr.ReadStrategyFile(f)
	if err != nil {
		t.Fatal(err)
	}
	p, pa, err := sf.HoldemProfile()
	if err != nil || pa.Sizes() != [4]int{4, 1, 1, 3} || p.Game().Infosets() != int(got["infosets"].(float64)) {
		t.Fatalf("strategy file: %v", err)
	}
	// So does the packed one, the same strategy to within its quantum.
	pf, err := os.Open(pack)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	q, _, h, err := cfr.ReadPacked(pf)
	if err != nil || h.Iterations != 60000 || h.Fingerprint != a.Fingerprint() {
		t.Fatalf("packed strategy: %v %+v", err, h)
	}
	for i := range p.Game().Infosets() {
		for k, x := range q.Probs(i) {
			if d := x - p.Probs(i)[k]; d > 1./255 || d < -1./255 {
				t.Fatalf("information set %d: %v packed as %v", i, p.Probs(i), q.Probs(i))
			}
		}
	}
	for _, args := range [][]string{
		{"--buckets", "8,8"},
		{"--buckets", "0,8,8,8"},
		{"--buckets", "170,8,8,8"},
		{"--buckets", "4,1,1,3", "--algo", "dcfr"},
		{"--buckets", "4,1,1,3", "--exact-boards", "-1"},
		{"--buckets", "4,1,1,3", "--iterations", "-5"},
		{"--buckets", "4,1,1,3", "--seed", "x"},
		{"--buckets", "4,1,1,3", "--averaging", "optimistic"},
		{"--buckets", "4,1,1,2"}, // the file has 3 river buckets
	} {
		var e *exitError
		err := runTrain(context.Background(), append([]string{"hulhe", "--abstraction", abs, "--deals", "0", "--no-progress"}, args...), io.Discard, io.Discard)
		if !errors.As(err, &e) || e.code != 2 {
			t.Errorf("%q: %v, want exit code 2", args, err)
		}
	}
}
