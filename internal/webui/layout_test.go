package webui_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/felt-poker/felt/internal/browsertest"
)

// ringTable is the ring game the layout test lists in the lobby: the longest
// name a table may have.
const ringTable = "Friday_Night_NL"

// screen is a browser window size the house is laid out for.
type screen struct {
	name          string
	width, height int64
	phone         bool
}

// screens are the sizes the layout tests use: two laptops and a phone.
var screens = []screen{
	{"1280x720", 1280, 720, false},
	{"1366x768", 1366, 768, false},
	{"390x844", 390, 844, true},
}

// outside is a JavaScript function that lists the elements matching a selector
// (visible ones only) whose box is not wholly inside the window.
const outside = `(sel) => [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null).flatMap(e => {
  const b = e.getBoundingClientRect();
  const ok = b.left >= 0 && b.top >= 0 && b.right <= innerWidth + 0.5 && b.bottom <= innerHeight + 0.5;
  return ok ? [] : [(e.id || e.dataset.act || e.dataset.preset || e.textContent.trim().slice(0, 20)) + ' at ' + [b.left, b.top, b.right, b.bottom].map(Math.round).join(',') + ' in ' + innerWidth + 'x' + innerHeight];
})`

// notInWindow returns the visible elements matching sel that are not wholly
// inside the window.
func notInWindow(t *testing.T, ctx context.Context, sel string) []string {
	t.Helper()
	return eval[[]string](t, ctx, fmt.Sprintf(`(%s)(%q)`, outside, sel))
}

