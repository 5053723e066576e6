package arena

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBarChartTicksArePlain: a bar chart's y axis in thousands is labelled
// "2000", not "2000.00".
func TestBarChartTicksArePlain(t *testing.T) {
	c, err := BarChart("t", "mbb/g", []string{"a", "b"}, []float64{234, 2531}, []float64{41, 112})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "c.svg")
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(b)
	if strings.Contains(svg, ".00<") || strings.Contains(svg, ".00\n") {
		t.Errorf("tick labels with needless decimals in %s", svg[:min(len(svg), 400)])
	}
	if !strings.Contains(svg, "2000") {
		t.Errorf("no tick at 2000")
	}
}
