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

	"github.com/felt-poker/felt/internal/history"
)

// TestMatchTrace: --trace prints each hand of a tiny match, the same for a seed
// every time: raise shoves, fold folds, deal 0 with the button in seat 0.
func TestMatchTrace(t *testing.T) {
	run := func() string {
		var out bytes.Buffer
		args := []string{"raise", "fold", "--hands", "4", "--seed", "1", "--trace", "--no-progress"}
		if err := runMatch(context.Background(), args, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	got := run()
	lines := strings.Split(got, "\n")
	want := []string{
		"hand 1  no-limit holdem  seed 1e61397408ab415e000000000000000000000000000000000000000000000000  button raise",
		"  preflop   raise        raise to 20000    raise 5sQd 19950 39.31%  fold Ah4s 19900 60.69%",
		"  preflop   fold         fold              raise 5sQd 0 39.31%  fold Ah4s 19900 60.69%",
		"  result    raise +100  fold -100",
		"hand 2  no-limit holdem  seed 1e61397408ab415e000000000000000000000000000000000000000000000000  button fold",
		"  preflop   fold         fold              fold 5sQd 19950 39.31%  raise Ah4s 19900 60.69%",
		"  result    fold -50  raise +50",
	}
	if len(lines) < len(want) {
		t.Fatalf("trace:\n%s", got)
	}
	for k, w := range want {
		if lines[k] != w {
			t.Errorf("line %d:\n got %q\nwant %q", k+1, lines[k], w)
		}
	}
	if !strings.Contains(got, "raise: +75.00 bb/100") {
		t.Errorf("no result after the trace:\n%s", got)
	}
	traceOf := func(s string) string { // the output without the timing line
		s, _, _ = strings.Cut(s, "raise vs fold:")
		return s
	}
	if again := run(); traceOf(again) != traceOf(got) || !strings.HasPrefix(got, "hand 1") {
		t.Errorf("the trace differs between runs:\n%s\n%s", got, again)
	}
	err := runMatch(context.Background(), []string{"raise", "fold", "--trace", "--json"}, io.Discard, io.Discard)
	var e *exitError
	if !errors.As(err, &e) || e.code != 2 {
		t.Errorf("--trace --json: %v", err)
	}
}

// replayDir replays every hand of the .phhs files in dir and returns, per file,
// the number of hands and the chips each named player won over them.
func replayDir(t *testing.T, dir string) map[string]map[string]int64 {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.phhs"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]int64{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		hands, err := history.ParseAll(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		won := map[string]int64{"hands": int64(len(hands))}
		for k, p := range hands {
			_, h, err := p.Replay()
			if err != nil {
				t.Fatalf("%s hand %d: %v", f, k+1, err)
			}
			for i, s := range p.Seats {
				won[p.Players[i]] += h.Net(s - 1)
			}
		}
		out[filepath.Base(f)] = won
	}
	return out
}

// TestMatchHistory: --history writes every hand of a match as PHH that replays to
// the match's result, in no-limit and in stud.
func TestMatchHistory(t *testing.T) {
	for _, variant := range []string{"nl", "stud"} {
		dir := t.TempDir()
		var out bytes.Buffer
		args := []string{"montecarlo:samples=30", "random", "--hands", "40", "--seed", "5", "--variant", variant,
			"--history", dir, "--json", "--no-progress"}
		if err := runMatch(context.Background(), args, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		var r matchOutput
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		got := replayDir(t, dir)
		won, ok := got["montecarlo_samples=30-vs-random.phhs"]
		if len(got) != 1 || !ok {
			t.Fatalf("%s: files %v", variant, got)
		}
		if won["hands"] != 40 || won["montecarlo:samples=30"] != r.Chips || won["random"] != -r.Chips || r.Chips == 0 {
			t.Errorf("%s: the histories replay to %v, the match made %+d chips", variant, won, r.Chips)
		}
	}
}

// TestLeagueHistory: --history writes one file per pairing that replays to the
// league's results.
func TestLeagueHistory(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	args := []string{"call", "random", "raise", "--variant", "limit", "--hands", "20", "--seed", "4", "--history", dir,
		"--json", "--no-progress"}
	if err := runLeague(context.Background(), args, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var l leagueOutput
	if err := json.Unmarshal(out.Bytes(), &l); err != nil {
		t.Fatal(err)
	}
	got := replayDir(t, dir)
	if len(got) != 3 {
		t.Fatalf("files %v", got)
	}
	for i, a := range l.Bots {
		for j := i + 1; j < len(l.Bots); j++ {
			b := l.Bots[j]
			won := got[a+"-vs-"+b+".phhs"]
			if won["hands"] != 20 || won[a] != l.Table[i][j].Chips || won[b] != -l.Table[i][j].Chips {
				t.Errorf("%s vs %s: the histories replay to %v, the league says %+d", a, b, won, l.Table[i][j].Chips)
			}
		}
	}
}
