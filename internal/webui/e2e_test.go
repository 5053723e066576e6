package webui_test

// End-to-end tests: a real house (internal/web over a temporary SQLite database)
// on 127.0.0.1, driven through its pages by headless Chromium.

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/web"
)

const chromiumPath = "/usr/bin/chromium"

// needBrowser skips the test where no browser is installed, unless CI is set.
func needBrowser(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set but there is no browser at %s (apt-get install chromium): %v", chromiumPath, err)
		}
		t.Skipf("no browser at %s: install Debian's chromium package to run the browser tests (under CI=true they fail instead)", chromiumPath)
	}
}

// artifacts is the directory for screenshots: $FELT_ARTIFACTS, or a new
// temporary directory that is kept after the test.
func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("FELT_ARTIFACTS")
	if dir == "" {
		d, err := os.MkdirTemp("", "felt-artifacts-")
		if err != nil {
			t.Fatal(err)
		}
		dir = d
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// startHouse serves a house with a fresh database on 127.0.0.1 and returns its
// base URL. Bots think for botDelay; hands start pause after the last one.
func startHouse(t *testing.T, botDelay, pause time.Duration) string {
	t.Helper()
	ctx := context.Background()
	st, err := store.OpenSQLite(ctx, filepath.Join(t.TempDir(), "felt.db"))
	if err != nil {
		t.Fatal(err)
	}
	hc := house.DefaultConfig()
	hc.Argon2 = house.Argon2Params{Memory: 1024, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}
	h, err := house.New(st, hc)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, err := web.New(web.Config{House: h, Log: log, Tables: table.Config{BotDelay: botDelay, HandPause: pause}})
	if err != nil {
		t.Fatal(err)
	}
	srv.SetReady()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv.Handler()}
	go hs.Serve(ln)
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		hs.Shutdown(sctx)
		st.Close()
	})
	return "http://" + ln.Addr().String()
}

// newBrowser starts Chromium and returns a context whose children are tabs in it.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-background-timer-throttling", true), chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	bctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return bctx
}

// profile returns a tab in a new browser context (its own cookies and storage).
func profile(t *testing.T, browser context.Context) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// do runs steps with a time limit, failing the test on an error.
func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 40*time.Second)
	defer cancel()
	if err := chromedp.Do(c, steps...); err != nil {
		failShot(t, ctx, what)
		t.Fatalf("%s: %v", what, err)
	}
}

// fill sets a form field's value as typing would (an input event follows).
func fill(sel, value string) chromedp.Action[chromedp.Void] {
	js := fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) throw new Error("no " + %q); e.value = %q; e.dispatchEvent(new Event("input", {bubbles: true})); e.dispatchEvent(new Event("change", {bubbles: true})); return null; })()`, sel, sel, value)
	return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Run(ctx, chromedp.Evaluate[any](js))
		return err
	})
}

// eval evaluates a JavaScript expression in the tab.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// waitJS waits until a JavaScript expression is truthy and returns its value.
func waitJS[T any](t *testing.T, ctx context.Context, what, expr string, timeout time.Duration) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, timeout+5*time.Second)
	defer cancel()
	v, err := chromedp.Run(c, chromedp.Poll[T](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(timeout)))
	if err != nil {
		failShot(t, ctx, what)
		t.Fatalf("waiting for %s: %v", what, err)
	}
	return v
}

// failShot saves what the tab shows when a step fails, with its text.
func failShot(t *testing.T, ctx context.Context, what string) {
	c, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	name := "fail-" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, strings.ToLower(what))
	if buf, err := chromedp.Run(c, chromedp.CaptureScreenshot()); err == nil {
		path := filepath.Join(artifacts(t), name+".png")
		os.WriteFile(path, buf, 0o644)
		t.Logf("the page when %q failed: %s", what, path)
	}
	if text, err := chromedp.Run(c, chromedp.Evaluate[string](`location.href + "\n" + document.body.innerText.slice(0, 1500)`)); err == nil {
		t.Logf("%s", text)
	}
}

func screenshot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

func register(t *testing.T, ctx context.Context, base, name string) {
	t.Helper()
	do(t, ctx, "register "+name,
		chromedp.Navigate(base+"/register"),
		chromedp.WaitVisible("#register-form"),
		chromedp.SendKeys("#username", name),
		chromedp.SendKeys("#password", "correct horse"),
		chromedp.Click("#adult"),
		chromedp.Click(`#register-form button[type=submit]`),
		chromedp.WaitVisible("#me-body .big-credits"),
	)
}