// shotsDir is where the layout screenshots go: $FELT_SCREENSHOTS (the
// repository's docs/screenshots when they are made for the documentation), or
// the test's artifacts.
func shotsDir(t *testing.T) string {
	if d := os.Getenv("FELT_SCREENSHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return artifacts(t)
}

// windowShot saves what the window shows (not the whole page) as a PNG at
// half size (three quarters on a phone), small enough for the documentation.
func windowShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	type view struct{ X, Y, W, H float64 }
	v := eval[view](t, ctx, `({x: scrollX, y: scrollY, w: innerWidth, h: innerHeight})`)
	scale := 0.5
	if v.W < 640 {
		scale = 0.75
	}
	res, err := chromedp.Call(ctx, page.CaptureScreenshot, page.CaptureScreenshotParams{
		Clip: &page.Viewport{X: v.X, Y: v.Y, Width: v.W, Height: v.H, Scale: scale},
	})
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(shotsDir(t), name)
	if err := os.WriteFile(path, res.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", path, len(res.Data))
}

// TestBrowserLayout lays the house out at two laptop sizes and on a phone: at
// the player's turn every action button (fold, check or call, raise, all-in,
// the amount presets) is inside the window; the lobby does not scroll sideways
// and its Join buttons are inside the window's width; after "Leave table", at a
// heads-up game and at a ring game in the middle of a hand, the lobby no longer
// says the player has a seat.
func TestBrowserLayout(t *testing.T) {
	browsertest.Need(t)
	base := startHouse(t, 300*time.Millisecond, 800*time.Millisecond)
	browser := browsertest.New(t)

	// A ring game with two bots, listed in the lobby with a long name and
	// long stakes (the widest row a table makes).
	host := profile(t, browser)
	register(t, host, base, "host")
	name, err := chromedp.Run(host, chromedp.Evaluate[string](`fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({name: "Friday_Night_NL", variant: "plhe", seats: 6, small_blind: 1000, big_blind: 2000, ante: 100, min_buy_in: 2000, max_buy_in: 9000, bots: ["call", "call"]})}).then(r => r.json()).then(j => j.name)`, chromedp.EvalAwaitPromise))
	if err != nil || name != ringTable {
		t.Fatalf("opening the ring game: %q %v", name, err)
	}

	for _, sc := range screens {
		t.Run(sc.name, func(t *testing.T) {
			p := profile(t, browser)
			opts := []chromedp.EmulateViewportOption{}
			if sc.phone {
				opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
			}
			do(t, p, "window size", chromedp.EmulateViewport(sc.width, sc.height, opts...))
			player := "p" + strings.ReplaceAll(sc.name, "x", "_")
			register(t, p, base, player)
			checkTurnButtons(t, p, sc)
			leaveToLobby(t, p, "the heads-up game")
			checkLobbyWidth(t, p, sc)
			do(t, p, "watch the ring game", chromedp.Click(`#tables-body tr[data-table="`+ringTable+`"] a.button`), chromedp.WaitVisible("#sit"))
			do(t, p, "sit at the ring game", chromedp.Click("#sit"), chromedp.WaitVisible(".seat.me"))
			waitJS[bool](t, p, "cards at the ring game", `document.querySelectorAll('#my-cards .card').length === 2 && document.body.dataset.over !== '1'`, 30*time.Second)
			leaveToLobby(t, p, "the ring game")
		})
	}
}

// checkTurnButtons opens a heads-up game against a calling bot and checks, at
// the player's first turn, that every action button is inside the window.
func checkTurnButtons(t *testing.T, ctx context.Context, sc screen) {
	t.Helper()
	do(t, ctx, "heads-up", chromedp.WaitReady(`#hu-bot option[value="call"]`), fill("#hu-bot", "call"),
		chromedp.Click("#hu-play"), chromedp.WaitVisible(".seat.me"))
	acts := waitJS[[]string](t, ctx, "the first turn", turnJS, 30*time.Second)
	if acts[0] == "over" {
		acts = waitJS[[]string](t, ctx, "a turn", `document.body.dataset.over !== '1' && `+turnJS, 30*time.Second)
	}
	// The page may scroll the buttons into view: let a smooth scroll end.
	waitJS[bool](t, ctx, "the buttons to stop moving", `(() => { const y = document.querySelector('#action-buttons').getBoundingClientRect().top; const same = window.__lastY === y; window.__lastY = y; return same; })()`, 5*time.Second)
	if bad := notInWindow(t, ctx, `#action-buttons [data-act], .presets button, #amount`); len(bad) > 0 {
		windowShot(t, ctx, "fail-turn-"+sc.name+".png")
		t.Errorf("at %s, actions %v: outside the window: %v", sc.name, acts, bad)
	}
	windowShot(t, ctx, "table-"+sc.name+".png")
}

// leaveToLobby clicks "Leave table" and checks that the lobby it leads to does
// not say the player still has a seat.
func leaveToLobby(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	do(t, ctx, "leave "+what, chromedp.Click("#leave"), chromedp.WaitVisible("#me-body .big-credits"))
	// The lobby has drawn the player's account (and any banner) by now; give
	// the live listing a moment to correct a stale one.
	waitJS[bool](t, ctx, "no seat banner after leaving "+what, `document.getElementById('seated-banner').hidden`, 3*time.Second)
}

// checkLobbyWidth checks that the lobby is no wider than the window and that
// every Join (or Watch) button is inside the window's width.
func checkLobbyWidth(t *testing.T, ctx context.Context, sc screen) {
	t.Helper()
	do(t, ctx, "the lobby lists the ring game", chromedp.WaitVisible(`#tables-body tr[data-table="`+ringTable+`"] a.button`))
	if w := eval[[]int](t, ctx, `[document.documentElement.scrollWidth, innerWidth, Math.round(visualViewport.width)]`); w[0] > int(sc.width) || w[1] != int(sc.width) || w[2] != int(sc.width) {
		wide := eval[[]string](t, ctx, `[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > `+fmt.Sprint(sc.width)+`).slice(0, 8).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))`)
		t.Errorf("at %s the lobby is %d pixels wide (window %d, visible %d) on a %d-pixel screen: it scrolls sideways; too wide: %v", sc.name, w[0], w[1], w[2], sc.width, wide)
	}
	if w := eval[[]int](t, ctx, `[document.querySelector('.table-scroll').scrollWidth, document.querySelector('.table-scroll').clientWidth]`); w[0] > w[1] {
		t.Errorf("at %s the list of tables is %d pixels wide in a %d-pixel box: it scrolls sideways", sc.name, w[0], w[1])
	}
	eval[any](t, ctx, `document.querySelector('#tables-body tr[data-table="`+ringTable+`"] a.button').scrollIntoView({block: 'center'})`)
	if bad := notInWindow(t, ctx, `#tables-body a.button`); len(bad) > 0 {
		t.Errorf("at %s, Join buttons outside the window: %v", sc.name, bad)
	}
	if x := eval[float64](t, ctx, `scrollX`); x != 0 {
		t.Errorf("at %s the lobby scrolled %.0f pixels sideways to show a Join button", sc.name, x)
	}
	eval[any](t, ctx, `scrollTo(0, 0)`)
	windowShot(t, ctx, "lobby-"+sc.name+".png")
}
