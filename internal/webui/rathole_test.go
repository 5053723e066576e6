package webui_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/felt-poker/felt/internal/browsertest"
	"github.com/felt-poker/felt/internal/web"
)

// TestBrowserBackWithTheStackLeft: alice sits down with 1500, stands up and
// comes back at once: the page's buy-in is the 1500 she left with, it says
// why, and it does not let her sit down with the table's minimum (400); it
// names the 1500 instead. With 1500 she sits. Before, the form offered the
// table's range and its default, and the table took the minimum.
func TestBrowserBackWithTheStackLeft(t *testing.T) {
	browsertest.Need(t)
	base := startHouse(t, 100*time.Millisecond, 800*time.Millisecond)
	browser := browsertest.New(t)
	a := profile(t, browser)
	register(t, a, base, "alice")
	do(t, a, "the lobby's form", chromedp.Navigate(base+"/lobby"), chromedp.WaitVisible("#create-form"),
		fill("#ct-name", "Rat"), fill("#ct-seats", "3"))
	callBots(t, a, 0) // alone: no hand is dealt
	do(t, a, "create", chromedp.Click(`#create-form button[type=submit]`), chromedp.WaitVisible("#sit"))
	do(t, a, "sit with 1500", fill("#buy-in", "1500"), chromedp.Click("#sit"), chromedp.WaitVisible(".seat.me"), chromedp.WaitVisible("#stand"))
	do(t, a, "stand up", chromedp.Click("#stand"), chromedp.WaitVisible("#sit"))
	waitJS[bool](t, a, "the buy-in of her return", `document.getElementById('buy-in')?.value === '1500'
	  && document.getElementById('buy-in').min === '1500'
	  && !!document.getElementById('return-note')?.textContent.includes('1,500')`, 10*time.Second)
	do(t, a, "sit with the minimum", fill("#buy-in", "400"), chromedp.Click("#sit"))
	waitJS[bool](t, a, "the refusal", `!!document.getElementById('seat-note')?.textContent.includes('at least as many')
	  && document.getElementById('seat-note').textContent.includes('1,500')`, 10*time.Second)
	if eval[bool](t, a, `!!document.querySelector('.seat.me')`) {
		failShot(t, a, "rathole-seated")
		t.Fatal("alice seated with the minimum right after leaving with 1500")
	}
	do(t, a, "sit with 1500 again", fill("#buy-in", "1500"), chromedp.Click("#sit"), chromedp.WaitVisible(".seat.me"))
}

