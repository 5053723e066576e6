package distrib

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cluster/natstest"
)

// logSink is a slog.Handler keeping every record, for tests that wait for a
// line.
type logSink struct {
	mu      sync.Mutex
	lines   []logLine
	changed chan struct{} // closed and replaced at each record
	attrs   []slog.Attr
	parent  *logSink
}

// logLine is one record: its message and attributes as text.
type logLine struct {
	msg   string
	attrs map[string]string
}

func newLogSink() *logSink { return &logSink{changed: make(chan struct{})} }

func (s *logSink) root() *logSink {
	if s.parent != nil {
		return s.parent
	}
	return s
}

func (s *logSink) Enabled(context.Context, slog.Level) bool { return true }

func (s *logSink) Handle(_ context.Context, r slog.Record) error {
	l := logLine{msg: r.Message, attrs: map[string]string{}}
	for _, a := range s.attrs {
		l.attrs[a.Key] = a.Value.String()
	}
	r.Attrs(func(a slog.Attr) bool { l.attrs[a.Key] = a.Value.String(); return true })
	root := s.root()
	root.mu.Lock()
	root.lines = append(root.lines, l)
	close(root.changed)
	root.changed = make(chan struct{})
	root.mu.Unlock()
	return nil
}

func (s *logSink) WithAttrs(as []slog.Attr) slog.Handler {
	return &logSink{attrs: append(append([]slog.Attr{}, s.attrs...), as...), parent: s.root()}
}

func (s *logSink) WithGroup(string) slog.Handler { return s }

// wait returns the first line whose message holds msg and whose attributes
// hold every key=value of want, waiting for it (a minute at most: then the
// test fails).
func (s *logSink) wait(t *testing.T, msg string, want ...string) logLine {
	t.Helper()
	return s.waitCount(t, 1, msg, want...)
}

// waitCount waits until n lines match as for wait, and returns the first.
func (s *logSink) waitCount(t *testing.T, n int, msg string, want ...string) logLine {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		s.mu.Lock()
		var found []logLine
		for _, l := range s.lines {
			if l.matches(msg, want) {
				found = append(found, l)
			}
		}
		changed := s.changed
		s.mu.Unlock()
		if len(found) >= n {
			return found[0]
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("%d of %d log lines %q %v", len(found), n, msg, want)
		}
	}
}

// count returns the number of lines whose message holds msg.
func (s *logSink) count(msg string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, l := range s.lines {
		if l.matches(msg, nil) {
			n++
		}
	}
	return n
}

func (l logLine) matches(msg string, want []string) bool {
	if !strings.Contains(l.msg, msg) {
		return false
	}
	for _, kv := range want {
		k, v, _ := strings.Cut(kv, "=")
		if !strings.Contains(l.attrs[k], v) {
			return false
		}
	}
	return true
}

// farm runs a NATS server with JetStream until the test ends and returns its
// URL.
func farm(t *testing.T) string {
	t.Helper()
	return natstest.Start(t).ClientURL()
}

// dial connects to the farm at url as name, with a short ack wait and small
// items, logging to sink.
func dial(t *testing.T, url, name string, sink *logSink, tweak ...func(*Config)) *Conn {
	t.Helper()
	cfg := Config{URL: url, Name: name, AckWait: 500 * time.Millisecond, Chunk: 4, Log: slog.New(sink)}
	for _, f := range tweak {
		f(&cfg)
	}
	c, err := Dial(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// startWorker runs c.Work until the test ends or stop is called; stop returns
// Work's error.
func startWorker(t *testing.T, c *Conn, wc WorkerConfig) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var err error
	finished := make(chan struct{})
	go func() { err = c.Work(ctx, wc); close(finished) }()
	stop = func() error {
		cancel()
		<-finished
		return err
	}
	t.Cleanup(func() { _ = stop() })
	return stop
}
