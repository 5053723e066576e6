package webui_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/felt-poker/felt/internal/browsertest"
)

// createTable fills in the lobby's form for a table of one calling bot with
// the given access ("password" or "invite") and creates it.
func createTable(t *testing.T, ctx context.Context, base, name, access, password string) {
	t.Helper()
	do(t, ctx, "the lobby's form", chromedp.Navigate(base+"/lobby"), chromedp.WaitVisible("#create-form"), fill("#ct-name", name))
	callBots(t, ctx, 1)
	eval[any](t, ctx, `(() => { const a = document.getElementById('ct-access'); a.value = '`+access+`'; a.dispatchEvent(new Event('change', {bubbles: true})); return null; })()`)
	if password != "" {
		do(t, ctx, "password", fill("#ct-password", password))
	}
	do(t, ctx, "create", chromedp.Click(`#create-form button[type=submit]`), chromedp.WaitVisible("#sit"))
}

// TestBrowserPrivateTables: a table with a password, made in the lobby's form,
// is listed as locked; another player is asked for the password, refused a
// wrong one and let in with the right one; an anonymous visitor is asked to
// log in. A table by invitation is not listed; its creator sees the link, and
// another player who opens it comes in. The password form and the invitation
// are photographed at the three screen sizes.
func TestBrowserPrivateTables(t *testing.T) {
	browsertest.Need(t)
	base := startHouse(t, 100*time.Millisecond, 800*time.Millisecond)
	browser := browsertest.New(t)
	a, b, anon := profile(t, browser), profile(t, browser), profile(t, browser)
	register(t, a, base, "alice")
	register(t, b, base, "bob")

	createTable(t, a, base, "Hideout", "password", "open sesame")
	do(t, a, "alice sits", chromedp.Click("#sit"), chromedp.WaitVisible(".seat.me"))
	do(t, b, "the lobby", chromedp.Navigate(base+"/lobby"), chromedp.WaitVisible(`#tables-body tr[data-table="Hideout"] .tag.locked`),
		chromedp.Click(`#tables-body tr[data-table="Hideout"] a`), chromedp.WaitVisible("#key-form"))
	for _, sc := range screens {
		shotTable(t, b, sc, "locked-"+sc.name+".png", "table-title", "")
	}
	do(t, b, "a wrong password", fill("#table-password", "open says me"), chromedp.Click(`#key-form button[type=submit]`))
	waitJS[bool](t, b, "refused", `!!document.getElementById('key-form') && document.getElementById('seat-note').textContent.includes('invitation link')`, 5*time.Second)
	do(t, b, "the password", fill("#table-password", "open sesame"), chromedp.Click(`#key-form button[type=submit]`), chromedp.WaitVisible("#sit"))
	waitJS[bool](t, b, "alice's seat seen", `document.body.textContent.includes('alice')`, 5*time.Second)
	do(t, b, "a reload keeps bob in", chromedp.Reload(), chromedp.WaitVisible("#sit"))
	do(t, anon, "an anonymous visitor", chromedp.Navigate(base+"/table/Hideout"))
	waitJS[bool](t, anon, "asked to log in", `document.getElementById('seat-note')?.textContent.includes('log in')`, 5*time.Second)

	createTable(t, a, base, "Friends", "invite", "")
	link := waitJS[string](t, a, "the invitation link", `document.getElementById('invite-link')?.value || ''`, 5*time.Second)
	if !strings.Contains(link, "/table/Friends?invite=") {
		t.Fatalf("link %q", link)
	}
	do(t, b, "the lobby without it", chromedp.Navigate(base+"/lobby"), chromedp.WaitVisible(`#tables-body tr[data-table="Hideout"]`))
	if eval[bool](t, b, `!!document.querySelector('#tables-body tr[data-table="Friends"]')`) {
		t.Fatal("the table by invitation is listed")
	}
	do(t, b, "the link", chromedp.Navigate(link), chromedp.WaitVisible("#sit"))
	do(t, b, "a wrong link", chromedp.Navigate(strings.Replace(link, "invite=", "invite=X", 1)), chromedp.WaitVisible("#key-form"))
	for _, sc := range screens {
		shotTable(t, a, sc, "invite-"+sc.name+".png", "table-title", "")
	}
}

// callBots asks the lobby's form for n calling bots, once the form lists the
// bots (it fetches them).
func callBots(t *testing.T, ctx context.Context, n int) {
	t.Helper()
	do(t, ctx, "the bots listed", chromedp.WaitReady(`#ct-bots input[data-bot="call"]`))
	eval[any](t, ctx, fmt.Sprintf(`(() => { const i = document.querySelector('#ct-bots input[data-bot="call"]'); i.value = %d; i.dispatchEvent(new Event('input', {bubbles: true})); return null; })()`, n))
}
