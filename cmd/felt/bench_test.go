package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBenchEvalJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("enumerates every 7-card hand")
	}
	var out bytes.Buffer
	c := benchEvalCmd{JSON: true, Rounds: 2, Hands: 1000, Samples: 10000}
	if err := c.run(&out); err != nil {
		t.Fatal(err)
	}
	var got evalFigures
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out.String())
	}
	if got.Random7 <= 0 || got.Enum7 <= 0 || got.ExactAAKK <= 0 || got.MC6 <= 0 || got.Rounds != 2 {
		t.Errorf("the earlier builds' figures: %+v", got)
	}
	var names []string
	for _, it := range got.Items {
		names = append(names, it.Name)
		if !(it.WallMin <= it.WallRate && it.WallRate <= it.WallMax && it.WallMin > 0) ||
			!(it.CPUMin <= it.CPURate && it.CPURate <= it.CPUMax && it.CPUMin > 0) || it.Unit == "" {
			t.Errorf("%s: %+v", it.Name, it)
		}
	}
	if strings.Join(names, " ") != "random7 enum7 exact_aa_kk exact_ranges mc6 mc6_1" {
		t.Errorf("items %v", names)
	}
	// Compared with itself, every item is near 1x; a file that is not a bench's
	// output is a usage error.
	old := filepath.Join(t.TempDir(), "old.json")
	if err := os.WriteFile(old, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	c = benchEvalCmd{Rounds: 1, Hands: 1000, Samples: 10000, Compare: old}
	if err := c.run(&out); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "x old (CPU)"); n != 6 {
		t.Errorf("%d comparisons, want 6:\n%s", n, out.String())
	}
	if err := os.WriteFile(old, []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	var e *exitError
	if err := c.run(&out); !errors.As(err, &e) || e.code != 2 {
		t.Errorf("--compare of a bad file: %v", err)
	}
}

// spread is the median and range.
func TestSpread(t *testing.T) {
	for _, tc := range []struct {
		xs          []float64
		med, lo, hi float64
	}{
		{nil, 0, 0, 0}, {[]float64{3}, 3, 3, 3}, {[]float64{5, 1, 3}, 3, 1, 5}, {[]float64{4, 1, 3, 2}, 2.5, 1, 4},
	} {
		if m, lo, hi := spread(tc.xs); m != tc.med || lo != tc.lo || hi != tc.hi {
			t.Errorf("spread(%v) = %v %v %v", tc.xs, m, lo, hi)
		}
	}
}

func TestBenchEvalRejectsBadFlags(t *testing.T) {
	c := benchEvalCmd{Rounds: 0, Hands: 10, Samples: 10}
	err := c.run(&bytes.Buffer{})
	var e *exitError
	if !errors.As(err, &e) || e.code != 2 {
		t.Fatalf("err %v, want an exit-2 usage error", err)
	}
}

// --items runs only the named items, in felt's order; an unknown name is a usage error
// and runs nothing.
func TestBenchEvalItems(t *testing.T) {
	var out bytes.Buffer
	c := benchEvalCmd{JSON: true, Rounds: 1, Hands: 1000, Samples: 1000, Items: []string{"mc6_1", "random7"}}
	if err := c.run(&out); err != nil {
		t.Fatal(err)
	}
	var got evalFigures
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Items) != 2 || got.Items[0].Name != "random7" || got.Items[1].Name != "mc6_1" || got.Random7 <= 0 || got.Enum7 != 0 {
		t.Errorf("--items mc6_1,random7: %+v", got)
	}
	out.Reset()
	c.Items = []string{"random7", "random8"}
	var e *exitError
	if err := c.run(&out); !errors.As(err, &e) || e.code != 2 || out.Len() != 0 {
		t.Errorf("--items random8: %v, output %q", err, out.String())
	}
}
