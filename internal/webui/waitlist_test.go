package webui_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/felt-poker/felt/internal/browsertest"
)

// TestBrowserWaitingList: bob joins the waiting list of a full table (the
// lobby shows it), and when alice leaves, the seat is offered to him and he
// takes it. The waiting list is photographed at the three screen sizes.
func TestBrowserWaitingList(t *testing.T) {
	browsertest.Need(t)
	base := startHouse(t, 100*time.Millisecond, 800*time.Millisecond)
	browser := browsertest.New(t)
	a, b, c := profile(t, browser), profile(t, browser), profile(t, browser)
	register(t, a, base, "alice")
	register(t, b, base, "bob")
	register(t, c, base, "carol")
	do(t, a, "the lobby's form", chromedp.Navigate(base+"/lobby"), chromedp.WaitVisible("#create-form"), fill("#ct-name", "Full"), fill("#ct-seats", "2"))
	callBots(t, a, 1)
	do(t, a, "create", chromedp.Click(`#create-form button[type=submit]`), chromedp.WaitVisible("#sit"))
	do(t, a, "alice sits", chromedp.Click("#sit"), chromedp.WaitVisible(".seat.me"))

	do(t, b, "bob watches the full table", chromedp.Navigate(base+"/table/Full"), chromedp.WaitVisible("#wait"), chromedp.Click("#wait"))
	waitJS[bool](t, b, "bob waiting", `document.getElementById('waitlist-box')?.textContent.includes('number 1')`, 5*time.Second)
	do(t, c, "the lobby shows the list", chromedp.Navigate(base+"/lobby"))
	waitJS[bool](t, c, "+1 waiting", `document.querySelector('#tables-body tr[data-table="Full"]')?.textContent.includes('+1 waiting')`, 5*time.Second)
	do(t, c, "carol watches", chromedp.Navigate(base+"/table/Full"), chromedp.WaitVisible("#wait"))
	waitJS[bool](t, c, "the list shown to carol", `document.getElementById('waitlist-box')?.textContent.includes('bob')`, 5*time.Second)
	for _, sc := range screens {
		shotTable(t, b, sc, "waitlist-"+sc.name+".png", "table-title", "")
	}

	do(t, a, "alice leaves", chromedp.Click("#leave"), chromedp.WaitVisible("#me-body .big-credits"))
	waitJS[bool](t, b, "the seat offered to bob", `document.getElementById('waitlist-box')?.textContent.includes('is yours')`, 15*time.Second)
	left := eval[int](t, b, `Number(document.getElementById('offer-left').textContent)`)
	waitJS[bool](t, b, "the time to sit counting down", fmt.Sprintf(`Number(document.getElementById('offer-left')?.textContent) < %d`, left), 5*time.Second)
	waitJS[bool](t, c, "carol offered no seat", `!document.getElementById('sit') && !!document.getElementById('wait')`, 5*time.Second)
	do(t, b, "bob sits", chromedp.Click("#sit"), chromedp.WaitVisible(".seat.me"))
	waitJS[bool](t, c, "the list empty", `!document.getElementById('waitlist-box')?.textContent.includes('bob')`, 5*time.Second)
}
