package webui_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/felt-poker/felt/internal/announce"
	"github.com/felt-poker/felt/internal/browsertest"
	"github.com/felt-poker/felt/internal/web"
)

// TestBrowserHousesOnTheNetwork: two houses announce themselves to where this
// house listens (a real UDP socket, unicast on 127.0.0.1: multicast needs a
// network); the lobby lists them as links with their tables and players. The
// list is photographed at the three screen sizes.
func TestBrowserHousesOnTheNetwork(t *testing.T) {
	browsertest.Need(t)
	c, err := announce.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	dir := announce.Watch(ctx, c, time.Minute)
	for _, b := range []announce.Beacon{{Name: "Friday Club", Addr: "127.0.0.1:8181", Tables: 3, Players: 5}, {Name: "Annex", Addr: "127.0.0.1:9090", Tables: 1, Players: 1}} {
		a := &announce.Announcer{To: c.LocalAddr().String(), Every: 100 * time.Millisecond, Beacon: func() announce.Beacon { return b }}
		go a.Run(ctx)
	}
	base := startHouseWith(t, 100*time.Millisecond, 800*time.Millisecond, func(cfg *web.Config) { cfg.Houses = dir.Houses })
	browser := browsertest.New(t)
	p := profile(t, browser)
	do(t, p, "the lobby", chromedp.Navigate(base+"/lobby"))
	waitJS[bool](t, p, "two houses listed", `document.querySelectorAll('#houses li').length === 2 && !document.getElementById('houses-panel').hidden`, 15*time.Second)
	if got := eval[[]string](t, p, `[...document.querySelectorAll('#houses li a')].map(a => a.textContent + ' ' + a.getAttribute('href'))`); len(got) != 2 ||
		got[0] != "Annex http://127.0.0.1:9090" || got[1] != "Friday Club http://127.0.0.1:8181" {
		t.Fatalf("houses listed: %v", got)
	}
	for _, sc := range screens {
		opts := []chromedp.EmulateViewportOption{}
		if sc.phone {
			opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
		}
		do(t, p, "window "+sc.name, chromedp.EmulateViewport(sc.width, sc.height, opts...))
		if w := eval[[]int](t, p, `[document.documentElement.scrollWidth, innerWidth]`); w[0] > int(sc.width) {
			t.Errorf("at %s the lobby is %d pixels wide: it scrolls sideways", sc.name, w[0])
		}
		eval[any](t, p, `(document.getElementById('houses-panel').scrollIntoView({block: 'center'}), null)`)
		windowShot(t, p, "houses-"+sc.name+".png")
	}
}
