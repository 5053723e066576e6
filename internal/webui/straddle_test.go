package webui_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/felt-poker/felt/internal/browsertest"
)

// TestBrowserStraddleAndRunTwice opens a table with both settings from the
// lobby's form, ticks Straddle and Run it twice at the seat, and plays calling
// until the player straddles under the gun (the STR tag and the log line);
// then, at a two-seat table, goes all in before the flop against a calling
// bot: the board is run twice and both boards are shown, to a spectator too,
// and the stored hand replays both runs. The table with two boards is
// photographed at the three screen sizes.
func TestBrowserStraddleAndRunTwice(t *testing.T) {
	browsertest.Need(t)
	base := startHouse(t, 100*time.Millisecond, 2500*time.Millisecond)
	browser := browsertest.New(t)
	a := profile(t, browser)
	register(t, a, base, "alice")
	do(t, a, "the lobby's form", chromedp.Navigate(base+"/lobby"), chromedp.WaitVisible("#create-form"),
		fill("#ct-name", "Twice"), fill("#ct-seats", "3"))
	callBots(t, a, 2)
	do(t, a, "create", chromedp.Click("#ct-straddle"), chromedp.Click("#ct-run_it_twice"),
		chromedp.Click(`#create-form button[type=submit]`), chromedp.WaitVisible("#sit"))
	do(t, a, "sit", chromedp.Click("#sit"), chromedp.WaitVisible(".seat.me"), chromedp.WaitVisible("#opt-straddle"))
	do(t, a, "choose", chromedp.Click("#opt-straddle"))
	waitJS[bool](t, a, "straddle on", `document.getElementById('opt-straddle').checked && document.getElementById('seat-note')?.textContent.includes('Straddle: on')`, 5*time.Second)
	do(t, a, "agree", chromedp.Click("#opt-run-twice"))
	waitJS[bool](t, a, "run twice on", `document.getElementById('opt-run-twice').checked && document.getElementById('seat-note')?.textContent.includes('Run it twice: on')`, 5*time.Second)
	// The choices stay within reach at the player's own turn too, when the page
	// keeps the action buttons in the window: they are photographed then.
	waitJS[[]string](t, a, "alice's turn", `document.body.dataset.over !== '1' && `+turnJS, 30*time.Second)
	for _, sc := range screens {
		if bad := shotTable(t, a, sc, "options-"+sc.name+".png", "table-title", "#opt-straddle, #opt-run-twice"); len(bad) > 0 {
			t.Errorf("at %s the choices are outside the window: %v", sc.name, bad)
		}
	}
	do(t, a, "window", chromedp.EmulateViewport(1280, 720))

	// Calling until alice straddles (she is under the gun one hand in three).
	for i := 0; ; i++ {
		if eval[bool](t, a, `!!document.querySelector('.seat.me .blind.str')`) {
			break
		}
		if i > 300 {
			failShot(t, a, "no straddle")
			t.Fatal("alice never straddled")
		}
		step := eval[string](t, a, nextStep)
		if step == "check" || step == "call" {
			clickIfThere(t, a, `#action-buttons [data-act="`+step+`"]:not([hidden])`)
		}
		time.Sleep(100 * time.Millisecond)
	}
	waitJS[bool](t, a, "the straddle in the log", `document.body.textContent.includes('alice straddles 40')`, 5*time.Second)

	// Run it twice at a two-seat table: any all in before the river runs the
	// board out (at three seats, two calling bots with chips behind would bet
	// on). A spectator watches.
	do(t, a, "leave", chromedp.Click("#leave"), chromedp.WaitVisible("#me-body .big-credits"))
	do(t, a, "a heads-up ring table", chromedp.Navigate(base+"/lobby"), chromedp.WaitVisible("#create-form"),
		fill("#ct-name", "Twice2"), fill("#ct-seats", "2"))
	callBots(t, a, 1)
	do(t, a, "create", chromedp.Click("#ct-run_it_twice"), chromedp.Click(`#create-form button[type=submit]`), chromedp.WaitVisible("#sit"))
	do(t, a, "sit", chromedp.Click("#sit"), chromedp.WaitVisible("#opt-run-twice"), chromedp.Click("#opt-run-twice"))
	waitJS[bool](t, a, "run twice on", `document.getElementById('opt-run-twice').checked && document.getElementById('seat-note')?.textContent.includes('Run it twice: on')`, 5*time.Second)
	// The choice counts from the next hand.
	const handNo = `Number((document.getElementById('hand-no')?.textContent.match(/\d+/) || [0])[0])`
	agreed := eval[int](t, a, handNo)
	s := profile(t, browser)
	do(t, s, "watch", chromedp.Navigate(base+"/table/Twice2"), chromedp.WaitVisible("#felt"))
	for i := 0; ; i++ {
		if eval[bool](t, a, `!!document.getElementById('second-board')`) {
			break
		}
		if i > 600 {
			failShot(t, a, "no second run")
			t.Fatal("the board was never run twice")
		}
		turn := eval[string](t, a, `(() => { const b = document.querySelector('#action-buttons [data-act="allin"]:not([hidden])'); return b && !b.disabled ? 'allin' : ''; })()`)
		if turn == "allin" && eval[int](t, a, handNo) > agreed+1 { // a hand dealt after the choice
			clickIfThere(t, a, `#action-buttons [data-act="allin"]`)
		} else if step := eval[string](t, a, nextStep); step == "check" || step == "call" {
			clickIfThere(t, a, `#action-buttons [data-act="`+step+`"]:not([hidden])`)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n := eval[int](t, a, `document.querySelectorAll('#second-board .card').length`); n != 5 {
		t.Fatalf("the second board shows %d cards", n)
	}
	waitJS[bool](t, s, "the spectator's second board", `document.querySelectorAll('#second-board .card').length === 5`, 5*time.Second)
	if log := eval[string](t, a, `document.body.textContent`); !strings.Contains(log, "second run") && !strings.Contains(log, "Second run") {
		t.Fatal("the hand log does not say the board ran twice")
	}
	for _, sc := range screens {
		shotTable(t, a, sc, "runtwice-"+sc.name+".png", "felt", "")
	}
	// The stored hand replays with its straddle and both runs.
	id := waitJS[float64](t, a, "the hand stored", `fetch('/api/players/alice/hands?limit=1').then(r => r.json()).then(j => j.hands.length && j.hands[0].id || 0)`, 10*time.Second)
	do(t, a, "the hand's page", chromedp.EmulateViewport(1280, 720), chromedp.Navigate(base+"/hands/"+strconv.Itoa(int(id))), chromedp.WaitVisible("#last"),
		chromedp.Click("#last"))
	waitJS[bool](t, a, "the second run replayed", `[...document.querySelectorAll('#steps li')].some(li => li.textContent.includes('run a second time')) && document.getElementById('phh').textContent.includes('_second_board')`, 5*time.Second)
	waitJS[bool](t, a, "a stored hand with alice's straddle", `fetch('/api/players/alice/hands?limit=50').then(r => r.json())
	  .then(j => Promise.all(j.hands.map(h => fetch('/api/hands/' + h.id).then(r => r.json()))))
	  .then(hs => hs.some(h => /blinds_or_straddles = \[\d+, \d+, 40\b/.test(h.phh)))`, 10*time.Second)
}

// shotTable photographs the table at sc's size, scrolled to the element whose
// id is top as a player scrolls there (by hand: the page stops keeping the
// action buttons in the window during the player's turn), and returns the
// visible elements matching check ("": none) that are not wholly inside the
// window then, measured in the script that scrolls: a turn of the player that
// comes meanwhile (the page then shows the action buttons) cannot move the page
// in between, however slow the machine.
func shotTable(t *testing.T, ctx context.Context, sc screen, name, top, check string) []string {
	t.Helper()
	opts := []chromedp.EmulateViewportOption{}
	if sc.phone {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	do(t, ctx, "window "+sc.name, chromedp.EmulateViewport(sc.width, sc.height, opts...))
	bad := eval[[]string](t, ctx, fmt.Sprintf(`(() => {
	  dispatchEvent(new WheelEvent('wheel'));
	  document.getElementById(%q).scrollIntoView({block: 'start'});
	  const sel = %q;
	  return sel ? (%s)(sel) : [];
	})()`, top, check, outside))
	windowShot(t, ctx, name)
	return bad
}

// clickIfThere clicks the element sel selects if it is there, shown and
// enabled. A loop that plays on uses it: the buttons are drawn again at each
// state, so a node found by one query may be gone by the click (chromedp's
// Click then fails with "Could not find node").
func clickIfThere(t *testing.T, ctx context.Context, sel string) bool {
	t.Helper()
	return eval[bool](t, ctx, fmt.Sprintf(`(() => { const b = document.querySelector(%q); if (!b || b.hidden || b.disabled) return false; b.click(); return true; })()`, sel))
}