// The action the player may take to go on without folding, or "showdown" once
// hands are shown, or "over" once the hand is over.
const nextStep = `(() => {
  if (document.querySelector('.seat .hand-name')) return 'showdown';
  const b = [...document.querySelectorAll('#action-buttons [data-act="check"], #action-buttons [data-act="call"]')].find(b => !b.hidden && !b.disabled);
  if (b) return b.dataset.act;
  return document.body.dataset.over === '1' ? 'over' : '';
})()`

// playUntil clicks check or call whenever it is the player's turn until the
// page shows stop ("showdown" or "over").
func playUntil(t *testing.T, ctx context.Context, stop string) {
	t.Helper()
	for i := 0; i < 400; i++ {
		step := waitJS[string](t, ctx, "my turn or the showdown", nextStep, 60*time.Second)
		if step == stop || (stop == "over" && step == "showdown") {
			return
		}
		if step == "over" {
			// Between hands: wait for the next one.
			waitJS[bool](t, ctx, "the next hand", `document.body.dataset.over !== '1'`, 30*time.Second)
			continue
		}
		do(t, ctx, "click "+step, chromedp.Click(`#action-buttons [data-act="`+step+`"]:not([hidden])`))
	}
	t.Fatalf("no %s after 400 actions", stop)
}

// TestBrowser plays through the UI: registration and log-in, a table with two
// bots played to showdown by clicking, a spectator who chats and never sees a
// hole card, and heads-up against the computer.
func TestBrowser(t *testing.T) {
	needBrowser(t)
	base := startHouse(t, 40*time.Millisecond, 1500*time.Millisecond)
	dir := artifacts(t)
	browser := newBrowser(t)

	a := profile(t, browser)

	// Register, log out, log in.
	register(t, a, base, "alice")
	do(t, a, "log out", chromedp.Click(`#account button.link`), chromedp.WaitVisible(`#account a[href="/login"]`))
	do(t, a, "wrong password",
		chromedp.Navigate(base+"/login"), chromedp.WaitVisible("#login-form"),
		chromedp.SendKeys("#username", "alice"), chromedp.SendKeys("#password", "wrong horse"),
		chromedp.Click(`#login-form button[type=submit]`),
		chromedp.WaitVisible("#form-error"))
	do(t, a, "log in",
		fill("#password", ""), chromedp.SendKeys("#password", "correct horse"),
		chromedp.Click(`#login-form button[type=submit]`),
		chromedp.WaitVisible("#me-body .big-credits"))

	// Inline validation of the create-table form, by field.
	do(t, a, "bad table name", chromedp.SendKeys("#ct-name", "has space"), chromedp.WaitVisible("#ct-name-error"))
	if msg := eval[string](t, a, `document.getElementById("ct-name-error").textContent`); !strings.Contains(msg, "no spaces") {
		t.Errorf("name error = %q", msg)
	}
	do(t, a, "seats out of range",
		fill("#ct-name", ""), chromedp.SendKeys("#ct-name", "E2E"),
		fill("#ct-seats", ""), chromedp.SendKeys("#ct-seats", "11"),
		chromedp.WaitVisible("#ct-seats-error"))
	// A table with two bots.
	do(t, a, "create a table",
		fill("#ct-seats", ""), chromedp.SendKeys("#ct-seats", "3"),
		chromedp.WaitVisible(`#ct-bots input[data-bot="call"]`),
		fill(`#ct-bots input[data-bot="call"]`, "1"),
		fill(`#ct-bots input[data-bot="chart"]`, "1"),
		chromedp.Click(`#create-form button[type=submit]`),
		chromedp.WaitVisible(`.seat[data-name^="bot"]`),
		chromedp.WaitVisible("#sit"),
		chromedp.Click("#sit"),
		chromedp.WaitVisible(".seat.me"))

	// A spectator in another profile, its WebSocket frames recorded.
	b := profile(t, browser)
	register(t, b, base, "bob")
	var mu sync.Mutex
	var frames []string
	if err := chromedp.Listen(b, func(ev any) {
		if f, ok := ev.(*network.EventWebSocketFrameReceived); ok {
			mu.Lock()
			frames = append(frames, string(f.Response.PayloadData))
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	do(t, b, "lobby lists the table", chromedp.WaitVisible(`#tables-body tr[data-table="E2E"]`))
	screenshot(t, b, dir, "lobby.png")
	do(t, b, "watch", chromedp.Click(`#tables-body tr[data-table="E2E"] a`), chromedp.WaitVisible(".seat.me, .seat[data-name=alice]"))
	// Record anything on bob's page that shows a hole card outside a showdown.
	eval[any](t, b, `(() => {
	  window.__leaks = [];
	  const check = () => {
	    for (const s of document.querySelectorAll('.seat')) {
	      const up = s.querySelector('.hole .card:not(.back)');
	      if (up && !s.querySelector('.hand-name')) window.__leaks.push(s.dataset.name + ' ' + up.dataset.card);
	    }
	    if (document.querySelector('#my-cards .card')) window.__leaks.push('my-cards');
	  };
	  new MutationObserver(check).observe(document.body, {subtree: true, childList: true});
	  check();
	  return null;
	})()`)
	do(t, b, "chat", chromedp.SendKeys("#chat-text", "hello from bob"), chromedp.Click(`#chat-form button`))
	waitJS[bool](t, a, "bob's line at alice's table", `[...document.querySelectorAll('#chat-log li')].some(li => li.textContent.includes('hello from bob'))`, 10*time.Second)

	// Play hands to a showdown by clicking.
	playUntil(t, a, "showdown")
	names := waitJS[[]string](t, a, "the winning five cards highlighted",
		`document.querySelectorAll('.card.win').length >= 5 && [...document.querySelectorAll('.seat .hand-name')].map(e => e.textContent)`, 10*time.Second)
	// bob watches the same showdown; then we check all he saw.
	waitJS[bool](t, b, "the showdown on bob's page", `!!document.querySelector('.seat .hand-name')`, 10*time.Second)
	screenshot(t, a, dir, "showdown.png")
	t.Logf("hands shown: %v", names)
	if leaks := eval[[]string](t, b, `window.__leaks`); len(leaks) > 0 {
		t.Errorf("the spectator's page showed hole cards: %v", leaks)
	}
	mu.Lock()
	checkSpectatorFrames(t, frames)
	mu.Unlock()

	// Heads-up against the computer, as a guest.
	c := profile(t, browser)
	do(t, c, "heads-up",
		chromedp.Navigate(base+"/lobby"),
		chromedp.WaitReady(`#hu-bot option[value="call"]`),
		fill("#hu-bot", "call"),
		chromedp.Click("#hu-play"),
		chromedp.WaitVisible(".seat.me"))
	if title := eval[string](t, c, `document.getElementById("table-title").textContent`); !strings.Contains(title, "heads-up") {
		t.Errorf("heads-up table title = %q", title)
	}
	playUntil(t, c, "over")
}

// checkSpectatorFrames fails if any message to a spectator holds a hole card that
// was not shown at a showdown.
func checkSpectatorFrames(t *testing.T, frames []string) {
	t.Helper()
	states := 0
	for _, f := range frames {
		var m struct {
			Type  string `json:"type"`
			State *struct {
				You   json.RawMessage `json:"you"`
				Seats []struct {
					Seat  int      `json:"seat"`
					Cards []string `json:"cards"`
				} `json:"seats"`
				Hand *struct {
					Over   bool `json:"over"`
					Events []struct {
						Kind  string   `json:"kind"`
						Cards []string `json:"cards"`
					} `json:"events"`
					Result *struct {
						Shown []struct {
							Seat int `json:"seat"`
						} `json:"shown"`
					} `json:"result"`
				} `json:"hand"`
			} `json:"state"`
		}
		if err := json.Unmarshal([]byte(f), &m); err != nil {
			t.Errorf("a frame that is not JSON: %q", f)
			continue
		}
		if m.Type != "state" || m.State == nil {
			continue
		}
		states++
		if s := string(m.State.You); s != "" && s != "null" {
			t.Errorf("the spectator has a seat: %s", s)
		}
		shown := map[int]bool{}
		if h := m.State.Hand; h != nil && h.Over && h.Result != nil {
			for _, s := range h.Result.Shown {
				shown[s.Seat] = true
			}
		}
		for _, s := range m.State.Seats {
			for _, c := range s.Cards {
				if c != "??" && !shown[s.Seat] {
					t.Errorf("seat %d's card %s sent to a spectator", s.Seat, c)
				}
			}
		}
		if h := m.State.Hand; h != nil {
			for _, e := range h.Events {
				if e.Kind == "hole_cards" {
					for _, c := range e.Cards {
						if c != "??" {
							t.Errorf("hole card %s in an event sent to a spectator", c)
						}
					}
				}
			}
		}
	}
	if states == 0 {
		t.Error("the spectator received no state")
	}
	t.Logf("%d frames to the spectator, %d states, no hole card", len(frames), states)
}

// TestBrowserReconnect leaves the table page of a seated player in the middle
// of a hand (the page and its WebSocket close) and opens it again: the same seat
// and the same cards come back. Bots think for 4 s here, so that the hand is
// still in play when the page opens again.
func TestBrowserReconnect(t *testing.T) {
	needBrowser(t)
	base := startHouse(t, 4*time.Second, 600*time.Millisecond)
	browser := newBrowser(t)
	d := profile(t, browser)
	register(t, d, base, "dave")
	table, err := chromedp.Run(d, chromedp.Evaluate[string](`fetch("/api/headsup", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({bot: "call"})}).then(r => r.json()).then(j => j.name)`, chromedp.EvalAwaitPromise))
	if err != nil || table == "" {
		t.Fatalf("heads-up: %q %v", table, err)
	}
	url := fmt.Sprintf("%s/table/%s", base, table)
	do(t, d, "open the table", chromedp.Navigate(url), chromedp.WaitVisible("#my-cards .card"))
	// Act if it is our turn, so that the bot is thinking when the page closes.
	step := waitJS[string](t, d, "the bot to act or our turn", `(() => {
	  const b = [...document.querySelectorAll('#action-buttons [data-act="check"], #action-buttons [data-act="call"]')].find(b => !b.hidden && !b.disabled);
	  if (b) return b.dataset.act;
	  return document.querySelector('.seat.to-act:not(.me)') ? 'bot' : '';
	})()`, 20*time.Second)
	if step != "bot" {
		do(t, d, "act", chromedp.Click(`#action-buttons [data-act="`+step+`"]:not([hidden])`))
		waitJS[bool](t, d, "the bot to act", `!!document.querySelector('.seat.to-act:not(.me)')`, 10*time.Second)
	}
	type seen struct {
		Hand, Seat string
		Cards      []string
	}
	const look = `({hand: document.body.dataset.hand, seat: document.body.dataset.seated, cards: [...document.querySelectorAll('#my-cards .card')].map(c => c.dataset.card)})`
	before := eval[seen](t, d, look)
	do(t, d, "close the page", chromedp.Navigate("about:blank"))
	do(t, d, "open the table again", chromedp.Navigate(url), chromedp.WaitVisible("#my-cards .card"))
	after := eval[seen](t, d, look)
	if before.Hand != after.Hand || before.Seat != after.Seat || strings.Join(before.Cards, "") != strings.Join(after.Cards, "") {
		t.Fatalf("before closing: %+v; after opening again: %+v", before, after)
	}
	if len(after.Cards) != 2 || after.Seat == "" {
		t.Fatalf("after reconnecting: %+v", after)
	}
	t.Logf("hand %s, seat %s, cards %v: back after closing the page", after.Hand, after.Seat, after.Cards)
}
