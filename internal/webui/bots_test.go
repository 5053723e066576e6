package webui_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/felt-poker/felt/feltclient"
	"github.com/felt-poker/felt/internal/browsertest"
)

// TestBrowserBots makes a bot on the profile page: its token is shown once, a
// program (feltclient) plays a hand with it at a table the player opened, the
// player watches the bot's seat in the browser, then revokes the token on the
// page, after which the program cannot connect. The bots panel is
// photographed at the three screen sizes.
func TestBrowserBots(t *testing.T) {
	browsertest.Need(t)
	base := startHouse(t, 100*time.Millisecond, 300*time.Millisecond)
	browser := browsertest.New(t)
	a := profile(t, browser)
	register(t, a, base, "alice")
	do(t, a, "the profile", chromedp.Navigate(base+"/profile"), chromedp.WaitVisible("#bot-form"))
	do(t, a, "a bad name", fill("#bot_name", "no spaces"), chromedp.Click(`#bot-form button[type=submit]`))
	waitJS[bool](t, a, "the name refused", `document.getElementById('bot_name-error').textContent !== ''`, 5*time.Second)
	do(t, a, "make a bot", fill("#bot_name", "crusher"), chromedp.Click(`#bot-form button[type=submit]`), chromedp.WaitVisible("#bot-token"))
	token := waitJS[string](t, a, "the token", `document.getElementById('bot-token-value').textContent`, 5*time.Second)
	if !strings.HasPrefix(token, "felt_") {
		t.Fatalf("token %q", token)
	}
	waitJS[bool](t, a, "the bot listed", `!!document.querySelector('#bots-list li[data-bot="bot_crusher"] [data-act=revoke]')`, 5*time.Second)
	for _, sc := range screens { // the token, shown this once
		shotBots(t, a, sc)
	}
	do(t, a, "window", chromedp.EmulateViewport(1280, 720))

	// The program plays a hand while alice watches its table.
	if name, err := chromedp.Run(a, chromedp.Evaluate[string](`fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({name: "BotsOnly", variant: "nlhe", seats: 2, small_blind: 10, big_blind: 20, min_buy_in: 400, max_buy_in: 2000, bots: ["call"]})}).then(r => r.json()).then(j => j.name)`, chromedp.EvalAwaitPromise)); err != nil || name != "BotsOnly" {
		t.Fatalf("opening the table: %q %v", name, err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	c, err := feltclient.Dial(ctx, base, token)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	do(t, a, "watch the bot's table", chromedp.Navigate(base+"/table/BotsOnly"), chromedp.WaitVisible("#felt"))
	if err := c.Play(ctx, feltclient.PlayOptions{Table: "BotsOnly", AnySeat: true, BuyIn: 1000, Hands: 1}, feltclient.CheckOrCall); err != nil {
		t.Fatal(err)
	}
	waitJS[bool](t, a, "the bot's seat seen", `document.body.textContent.includes('bot_crusher')`, 10*time.Second)

	do(t, a, "back to the profile", chromedp.Navigate(base+"/profile"), chromedp.WaitVisible(`#bots-list li[data-bot="bot_crusher"]`))
	do(t, a, "revoke", chromedp.Click(`#bots-list li[data-bot="bot_crusher"] [data-act=revoke]`))
	waitJS[bool](t, a, "revoked", `document.querySelector('#bots-list li[data-bot="bot_crusher"]').textContent.includes('no token')`, 5*time.Second)
	_, err = feltclient.Dial(ctx, base, token)
	var fe *feltclient.Error
	if !errors.As(err, &fe) || fe.Status != 401 {
		t.Fatalf("the revoked token: %v", err)
	}
}

// shotBots photographs the profile's bots panel at sc's size.
func shotBots(t *testing.T, ctx context.Context, sc screen) {
	opts := []chromedp.EmulateViewportOption{}
	if sc.phone {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	do(t, ctx, "window "+sc.name, chromedp.EmulateViewport(sc.width, sc.height, opts...))
	if w := eval[[]int](t, ctx, `[document.documentElement.scrollWidth, innerWidth]`); w[0] > int(sc.width) {
		t.Errorf("at %s the profile is %d pixels wide: it scrolls sideways", sc.name, w[0])
	}
	eval[any](t, ctx, `(document.getElementById('bots-h').scrollIntoView({block: 'start'}), null)`)
	windowShot(t, ctx, "bots-"+sc.name+".png")
}
