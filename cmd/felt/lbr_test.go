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
	"slices"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/buildinfo"
	"github.com/felt-poker/felt/internal/lbr"
)

// felt lbr against fold wins exactly the blinds, in JSON and in text; bad
// arguments are usage errors.
func TestLBRCommand(t *testing.T) {
	var out bytes.Buffer
	if err := runLBR(context.Background(), []string{"fold", "--hands", "20", "--seed", "3", "--no-progress", "--json"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var got lbrOutput
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Bot != "fold" || got.Hands != 20 || got.MBBPerGame != 750 || got.MBBCI95 != 0 || strings.Join(got.Sizes, ",") != "1,allin" {
		t.Fatalf("%+v", got)
	}
	out.Reset()
	if err := runLBR(context.Background(), []string{"fold", "--hands", "20", "--seed", "3", "--no-progress", "--sizes", "0.5,allin", "--preflop"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"LBR wins +750 mbb/g ± 0", "[0.5 allin]", "decides before the flop"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, out.String())
		}
	}
	for _, args := range [][]string{{"nobody"}, {"fold", "--hands", "2"}, {"fold", "--variant", "stud"}, {"fold", "--trace"}, {},
		{"fold", "--chart", "x.svg"}, {"--record", "x.csv"}, {"fold", "--record", "x.csv", "--chart", "x.pdf"},
		{"fold", "--sizes", "pot"}, {"fold", "--samples", "0"}, {"fold", "--runouts", "0"},
		{"--pool"}, {"fold", "--record", "x.csv", "--pool"}, {"--record", "x.csv", "--chart", "x.svg", "--pool"}} {
		err := runLBR(context.Background(), append(args, "--no-progress"), io.Discard, io.Discard)
		var e *exitError
		if !errors.As(err, &e) || e.code != 2 {
			t.Errorf("%v: %v, want exit code 2", args, err)
		}
	}
}

// felt lbr plays fixed-limit too (it refused any variant but nl): against fold
// it wins the blinds there as well. --record appends each run to a CSV file
// and --chart draws the file's runs of the variant, with or without a new run.
func TestLBRLimitRecordAndChart(t *testing.T) {
	dir := t.TempDir()
	rec, chart := filepath.Join(dir, "lbr.csv"), filepath.Join(dir, "lbr.svg")
	var out bytes.Buffer
	args := []string{"fold", "--variant", "limit", "--hands", "20", "--seed", "3", "--no-progress", "--record", rec}
	if err := runLBR(context.Background(), args, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"LBR vs fold: fixed-limit Hold'em", "the fixed bet", "LBR wins +750 mbb/g ± 0"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, out.String())
		}
	}
	args = []string{"call", "--variant", "limit", "--hands", "20", "--seed", "3", "--no-progress", "--record", rec, "--preflop", "--chart", chart}
	if err := runLBR(context.Background(), args, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := lbr.ReadRecords(f)
	f.Close()
	if err != nil || len(recs) != 2 || recs[0].Bot != "fold" || recs[0].Variant != "limit" || recs[0].MBBPerGame != 750 || !recs[1].Preflop {
		t.Fatalf("records %+v, %v", recs, err)
	}
	if svg, err := os.ReadFile(chart); err != nil || !bytes.Contains(svg, []byte("<svg")) {
		t.Fatalf("chart: %v", err)
	}
	os.Remove(chart)
	if err := runLBR(context.Background(), []string{"--record", rec, "--chart", chart, "--variant", "limit"}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(chart); err != nil {
		t.Fatal(err)
	}
	// No run of nl in the file: nothing to draw, said so.
	if err := runLBR(context.Background(), []string{"--record", rec, "--chart", chart}, io.Discard, io.Discard); err == nil {
		t.Fatal("a chart of nl from a file of limit runs: no error")
	}
}

// Bad --deals are usage errors, before anything is played.
func TestLBRBadDeals(t *testing.T) {
	for _, deals := range []string{"5:5", "5:3", "-1:5", "a:b", "5", ":7", "0:99999999999999999999", "0:1", "1:2", "0x0:10", "0:1e3", "0:1100000000000"} {
		args := []string{"call", "--deals", deals, "--no-progress"}
		err := runLBR(context.Background(), args, io.Discard, io.Discard)
		var e *exitError
		if !errors.As(err, &e) || e.code != 2 || !strings.Contains(err.Error(), "--deals") {
			t.Errorf("--deals %q: %v, want a usage error about --deals", deals, err)
		}
	}
	err := runLBR(context.Background(), []string{"call", "--deals", "0:10", "--hands", "20", "--no-progress"}, io.Discard, io.Discard)
	var e *exitError
	if !errors.As(err, &e) || e.code != 2 {
		t.Errorf("--deals and --hands: %v, want a usage error", err)
	}
}

// lbrJSON runs felt lbr with args and --json and returns its output.
func lbrJSON(t *testing.T, args ...string) lbrOutput {
	t.Helper()
	var out bytes.Buffer
	if err := runLBR(context.Background(), append(args, "--json", "--no-progress"), &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var got lbrOutput
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	return got
}

// A measurement in pieces: --deals 0:7 and 7:20 of seed 15 recorded, --pool
// prints the figures of one run of --deals 0:20 (to the file's rounding), plain
// and with the control variate. A later run over deals already recorded counts
// instead of the lines it overlaps, which --pool names on standard error.
func TestLBRPiecesPool(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "lbr.csv")
	base := []string{"random", "--seed", "15", "--runouts", "20", "--preflop", "--record", rec}
	lbrJSON(t, append(base, "--deals", "0:7")...)
	if got := lbrJSON(t, append(base, "--deals", "7:20", "--workers", "3")...); got.FirstDeal != 7 || got.Deals != 13 || got.Hands != 26 {
		t.Fatalf("--deals 7:20: %+v", got)
	}
	one := lbrJSON(t, "random", "--seed", "15", "--runouts", "20", "--preflop", "--deals", "0:20")
	var out, errOut bytes.Buffer
	if err := runLBR(context.Background(), []string{"--record", rec, "--pool", "--json"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var pools []lbrPoolOutput
	if err := json.Unmarshal(out.Bytes(), &pools); err != nil {
		t.Fatal(err)
	}
	if len(pools) != 1 || pools[0].Hands != 40 || pools[0].Runs != 2 || errOut.Len() != 0 {
		t.Fatalf("pools %+v, stderr %q", pools, errOut.String())
	}
	if !slices.Equal(pools[0].Builds, []string{buildinfo.Revision()}) { // each line names the build that made it
		t.Errorf("builds %q, want [%s]", pools[0].Builds, buildinfo.Revision())
	}
	p := pools[0]
	for _, x := range [][2]float64{{p.MBBPerGame, one.MBBPerGame}, {p.MBBCI95, one.MBBCI95}, {p.CVMBBPerGame, one.CV.MBBPerGame}, {p.CVMBBCI95, one.CV.MBBCI95}} {
		if math.Abs(x[0]-x[1]) > 0.1 {
			t.Errorf("pooled %+v, one run %+v", p, one)
		}
	}
	lbrJSON(t, append(base, "--deals", "5:10")...)
	out.Reset()
	if err := runLBR(context.Background(), []string{"--record", rec, "--pool"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"line 2 (nl random, seed 15, deals 0:7) overlaps the later line 4 (deals 5:10)",
		"line 3 (nl random, seed 15, deals 7:20) overlaps the later line 4 (deals 5:10)"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut.String())
		}
	}
	if !strings.Contains(out.String(), "random  true") || !strings.Contains(out.String(), "  10  ") ||
		!strings.Contains(out.String(), shortBuilds([]string{buildinfo.Revision()})) {
		t.Errorf("--pool after the overlapping run:\n%s", out.String())
	}
}

// cancelOnRate cancels once the progress bar shows a running mean (two deals
// counted).
type cancelOnRate struct {
	cancel func()
	seen   bytes.Buffer
}

func (w *cancelOnRate) Write(p []byte) (int, error) {
	w.seen.Write(p)
	if bytes.Contains(w.seen.Bytes(), []byte("mbb/g")) {
		w.cancel()
	}
	return len(p), nil
}

// Stopped (the signal's context cancelled), felt lbr prints and records the
// deals it completed and says which, exiting with an error; stopped before two
// deals it records nothing.
func TestLBRStoppedRecordsPartial(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "lbr.csv")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	args := []string{"random", "--seed", "15", "--runouts", "20", "--preflop", "--deals", "3:100000", "--workers", "1", "--record", rec, "--json"}
	runErr := runLBR(ctx, args, &out, &cancelOnRate{cancel: cancel})
	if runErr == nil || !strings.Contains(runErr.Error(), "stopped: counted deals 3:") || !strings.Contains(runErr.Error(), "go on with --deals") {
		t.Fatalf("stopped: %v", runErr)
	}
	var got lbrOutput
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := lbr.ReadRecords(f)
	f.Close()
	if err != nil || len(recs) != 1 || !got.Stopped || got.FirstDeal != 3 || got.Deals < 2 || recs[0].FirstDeal != 3 || recs[0].Hands != got.Hands {
		t.Fatalf("stopped run %+v, records %+v, %v", got, recs, err)
	}
	if !strings.Contains(runErr.Error(), arena.FormatDeals(3, 3+got.Deals)) {
		t.Errorf("the error %q does not name deals %s", runErr, arena.FormatDeals(3, 3+got.Deals))
	}

	stopped, stop := context.WithCancel(context.Background())
	stop()
	err = runLBR(stopped, args, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "nothing to report or record") {
		t.Fatalf("stopped at once: %v", err)
	}
	if recs2, _ := os.ReadFile(rec); strings.Count(string(recs2), "\n") != 2 {
		t.Errorf("stopped at once, the record file became:\n%s", recs2)
	}
}

// TestShortBuilds: --pool's table shows each commit's first 12 hex digits,
// "+dirty" kept, and "-" for lines that name no build.
func TestShortBuilds(t *testing.T) {
	rev := "e16fba9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a"
	if got := shortBuilds([]string{rev, rev + "+dirty", "unknown"}); got != "e16fba9c0d1e e16fba9c0d1e+dirty unknown" {
		t.Errorf("shortBuilds: %q", got)
	}
	if got := shortBuilds(nil); got != "-" {
		t.Errorf("shortBuilds(nil): %q", got)
	}
}

// --breakdown prints, after the result, where LBR won, the rows adding up to
// the hands played; with --json or --nats it is a usage error.
func TestLBRBreakdown(t *testing.T) {
	var out bytes.Buffer
	if err := runLBR(context.Background(), []string{"call", "--hands", "20", "--seed", "3", "--breakdown", "--no-progress"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	i := strings.Index(text, "Where LBR won (mbb/g of all 20 hands")
	if i < 0 || !strings.Contains(text[i:], "showdown") {
		t.Fatalf("no breakdown of the 20 hands:\n%s", text)
	}
	for _, args := range [][]string{{"--json"}, {"--nats", "nats://127.0.0.1:1"}} {
		err := runLBR(context.Background(), append([]string{"call", "--hands", "20", "--breakdown", "--no-progress"}, args...), io.Discard, io.Discard)
		var e *exitError
		if !errors.As(err, &e) || e.code != 2 || !strings.Contains(err.Error(), "--breakdown") {
			t.Errorf("--breakdown %v: %v, want a usage error about --breakdown", args, err)
		}
	}
}

// --cpuprofile writes a CPU profile of the run (pprof's gzip-compressed format);
// a path that cannot be created fails the run before it plays.
func TestLBRCPUProfile(t *testing.T) {
	checkCPUProfile(t, runLBR, "fold", "--hands", "20", "--seed", "3", "--no-progress")
}

// checkCPUProfile runs a command (run, as runLBR or runMatch) with args and
// --cpuprofile: the file must hold a gzip-compressed profile, and a path that
// cannot be created must fail the run, naming the flag, before it prints.
func checkCPUProfile(t *testing.T, run func(context.Context, []string, io.Writer, io.Writer) error, args ...string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cpu.prof")
	if err := run(context.Background(), append(args, "--cpuprofile", path), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("%s: %d bytes, not a gzip-compressed profile", path, len(b))
	}
	var out bytes.Buffer
	bad := filepath.Join(t.TempDir(), "missing", "cpu.prof")
	err = run(context.Background(), append(args, "--cpuprofile", bad), &out, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "--cpuprofile") || out.Len() != 0 {
		t.Fatalf("unwritable profile: %v, output %q", err, out.String())
	}
}
