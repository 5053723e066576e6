package announce

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"
)

// The tests send only to 127.0.0.1 (unicast): multicast needs a network.

func TestAnnounceAndCollect(t *testing.T) {
	c, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	to := c.LocalAddr().String()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	for _, b := range []Beacon{
		{Name: "Friday", Addr: "0.0.0.0:8080", Tables: 3, Players: 2, Seated: 7},
		{Name: "Annex", Addr: "127.0.0.1:9090", Tables: 1},
	} {
		a := &Announcer{To: to, Every: 50 * time.Millisecond, Beacon: func() Beacon { return b }}
		go a.Run(ctx)
	}
	// Not beacons: skipped.
	junk, err := net.Dial("udp", to)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"hello", `{"felt":2,"name":"x","addr":"1.2.3.4:1"}`, `{"felt":1,"name":"","addr":"1.2.3.4:1"}`,
		`{"felt":1,"name":"x","addr":"example.org:80"}`, `{"felt":1,"name":"x","addr":"1.2.3.4:0"}`, "{\"felt\":1,\"name\":\"x\\u001b[2J\",\"addr\":\"1.2.3.4:1\"}", strings.Repeat("x", 2000)} {
		junk.Write([]byte(m))
	}
	junk.Close()
	hs, err := Collect(ctx, c, 400*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 2 {
		t.Fatalf("houses: %+v", hs)
	}
	if h := hs[0]; h.Name != "Annex" || h.URL != "http://127.0.0.1:9090" || h.Tables != 1 {
		t.Errorf("first: %+v", h)
	}
	if h := hs[1]; h.Name != "Friday" || h.URL != "http://127.0.0.1:8080" || h.Tables != 3 || h.Players != 2 || h.Seated != 7 || !strings.HasPrefix(h.From, "127.0.0.1:") {
		t.Errorf("second: %+v", h)
	}
}

func TestResolve(t *testing.T) {
	lan := net.ParseIP("192.168.1.20")
	for _, tc := range []struct {
		addr string
		src  net.IP
		want string
	}{
		{"0.0.0.0:8080", lan, "192.168.1.20:8080"},
		{":8080", lan, "192.168.1.20:8080"},
		{"127.0.0.1:8080", lan, "192.168.1.20:8080"},
		{"192.168.1.9:8080", lan, "192.168.1.9:8080"},
		{"0.0.0.0:8080", net.IPv4(127, 0, 0, 1), "127.0.0.1:8080"},
		{"[::]:8080", net.IPv4(127, 0, 0, 1), "127.0.0.1:8080"},
	} {
		if got := resolve(Beacon{Addr: tc.addr}, tc.src); got != tc.want {
			t.Errorf("resolve(%s from %s) = %s, want %s", tc.addr, tc.src, got, tc.want)
		}
	}
}

func TestCollectStopsWithContext(t *testing.T) {
	c, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	if hs, err := Collect(ctx, c, time.Minute); err != nil || len(hs) != 0 || time.Since(start) > 5*time.Second {
		t.Fatalf("%v %v after %s", hs, err, time.Since(start))
	}
}

// TestBeaconNamesShowWhatTheySay: a house heard on the network is listed in
// every player's lobby by its name, as a link: a name with a bidi override,
// an invisible character or a control character is not a beacon (a neighbour
// could otherwise show a name that reads as another house's).
func TestBeaconNamesShowWhatTheySay(t *testing.T) {
	for name, ok := range map[string]bool{
		"Friday Club":             true,
		"Café 🂡":                  true,
		"Friday\u202eCLUB":        false,
		"Fri\u200bday Club":       false,
		"Friday\nClub":            false,
		"\u2066Friday Club\u2069": false,
	} {
		_, err := Parse([]byte(`{"felt":1,"name":"` + name + `","addr":":8080"}`))
		if (err == nil) != ok {
			t.Errorf("a beacon named %q: %v, want accepted %v", name, err, ok)
		}
	}
}
