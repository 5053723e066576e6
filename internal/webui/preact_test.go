package webui_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/browsertest"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/web"
)

// botGate holds the house's bots: each decision of a bot waits at the gate
// until the test lets it through (pass) or the bot's clock runs out, so a test
// has all the time it needs at a bot's turn, however slow the machine, and no
// bot acts before the test is ready for it.
type botGate struct {
	mu      sync.Mutex
	waiting map[string][]chan struct{} // decisions held, by bot name, oldest first
	arrived chan struct{}              // closed (and replaced) when a decision arrives
}

func newBotGate() *botGate {
	return &botGate{waiting: map[string][]chan struct{}{}, arrived: make(chan struct{})}
}

// pass waits until a decision of the bot name waits at the gate and lets it
// through.
func (g *botGate) pass(t *testing.T, name string) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		g.mu.Lock()
		if q := g.waiting[name]; len(q) > 0 {
			close(q[0])
			g.waiting[name] = q[1:]
			g.mu.Unlock()
			return
		}
		arrived := g.arrived
		g.mu.Unlock()
		select {
		case <-arrived:
		case <-timeout:
			t.Fatalf("no decision of the %s bot came to the gate", name)
		}
	}
}

// wait holds a decision of the bot name until pass lets it through or ctx ends.
func (g *botGate) wait(ctx context.Context, name string) {
	ch := make(chan struct{})
	g.mu.Lock()
	g.waiting[name] = append(g.waiting[name], ch)
	close(g.arrived)
	g.arrived = make(chan struct{})
	g.mu.Unlock()
	select {
	case <-ch:
	case <-ctx.Done():
		g.mu.Lock()
		defer g.mu.Unlock()
		g.waiting[name] = slices.DeleteFunc(g.waiting[name], func(c chan struct{}) bool { return c == ch })
	}
}

// newBot makes the bot name (bot.New) that passes the gate before it acts.
func (g *botGate) newBot(name string, o bot.Options) (bot.Bot, error) {
	b, err := bot.New(name, o)
	if err != nil {
		return nil, err
	}
	base, _, _ := strings.Cut(name, ":")
	return gatedBot{b, base, g}, nil
}

// gatedBot is a bot that waits at its gate before each decision.
type gatedBot struct {
	b    bot.Bot
	name string
	g    *botGate
}

func (gb gatedBot) Act(v *engine.View) engine.Action {
	return gb.ActContext(context.Background(), v)
}

func (gb gatedBot) ActContext(ctx context.Context, v *engine.View) engine.Action {
	gb.g.wait(ctx, gb.name)
	return bot.Decide(ctx, gb.b, v)
}

