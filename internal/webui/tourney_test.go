package webui_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/felt-poker/felt/internal/browsertest"
	"github.com/felt-poker/felt/internal/tournament"
	"github.com/felt-poker/felt/internal/web"
)

// TestBrowserTournament: two players register for a heads-up sit-and-go, one
// from the lobby's tournaments panel, the other from the tournaments page; it
// starts when the second registers, and both pages take their players to the
// table, where each has a seat and cards. A spectator on a phone follows the
// tournament's page (state, level clock, players). Screenshots of the new
// screens at 1280x720 and 390x844 go to $FELT_SCREENSHOTS.
func TestBrowserTournament(t *testing.T) {
	browsertest.Need(t)
	base := startHouseWith(t, 300*time.Millisecond, 800*time.Millisecond, func(c *web.Config) {
		c.Tournaments.SitAndGos = []tournament.Spec{{Name: "Heads-up turbo", Seats: 2, BuyIn: 100, Stack: 1500, LevelTime: 3 * time.Minute}}
	})
	browser := browsertest.New(t)
	alice, bob := profile(t, browser), profile(t, browser)
	do(t, alice, "window size", chromedp.EmulateViewport(1280, 720))
	do(t, bob, "window size", chromedp.EmulateViewport(1280, 720))
	register(t, alice, base, "alice")
	register(t, bob, base, "bob")

	// alice registers from the lobby's panel.
	waitJS[bool](t, alice, "the lobby's tournaments", `!!document.querySelector('#tourneys-mini button.primary')`, 10*time.Second)
	windowShot(t, alice, "tournaments-lobby-1280x720.png")
	do(t, alice, "register in the lobby", chromedp.Click(`#tourneys-mini button.primary`))
	waitJS[bool](t, alice, "registered", `[...document.querySelectorAll('#tourneys-mini button')].some(b => b.textContent === 'Unregister')`, 10*time.Second)
	credits := waitJS[string](t, alice, "credits after the buy-in", `document.querySelector('#me-body .big-credits')?.textContent.includes('9,900') && document.querySelector('#me-body .big-credits').textContent`, 10*time.Second)
	t.Logf("alice's credits: %s", credits)
	href := eval[string](t, alice, `document.querySelector('#tourneys-mini a[href^="/tournaments/"]').href`)
	do(t, alice, "the tournament's page", chromedp.Navigate(href), chromedp.WaitVisible("#t-standings"))
	waitJS[bool](t, alice, "the page", `document.querySelector('#t-standings')?.textContent.includes('alice')`, 10*time.Second)
	windowShot(t, alice, "tournament-registering-1280x720.png")

	// bob registers from the tournaments page: it starts.
	do(t, bob, "the tournaments page", chromedp.Navigate(base+"/tournaments"))
	waitJS[bool](t, bob, "the list", `!!document.querySelector('#tourneys-body button.primary')`, 10*time.Second)
	windowShot(t, bob, "tournaments-1280x720.png")
	do(t, bob, "register on the page", chromedp.Click(`#tourneys-body button.primary`))
	for _, p := range []struct {
		ctx  context.Context
		name string
	}{{alice, "alice"}, {bob, "bob"}} {
		waitAcrossPages(t, p.ctx, p.name+" at the table", `location.pathname.startsWith('/table/') && !!document.querySelector('.seat.me')`, 20*time.Second)
		waitJS[bool](t, p.ctx, p.name+"'s cards", `document.querySelectorAll('#my-cards .card').length === 2`, 20*time.Second)
		if bad := eval[[]string](t, p.ctx, `[...document.querySelectorAll('#top-up, #stand, #leave, #sit, #buy-in')].map(e => e.id)`); len(bad) > 0 {
			t.Errorf("%s's tournament table offers %v", p.name, bad)
		}
		waitJS[bool](t, p.ctx, p.name+"'s level clock", `/^Level 1 · next in \d+:\d\d$/.test(document.querySelector('#t-level')?.textContent || '')`, 10*time.Second)
	}
	windowShot(t, alice, "tournament-table-1280x720.png")

	// A spectator on a phone: the list and the running tournament's page.
	phone := profile(t, browser)
	do(t, phone, "phone size", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	do(t, phone, "the list on a phone", chromedp.Navigate(base+"/tournaments"))
	waitJS[bool](t, phone, "the running tournament", `document.querySelector('#tourneys-body')?.textContent.includes('Running')`, 10*time.Second)
	if wide := eval[bool](t, phone, `document.documentElement.scrollWidth > innerWidth + 1`); wide {
		t.Errorf("the tournaments page scrolls sideways on a phone")
	}
	windowShot(t, phone, "tournaments-390x844.png")
	do(t, phone, "the tournament on a phone", chromedp.Navigate(href), chromedp.WaitVisible("#t-standings"))
	clock := waitJS[string](t, phone, "the level clock", `(() => { const c = document.querySelector('.t-clock'); return c && /^\d+:\d\d$/.test(c.textContent) && c.textContent; })()`, 10*time.Second)
	t.Logf("clock: %s", clock)
	if wide := eval[bool](t, phone, `document.documentElement.scrollWidth > innerWidth + 1`); wide {
		t.Errorf("the tournament's page scrolls sideways on a phone")
	}
	windowShot(t, phone, "tournament-running-390x844.png")
	do(t, phone, "the table on a phone", chromedp.Navigate(base+"/table/t1-1"), chromedp.WaitVisible(".seat"))
	waitJS[bool](t, phone, "the level clock at the table", `/^Level 1 · next in/.test(document.querySelector('#t-level')?.textContent || '')`, 10*time.Second)
	windowShot(t, phone, "tournament-table-390x844.png")
	do(t, phone, "the lobby on a phone", chromedp.Navigate(base+"/lobby"))
	waitJS[bool](t, phone, "the lobby's tournaments", `document.querySelector('#tourneys-mini')?.textContent.includes('Running')`, 10*time.Second)
	do(t, phone, "scroll to the panel", chromedp.ScrollIntoView(`#tourneys-mini`))
	windowShot(t, phone, "tournaments-lobby-390x844.png")
	do(t, alice, "the running tournament at 1280x720", chromedp.Navigate(href), chromedp.WaitVisible("#t-standings"))
	waitJS[bool](t, alice, "the clock", `/^\d+:\d\d$/.test(document.querySelector('.t-clock')?.textContent || '')`, 10*time.Second)
	windowShot(t, alice, "tournament-running-1280x720.png")

	// A laptop at 1366x768: bob's table, the tournament's page and the list.
	do(t, bob, "window size 1366x768", chromedp.EmulateViewport(1366, 768))
	windowShot(t, bob, "tournament-table-1366x768.png")
	for _, pg := range []struct{ name, url, ready string }{
		{"tournament-running", href, "#t-standings"},
		{"tournaments", base + "/tournaments", "#tourneys-body"},
	} {
		do(t, bob, pg.name+" at 1366x768", chromedp.Navigate(pg.url), chromedp.WaitVisible(pg.ready))
		waitJS[bool](t, bob, pg.name+" drawn", `document.body.textContent.includes('Running')`, 10*time.Second)
		if wide := eval[bool](t, bob, `document.documentElement.scrollWidth > innerWidth + 1`); wide {
			t.Errorf("%s scrolls sideways at 1366x768", pg.name)
		}
		windowShot(t, bob, pg.name+"-1366x768.png")
	}
}

// waitAcrossPages waits until a JavaScript expression is true in the tab,
// which may navigate meanwhile (an evaluation cut short by it is tried again).
func waitAcrossPages(t *testing.T, ctx context.Context, what, expr string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		c, cancel := context.WithTimeout(ctx, 2*time.Second)
		ok, err := chromedp.Run(c, chromedp.Evaluate[bool](expr))
		cancel()
		if err == nil && ok {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	failShot(t, ctx, what)
	t.Fatalf("waiting for %s: not after %v", what, timeout)
}
