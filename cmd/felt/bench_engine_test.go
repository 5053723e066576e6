package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestBenchEngineJSON(t *testing.T) {
	var out bytes.Buffer
	c := benchEngineCmd{JSON: true, Hands: 2000}
	if err := c.run(&out); err != nil {
		t.Fatal(err)
	}
	var got map[string]float64
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out.String())
	}
	if len(got) != 3 || got["hands"] != 2000 || got["hands_per_second"] <= 0 {
		t.Errorf("got %v, want hands 2000, a positive hands_per_second and allocs_per_hand", got)
	}
	// The engine does not allocate per hand (TestPlayOutDoesNotAllocate pins it at 0);
	// MemStats also counts anything else the test binary allocates meanwhile.
	if a, ok := got["allocs_per_hand"]; !ok || a < 0 || a > 0.01 {
		t.Errorf("allocs_per_hand = %v, want 0", a)
	}
}

func TestBenchEngineText(t *testing.T) {
	var out bytes.Buffer
	c := benchEngineCmd{Hands: 100}
	if err := c.run(&out); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "hands/s") || !strings.Contains(s, "allocs/hand") {
		t.Errorf("output %q lacks hands/s or allocs/hand", s)
	}
}

func TestBenchEngineRejectsBadFlags(t *testing.T) {
	c := benchEngineCmd{Hands: 0}
	err := c.run(&bytes.Buffer{})
	var e *exitError
	if !errors.As(err, &e) || e.code != 2 {
		t.Fatalf("err %v, want an exit-2 usage error", err)
	}
}