// TestBrowserPreActions chooses actions before the player's turn in heads-up
// games while the bot thinks (each decision of the bots waits at a gate until
// the test lets it through, so the browser has the bot's whole clock to
// choose, however loaded the machine, and no bot acts before the test is
// ready for it):
// against a bot that only calls, check/fold and call any are played at the turn
// with no click; against a bot that raises everything, a check chosen in
// advance is cancelled when the bot raises, and nothing is played for the
// player.
func TestBrowserPreActions(t *testing.T) {
	browsertest.Need(t)
	gate := newBotGate()
	base := startHouseWith(t, 300*time.Millisecond, 800*time.Millisecond, func(c *web.Config) { c.Tables.NewBot = gate.newBot })
	browser := browsertest.New(t)

	// Against the calling bot.
	a := profile(t, browser)
	do(t, a, "a laptop", chromedp.EmulateViewport(1366, 768))
	register(t, a, base, "ann")
	openHeadsUp(t, a, "call")
	for _, kind := range []string{"checkfold", "callany"} {
		n := chooseInAdvance(t, a, kind, "")
		if kind == "checkfold" {
			windowShot(t, a, "preaction-1366x768.png")
		}
		gate.pass(t, "call")
		waitJS[bool](t, a, "the "+kind+" played at the turn", fmt.Sprintf(`%s > %d`, myLines("ann"), n), 20*time.Second)
	}

	// Against the raising bot: a check chosen in advance does not survive a raise.
	b := profile(t, browser)
	do(t, b, "a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	register(t, b, base, "bea")
	openHeadsUp(t, b, "raise")
	n := chooseInAdvance(t, b, "check", "")
	eval[any](t, b, `document.getElementById('pre-actions').scrollIntoView({block: 'end'})`)
	windowShot(t, b, "preaction-390x844.png")
	gate.pass(t, "raise")
	acts := waitJS[[]string](t, b, "bea's turn after the raise", turnJS, 20*time.Second)
	if note := eval[string](t, b, `document.getElementById('pre-note').textContent`); acts[0] == "over" || note == "" {
		t.Fatalf("after the bot's raise: actions %v, note %q", acts, note)
	}
	if m := eval[int](t, b, myLines("bea")); m != n {
		t.Errorf("a cancelled check played something: %d of bea's lines, %d before", m, n)
	}
	if eval[bool](t, b, `[...document.querySelectorAll('[data-pre]')].some(x => x.getAttribute('aria-pressed') === 'true')`) {
		t.Error("the cancelled choice is still shown as chosen")
	}
	windowShot(t, b, "preaction-cancelled-390x844.png")
	do(t, b, "a laptop", chromedp.EmulateViewport(1280, 720))
	windowShot(t, b, "preaction-cancelled-1280x720.png")
}

// openHeadsUp opens a heads-up game against bot from the lobby.
func openHeadsUp(t *testing.T, ctx context.Context, bot string) {
	t.Helper()
	do(t, ctx, "heads-up against "+bot, chromedp.WaitReady(`#hu-bot option[value="`+bot+`"]`), fill("#hu-bot", bot),
		chromedp.Click("#hu-play"), chromedp.WaitVisible(".seat.me"))
}

// myLines is a JavaScript expression: the number of lines of the hand log
// where name acts.
func myLines(name string) string {
	return fmt.Sprintf(`[...document.querySelectorAll('#hand-log li.ev-fold, #hand-log li.ev-check, #hand-log li.ev-call, #hand-log li.ev-bet, #hand-log li.ev-raise')].filter(li => li.textContent.startsWith(%q)).length`, name+" ")
}

// chooseInAdvance waits until the player may choose in advance (and extra
// holds, if given), chooses kind, and returns how many times the player had
// acted by then.
func chooseInAdvance(t *testing.T, ctx context.Context, kind, extra string) int {
	t.Helper()
	cond := fmt.Sprintf(`!document.getElementById('pre-actions').hidden && !document.querySelector('[data-pre=%q]').hidden`, kind)
	if extra != "" {
		cond += " && " + extra
	}
	for i := 0; ; i++ {
		// At the player's own turns, check or call until others act first.
		step := waitJS[string](t, ctx, "a chance to choose "+kind+" in advance",
			`(`+cond+`) ? 'pre' : (`+nextStep+`) === 'check' || (`+nextStep+`) === 'call' ? (`+nextStep+`) : ''`, 30*time.Second)
		if step == "pre" {
			break
		}
		if i > 20 {
			t.Fatalf("no chance to choose %s in advance", kind)
		}
		n := eval[int](t, ctx, `document.querySelectorAll('#hand-log li').length`)
		do(t, ctx, "click "+step, chromedp.Click(`#action-buttons [data-act="`+step+`"]:not([hidden])`))
		waitJS[bool](t, ctx, "the "+step, fmt.Sprintf(`document.querySelectorAll('#hand-log li').length > %d`, n), 10*time.Second)
	}
	n := eval[int](t, ctx, myLines(eval[string](t, ctx, `document.querySelector('.seat.me').dataset.name`)))
	do(t, ctx, "choose "+kind, chromedp.Click(fmt.Sprintf(`[data-pre=%q]`, kind)))
	if p := eval[string](t, ctx, fmt.Sprintf(`document.querySelector('[data-pre=%q]').getAttribute('aria-pressed')`, kind)); p != "true" {
		t.Fatalf("%s chosen in advance is not shown as chosen: %q", kind, p)
	}
	return n
}
