package addrkey

import (
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
