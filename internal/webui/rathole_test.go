package webui_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/felt-poker/felt/internal/browsertest"
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
