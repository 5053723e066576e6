package curve

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestRoundTripAndChart(t *testing.T) {
	pts := []Point{
		{"leduc", "dcfr", 1, 0.001, 2000}, {"leduc", "dcfr", 100, 0.01, 5},
		{"leduc", "cfr+", 1, 0.001, 2100}, {"leduc", "cfr+", 100, 0.012, 9},
	}
	var buf bytes.Buffer
	if err := Write(&buf, pts[:2], true); err != nil {
		t.Fatal(err)
	}
	if err := Write(&buf, pts[2:], false); err != nil {
		t.Fatal(err)
	}
	back, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(pts) || back[3] != pts[3] {
		t.Fatalf("read back %v", back)
	}
	for _, name := range []string{"c.svg", "c.png"} {
		var img bytes.Buffer
		if err := Chart(&img, name, "Leduc", back); err != nil {
			t.Fatal(err)
		}
		if img.Len() < 1000 {
			t.Errorf("%s: %d bytes", name, img.Len())
		}
	}
	if err := Chart(&bytes.Buffer{}, "c.gif", "Leduc", back); err == nil {
		t.Error("a .gif chart was accepted")
	}
	if _, err := Read(strings.NewReader("a,b\n")); !errors.Is(err, ErrBadCurve) {
		t.Errorf("bad header: %v", err)
	}
}
