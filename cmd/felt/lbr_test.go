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
		{"fold", "--sizes", "pot"}, {"fold", "--samples", "0"}, {"fold", "--runouts", "0"}} {
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
