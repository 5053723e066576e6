package webui_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/felt-poker/felt/internal/browsertest"
)

// chatSays is a JavaScript expression: whether the chat log shows a line
// holding text.
func chatSays(text string) string {
	return fmt.Sprintf(`[...document.querySelectorAll('#chat-log li')].some(li => li.textContent.includes(%q))`, text)
}

// say sends a line to the table's chat.
func say(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	do(t, ctx, "say "+text, fill("#chat-text", text), chromedp.Click(`#chat-form button`))
	waitJS[bool](t, ctx, "the line "+text, chatSays(text), 10*time.Second)
}

// TestBrowserMuteAndSound mutes a player in the table chat (their lines go, new
// ones are not shown, the choice outlives a reload, unmuting brings their lines
// back) and checks the table's sounds: one at the player's turn, none once the
// sound is switched off.
func TestBrowserMuteAndSound(t *testing.T) {
	browsertest.Need(t)
	base := startHouse(t, 300*time.Millisecond, 800*time.Millisecond)
	browser := browsertest.New(t)

	a := profile(t, browser)
	register(t, a, base, "alice")
	if name, err := chromedp.Run(a, chromedp.Evaluate[string](`fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({name: "Quiet", variant: "nlhe", seats: 4, small_blind: 10, big_blind: 20, min_buy_in: 400, max_buy_in: 2000, bots: ["call"]})}).then(r => r.json()).then(j => j.name)`, chromedp.EvalAwaitPromise)); err != nil || name != "Quiet" {
		t.Fatalf("opening the table: %q %v", name, err)
	}
	do(t, a, "sit", chromedp.Navigate(base+"/table/Quiet"), chromedp.WaitVisible("#sit"), chromedp.Click("#sit"), chromedp.WaitVisible(".seat.me"))

	// Sounds: one at alice's turn.
	step := waitJS[string](t, a, "alice's turn", nextStep, 30*time.Second)
	if got := eval[string](t, a, `document.body.dataset.lastSound || ''`); got == "" {
		t.Errorf("no sound at alice's turn (%s)", step)
	}

	b := profile(t, browser)
	register(t, b, base, "bob")
	c := profile(t, browser)
	register(t, c, base, "carol")
	for _, p := range []context.Context{b, c} {
		do(t, p, "watch", chromedp.Navigate(base+"/table/Quiet"), chromedp.WaitVisible(`.seat[data-name="alice"]`))
	}
	say(t, b, "hello from bob")
	waitJS[bool](t, a, "bob's line at alice's", chatSays("hello from bob"), 10*time.Second)
	do(t, a, "mute bob", chromedp.Click(`#chat-log li[data-from="bob"] button.mute`), chromedp.WaitVisible("#chat-muted"))
	if eval[bool](t, a, chatSays("hello from bob")) {
		t.Error("bob's line is still shown after muting him")
	}
	say(t, b, "bob again")
	say(t, c, "carol after bob")
	waitJS[bool](t, a, "carol's line", chatSays("carol after bob"), 10*time.Second)
	if eval[bool](t, a, chatSays("bob again")) {
		t.Error("a muted player's new line is shown")
	}
	do(t, a, "reload", chromedp.Reload(), chromedp.WaitVisible(".seat.me"), chromedp.WaitVisible("#chat-muted"))
	say(t, b, "bob after the reload")
	say(t, c, "carol after the reload")
	waitJS[bool](t, a, "carol's line after the reload", chatSays("carol after the reload"), 10*time.Second)
	if eval[bool](t, a, chatSays("bob after the reload")) {
		t.Error("bob is heard again after a reload")
	}
	do(t, a, "a laptop", chromedp.EmulateViewport(1280, 720))
	eval[any](t, a, `document.getElementById('chat-muted').scrollIntoView({block: 'center'})`)
	windowShot(t, a, "chat-muted-1280x720.png")
	do(t, a, "unmute bob", chromedp.Click(`#chat-muted button.unmute[data-name="bob"]`))
	waitJS[bool](t, a, "bob's lines back", chatSays("bob after the reload")+` && document.getElementById('chat-muted').hidden`, 5*time.Second)

	// Sound off: alice's next turns are silent.
	do(t, a, "sound off", chromedp.Click("#sound"))
	if eval[string](t, a, `document.getElementById('sound').getAttribute('aria-pressed')`) != "false" {
		t.Error("the sound button does not show it is off")
	}
	n := eval[string](t, a, `document.body.dataset.sounds || '0'`)
	hand := eval[string](t, a, `document.body.dataset.hand`)
	playUntil(t, a, "over")
	waitJS[bool](t, a, "a later hand", fmt.Sprintf(`document.body.dataset.hand !== %q && document.body.dataset.over !== '1'`, hand), 30*time.Second)
	waitJS[string](t, a, "alice's turn in a later hand", nextStep, 30*time.Second)
	if m := eval[string](t, a, `document.body.dataset.sounds || '0'`); m != n {
		t.Errorf("%s sounds played with the sound off (%s before)", m, n)
	}
	do(t, a, "reload", chromedp.Reload(), chromedp.WaitVisible("#sound"))
	if eval[string](t, a, `document.getElementById('sound').textContent`) != "Sound off" {
		t.Error("the sound is on again after a reload")
	}
}

// TestBrowserTopUp buys in for less than the most, then tops up: too much is
// refused with a sentence and changes nothing; the rest comes from the credits.
func TestBrowserTopUp(t *testing.T) {
	browsertest.Need(t)
	base := startHouse(t, 300*time.Millisecond, 800*time.Millisecond)
	browser := browsertest.New(t)
	a := profile(t, browser)
	do(t, a, "a laptop", chromedp.EmulateViewport(1280, 720))
	register(t, a, base, "tom")
	if name, err := chromedp.Run(a, chromedp.Evaluate[string](`fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({name: "Deep", variant: "nlhe", seats: 3, small_blind: 10, big_blind: 20, min_buy_in: 400, max_buy_in: 2000, bots: ["call"]})}).then(r => r.json()).then(j => j.name)`, chromedp.EvalAwaitPromise)); err != nil || name != "Deep" {
		t.Fatalf("opening the table: %q %v", name, err)
	}
	credits := `Number(document.getElementById('header-credits').textContent.replace(/,/g, ''))`
	do(t, a, "sit for 400", chromedp.Navigate(base+"/table/Deep"), chromedp.WaitVisible("#sit"), fill("#buy-in", "400"),
		chromedp.Click("#sit"), chromedp.WaitVisible("#top-up"))
	waitJS[bool](t, a, "the credits after the buy-in", credits+` === 9600`, 5*time.Second)
	do(t, a, "top up too much", fill("#top-up-amount", "1601"), chromedp.Click("#top-up"))
	waitJS[bool](t, a, "the refusal", `(document.getElementById('seat-note')?.textContent || '').includes('at most')`, 5*time.Second)
	if c := eval[int](t, a, credits); c != 9600 {
		t.Errorf("a refused top-up changed the credits: %d", c)
	}
	do(t, a, "top up", fill("#top-up-amount", "1000"), chromedp.Click("#top-up"))
	waitJS[bool](t, a, "the top-up", `(document.getElementById('seat-note')?.textContent || '').includes('1,000 chips')`, 10*time.Second)
	waitJS[bool](t, a, "the credits after the top-up", credits+` === 8600`, 5*time.Second)
	windowShot(t, a, "topup-1280x720.png")
}
