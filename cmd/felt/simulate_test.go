package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/history"
)

// TestSimulate writes hands of every variant, checks that the same seed writes the
// same file and that every hand replays through the reader.
func TestSimulate(t *testing.T) {
	dir := t.TempDir()
	for _, v := range []string{"nl", "limit", "pl", "stud"} {
		a, b := filepath.Join(dir, v+"-a.phhs"), filepath.Join(dir, v+"-b.phhs")
		for _, out := range []string{a, b} {
			if err := runSimulate([]string{"--variant", v, "--players", "4", "--hands", "200", "--seed", "9", "--out", out}, &bytes.Buffer{}); err != nil {
				t.Fatal(err)
			}
		}
		da, _ := os.ReadFile(a)
		db, _ := os.ReadFile(b)
		if !bytes.Equal(da, db) {
			t.Errorf("%s: the same seed wrote different files", v)
		}
		hands, err := history.ParseAll(da)
		if err != nil || len(hands) != 200 {
			t.Fatalf("%s: %d hands, %v", v, len(hands), err)
		}
		for i, p := range hands {
			if _, h, err := p.Replay(); err != nil || !h.Over() {
				t.Fatalf("%s hand %d: %v", v, i+1, err)
			}
		}
		var out bytes.Buffer
		if err := runReplay([]string{a}, &out); err != nil || strings.Count(out.String(), "Finishing stacks:") != 200 {
			t.Fatalf("%s: replay: %v", v, err)
		}
	}
}

// TestSimulateStacks deals every seat a stack drawn from --stacks LO-HI (or a fixed
// --stacks N), writes the same file for the same seed, and every hand replays.
func TestSimulateStacks(t *testing.T) {
	dir := t.TempDir()
	for _, v := range []string{"nl", "limit", "pl", "stud"} {
		a, b := filepath.Join(dir, v+"-a.phhs"), filepath.Join(dir, v+"-b.phhs")
		for _, out := range []string{a, b} {
			if err := runSimulate([]string{"--variant", v, "--hands", "300", "--stacks", "20-1519", "--out", out}, &bytes.Buffer{}); err != nil {
				t.Fatal(err)
			}
		}
		da, _ := os.ReadFile(a)
		db, _ := os.ReadFile(b)
		if !bytes.Equal(da, db) {
			t.Errorf("%s: the same seed wrote different files", v)
		}
		hands, err := history.ParseAll(da)
		if err != nil || len(hands) != 300 {
			t.Fatalf("%s: %d hands, %v", v, len(hands), err)
		}
		distinct := map[int64]bool{}
		for i, p := range hands {
			for _, s := range p.StartingStacks {
				if s < 20 || s > 1519 {
					t.Fatalf("%s hand %d: starting stack %v outside 20-1519", v, i+1, s)
				}
				distinct[s] = true
			}
			if _, h, err := p.Replay(); err != nil || !h.Over() {
				t.Fatalf("%s hand %d: %v", v, i+1, err)
			}
		}
		if len(distinct) < 1000 {
			t.Errorf("%s: only %d distinct stacks in 1,800 draws from 1,500", v, len(distinct))
		}
	}
	// A fixed stack, under the old name too.
	for _, flag := range []string{"--stacks", "--stack"} {
		out := filepath.Join(dir, "fixed.phhs")
		if err := runSimulate([]string{"--players", "3", "--hands", "5", flag, "500", "--out", out}, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(out)
		hands, err := history.ParseAll(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range hands {
			if !slices.Equal(p.StartingStacks, []int64{500, 500, 500}) {
				t.Fatalf("%s 500: starting stacks %v", flag, p.StartingStacks)
			}
		}
	}
}

func TestSimulatePokerStars(t *testing.T) {
	out := filepath.Join(t.TempDir(), "hands.txt")
	if err := runSimulate([]string{"--variant", "limit", "--hands", "50", "--out", out, "--format", "pokerstars"}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(out)
	if n := strings.Count(string(data), "PokerStars Hand #"); n != 50 {
		t.Errorf("%d hands written", n)
	}
	if !strings.Contains(string(data), "Hold'em Limit (10/20)") {
		t.Errorf("no limit header:\n%.300s", data)
	}
}

func TestSimulateProgress(t *testing.T) {
	var stderr bytes.Buffer
	out := filepath.Join(t.TempDir(), "hands.phhs")
	if err := runSimulate([]string{"--players", "2", "--hands", "10000", "--out", out}, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "10000/10000") {
		t.Errorf("no progress bar on stderr: %q", stderr.String())
	}
}

func TestSimulateBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--variant", "omaha", "--out", filepath.Join(dir, "x")},
		{"--players", "11", "--out", filepath.Join(dir, "x")},
		{"--variant", "stud", "--format", "pokerstars", "--out", filepath.Join(dir, "x")},
		{"--out", filepath.Join(dir, "no", "such", "dir")},
		{"--stacks", "0", "--out", filepath.Join(dir, "x")},
		{"--stacks", "500-20", "--out", filepath.Join(dir, "x")},
		{"--stacks", "-5", "--out", filepath.Join(dir, "x")},
		{"--stacks", "20-", "--out", filepath.Join(dir, "x")},
		{"--stacks", "1-2-3", "--out", filepath.Join(dir, "x")},
		{"--stacks", "x", "--out", filepath.Join(dir, "x")},
		{"--stacks", "1-1000000000000000001", "--out", filepath.Join(dir, "x")},
		{}, // no --out
	} {
		err := runSimulate(args, &bytes.Buffer{})
		var e *exitError
		if !errors.As(err, &e) || e.code != 2 {
			t.Errorf("simulate %v: error %v; want exit code 2", args, err)
		}
	}
}
