package announce

import (
	"cmp"
	"context"
	"net"
	"slices"
	"sync"
	"time"
)

// MaxHouses bounds the houses a Directory remembers: beyond it, the one heard
// from longest ago is forgotten.
const MaxHouses = 64

// Directory is the houses heard on the local network lately, kept up to date
// by a goroutine reading beacons: what "felt houses" prints, for a house's own
// lobby (docs/house.md, "Houses on your network"). It is safe for concurrent
// use.
type Directory struct {
	keep time.Duration
	now  func() time.Time

	mu   sync.Mutex
	seen map[string]heard // by URL
}

type heard struct {
	h  House
	at time.Time
}

// Watch reads beacons from c until ctx is done (then closes c) and returns the
// Directory of the houses heard within keep of now.
func Watch(ctx context.Context, c *net.UDPConn, keep time.Duration) *Directory {
	d := newDirectory(keep)
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	go func() {
		defer stop()
		buf := make([]byte, MaxDatagram+1)
		for {
			n, src, err := c.ReadFromUDP(buf)
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				continue // a datagram that could not be read: the next may
			}
			if h, ok := houseOf(buf[:n], src); ok {
				d.add(h)
			}
		}
	}()
	return d
}

// newDirectory returns an empty Directory keeping houses heard within keep.
func newDirectory(keep time.Duration) *Directory {
	return &Directory{keep: keep, now: time.Now, seen: map[string]heard{}}
}

// add remembers h as heard now, forgetting the house heard from longest ago
// when MaxHouses are remembered already.
func (d *Directory) add(h House) {
	now := d.now()
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.seen[h.URL]; !ok && len(d.seen) >= MaxHouses {
		oldest := ""
		for url, e := range d.seen {
			if oldest == "" || e.at.Before(d.seen[oldest].at) {
				oldest = url
			}
		}
		delete(d.seen, oldest)
	}
	d.seen[h.URL] = heard{h: h, at: now}
}

// Houses returns the houses heard within the Directory's keep of now, one per
// URL (the latest beacon), sorted by name then URL.
func (d *Directory) Houses() []House {
	now := d.now()
	d.mu.Lock()
	defer d.mu.Unlock()
	out := []House{}
	for url, e := range d.seen {
		if now.Sub(e.at) > d.keep {
			delete(d.seen, url)
			continue
		}
		out = append(out, e.h)
	}
	slices.SortFunc(out, func(a, b House) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.URL, b.URL))
	})
	return out
}
