package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/history"
)

// TestTournamentFiles: a short limit freezeout prints the places and writes the CSV
// files, the charts, the workbook and the PHH hands.
func TestTournamentFiles(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	args := []string{"call", "chart:samples=30", "raise", "--variant", "limit", "--hands", "60", "--stack", "20", "--seed", "3",
		"--out", dir, "--history", dir, "--no-progress"}
	if err := runTournament(context.Background(), args, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tournament: fixed-limit Hold'em, freezeout, 3 players", "place", "bb/100"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	for _, f := range []string{"results.csv", "stacks.csv", "stacks.svg", "stacks.png", "rates.svg", "rates.png", "tournament.xlsx"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "tournament.phhs"))
	if err != nil {
		t.Fatal(err)
	}
	hands, err := history.ParseAll(data)
	if err != nil || len(hands) == 0 {
		t.Errorf("PHH: %d hands, %v", len(hands), err)
	}
	err = runTournament(context.Background(), []string{"call"}, io.Discard, io.Discard)
	var e *exitError
	if !errors.As(err, &e) || e.code != 2 {
		t.Errorf("one bot: %v", err)
	}
}

// TestTournamentLeague: --league plays the duplicate league and charts its ranking.
func TestTournamentLeague(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	if err := runTournament(context.Background(), []string{"call", "fold", "stud", "--league", "--variant", "stud", "--hands", "40",
		"--seed", "2", "--out", dir, "--no-progress"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "rank") {
		t.Errorf("no ranking:\n%s", out.String())
	}
	for _, f := range []string{"results.csv", "table.csv", "rates.svg", "rates.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

// TestEvolveCommand: a tiny run writes loadable weights and a chart.
func TestEvolveCommand(t *testing.T) {
	dir := t.TempDir()
	w, chart := filepath.Join(dir, "w.json"), filepath.Join(dir, "fitness.svg")
	var out bytes.Buffer
	args := []string{"--population", "4", "--generations", "2", "--hands", "20", "--hidden", "3", "--bench", "call",
		"--bench-hands", "20", "--seed", "1", "--out", w, "--chart", chart, "--no-progress"}
	if err := runEvolve(context.Background(), args, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "generation   1") {
		t.Errorf("output:\n%s", out.String())
	}
	if _, err := bot.New("neural:weights="+w, bot.Options{}); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(chart); err != nil {
		t.Error(err)
	}
	err := runEvolve(context.Background(), []string{"--population", "2"}, io.Discard, io.Discard)
	var e *exitError
	if !errors.As(err, &e) || e.code != 2 {
		t.Errorf("population 2: %v", err)
	}
}
