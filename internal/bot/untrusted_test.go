package bot

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/engine"
)

// A name from the network may choose a bot and its harmless options, never a
// file: CheckUntrusted refuses every file option without touching the file and
// without repeating its value, and bounds samples.
func TestCheckUntrusted(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "written.json")
	for _, name := range []string{"chart", "montecarlo:samples=200,bluff=false", "montecarlo:samples=2000", "adaptive", "bayes", "neural", "cfr"} {
		if err := CheckUntrusted(name); err != nil {
			t.Errorf("CheckUntrusted(%q) = %v, want nil", name, err)
		}
	}
	for _, name := range []string{
		"adaptive:state=" + target,
		"bayes:state=" + target,
		"neural:weights=/etc/passwd",
		"cfr:strategy=/etc/shadow",
		"montecarlo:samples=1,state=" + target,
		"montecarlo:samples=2001",
		"montecarlo:samples=-1",
		"montecarlo:samples=1e9",
		"nosuchbot",
		"chart:x",
		"chart:colour=red",
	} {
		err := CheckUntrusted(name)
		if !errors.Is(err, ErrBadOption) && !errors.Is(err, ErrUnknownBot) {
			t.Errorf("CheckUntrusted(%q) = %v, want a bad option or unknown bot", name, err)
			continue
		}
		if err != nil && (strings.Contains(err.Error(), "/etc/") || strings.Contains(err.Error(), dir)) {
			t.Errorf("CheckUntrusted(%q) repeats the path: %v", name, err)
		}
	}
	if _, err := os.Stat(target); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a check wrote %s: %v", target, err)
	}
}

// Check reads no file: a weights file that does not exist passes the check (New
// then fails on it), and so does a FIFO, which would block a reader.
func TestCheckReadsNoFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	for _, name := range []string{"neural:weights=/no/such/file", "neural:weights=" + fifo} {
		if err := Check(name); err != nil {
			t.Errorf("Check(%q) = %v", name, err)
		}
	}
	if err := Check("neural:weights="); !errors.Is(err, ErrBadOption) {
		t.Errorf("Check(empty weights) = %v", err)
	}
}

// Even the operator's file options read only regular files of bounded size: a
// device or a FIFO is refused at once instead of exhausting memory or blocking.
// headsUpLimit is the game every bot plays, cfr included.
var headsUpLimit = &Game{Variant: engine.Holdem, Structure: engine.FixedLimit, Seats: 2}

func TestBotFilesAreRegularAndBounded(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	for _, name := range []string{"neural:weights=/dev/zero", "neural:weights=" + fifo, "adaptive:state=" + fifo, "cfr:strategy=" + fifo, "neural:weights=" + filepath.Dir(fifo)} {
		done := make(chan error, 1)
		go func() { _, err := New(name, Options{Game: headsUpLimit}); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("New(%q) accepted a file that is not regular", name)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("New(%q) blocked", name)
		}
	}
	big := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxFileSize+1); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadNet(big); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("LoadNet of a file over MaxFileSize: %v", err)
	}
}
