package announce

import (
	"net"
	"net/url"
	"strconv"
	"testing"
	"time"
)

// FuzzParse feeds any datagram to what a listener does with it: Parse never
// panics, and a beacon it accepts has a printable name of at most MaxName bytes,
// no negative count, and gives a URL of http, an IP address and a port of 1 to
// 65535 written plainly, whoever sent it.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"felt":1,"name":"Club","addr":"192.168.1.5:8080","tables":2,"players":3,"seated":4}`,
		`{"felt":1,"name":"Club","addr":":8080"}`,
		`{"felt":1,"name":"Club","addr":"[::]:8080"}`,
		`{"felt":1,"name":"Club","addr":"[fe80::1%eth0]:8080"}`,
		`{"felt":1,"name":"Club","addr":"0.0.0.0:+80"}`,
		`{"felt":2,"name":"Club","addr":"1.2.3.4:80"}`,
		`{"felt":1,"name":"\u202eevil","addr":"1.2.3.4:80","tables":-1}`,
	} {
		f.Add([]byte(s))
	}
	src := &net.UDPAddr{IP: net.IPv4(10, 0, 0, 7), Port: 47474}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, ok := houseOf(data, src)
		if !ok {
			return
		}
		if h.Name == "" || len(h.Name) > MaxName || !PrintableName(h.Name) || h.Tables < 0 || h.Players < 0 || h.Seated < 0 {
			t.Fatalf("accepted %q: %+v", data, h.Beacon)
		}
		u, err := url.Parse(h.URL)
		if err != nil || u.Scheme != "http" || u.Path != "" || u.User != nil || net.ParseIP(u.Hostname()) == nil {
			t.Fatalf("accepted %q: URL %q (%v)", data, h.URL, err)
		}
		if p, err := strconv.Atoi(u.Port()); err != nil || p < 1 || p > 65535 || strconv.Itoa(p) != u.Port() {
			t.Fatalf("accepted %q: URL %q has port %q", data, h.URL, u.Port())
		}
	})
}

// A host flooding the group with beacons of made-up addresses cannot grow what
// Collect keeps past MaxHouses.
func TestCollectKeepsAtMostMaxHouses(t *testing.T) {
	c, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	flood, err := net.Dial("udp", c.LocalAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer flood.Close()
	for i := range 3 * MaxHouses {
		if _, err := flood.Write([]byte(`{"felt":1,"name":"h","addr":"10.1.0.1:` + strconv.Itoa(1000+i) + `"}`)); err != nil {
			t.Fatal(err)
		}
	}
	hs, err := Collect(t.Context(), c, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) == 0 || len(hs) > MaxHouses {
		t.Errorf("%d houses collected, want 1 to %d", len(hs), MaxHouses)
	}
}
