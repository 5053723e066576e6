package casino

// A browser test of the spectator page: headless Chromium watches a game between
// a network player held by the test and felt's bots.

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/felt-poker/felt/internal/browsertest"
)

// js evaluates expr in the tab.
func js[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(c, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// waitJS waits until expr is truthy in the tab.
func waitJS(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 25*time.Second)
	defer cancel()
	if _, err := chromedp.Run(c, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText.slice(0, 2000)`))
		t.Fatalf("waiting for %s: %v\n%s", what, err, text)
	}
}

// watcher runs in the page: after every render it checks that no table whose hand
// is not over shows a face-up first card (the hole card), and counts the hole
// cards shown on finished hands.
const watcher = `(() => {
  window.bad = []; window.shown = 0; window.renders = 0;
  const check = () => {
    window.renders++;
    for (const t of document.querySelectorAll("#tables .table")) {
      for (const s of t.querySelectorAll(".seat")) {
        const c = s.querySelector(".cards .card");
        if (!c || c.textContent === "??") continue;
        if (t.dataset.over !== "true") window.bad.push("table " + t.dataset.table + ": " + s.dataset.id + " shows " + c.textContent);
        else window.shown++;
      }
    }
  };
  new MutationObserver(check).observe(document.getElementById("tables"), {childList: true, subtree: true});
  return true;
})()`

// TestSpectatorPageInBrowser opens the spectator page before a game between a
// held network player and three bots: it shows the lobby, then the game, and
// updates itself as the player acts (the running list of actions grows) without
// a reload; no render ever shows a hole card on a hand that is not over, while
// finished hands do show them; at the end it shows the standings.
func TestSpectatorPageInBrowser(t *testing.T) {
	browsertest.Need(t)
	d, addr, res := startDealer(t, Config{Players: 1, Bots: 3, Bot: StudBotName, Hands: 6, Timeout: time.Minute})
	web, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: d.Handler()}
	go func() {
		if err := srv.Serve(web); err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Error(err)
		}
	}()
	t.Cleanup(func() { srv.Close() })

	tab := browsertest.New(t)
	nav, cancel := context.WithTimeout(tab, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(nav, chromedp.Navigate("http://"+web.Addr().String()+"/?token="+d.StartToken()), chromedp.WaitVisible("#lobby button")); err != nil {
		t.Fatal(err)
	}
	if addr := js[string](t, tab, `location.href`); strings.Contains(addr, d.StartToken()) {
		t.Errorf("the start token stays in the address bar: %s", addr)
	}
	waitJS(t, tab, "the lobby", `document.getElementById("phase").textContent.includes("waiting") && document.getElementById("lobby").textContent.includes("0 logged in")`)
	js[bool](t, tab, watcher)

	asked := make(chan string, 1)
	release := make(chan struct{})
	_, done := holdClient(t, addr, "human", asked, release)
	wait(t, asked) // the game is on and the dealer waits for human's answer
	waitJS(t, tab, "the table with human to act", `!!document.querySelector('#tables .table[data-over="false"] .seat.act[data-id="human"]')`)
	if n := js[int](t, tab, `[...document.querySelectorAll("#actions li")].filter(li => li.textContent.includes("human")).length`); n != 0 {
		t.Fatalf("%d actions of human listed before it acted", n)
	}
	if c := js[string](t, tab, `document.querySelector('[data-id="human"] .cards .card').textContent`); c != "??" {
		t.Fatalf("human's hole card shows as %q while it is to act", c)
	}
	before := js[int](t, tab, `window.renders`)

	release <- struct{}{} // one answer: the page must show it live
	waitJS(t, tab, "human's action in the list", `[...document.querySelectorAll("#actions li")].some(li => li.textContent.includes("human"))`)
	if after := js[int](t, tab, `window.renders`); after <= before {
		t.Errorf("renders %d then %d", before, after)
	}

	close(release)
	r := wait(t, res)
	wait(t, done)
	waitJS(t, tab, "the end of the game", `document.getElementById("phase").textContent.includes("over") && document.querySelectorAll("#st tr").length === 4`)
	if bad := js[[]string](t, tab, `window.bad`); len(bad) > 0 {
		t.Errorf("hole cards shown before the showdown: %q", bad)
	}
	if shown := js[int](t, tab, `window.shown`); shown == 0 {
		t.Error("no hole card shown at any showdown: the check saw nothing")
	}
	if n := js[int](t, tab, `document.querySelectorAll("#actions li").length`); n < 10 {
		t.Errorf("%d actions listed after %d hands", n, r.Hands)
	}
	checkChips(t, r, 4, DefaultStack)
}
