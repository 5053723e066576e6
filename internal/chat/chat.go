// Package chat holds what the lobby and the table rooms share about chat: the line
// sent to clients, the rules a line must follow, a per-player rate limit and the
// short history a newcomer sees. There are no private messages.
package chat

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/felt-poker/felt/protocol"
)

// MaxLen is the most characters a chat line may hold.
const MaxLen = 200

// ErrRateLimited reports a line sent faster than the Limiter allows.
var ErrRateLimited = errors.New("rate limited")

// Line is one chat message as clients receive it ({"type":"chat",...}).
type Line = protocol.ChatLine

// NewLine returns the line from says in table (empty: the lobby) at now.
func NewLine(table, from, text string, now time.Time) Line {
	return Line{Type: "chat", Table: table, From: from, Text: text, At: now.UnixMilli()}
}

// Clean trims text and checks it: 1 to MaxLen characters on one line that
// CheckText accepts.
func Clean(text string) (string, error) {
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return "", errors.New("text: empty")
	case utf8.RuneCountInString(text) > MaxLen:
		return "", fmt.Errorf("text: at most %d characters", MaxLen)
	}
	if err := CheckText(text, false); err != nil {
		return "", fmt.Errorf("text: %w", err)
	}
	return text, nil
}

// Limiter allows each sender (a player's ID, an address) at most N lines in
// any window of Per. It forgets the senders with nothing in the window once
// they outnumber those it last kept twice over, so that its memory follows the
// senders of the last window, not every sender since it was made. It is not
// safe for concurrent use: its owner (a table goroutine, the lobby under its
// lock) serialises the calls.
type Limiter[K comparable] struct {
	N       int
	Per     time.Duration
	sent    map[K][]time.Time
	sweepAt int // the number of senders at which the next call forgets the idle ones
}

// minSweep is the fewest senders a Limiter forgets idle ones among.
const minSweep = 1024

// NewLimiter returns a limiter of n lines per window.
func NewLimiter[K comparable](n int, per time.Duration) *Limiter[K] {
	return &Limiter[K]{N: n, Per: per, sent: make(map[K][]time.Time), sweepAt: minSweep}
}

// Allow reports whether sender may send a line at now, and counts it if so.
func (l *Limiter[K]) Allow(sender K, now time.Time) bool {
	if len(l.sent) >= l.sweepAt {
		l.sweep(now)
	}
	keep := l.recent(l.sent[sender], now)
	if len(keep) >= l.N {
		l.sent[sender] = keep
		return false
	}
	l.sent[sender] = append(keep, now)
	return true
}

// recent returns the times of times within the window ending at now, in times's
// array.
func (l *Limiter[K]) recent(times []time.Time, now time.Time) []time.Time {
	keep := times[:0]
	for _, t := range times {
		if now.Sub(t) < l.Per {
			keep = append(keep, t)
		}
	}
	return keep
}

// sweep forgets the senders with no line in the window ending at now.
func (l *Limiter[K]) sweep(now time.Time) {
	for k, times := range l.sent {
		if keep := l.recent(times, now); len(keep) == 0 {
			delete(l.sent, k)
		} else {
			l.sent[k] = keep
		}
	}
	l.sweepAt = max(minSweep, 2*len(l.sent))
}

// Log keeps the last lines said, oldest first.
type Log struct {
	max   int
	lines []Line
}

// NewLog returns a log of at most max lines.
func NewLog(max int) *Log { return &Log{max: max} }

// Add appends a line, dropping the oldest beyond the log's size.
func (g *Log) Add(l Line) {
	g.lines = append(g.lines, l)
	if len(g.lines) > g.max {
		g.lines = append(g.lines[:0], g.lines[len(g.lines)-g.max:]...)
	}
}

// Lines returns a copy of the lines, oldest first (never nil).
func (g *Log) Lines() []Line { return append([]Line{}, g.lines...) }
