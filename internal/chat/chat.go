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

// Limiter allows each sender at most N lines in any window of Per. It is not safe
// for concurrent use: its owner (a table goroutine, the lobby under its lock)
// serialises the calls.
type Limiter struct {
	N    int
	Per  time.Duration
	sent map[int64][]time.Time
}

// NewLimiter returns a limiter of n lines per window.
func NewLimiter(n int, per time.Duration) *Limiter {
	return &Limiter{N: n, Per: per, sent: make(map[int64][]time.Time)}
}

// Allow reports whether sender may send a line at now, and counts it if so.
func (l *Limiter) Allow(sender int64, now time.Time) bool {
	times := l.sent[sender]
	keep := times[:0]
	for _, t := range times {
		if now.Sub(t) < l.Per {
			keep = append(keep, t)
		}
	}
	if len(keep) >= l.N {
		l.sent[sender] = keep
		return false
	}
	l.sent[sender] = append(keep, now)
	return true
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
