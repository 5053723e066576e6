package announce

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"
)

// TestDirectory: a Directory lists the houses heard lately, skips datagrams
// that are not beacons, forgets a house once silent for its keep, and holds at
// most MaxHouses.
func TestDirectory(t *testing.T) {
	c, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	d := Watch(ctx, c, time.Minute)
	clock := time.Now()
	d.mu.Lock()
	d.now = func() time.Time { d.mu.Lock(); defer d.mu.Unlock(); return clock }
	d.mu.Unlock()
	send, err := net.Dial("udp", c.LocalAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer send.Close()
	for _, m := range []string{"junk", `{"felt":1,"name":"Annex","addr":"127.0.0.1:9090","tables":2}`, `{"felt":1,"name":"x","addr":"evil.example:80"}`} {
		send.Write([]byte(m))
	}
	var hs []House
	for range 200 {
		if hs = d.Houses(); len(hs) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(hs) != 1 || hs[0].Name != "Annex" || hs[0].URL != "http://127.0.0.1:9090" || hs[0].Tables != 2 {
		t.Fatalf("houses %+v", hs)
	}
	d.mu.Lock()
	clock = clock.Add(2 * time.Minute)
	d.mu.Unlock()
	if hs := d.Houses(); len(hs) != 0 {
		t.Fatalf("a silent house is still listed: %+v", hs)
	}
	for i := range MaxHouses + 10 {
		d.add(House{Beacon: Beacon{Name: fmt.Sprint("h", i)}, URL: fmt.Sprint("http://10.0.0.1:", 1000+i)})
	}
	if n := len(d.Houses()); n != MaxHouses {
		t.Fatalf("%d houses remembered, want %d", n, MaxHouses)
	}
}
