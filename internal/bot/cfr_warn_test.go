package bot

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// A cfr bot made without a strategy says so, once per process, instead of
// silently playing as a calling station; one with a strategy says nothing.
func TestCFRWithoutStrategyWarns(t *testing.T) {
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	defer slog.SetDefault(old)
	noStrategyOnce = sync.Once{}
	for range 3 {
		if _, err := New("cfr", Options{}); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Count(buf.String(), "cfr bot without a strategy"); got != 1 {
		t.Fatalf("%d warnings, want 1:\n%s", got, buf.String())
	}
}
