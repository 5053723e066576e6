package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/buildinfo"
)

// matchJSON runs felt match with args and --json and returns its output.
func matchJSON(t *testing.T, args ...string) matchOutput {
	t.Helper()
	var out bytes.Buffer
	if err := runMatch(context.Background(), append(args, "--json", "--no-progress"), &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var got matchOutput
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	return got
}

// A match in pieces: --deals 0:17 and 17:40 of seed 15 recorded, --pool prints
// the figures of one match of --deals 0:40 (to the file's rounding), plain and
// with the control variate, and --chart draws them. A later match over deals
// already recorded is warned of when it starts, and counts instead of the
// lines it overlaps, which --pool names on standard error.
func TestMatchPiecesPool(t *testing.T) {
	dir := t.TempDir()
	rec, chart := filepath.Join(dir, "match.csv"), filepath.Join(dir, "match.svg")
	base := []string{"random", "maniac", "--seed", "15", "--cv", "--record", rec}
	matchJSON(t, append(base, "--deals", "0:17", "--workers", "1")...)
	if got := matchJSON(t, append(base, "--deals", "17:40", "--workers", "3")...); got.FirstDeal != 17 || got.Deals != 23 || got.Hands != 46 {
		t.Fatalf("--deals 17:40: %+v", got)
	}
	one := matchJSON(t, "random", "maniac", "--seed", "15", "--cv", "--deals", "0:40")
	var out, errOut bytes.Buffer
	if err := runMatch(context.Background(), []string{"--record", rec, "--pool", "--json"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var pools []matchPoolOutput
	if err := json.Unmarshal(out.Bytes(), &pools); err != nil {
		t.Fatal(err)
	}
	if len(pools) != 1 || pools[0].Hands != 80 || pools[0].Runs != 2 || pools[0].CV == nil || errOut.Len() != 0 {
		t.Fatalf("pools %+v, stderr %q", pools, errOut.String())
	}
	if !slices.Equal(pools[0].Builds, []string{buildinfo.Revision()}) { // each line names the build that played it
		t.Errorf("builds %q, want [%s]", pools[0].Builds, buildinfo.Revision())
	}
	p := pools[0]
	for _, x := range [][2]float64{{p.MBBPerGame, one.MBBPerGame}, {p.MBBCI95, one.MBBCI95}, {p.CV.MBBPerGame, one.CV.MBBPerGame}, {p.CV.MBBCI95, one.CV.MBBCI95}} {
		if math.Abs(x[0]-x[1]) > 0.1 {
			t.Errorf("pooled %+v, one match %+v", p, one)
		}
	}
	if err := runMatch(context.Background(), []string{"--record", rec, "--chart", chart}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if svg, err := os.ReadFile(chart); err != nil || !bytes.Contains(svg, []byte("<svg")) {
		t.Fatalf("chart: %v", err)
	}
	errOut.Reset()
	if err := runMatch(context.Background(), append(base, "--deals", "5:20", "--no-progress"), io.Discard, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "line 2 has deals 0:17 of seed 15 of this match") {
		t.Errorf("the overlapping run did not warn:\n%s", errOut.String())
	}
	out.Reset()
	errOut.Reset()
	if err := runMatch(context.Background(), []string{"--record", rec, "--pool"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"line 2 (nl random vs maniac, seed 15, deals 0:17) overlaps the later line 4 (deals 5:20)",
		"line 3 (nl random vs maniac, seed 15, deals 17:40) overlaps the later line 4 (deals 5:20)"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut.String())
		}
	}
	if !strings.Contains(out.String(), "random  maniac") || !strings.Contains(out.String(), "  30  ") {
		t.Errorf("--pool after the overlapping run:\n%s", out.String())
	}
}

// Stopped (the signal's context cancelled), felt match prints and records the
// deals it completed and says which, exiting with an error; stopped before two
// deals it records nothing.
func TestMatchStoppedRecordsPartial(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "match.csv")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	args := []string{"random", "maniac", "--seed", "15", "--deals", "3:1000000", "--workers", "1", "--record", rec, "--json"}
	runErr := runMatch(ctx, args, &out, &cancelOnHands{cancel: cancel})
	if runErr == nil || !strings.Contains(runErr.Error(), "stopped: counted deals 3:") || !strings.Contains(runErr.Error(), "go on with --deals") {
		t.Fatalf("stopped: %v", runErr)
	}
	var got matchOutput
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := arena.ReadMatchRecords(f)
	f.Close()
	if err != nil || len(recs) != 1 || !got.Stopped || got.FirstDeal != 3 || got.Deals < 2 || recs[0].FirstDeal != 3 || recs[0].Hands != got.Hands {
		t.Fatalf("stopped match %+v, records %+v, %v", got, recs, err)
	}
	if !strings.Contains(runErr.Error(), arena.FormatDeals(3, 3+got.Deals)) {
		t.Errorf("the error %q does not name deals %s", runErr, arena.FormatDeals(3, 3+got.Deals))
	}

	stopped, stop := context.WithCancel(context.Background())
	stop()
	err = runMatch(stopped, args, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "nothing to report or record") {
		t.Fatalf("stopped at once: %v", err)
	}
	if data, _ := os.ReadFile(rec); strings.Count(string(data), "\n") != 2 {
		t.Errorf("stopped at once, the record file became:\n%s", data)
	}
}

// cancelOnHands cancels once the progress bar shows ten hands played.
type cancelOnHands struct{ cancel func() }

var handsDone = regexp.MustCompile(`\(([0-9,]+)/`)

func (w *cancelOnHands) Write(p []byte) (int, error) {
	if m := handsDone.FindSubmatch(p); m != nil {
		if n, err := strconv.Atoi(strings.ReplaceAll(string(m[1]), ",", "")); err == nil && n >= 10 {
			w.cancel()
		}
	}
	return len(p), nil
}

// Bad pieces are usage errors before anything is played, and leave the record
// file as it was: bad --deals, --deals with --hands, a --record file of felt
// lbr's or with a garbage line; --pool of such a file fails naming it.
func TestMatchBadPieces(t *testing.T) {
	dir := t.TempDir()
	lbrFile, garbage := filepath.Join(dir, "lbr.csv"), filepath.Join(dir, "garbage.csv")
	files := map[string]string{
		lbrFile: "variant,bot,preflop,hands,seed,sizes,mbb_per_game,mbb_ci95,cv_mbb_per_game,cv_mbb_ci95,misses\n",
		garbage: "variant,a,b,stack,double_every,budget,seed,deals,hands,mbb_per_game,mbb_ci95,mbb_sd,cv_mbb_per_game,cv_mbb_ci95,cv_mbb_sd,build\n" +
			"nl,a,b,20000,0,0s,15,0:2,4,1.0,2.0,3.000,,,,x\nthis is not a record\n",
	}
	for path, text := range files {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"call", "raise", "--deals", "5:3"}, {"call", "raise", "--deals", "5:5"}, {"call", "raise", "--deals", "-1:5"},
		{"call", "raise", "--deals", "0:1"}, {"call", "raise", "--deals", "x"}, {"call", "raise", "--deals", "0:10", "--hands", "20"},
		{"call", "raise", "--deals", "0:10", "--record", lbrFile}, {"call", "raise", "--record", garbage},
		{"call"}, {"--deals", "0:10"}, {}, {"--pool"}, {"call", "raise", "--pool", "--record", garbage},
		{"--record", garbage, "--chart", "x.pdf"}, {"--chart", "x.svg"},
	} {
		err := runMatch(context.Background(), append(args, "--no-progress"), io.Discard, io.Discard)
		var e *exitError
		if !errors.As(err, &e) || e.code != 2 {
			t.Errorf("%v: %v, want exit code 2", args, err)
		}
	}
	for _, path := range []string{lbrFile, garbage} {
		err := runMatch(context.Background(), []string{"--record", path, "--pool"}, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("--pool of %s: %v, want an error naming it", path, err)
		}
		if data, _ := os.ReadFile(path); string(data) != files[path] {
			t.Errorf("%s became %q", path, data)
		}
	}
}
