package chat

import (
	"strings"
	"testing"
	"time"
)

func TestClean(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"  hello ", "hello", true},
		{"", "", false},
		{"   ", "", false},
		{"a\nb", "", false},
		{"bell\a", "", false},
		{"\xff", "", false},
		{strings.Repeat("é", MaxLen), strings.Repeat("é", MaxLen), true},
		{strings.Repeat("x", MaxLen+1), "", false},
		// Invisible formatting: bidi overrides and isolates, zero-width spaces,
		// a byte-order mark, a soft hyphen, a joiner between letters.
		{"invoice\u202Efdp.exe", "", false},
		{"\u2066hidden\u2069", "", false},
		{"a\u200Bb", "", false},
		{"\uFEFFhi", "", false},
		{"so\u00ADft", "", false},
		{"a\u200Db", "", false},
		{"\u200D", "", false},
		// ... but emoji keep their joiners, tags and modifiers.
		{"gg \U0001F468\u200D\U0001F469\u200D\U0001F467", "gg \U0001F468\u200D\U0001F469\u200D\U0001F467", true},
		{"\U0001F3F4\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F", "\U0001F3F4\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F", true},
		{"nh \U0001F44D\U0001F3FD", "nh \U0001F44D\U0001F3FD", true},
		{"\u2764\uFE0F\u200D\U0001F525", "\u2764\uFE0F\u200D\U0001F525", true},
		// What a red team got through the first version: tags that are no flag
		// (hidden words), chains of joiners, a joiner before a letter, line and
		// paragraph separators, blank letters, stacked accents.
		{"hi \u2603\U000E0069\U000E0067\U000E006E", "", false},
		{"\U0001F3F4\U000E0067\U000E0062", "", false}, // no cancel tag
		{"\U0001F3F4" + strings.Repeat("\U000E0061", 20) + "\U000E007F", "", false},
		{"x\u00A9" + strings.Repeat("\u200D", 50), "", false},
		{"x\u2603\u200Dhidden", "", false},
		{"a\u2028b", "", false},
		{"a\u2029b", "", false},
		{"a\u3164b", "", false},
		{"a\u2800b", "", false},
		{"z" + strings.Repeat("\u0301", 5), "", false},
		{"caf\u00E9 na\u0308ive", "caf\u00E9 na\u0308ive", true},
	} {
		got, err := Clean(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("Clean(%q) = %q, %v; want %q ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestLimiter(t *testing.T) {
	l := NewLimiter[int64](3, 10*time.Second)
	t0 := time.Unix(1000, 0)
	for i := range 3 {
		if !l.Allow(1, t0.Add(time.Duration(i)*time.Second)) {
			t.Fatalf("line %d refused", i)
		}
	}
	if l.Allow(1, t0.Add(3*time.Second)) {
		t.Fatal("fourth line within the window allowed")
	}
	if !l.Allow(2, t0.Add(3*time.Second)) {
		t.Fatal("another sender refused")
	}
	if !l.Allow(1, t0.Add(10*time.Second)) {
		t.Fatal("line after the first left the window refused")
	}
}

func TestLog(t *testing.T) {
	g := NewLog(2)
	for _, s := range []string{"a", "b", "c"} {
		g.Add(Line{Text: s})
	}
	got := g.Lines()
	if len(got) != 2 || got[0].Text != "b" || got[1].Text != "c" {
		t.Fatalf("Lines = %+v", got)
	}
}

// TestLimiterForgetsIdleSenders: a limiter remembers the senders of its last
// window, not every sender it ever counted (each guest that ever chatted in
// the lobby, each address): past minSweep senders, those idle for a window
// are forgotten, and a sender still in the window keeps its count.
func TestLimiterForgetsIdleSenders(t *testing.T) {
	l := NewLimiter[int64](2, 10*time.Second)
	start := time.Unix(1000, 0)
	l.Allow(-1, start.Add(5*time.Second))
	l.Allow(-1, start.Add(5*time.Second))
	for i := range int64(3 * minSweep) {
		l.Allow(i, start)
	}
	later := start.Add(11 * time.Second) // the first senders' lines are out of the window
	for i := range int64(3 * minSweep) {
		l.Allow(1_000_000+i, later)
	}
	if n := len(l.sent); n > 3*minSweep+1 { // the window's senders
		t.Fatalf("the limiter remembers %d senders, %d of them idle for a window", n, 3*minSweep)
	}
	if l.Allow(-1, later) {
		t.Fatal("a sender still in the window lost its count in a sweep")
	}
}
