package addrkey

import (
	"fmt"
	"math"
	"net"
	"strings"
	"testing"
)

func TestOf(t *testing.T) {
	for in, want := range map[string]string{
		"10.1.2.3":              "10.1.2.3",
		"::ffff:10.1.2.3":       "10.1.2.3",
		"2001:db8:1:2:3:4:5:6":  "2001:db8:1:2::/64",
		"fe80::1%eth0":          "fe80::/64",
		"pipe":                  "pipe",
		strings.Repeat("x", 80): strings.Repeat("x", 64),
	} {
		if got := Of(in); got != want {
			t.Errorf("Of(%q) = %q, want %q", in, got, want)
		}
	}
	if got := OfAddr(&net.TCPAddr{IP: net.ParseIP("2001:db8::7"), Port: 9}); got != "2001:db8::/64" {
		t.Errorf("OfAddr = %q", got)
	}
	if got := OfAddr(nil); got != "" {
		t.Errorf("OfAddr(nil) = %q", got)
	}
}

func TestWide(t *testing.T) {
	for in, want := range map[string]string{
		"10.1.2.3":             "",
		"::ffff:10.1.2.3":      "",
		"2001:db8:1:2:3:4:5:6": "2001:db8:1::/48",
		"2001:db8:1:2::/64":    "2001:db8:1::/48", // Of's key
		"fe80::1%eth0":         "fe80::/48",
		"pipe":                 "",
	} {
		if got := Wide(in); got != want {
			t.Errorf("Wide(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCounter: one /64 holds Max; the /64s of one /48 hold WideFactor·Max in
// all; another /48 and IPv4 addresses are not affected; Release gives back.
func TestCounter(t *testing.T) {
	c := &Counter{Max: 2}
	for i := range 2 * WideFactor {
		if from := fmt.Sprintf("2001:db8:1:%x::1", i/2); !c.Take(from) {
			t.Fatalf("take %d from %s refused", i, from)
		}
	}
	if c.Take("2001:db8:1:ff::1") {
		t.Fatal("a further /64 of a full /48 was let in")
	}
	if c.Take("2001:db8:1::2") {
		t.Fatal("a third from one /64 was let in")
	}
	for _, from := range []string{"2001:db8:2::1", "192.0.2.1", "192.0.2.1", "pipe"} {
		if !c.Take(from) {
			t.Fatalf("take from %s refused", from)
		}
	}
	if c.Take("192.0.2.1") {
		t.Fatal("a third from one IPv4 address was let in")
	}
	c.Release("2001:db8:1::1")
	if !c.Take("2001:db8:1:ff::1") {
		t.Fatal("the /48 was still full after a release")
	}
	if (&Counter{}).Take("192.0.2.1") != true {
		t.Fatal("Max 0 bounded")
	}
}

// TestCounterNoBound: a Max too large for WideFactor·Max to fit an int (an
// operator's "no bound", --max-per-address 9223372036854775807) bounds
// nothing. Before, WideFactor·Max wrapped round to a negative number, and
// every IPv6 address was refused from the first.
func TestCounterNoBound(t *testing.T) {
	for _, max := range []int{math.MaxInt, math.MaxInt/WideFactor + 1} {
		c := &Counter{Max: max}
		for i := range 3 {
			if !c.Take("2001:db8:1::1") {
				t.Fatalf("Max %d: take %d from an IPv6 address refused", max, i)
			}
		}
	}
	if got := WideMax(math.MaxInt / WideFactor); got != math.MaxInt/WideFactor*WideFactor {
		t.Errorf("WideMax(MaxInt/WideFactor) = %d", got)
	}
	if got := WideMax(3); got != 3*WideFactor {
		t.Errorf("WideMax(3) = %d", got)
	}
}