// TestBrowserReturnAndWaitScreens draws, at 1280x720 and on a phone, the
// table page of a player back soon after standing up: first without a seat,
// the buy-in asking for the stack she left with and the note saying why
// (docs/screenshots/table-return-*.png), then seated again after a hand
// dealt without her, her seat waiting for the big blind
// (table-waitbb-*.png). The note, the buy-in, the Sit button and her seat
// are inside the window.
func TestBrowserReturnAndWaitScreens(t *testing.T) {
	browsertest.Need(t)
	base := startHouse(t, 100*time.Millisecond, 800*time.Millisecond)
	browser := browsertest.New(t)
	for _, sc := range []screen{screens[0], screens[2]} {
		t.Run(sc.name, func(t *testing.T) {
			p := profile(t, browser)
			opts := []chromedp.EmulateViewportOption{}
			if sc.phone {
				opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
			}
			do(t, p, "window size", chromedp.EmulateViewport(sc.width, sc.height, opts...))
			register(t, p, base, "back"+strings.ReplaceAll(sc.name, "x", "_"))
			do(t, p, "the lobby's form", chromedp.Navigate(base+"/lobby"), chromedp.WaitVisible("#create-form"),
				fill("#ct-name", "Back_"+strings.ReplaceAll(sc.name, "x", "_")), fill("#ct-seats", "6"))
			callBots(t, p, 2)
			do(t, p, "create", chromedp.Click(`#create-form button[type=submit]`), chromedp.WaitVisible("#sit"))
			do(t, p, "sit", chromedp.Click("#sit"), chromedp.WaitVisible(".seat.me"), chromedp.WaitVisible("#stand"))
			do(t, p, "stand up", chromedp.Click("#stand"))
			playUntilJS(t, p, "her seat freed", `!!document.getElementById('sit')`)
			waitJS[bool](t, p, "the return note", `!!document.getElementById('return-note')`, 10*time.Second)
			// The note "You stand up after this hand" goes after 8 s.
			waitJS[bool](t, p, "the standing note gone", `!document.getElementById('seat-note')`, 15*time.Second)
			eval[any](t, p, `document.getElementById('return-note').scrollIntoView({block: 'center'})`)
			if out := notInWindow(t, p, "#return-note, #buy-in, #sit"); len(out) > 0 {
				failShot(t, p, "return-outside")
				t.Errorf("at %s outside the window: %v", sc.name, out)
			}
			windowShot(t, p, "table-return-"+sc.name+".png")

			const handNo = `Number((document.getElementById('hand-no')?.textContent.match(/\d+/) || [0])[0])`
			stood := eval[int](t, p, handNo)
			waitJS[bool](t, p, "a hand without her", fmt.Sprintf(`%s > %d`, handNo, stood), 30*time.Second)
			do(t, p, "sit again", chromedp.Click("#sit"), chromedp.WaitVisible(".seat.me"))
			waitJS[bool](t, p, "her seat waiting for the BB", `!!document.querySelector('.seat.me')?.textContent.includes('waits for the BB')`, 10*time.Second)
			eval[any](t, p, `document.querySelector('.seat.me').scrollIntoView({block: 'nearest'})`)
			if out := notInWindow(t, p, ".seat.me"); len(out) > 0 {
				failShot(t, p, "waiting-outside")
				t.Errorf("at %s outside the window: %v", sc.name, out)
			}
			// The pill's round end cuts into a line of text that comes
			// closer than its padding and border to its right edge.
			if gap := eval[float64](t, p, `document.querySelector('.seat.me .plate').getBoundingClientRect().right - document.querySelector('.seat.me .status').getBoundingClientRect().right`); gap < 10 {
				failShot(t, p, "status-cut")
				t.Errorf("at %s her seat's status ends %.1f px from her plate's round right end, want at least 10", sc.name, gap)
			}
			windowShot(t, p, "table-waitbb-"+sc.name+".png")
		})
	}
}

// TestBrowserReturnNoteEnds: alice, alone at her table (no hand is dealt, so
// nothing else changes), stands up with 1500 at a house whose return window
// is 10 s. When the window ends her page drops the note and asks for the
// table's buy-in again. Before, the table sent no state then, and the page
// kept asking for 1500 until something else happened at the table.
func TestBrowserReturnNoteEnds(t *testing.T) {
	browsertest.Need(t)
	const window = 10 * time.Second
	base := startHouseWith(t, 100*time.Millisecond, 800*time.Millisecond, func(c *web.Config) { c.Tables.ReturnWindow = window })
	browser := browsertest.New(t)
	a := profile(t, browser)
	register(t, a, base, "alice")
	do(t, a, "the lobby's form", chromedp.Navigate(base+"/lobby"), chromedp.WaitVisible("#create-form"),
		fill("#ct-name", "Short"), fill("#ct-seats", "3"))
	callBots(t, a, 0) // alone: no hand is dealt
	do(t, a, "create", chromedp.Click(`#create-form button[type=submit]`), chromedp.WaitVisible("#sit"))
	do(t, a, "sit with 1500", fill("#buy-in", "1500"), chromedp.Click("#sit"), chromedp.WaitVisible(".seat.me"), chromedp.WaitVisible("#stand"))
	do(t, a, "stand up", chromedp.Click("#stand"), chromedp.WaitVisible("#sit"))
	waitJS[bool](t, a, "the return note", `!!document.getElementById('return-note') && document.getElementById('buy-in').min === '1500'`, window)
	waitJS[bool](t, a, "the note gone when the window ends", `!document.getElementById('return-note') && document.getElementById('buy-in').min !== '1500'`, 2*window)
}
