package webui_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/felt-poker/felt/internal/browsertest"
)

// TestBrowserStudy: on the Study page a player solves the example spot, reads the
// grid, moves in it with the arrow keys, lists a cell's hands with Enter, takes an
// action with a digit and comes back with Backspace; on a phone the grid fits the
// screen.
func TestBrowserStudy(t *testing.T) {
	browsertest.Need(t)
	base := startHouse(t, time.Second, time.Second)
	d := profile(t, browsertest.New(t))
	register(t, d, base, "stella")
	do(t, d, "open the Study page", chromedp.EmulateViewport(1280, 900), chromedp.Navigate(base+"/study"), chromedp.WaitVisible("#study-form"))
	do(t, d, "solve the example", chromedp.Click("#solve"))
	waitJS[bool](t, d, "the solved grid", `!document.getElementById("browser").hidden && document.querySelectorAll("#grid button").length === 169`, 60*time.Second)
	if n := eval[int](t, d, `[...document.querySelectorAll("#grid button")].filter(b => b.style.background.includes("linear-gradient")).length`); n == 0 {
		t.Fatal("no cell of the grid shows a strategy")
	}
	if s := eval[string](t, d, `document.getElementById("study-status").textContent`); s == "" {
		t.Error("no status line after solving")
	}
	do(t, d, "arrow right in the grid", chromedp.Focus(`#grid [data-i="0"]`), chromedp.KeyEvent(kb.ArrowRight))
	if sel := eval[string](t, d, `document.activeElement.dataset.i + " " + document.activeElement.getAttribute("aria-selected")`); sel != "1 true" {
		t.Errorf("after ArrowRight the focus is on %q, want cell 1 selected", sel)
	}
	do(t, d, "list the aces", chromedp.Focus(`#grid [data-i="0"]`), chromedp.KeyEvent(kb.Enter))
	waitJS[bool](t, d, "the hands of AA", `document.querySelector("#hands caption")?.textContent.startsWith("AA")`, 5*time.Second)
	do(t, d, "take the second action", press('2'))
	waitJS[bool](t, d, "one step down", `document.querySelectorAll("#path li").length === 2`, 10*time.Second)
	screenshot(t, d, artifacts(t), "study.png")
	for _, sz := range [][2]int64{{1280, 720}, {1366, 768}} {
		do(t, d, "a laptop", chromedp.EmulateViewport(sz[0], sz[1]))
		if wide := eval[bool](t, d, `document.documentElement.scrollWidth > innerWidth + 1`); wide {
			t.Errorf("at %dx%d the Study page scrolls sideways", sz[0], sz[1])
		}
		windowShot(t, d, fmt.Sprintf("study-%dx%d.png", sz[0], sz[1]))
	}
	do(t, d, "go back", chromedp.KeyEvent(kb.Backspace))
	waitJS[bool](t, d, "back at the root", `document.querySelectorAll("#path li").length === 1`, 10*time.Second)
	do(t, d, "a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile), chromedp.Reload(), chromedp.WaitVisible("#grid button"))
	waitJS[bool](t, d, "the grid again", `document.querySelectorAll("#grid button").length === 169`, 10*time.Second)
	if over := eval[bool](t, d, `document.getElementById("grid").getBoundingClientRect().right > innerWidth || document.documentElement.scrollWidth > innerWidth`); over {
		t.Error("on a phone the grid is wider than the screen")
	}
	screenshot(t, d, artifacts(t), "study-phone.png")
	windowShot(t, d, "study-390x844.png")
}
