package webui_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/felt-poker/felt/internal/browsertest"
)

// TestBrowserBackAtTheBigBlind: alice stands up and, once a hand has been
// dealt without her, sits down again: the page tells her she is dealt in
// when the big blind reaches her seat (the prompt, her seat's status), and
// her first hand back has her seat's BB tag.
func TestBrowserBackAtTheBigBlind(t *testing.T) {
	browsertest.Need(t)
	base := startHouse(t, 100*time.Millisecond, 800*time.Millisecond)
	browser := browsertest.New(t)
	a := profile(t, browser)
	register(t, a, base, "alice")
	do(t, a, "the lobby's form", chromedp.Navigate(base+"/lobby"), chromedp.WaitVisible("#create-form"),
		fill("#ct-name", "Back"), fill("#ct-seats", "3"))
	callBots(t, a, 2)
	do(t, a, "create", chromedp.Click(`#create-form button[type=submit]`), chromedp.WaitVisible("#sit"))
	do(t, a, "sit", chromedp.Click("#sit"), chromedp.WaitVisible(".seat.me"), chromedp.WaitVisible("#stand"))
	do(t, a, "stand up", chromedp.Click("#stand"))
	// Dealt in meanwhile, she stands up when the hand ends: she plays it.
	playUntilJS(t, a, "her seat freed", `!!document.getElementById('sit')`)
	const handNo = `Number((document.getElementById('hand-no')?.textContent.match(/\d+/) || [0])[0])`
	stood := eval[int](t, a, handNo)
	waitJS[bool](t, a, "a hand without her", fmt.Sprintf(`%s > %d`, handNo, stood), 30*time.Second)
	do(t, a, "sit again", chromedp.Click("#sit"), chromedp.WaitVisible(".seat.me"))
	waitJS[bool](t, a, "told to wait for the big blind", `document.getElementById('prompt').textContent.includes('big blind reaches your seat')
	  || document.getElementById('seat-note')?.textContent.includes('big blind reaches your seat')`, 10*time.Second)
	playUntilJS(t, a, "her first hand back", `!!document.querySelector('.seat.me .hole .card')`)
	if !eval[bool](t, a, `!!document.querySelector('.seat.me .blind.bb')`) {
		failShot(t, a, "back-not-bb")
		t.Fatal("alice's first hand back does not have her in the big blind")
	}
}

// playUntilJS clicks check or call whenever it is the player's turn until
// the expression done is true.
func playUntilJS(t *testing.T, ctx context.Context, what, done string) {
	t.Helper()
	for i := 0; i < 600; i++ {
		if eval[bool](t, ctx, done) {
			return
		}
		if step := eval[string](t, ctx, nextStep); step == "check" || step == "call" {
			clickIfThere(t, ctx, `#action-buttons [data-act="`+step+`"]:not([hidden])`)
		}
		time.Sleep(100 * time.Millisecond)
	}
	failShot(t, ctx, "not "+what)
	t.Fatalf("%s never came", what)
}
