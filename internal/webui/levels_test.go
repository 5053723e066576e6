package webui_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/felt-poker/felt/internal/browsertest"
	"github.com/felt-poker/felt/internal/table"
)

// TestBrowserHeadsUpLevels: the lobby's heads-up panel offers the named levels
// (table.HeadsUpLevels), each with its measured strength and its bot's time per
// move, inside the window's width at 1280x720 and 390x844; a crafted request for
// a level that does not exist is refused with a clear error and seats nothing;
// choosing a level seats its bot.
func TestBrowserHeadsUpLevels(t *testing.T) {
	browsertest.Need(t)
	base := startHouse(t, 300*time.Millisecond, 800*time.Millisecond)
	browser := browsertest.New(t)
	for _, c := range []struct {
		sc    screen
		level string
	}{{screens[0], "strongest"}, {screens[2], "strong"}} {
		t.Run(c.sc.name, func(t *testing.T) {
			p := profile(t, browser)
			opts := []chromedp.EmulateViewportOption{}
			if c.sc.phone {
				opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
			}
			do(t, p, "window size", chromedp.EmulateViewport(c.sc.width, c.sc.height, opts...))
			register(t, p, base, "lv"+strings.ReplaceAll(c.sc.name, "x", "_"))
			do(t, p, "the levels", chromedp.WaitVisible(`#hu-level-`+table.HeadsUpLevels[len(table.HeadsUpLevels)-1].Key))
			checkLevels(t, p, c.sc)
			eval[any](t, p, `document.getElementById('hu-h').scrollIntoView({block: 'start'})`)
			windowShot(t, p, "lobby-levels-"+c.sc.name+".png")

			refused := awaitJS[[]string](t, p, `fetch("/api/headsup", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({level: "grandmaster"})}).then(async r => [String(r.status), (await r.json()).error.message])`)
			if refused[0] != "400" || !strings.Contains(refused[1], "level") || !strings.Contains(refused[1], "strongest") {
				t.Errorf("a crafted level: %v, want 400 naming the levels", refused)
			}
			if tables := awaitJS[int](t, p, `fetch("/api/me").then(r => r.json()).then(j => j.tables.length)`); tables != 0 {
				t.Fatalf("the refused level seated the player at %d tables", tables)
			}

			want, _ := table.HeadsUpLevel(c.level)
			do(t, p, "choose "+c.level, chromedp.Click(`label[for="hu-level-`+c.level+`"]`), chromedp.Click("#hu-play"), chromedp.WaitVisible(".seat.me"))
			if name := waitJS[string](t, p, "the bot's seat", `document.querySelector('.seat[data-name^="bot-"]')?.dataset.name`, 10*time.Second); !strings.HasPrefix(name, "bot-"+want.Bot+"-") {
				t.Errorf("the %s level seated %q, want %s", c.level, name, want.Bot)
			}
			leaveToLobby(t, p, "the heads-up game")
		})
	}
}

// checkLevels checks that every level is shown with its name, strength and
// time per move, the first one chosen, and that the panel is inside the
// window's width.
func checkLevels(t *testing.T, p context.Context, sc screen) {
	t.Helper()
	type shown struct {
		Text    string
		Checked bool
		Right   float64
	}
	for i, l := range table.HeadsUpLevels {
		s := eval[shown](t, p, fmt.Sprintf(`(() => { const e = document.querySelector('label[for="hu-level-%s"]'); return {text: e.textContent, checked: e.querySelector('input').checked, right: e.getBoundingClientRect().right}; })()`, l.Key))
		move := "answers at once"
		if l.Budget > 0 {
			move = fmt.Sprintf("thinks up to %g s a move", l.Budget.Seconds())
		}
		for _, w := range []string{l.Name, l.Bot, l.Strength, move} {
			if !strings.Contains(s.Text, w) {
				t.Errorf("at %s the level %s shows %q, without %q", sc.name, l.Key, s.Text, w)
			}
		}
		if s.Checked != (i == 0) {
			t.Errorf("at %s the level %s is checked: %v", sc.name, l.Key, s.Checked)
		}
		if s.Right > float64(sc.width) {
			t.Errorf("at %s the level %s ends at %.0f px, past the window", sc.name, l.Key, s.Right)
		}
	}
	if w := eval[int](t, p, `document.documentElement.scrollWidth`); w > int(sc.width) {
		t.Errorf("at %s the lobby is %d px wide: it scrolls sideways", sc.name, w)
	}
}

// awaitJS evaluates a JavaScript expression whose value is a promise and
// returns what the promise resolves to.
func awaitJS[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}
