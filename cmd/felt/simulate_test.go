package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
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
		{}, // no --out
	} {
		err := runSimulate(args, &bytes.Buffer{})
		var e *exitError
		if !errors.As(err, &e) || e.code != 2 {
			t.Errorf("simulate %v: error %v; want exit code 2", args, err)
		}
	}
}
