package webui_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/felt-poker/felt/internal/browsertest"
)

// TestBrowserProfile edits a profile in the browser: details saved and shown
// again; a wrong current password refused; a new password that logs out the
// player's other browser; deleting the account refused while seated at a table,
// then done after "Leave table", after which the name cannot log in. The
// profile is photographed at the three screen sizes.
func TestBrowserProfile(t *testing.T) {
	browsertest.Need(t)
	base := startHouse(t, 200*time.Millisecond, 800*time.Millisecond)
	browser := browsertest.New(t)

	a := profile(t, browser)
	register(t, a, base, "alice")
	other := profile(t, browser) // alice's other device
	do(t, other, "log in elsewhere",
		chromedp.Navigate(base+"/login"), chromedp.WaitVisible("#login-form"),
		chromedp.SendKeys("#username", "alice"), chromedp.SendKeys("#password", "correct horse"),
		chromedp.Click(`#login-form button[type=submit]`), chromedp.WaitVisible("#me-body .big-credits"))

	do(t, a, "the profile from the header", chromedp.Click("#account a.who"), chromedp.WaitVisible("#details-form"))
	do(t, a, "bad email", fill("#email", "not an address"), chromedp.Click(`#details-form button[type=submit]`), chromedp.WaitVisible("#email-error"))
	waitJS[bool](t, a, "the email error", `document.getElementById('email-error').textContent !== ''`, 5*time.Second)
	do(t, a, "save details", fill("#email", "alice@example.org"), fill("#location", "Lyon"),
		chromedp.Click(`#details-form button[type=submit]`))
	waitJS[bool](t, a, "saved", `document.getElementById('details-ok').textContent === 'Saved.'`, 5*time.Second)
	do(t, a, "reload", chromedp.Reload(), chromedp.WaitVisible("#details-form"))
	waitJS[bool](t, a, "the saved details", `document.getElementById('email').value === 'alice@example.org' && document.getElementById('location').value === 'Lyon'`, 5*time.Second)

	do(t, a, "wrong current password", fill("#current_password", "wrong horse"), fill("#new_password", "battery staple"),
		chromedp.Click(`#password-form button[type=submit]`))
	waitJS[bool](t, a, "the wrong password refused", `document.getElementById('current_password-error').textContent.includes('not your password')`, 5*time.Second)
	do(t, a, "change password", fill("#current_password", "correct horse"), fill("#new_password", "battery staple"),
		chromedp.Click(`#password-form button[type=submit]`))
	waitJS[bool](t, a, "the password changed", `document.getElementById('password-ok').textContent.startsWith('Password changed')`, 5*time.Second)
	do(t, other, "the other device reloads", chromedp.Reload(), chromedp.WaitVisible(`#account a[href="/login"]`))

	// Seated at a heads-up game: the deletion is refused, nothing changes.
	if name, err := chromedp.Run(a, chromedp.Evaluate[string](`fetch("/api/headsup", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({bot: "call"})}).then(r => r.json()).then(j => j.name)`, chromedp.EvalAwaitPromise)); err != nil || name == "" {
		t.Fatalf("heads-up: %q %v", name, err)
	}
	for _, sc := range screens[:1] {
		do(t, a, "window", chromedp.EmulateViewport(sc.width, sc.height))
		windowShot(t, a, "profile-"+sc.name+".png")
	}
	deleteAccount(t, a, "battery staple")
	waitJS[bool](t, a, "refused while seated", `document.getElementById('form-error-del').textContent.includes('leave it')`, 5*time.Second)
	do(t, a, "the lobby", chromedp.Navigate(base+"/lobby"), chromedp.WaitVisible("#seated-banner a"))
	// A lobby push (a table opens) leaves the banner's link as it is: a link
	// replaced under the pointer loses a click begun on it.
	eval[any](t, a, `document.querySelector('#seated-banner a').dataset.mark = 'kept'`)
	if _, err := chromedp.Run(a, chromedp.Evaluate[any](`fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({name: "Pushed", variant: "nlhe", seats: 2, small_blind: 5, big_blind: 10, min_buy_in: 100, max_buy_in: 1000})}).then(r => r.status)`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	waitJS[bool](t, a, "the pushed table listed", `document.getElementById('tables-body').textContent.includes('Pushed')`, 10*time.Second)
	if !eval[bool](t, a, `document.querySelector('#seated-banner a').dataset.mark === 'kept'`) {
		t.Error("a lobby push replaced the seated banner's link")
	}
	do(t, a, "back to the table from the lobby", chromedp.Click("#seated-banner a"), chromedp.WaitVisible("#leave"))
	do(t, a, "leave the table", chromedp.Click("#leave"), chromedp.WaitVisible("#me-body .big-credits"))
	do(t, a, "the profile again", chromedp.Navigate(base+"/profile"), chromedp.WaitVisible("#delete-form"))
	for i := 0; ; i++ { // the chips come back from the table a moment after leaving
		deleteAccount(t, a, "battery staple")
		done := afterSubmit(t, a, `location.pathname === '/' ? 'done' : document.getElementById('form-error-del').textContent`)
		if done == "done" {
			break
		}
		if i > 20 || !strings.Contains(done, "leave it") {
			t.Fatalf("deleting the account: %q", done)
		}
		time.Sleep(100 * time.Millisecond)
	}
	do(t, a, "logged out", chromedp.WaitVisible(`#account a[href="/login"]`))
	do(t, a, "log in as the deleted alice",
		chromedp.Navigate(base+"/login"), chromedp.WaitVisible("#login-form"),
		chromedp.SendKeys("#username", "alice"), chromedp.SendKeys("#password", "battery staple"),
		chromedp.Click(`#login-form button[type=submit]`), chromedp.WaitVisible("#form-error"))

	// The profile at the other sizes, for the documentation.
	for _, sc := range screens[1:] {
		p := profile(t, browser)
		opts := []chromedp.EmulateViewportOption{}
		if sc.phone {
			opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
		}
		do(t, p, "window", chromedp.EmulateViewport(sc.width, sc.height, opts...))
		register(t, p, base, "p"+strings.ReplaceAll(sc.name, "x", "_"))
		do(t, p, "the profile", chromedp.Navigate(base+"/profile"), chromedp.WaitVisible("#details-form"))
		if w := eval[[]int](t, p, `[document.documentElement.scrollWidth, innerWidth]`); w[0] > int(sc.width) || w[1] != int(sc.width) {
			t.Errorf("at %s the profile is %d pixels wide: it scrolls sideways", sc.name, w[0])
		}
		windowShot(t, p, "profile-"+sc.name+".png")
	}
}

// deleteAccount fills in and sends the profile's deletion form.
func deleteAccount(t *testing.T, ctx context.Context, password string) {
	t.Helper()
	do(t, ctx, "delete the account", fill("#delete_password", password),
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Run(ctx, chromedp.Evaluate[any](`(() => { document.getElementById('form-error-del').textContent = ''; document.getElementById('delete_confirm').checked = true; return null; })()`))
			return err
		}),
		chromedp.Click("#delete-account"))
}

// afterSubmit waits for a form's outcome, expr's first non-empty value, across
// the navigation the form may start (an evaluation during it fails, and is
// tried again).
func afterSubmit(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	for range 200 {
		if v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr)); err == nil && v != "" {
			return v
		}
		time.Sleep(50 * time.Millisecond)
	}
	failShot(t, ctx, "after submitting")
	t.Fatalf("no outcome of %s", expr)
	return ""
}
