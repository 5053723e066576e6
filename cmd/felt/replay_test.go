package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReplayDwanIvey(t *testing.T) {
	var out bytes.Buffer
	if err := runReplay([]string{"../../internal/history/testdata/dwan-ivey-style.phh", "--reveal"}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"no-limit Hold'em, blinds 1000/2000, ante 500",
		"Ivey posts the small blind 1000",
		"Ivey is dealt [Ac2d]",
		"*** FLOP *** [Jc3d5c]",
		"Ivey           [Ac2d]  64.78%", // exact equity on the flop, Antonius's cards dead
		"Dwan           [7h6h] 100.00%",
		"Ivey raises to 1067100 (all-in)",
		"572100 uncalled goes back to Ivey",
		"Dwan shows [7h6h] (Straight, seven high)",
		"Dwan wins 1109500 from the pot",
		"Seat  1  Ivey               572100  (-553500)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestReplayPHHS(t *testing.T) {
	var out bytes.Buffer
	if err := runReplay([]string{"../../internal/history/testdata/pot-limit-and-stud.phhs"}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Hand 1: pot-limit Hold'em", "Hand 2: three card stud, ante 1", "*** ROUND TWO ***",
		"seat 3 wins 33 from the pot", "seat 6 wins 75 from the pot"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "is dealt [AsAd]") {
		t.Error("hole cards printed without --reveal")
	}
}

func TestReplayBadInput(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.phh")
	if err := os.WriteFile(garbage, []byte("variant = \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"../../internal/history/testdata/bad-stacks.phh"}, // does not replay
		{garbage},                    // not TOML
		{filepath.Join(dir, "none")}, // no such file
		{},                           // no file
	} {
		err := runReplay(args, &bytes.Buffer{})
		var e *exitError
		if !errors.As(err, &e) || e.code != 2 {
			t.Errorf("replay %v: error %v; want exit code 2", args, err)
		}
	}
}
