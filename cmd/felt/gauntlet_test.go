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

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/engine"
)

// felt gauntlet plays every exploiter and names the worst; fold does not survive.
func TestGauntletCommand(t *testing.T) {
	var out bytes.Buffer
	if err := runGauntlet(context.Background(), []string{"fold", "--hands", "200", "--seed", "5", "--no-progress", "--json"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var got gauntletOutput
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Bot != "fold" || got.Hands != 200 || len(got.Matches) != len(arena.Exploiters) || got.Survives {
		t.Fatalf("%+v", got)
	}
	for _, m := range got.Matches {
		if m.BBPer100 < got.Matches[got.Worst].BBPer100 {
			t.Errorf("worst %d is not the lowest: %+v", got.Worst, got.Matches)
		}
	}
	out.Reset()
	if err := runGauntlet(context.Background(), []string{"fold", "--hands", "100", "--seed", "5", "--no-progress"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pot-odds caller", "tight-aggressive", "worst:", "does not survive"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := runGauntlet(context.Background(), []string{"fold", "--hands", "100", "--seed", "5", "--cv", "--no-progress"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"with the control variate", "(judged with the control variate)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--cv output lacks %q:\n%s", want, out.String())
		}
	}
	for _, args := range [][]string{{"nobody"}, {"fold", "--hands", "2"}, {"fold", "--trace"}, {"neural:weights=/no/such"}, {"fold", "--variant", "stud", "--cv"}} {
		err := runGauntlet(context.Background(), append(args, "--no-progress"), io.Discard, io.Discard)
		var e *exitError
		if !errors.As(err, &e) || e.code != 2 {
			t.Errorf("%v: %v, want exit code 2", args, err)
		}
	}
}

// felt league --gauntlet adds each bot's worst case to the ranking.
func TestLeagueGauntletColumn(t *testing.T) {
	var out bytes.Buffer
	if err := runLeague(context.Background(), []string{"fold", "call", "--hands", "100", "--seed", "2", "--gauntlet", "--no-progress", "--json"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var got leagueOutput
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for _, st := range got.Ranking {
		if st.Gauntlet == nil || st.Gauntlet.Exploiter == "" {
			t.Errorf("%s has no gauntlet worst case: %+v", st.Bot, st)
		}
	}
	out.Reset()
	if err := runLeague(context.Background(), []string{"fold", "call", "--hands", "100", "--seed", "2", "--no-progress", "--json"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "gauntlet") {
		t.Error("a league without --gauntlet shows it")
	}
}

// felt league --fold-model pools how every player of the league's hands acted.
func TestLeagueFoldModel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "model.json")
	if err := runLeague(context.Background(), []string{"fold", "raise", "--hands", "40", "--seed", "2", "--fold-model", path, "--no-progress"}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m bot.OpponentModel
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	// Every hand: raise shoves or folds meets a shove, so fold faces a bet and
	// folds before the flop in each of the 40 hands; raise never folds.
	if m.Hands != 80 || m.Faced[engine.Preflop] < 40 || m.Folded[engine.Preflop] != 40 || m.Raised[engine.Preflop] < 20 {
		t.Errorf("pooled model %+v", m)
	}
}
