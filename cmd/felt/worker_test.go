package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cluster/natstest"
)

// startWorkerProc runs "felt worker" from bin against NATS at url until the
// test ends, and waits until it is ready.
func startWorkerProc(t *testing.T, bin, url, name string) {
	t.Helper()
	cmd := exec.Command(bin, "worker", "--nats", url, "--workers", "1", "--name", name)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "arena worker ready") {
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(60 * time.Second):
		t.Fatal("felt worker did not get ready")
	}
}

// arenaJSON runs bin with args and returns its --json output without the
// figures of time and workers.
func arenaJSON(t *testing.T, bin string, args ...string) map[string]any {
	t.Helper()
	cmd := exec.CommandContext(context.Background(), bin, append(args, "--json", "--no-progress")...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("felt %v: %v\n%s", args, err, stderr.String())
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("felt %v: %v\n%s", args, err, out)
	}
	for _, k := range []string{"elapsed_ns", "workers", "hands_per_second"} {
		delete(m, k)
	}
	return m
}

// TestArenaOnNATSProcesses: felt match, league and lbr --nats, with two felt
// worker processes, print what they print without it.
func TestArenaOnNATSProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the felt binary")
	}
	bin := buildFelt(t)
	url := natstest.Start(t).ClientURL()
	startWorkerProc(t, bin, url, "one")
	startWorkerProc(t, bin, url, "two")
	for _, args := range [][]string{
		{"match", "montecarlo:samples=20", "random", "--hands", "300", "--seed", "21", "--cv"},
		{"league", "call", "raise", "tag", "--hands", "200", "--seed", "22", "--variant", "limit"},
		{"lbr", "tag", "--hands", "10", "--seed", "23", "--runouts", "50"},
	} {
		local := arenaJSON(t, bin, args...)
		farm := arenaJSON(t, bin, append(args, "--nats", url)...)
		if !reflect.DeepEqual(farm, local) {
			t.Errorf("felt %v --nats:\n%v\nwithout:\n%v", args, farm, local)
		}
	}
}

// TestArenaNATSFlagsChecked: what --nats cannot do is a usage error, and a
// NATS that does not answer an error, before any hand is played.
func TestArenaNATSFlagsChecked(t *testing.T) {
	ctx := context.Background()
	const nowhere = "nats://127.0.0.1:1"
	for _, c := range []struct {
		run  func(context.Context, []string, io.Writer, io.Writer) error
		args []string
	}{
		{runMatch, []string{"call", "raise", "--nats", nowhere, "--trace"}},
		{runMatch, []string{"call", "raise", "--nats", nowhere, "--history", t.TempDir()}},
		{runLeague, []string{"call", "raise", "--nats", nowhere, "--fold-model", "x.json"}},
	} {
		var e *exitError
		if err := c.run(ctx, c.args, io.Discard, io.Discard); !errors.As(err, &e) || e.code != 2 {
			t.Errorf("%v: %v, want a usage error", c.args, err)
		}
	}
	for _, w := range []workerCmd{{NATS: nowhere, AckWait: time.Millisecond}, {NATS: nowhere, AckWait: time.Second, Workers: -1}} {
		var e *exitError
		if err := w.run(ctx, io.Discard); !errors.As(err, &e) || e.code != 2 {
			t.Errorf("%+v: %v, want a usage error", w, err)
		}
	}
	if err := runMatch(ctx, []string{"call", "raise", "--nats", nowhere, "--no-progress"}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "connect") {
		t.Errorf("a NATS that does not answer: %v", err)
	}
}
