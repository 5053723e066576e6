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
	} {
		got, err := Clean(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("Clean(%q) = %q, %v; want %q ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestLimiter(t *testing.T) {
	l := NewLimiter(3, 10*time.Second)
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
