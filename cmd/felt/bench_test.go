package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

func TestBenchEvalJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("enumerates every 7-card hand")
	}
	var out bytes.Buffer
	c := benchEvalCmd{JSON: true, Rounds: 1, Hands: 1000, Samples: 10000}
	if err := c.run(&out); err != nil {
		t.Fatal(err)
	}
	var got map[string]float64
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out.String())
	}
	for _, k := range []string{"random7", "enum7", "exact_aa_kk", "mc6"} {
		if got[k] <= 0 {
			t.Errorf("%s = %v, want a positive figure", k, got[k])
		}
	}
	if len(got) != 4 {
		t.Errorf("keys %v, want exactly random7, enum7, exact_aa_kk, mc6", got)
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
