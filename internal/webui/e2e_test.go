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
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/felt-poker/felt/internal/browsertest"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/web"
)

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
	return startHouseWith(t, botDelay, pause, nil)
}

// startHouseWith is startHouse with the server's configuration changed by edit
// (when not nil).
func startHouseWith(t *testing.T, botDelay, pause time.Duration, edit func(*web.Config)) string {
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
	if err := h.EnsureBoards(ctx); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg := web.Config{House: h, Log: log, Tables: table.Config{BotDelay: botDelay, HandPause: pause}}
	if edit != nil {
		edit(&cfg)
	}
	srv, err := web.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.RestoreTournaments(ctx); err != nil {
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

// profile returns a tab in a new browser context (its own cookies and storage).
func profile(t *testing.T, browser context.Context) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	watchCSP(t, ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// cspBinding is the function through which a tab reports what the house's
// Content-Security-Policy refused.
const cspBinding = "feltCSPViolation"

// watchCSP fails the test, when it ends, if any page of the tab ctx had
// something refused by the Content-Security-Policy: an inline script or style,
// a style attribute, a resource from elsewhere. Every page the test visits is
// checked so.
func watchCSP(t *testing.T, ctx context.Context) {
	t.Helper()
	var mu sync.Mutex
	var seen []string
	if err := chromedp.Listen(ctx, func(ev any) {
		if b, ok := ev.(*runtime.EventBindingCalled); ok && b.Name == cspBinding {
			mu.Lock()
			seen = append(seen, b.Payload)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, runtime.AddBinding, runtime.AddBindingParams{Name: cspBinding}); err != nil {
		t.Fatal(err)
	}
	src := `document.addEventListener("securitypolicyviolation", (e) => ` + cspBinding +
		`(location.pathname + ": " + e.violatedDirective + " refused " + (e.blockedURI || "inline") + " at " + e.sourceFile + ":" + e.lineNumber));`
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, v := range seen {
			t.Errorf("Content-Security-Policy violation: %s", v)
		}
	})
}

// newTab opens a new tab in the profile of parent (sharing its cookies and
// storage). The first Run on a chromedp context binds the tab's life to the
// context it is given, so it runs here on the tab's own context: a first Run
// under a timeout would leave a tab that stops answering once the timeout's
// context ends.
func newTab(t *testing.T, parent context.Context) (context.Context, context.CancelFunc) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(parent)
	watchCSP(t, ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		cancel()
		t.Fatalf("opening a tab: %v", err)
	}
	return ctx, cancel
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

// press types one key as a person does: a keyDown that carries the key's text,
// so that a page cancelling the keydown also keeps the character out of any
// field (chromedp.KeyEvent sends the character as an event of its own).
func press(r rune) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		for _, k := range kb.Encode(r) {
			switch k.Type {
			case kb.KeyChar:
				continue
			case kb.KeyDown:
				if k.Key != "" && len([]rune(k.Key)) == 1 {
					k.Text, k.UnmodifiedText = k.Key, k.Key
				}
			}
			if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, *k); err != nil {
				return err
			}
		}
		return nil
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
// bots played to several showdowns by clicking while a spectator chats and never
// sees a hole card, the replay of a stored hand step by step, the profile and the
// rankings after those hands, the message board, the four-colour deck, and
// heads-up against the computer played with the keyboard.
// The pause between hands is long enough (2.5 s) that a loaded machine still sees
// each showdown before the next hand clears it.
func TestBrowser(t *testing.T) {
	browsertest.Need(t)
	base := startHouse(t, 40*time.Millisecond, 2500*time.Millisecond)
	dir := artifacts(t)
	browser := browsertest.New(t)

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
	// Record anything on bob's page that shows a hole card outside a showdown,
	// after every change of the page.
	eval[any](t, b, `(() => {
	  window.__leaks = [];
	  window.__checks = 0;
	  const check = () => {
	    window.__checks++;
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

	// Play three hands to a showdown by clicking; bob watches them all.
	var last showdown
	dealt := 0
	for i := 0; i < 3; i++ {
		if i > 0 {
			waitJS[bool](t, a, "the next hand", fmt.Sprintf(`document.body.dataset.hand !== %q && document.body.dataset.hand !== ''`, last.Hand), 30*time.Second)
		}
		playUntil(t, a, "showdown")
		last = waitJS[showdown](t, a, "the winning five cards highlighted and the hand stored", showdownJS, 10*time.Second)
		waitJS[bool](t, b, "the showdown on bob's page", fmt.Sprintf(`document.body.dataset.hand === %q && !!document.querySelector('.seat .hand-name')`, last.Hand), 10*time.Second)
		if i == 0 {
			screenshot(t, a, dir, "showdown.png")
		}
		if last.Mine {
			dealt++
		}
		t.Logf("hand %s (stored as %s): board %v, shown %v, winners %v", last.Hand, last.ID, last.Board, last.Shown, last.Winners)
	}
	if note := eval[string](t, a, `document.getElementById('seat-note')?.textContent || ''`); note != "" {
		t.Errorf("after %d hands dealt the note still says %q", dealt, note)
	}
	if leaks := eval[[]string](t, b, `window.__leaks`); len(leaks) > 0 {
		t.Errorf("the spectator's page showed hole cards: %v", leaks)
	}
	t.Logf("the spectator's page checked after %d changes", eval[int](t, b, `window.__checks`))
	mu.Lock()
	checkSpectatorFrames(t, frames)
	mu.Unlock()

	// alice's statistics and the rankings after those hands; the last hand
	// replayed from her list of hands.
	if dealt < 2 {
		t.Fatalf("alice was dealt %d of the 3 hands", dealt)
	}
	checkProfile(t, a, base, "alice", dealt)
	checkRankings(t, b, base, "alice")
	do(t, a, "open the last hand from the profile", chromedp.Click(fmt.Sprintf(`#hands-body a[href="/hands/%s"]`, last.ID)), chromedp.WaitVisible("#steps li"))
	checkReplay(t, a, last)

	// The message board: alice posts a topic and bob replies.
	topic := postTopic(t, a, base, "Good game", "Three showdowns in a row.")
	do(t, b, "bob replies",
		chromedp.Navigate(base+topic), chromedp.WaitVisible(`#posts li.post`),
		chromedp.SendKeys("#body", "Well played, alice."), chromedp.Click(`#reply-form button[type=submit]`))
	waitJS[bool](t, b, "bob's reply", `document.querySelectorAll('#posts li.post').length === 2 && document.querySelector('#posts li.post:last-child').textContent.includes('Well played')`, 10*time.Second)

	// Heads-up against the computer, as a guest on a 360-pixel phone, played
	// with the keyboard.
	c := profile(t, browser)
	do(t, c, "a phone", chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2)))
	do(t, c, "lobby", chromedp.Navigate(base+"/lobby"), chromedp.WaitReady(`#hu-bot option[value="call"]`))
	if opt := eval[string](t, c, `document.querySelector('#hu-bot option[value="montecarlo"]').textContent`); len(opt) > 40 {
		t.Errorf("a strength is %d characters long in the list: %q", len(opt), opt)
	}
	do(t, c, "choose a strength", fill("#hu-bot", "call"), chromedp.WaitVisible("#hu-desc"))
	if desc := eval[string](t, c, `document.getElementById('hu-desc').textContent`); !strings.Contains(desc, "never folds") {
		t.Errorf("the description under the strength list says %q", desc)
	}
	do(t, c, "heads-up", chromedp.Click("#hu-play"), chromedp.WaitVisible(".seat.me"))
	if title := eval[string](t, c, `document.getElementById("table-title").textContent`); !strings.Contains(title, "heads-up") {
		t.Errorf("heads-up table title = %q", title)
	}
	waitJS[bool](t, c, "my cards", `document.querySelectorAll('.seat.me .hole .card').length === 2`, 20*time.Second)
	checkPhoneSeats(t, c)
	playWithKeys(t, c)

	// The guest may read the board but not post; the four-colour deck.
	guestCannotPost(t, c, base, topic)
	checkFourColour(t, c, base)
}

// checkPhoneSeats checks the table on a narrow screen: every seat inside the
// table's box, and the player's own cards clear of their name.
func checkPhoneSeats(t *testing.T, ctx context.Context) {
	t.Helper()
	type box struct{ Left, Right, Top, Bottom float64 }
	type layout struct {
		Width      float64
		Felt       box
		Seats      []box
		Hole, Name box
	}
	l := eval[layout](t, ctx, `(() => {
	  const r = e => { const b = e.getBoundingClientRect(); return {left: b.left, right: b.right, top: b.top, bottom: b.bottom}; };
	  const hole = [...document.querySelectorAll('.seat.me .hole .card')].map(r);
	  return {width: innerWidth, felt: r(document.getElementById('felt')), seats: [...document.querySelectorAll('.seat .plate')].map(r),
	    hole: {left: Math.min(...hole.map(b => b.left)), right: Math.max(...hole.map(b => b.right)), top: Math.min(...hole.map(b => b.top)), bottom: Math.max(...hole.map(b => b.bottom))},
	    name: r(document.querySelector('.seat.me .name'))};
	})()`)
	if l.Width != 360 {
		t.Fatalf("the window is %v pixels wide, not 360", l.Width)
	}
	for i, s := range l.Seats {
		if s.Left < l.Felt.Left-1 || s.Right > l.Felt.Right+1 {
			t.Errorf("seat %d (%+v) is outside the table (%+v)", i, s, l.Felt)
		}
	}
	if l.Hole.Bottom > l.Name.Top+1 && l.Hole.Right > l.Name.Left && l.Hole.Left < l.Name.Right {
		t.Errorf("on a phone the player's cards (%+v) cover their name (%+v)", l.Hole, l.Name)
	}
}

// showdown is what the table page shows at a showdown.
type showdown struct {
	Hand, ID string
	Board    []string
	// Shown maps a player who showed to the cards shown; Winners are the
	// players who won chips.
	Shown   map[string][]string
	Winners []string
	// Mine says whether the page's player was dealt in.
	Mine bool
}

// showdownJS reads a showdown off the table page once the winning five are
// highlighted and the hand has its stored id.
const showdownJS = `(() => {
  const link = document.querySelector('#fair a[href^="/hands/"]');
  if (document.querySelectorAll('.card.win').length < 5 || !link) return null;
  const shown = {};
  for (const s of document.querySelectorAll('.seat')) {
    if (s.querySelector('.hand-name')) shown[s.dataset.name] = [...s.querySelectorAll('.hole .card')].map(c => c.dataset.card);
  }
  return {hand: document.body.dataset.hand, id: link.getAttribute('href').split('/').pop(),
    board: [...document.querySelectorAll('#board .card')].map(c => c.dataset.card), shown,
    winners: [...document.querySelectorAll('.seat.winner')].map(s => s.dataset.name),
    mine: document.querySelectorAll('#my-cards .card').length === 2};
})()`

// checkReplay steps through the hand on the open /hands/{id} page with the Next
// button, from the blinds to the result, and compares the end with what the
// table showed at the showdown.
func checkReplay(t *testing.T, ctx context.Context, want showdown) {
	t.Helper()
	n := eval[int](t, ctx, `document.querySelectorAll('#steps li').length`)
	if n < 5 {
		t.Fatalf("the replay of hand %s has %d steps", want.ID, n)
	}
	if !eval[bool](t, ctx, `document.getElementById('first').disabled && document.getElementById('prev').disabled`) {
		t.Error("the replay does not start at its first step")
	}
	boardLen, sawShow := 0, false
	for k := 2; k <= n; k++ {
		do(t, ctx, "next step", chromedp.Click("#next"))
		text := waitJS[string](t, ctx, fmt.Sprintf("step %d of %d", k, n),
			fmt.Sprintf(`(() => { const s = document.getElementById('step').textContent; return s.startsWith('Step %d of %d') && s; })()`, k, n), 5*time.Second)
		if cur := eval[int](t, ctx, `document.querySelectorAll('#steps li.current').length`); cur != 1 {
			t.Errorf("step %d: %d steps marked current", k, cur)
		}
		bl := eval[int](t, ctx, `document.querySelectorAll('#board .card').length`)
		if bl < boardLen {
			t.Errorf("step %d (%s): the board went from %d cards to %d", k, text, boardLen, bl)
		}
		boardLen = bl
		sawShow = sawShow || strings.Contains(text, " shows ")
	}
	if !eval[bool](t, ctx, `document.getElementById('next').disabled && document.getElementById('last').disabled`) {
		t.Error("Next is still enabled at the last step")
	}
	type end struct {
		Board   []string
		Seats   map[string][]string
		Winners []string
		Text    string
	}
	got := eval[end](t, ctx, `({board: [...document.querySelectorAll('#board .card')].map(c => c.dataset.card),
	  seats: Object.fromEntries([...document.querySelectorAll('#seats .seat')].map(s => [s.querySelector('.name').textContent, [...s.querySelectorAll('.hole .card')].map(c => c.dataset.card)])),
	  winners: [...document.querySelectorAll('#seats .seat.winner .name')].map(e => e.textContent),
	  text: document.getElementById('step').textContent})`)
	if !sawShow {
		t.Errorf("no step of hand %s shows a hand, though it went to a showdown", want.ID)
	}
	if strings.Join(got.Board, " ") != strings.Join(want.Board, " ") {
		t.Errorf("replayed board %v, the table showed %v", got.Board, want.Board)
	}
	for name, cs := range want.Shown {
		if strings.Join(got.Seats[name], " ") != strings.Join(cs, " ") {
			t.Errorf("%s: replayed with %v, showed %v at the table", name, got.Seats[name], cs)
		}
	}
	sortedW, sortedG := append([]string(nil), want.Winners...), append([]string(nil), got.Winners...)
	slices.Sort(sortedW)
	slices.Sort(sortedG)
	if !slices.Equal(sortedW, sortedG) || !strings.Contains(got.Text, "wins") {
		t.Errorf("replay ends with winners %v (%q); the table's were %v", got.Winners, got.Text, want.Winners)
	}
	// Back to the start with the keyboard.
	do(t, ctx, "first step by keys", press([]rune(kb.ArrowLeft)[0]))
	waitJS[bool](t, ctx, "the step before the last", fmt.Sprintf(`document.getElementById('step').textContent.startsWith('Step %d of')`, n-1), 5*time.Second)
	do(t, ctx, "first step", chromedp.Click("#first"))
	waitJS[bool](t, ctx, "the first step", `document.getElementById('step').textContent.startsWith('Step 1 of') && document.querySelectorAll('#board .card').length === 0`, 5*time.Second)
	t.Logf("hand %s replayed in %d steps: %s", want.ID, n, got.Text)
}

// checkProfile opens a player's profile and checks its statistics after at
// least hands hands.
func checkProfile(t *testing.T, ctx context.Context, base, name string, hands int) {
	t.Helper()
	do(t, ctx, "profile of "+name, chromedp.Navigate(base+"/players/"+name), chromedp.WaitVisible("#stats .stat"), chromedp.WaitVisible(`#hands-body a[href^="/hands/"]`))
	stats := eval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll('#stats .stat')].map(s => [s.querySelector('dt').textContent, s.querySelector('dd').textContent]))`)
	played, err := strconv.Atoi(strings.ReplaceAll(stats["Hands played"], ",", ""))
	if err != nil || played < hands {
		t.Errorf("%s's hands played = %q, want %d or more", name, stats["Hands played"], hands)
	}
	for _, k := range []string{"Net won", "Hands won", "Win rate", "VPIP", "PFR", "bb/100"} {
		if stats[k] == "" {
			t.Errorf("%s's profile has no %s: %v", name, k, stats)
		}
	}
	if v := stats["VPIP"]; v == "0.0%" {
		t.Errorf("%s called every hand, but VPIP = %s", name, v)
	}
	rows := eval[int](t, ctx, `document.querySelectorAll('#hands-body a[href^="/hands/"]').length`)
	if rows < hands {
		t.Errorf("%s's profile lists %d hands, want %d or more", name, rows, hands)
	}
	t.Logf("%s's profile: %v, %d hands listed", name, stats, rows)
}

// checkRankings opens the rankings and finds name there, then follows the link
// to the profile.
func checkRankings(t *testing.T, ctx context.Context, base, name string) {
	t.Helper()
	row := fmt.Sprintf(`#rankings-body a[href="/players/%s"]`, name)
	do(t, ctx, "rankings", chromedp.Navigate(base+"/rankings"), chromedp.WaitVisible(row))
	cells := eval[[]string](t, ctx, fmt.Sprintf(`[...document.querySelector(%q).closest('tr').children].map(c => c.textContent)`, row))
	if len(cells) != 5 || cells[0] == "" || cells[3] == "0" {
		t.Errorf("%s's row in the rankings: %q", name, cells)
	}
	// Each ranking is waited for until its table is filled (no longer aria-busy):
	// the rows of the one before stay until then, and a click on one of them
	// would find it replaced.
	ranked := func(by string) string {
		return fmt.Sprintf(`document.querySelector('[data-by=%q]').getAttribute('aria-pressed') === 'true' && !document.querySelector('#rankings-body').hasAttribute('aria-busy')`, by)
	}
	do(t, ctx, "rank by win rate", chromedp.Click(`[data-by="win_rate"]`))
	waitJS[bool](t, ctx, "the ranking by win rate", ranked("win_rate"), 5*time.Second)
	do(t, ctx, "rank by net", chromedp.Click(`[data-by="net"]`))
	waitJS[bool](t, ctx, "the ranking by net", ranked("net"), 5*time.Second)
	do(t, ctx, "open the profile from the ranking", chromedp.WaitVisible(row), chromedp.Click(row), chromedp.WaitVisible("#stats .stat"))
	if h := eval[string](t, ctx, `document.getElementById('player-name').textContent`); h != name {
		t.Errorf("the rankings' link led to the profile of %q", h)
	}
	t.Logf("rankings: %q", cells)
}

// postTopic posts a new topic on the general board and returns its path.
func postTopic(t *testing.T, ctx context.Context, base, title, body string) string {
	t.Helper()
	do(t, ctx, "boards", chromedp.Navigate(base+"/boards"), chromedp.WaitVisible(`#boards a[href="/boards/general"]`), chromedp.Click(`#boards a[href="/boards/general"]`), chromedp.WaitVisible("#topic-form"))
	do(t, ctx, "empty topic", chromedp.Click(`#topic-form button[type=submit]`), chromedp.WaitVisible("#title-error"))
	do(t, ctx, "post a topic",
		chromedp.SendKeys("#title", title), chromedp.SendKeys("#body", body),
		chromedp.Click(`#topic-form button[type=submit]`),
		chromedp.WaitVisible(`#posts li.post`))
	path := eval[string](t, ctx, `location.pathname`)
	if got := eval[string](t, ctx, `document.getElementById('topic-title').textContent`); got != title {
		t.Errorf("topic title = %q", got)
	}
	// The topic is listed on its board.
	do(t, ctx, "the board lists the topic", chromedp.Click("#back"), chromedp.WaitVisible(fmt.Sprintf(`#topics-body a[href=%q]`, path)))
	return path
}

// guestCannotPost checks that a guest reads a topic but is told to register
// when replying, and that nothing is posted.
func guestCannotPost(t *testing.T, ctx context.Context, base, topic string) {
	t.Helper()
	do(t, ctx, "the guest reads the topic", chromedp.Navigate(base+topic), chromedp.WaitVisible(`#posts li.post`))
	n := eval[int](t, ctx, `document.querySelectorAll('#posts li.post').length`)
	if n != 2 {
		t.Errorf("the guest sees %d posts, want 2", n)
	}
	do(t, ctx, "the guest replies",
		chromedp.SendKeys("#body", "guest post"), chromedp.Click(`#reply-form button[type=submit]`),
		chromedp.WaitVisible("#form-error"))
	if msg := eval[string](t, ctx, `document.getElementById('form-error').textContent`); !strings.Contains(msg, "register to post") {
		t.Errorf("the guest is told %q", msg)
	}
	do(t, ctx, "reload the topic", chromedp.Reload(), chromedp.WaitVisible(`#posts li.post`))
	if m := eval[int](t, ctx, `document.querySelectorAll('#posts li.post').length`); m != n {
		t.Errorf("a guest's reply was posted: %d posts", m)
	}
}

// checkFourColour turns the four-colour deck on at the rules page: diamonds and
// clubs change colour, and the choice stays after a reload.
func checkFourColour(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	const colours = `(() => { const c = s => getComputedStyle(document.querySelector('.card.s-' + s)).color; return {s: c('s'), h: c('h'), d: c('d'), c: c('c'), on: document.documentElement.classList.contains('four-colour'), box: document.getElementById('four-colour').checked}; })()`
	type suits struct {
		S, H, D, C string
		On, Box    bool
	}
	do(t, ctx, "rules", chromedp.Navigate(base+"/rules"), chromedp.WaitVisible(".card.s-d"), chromedp.WaitVisible(".card.s-c"))
	two := eval[suits](t, ctx, colours)
	if two.On || two.Box || two.D != two.H || two.C != two.S {
		t.Errorf("two-colour deck: %+v", two)
	}
	do(t, ctx, "four-colour deck", chromedp.Click("#four-colour"))
	four := eval[suits](t, ctx, colours)
	if !four.On || !four.Box || four.D == four.H || four.C == four.S || four.D == four.C || four.H != two.H || four.S != two.S {
		t.Errorf("four-colour deck: %+v (two-colour: %+v)", four, two)
	}
	do(t, ctx, "reload", chromedp.Reload(), chromedp.WaitVisible(".card.s-d"))
	if again := eval[suits](t, ctx, colours); again != four {
		t.Errorf("after a reload: %+v, want %+v", again, four)
	}
	do(t, ctx, "two-colour deck again", chromedp.Click("#four-colour"), chromedp.Reload(), chromedp.WaitVisible(".card.s-d"))
	if back := eval[suits](t, ctx, colours); back != two {
		t.Errorf("back to two colours: %+v, want %+v", back, two)
	}
	t.Logf("suit colours: two %+v, four %+v", two, four)
}

// turnJS is the actions the player may take now (null while it is not their
// turn), or ["over"] between hands.
const turnJS = `(() => {
  const acts = [...document.querySelectorAll('#action-buttons [data-act]')].filter(b => !b.hidden && !b.disabled).map(b => b.dataset.act);
  if (acts.length) return acts;
  return document.body.dataset.over === '1' ? ['over'] : null;
})()`

// playWithKeys plays heads-up hands with the keyboard alone: an amount chosen
// with the presets and the arrow keys and a raise, checks and calls to the end
// of the hand, then a fold in a later hand; and / goes to the chat.
func playWithKeys(t *testing.T, ctx context.Context) {
	t.Helper()
	me := eval[string](t, ctx, `document.querySelector('.seat.me').dataset.name`)
	logHas := func(kind string) string {
		return fmt.Sprintf(`[...document.querySelectorAll('#hand-log li.ev-%s')].some(li => li.textContent.startsWith(%q))`, kind, me+" ")
	}
	acts := waitJS[[]string](t, ctx, "the first turn", turnJS, 20*time.Second)
	if !slices.Contains(acts, "raise") {
		t.Fatalf("no raise at the first turn of a heads-up hand against a calling bot: %v", acts)
	}
	amount := func() int { return eval[int](t, ctx, `Number(document.getElementById('amount').value)`) }
	max := eval[int](t, ctx, `Number(document.getElementById('amount').max)`)
	do(t, ctx, "key 4: all-in amount", press('4'))
	if v := amount(); v != max {
		t.Errorf("after 4 the amount is %d, want all-in %d", v, max)
	}
	do(t, ctx, "key 1: half the pot", press('1'))
	half := amount()
	if half >= max {
		t.Errorf("after 1 the amount is %d, all-in is %d", half, max)
	}
	do(t, ctx, "key up", press([]rune(kb.ArrowUp)[0]))
	up := amount()
	if up <= half {
		t.Errorf("the up arrow took the amount from %d to %d", half, up)
	}
	if !eval[bool](t, ctx, `document.querySelector('[data-act="raise"]').textContent.includes(Number(document.getElementById('amount').value).toLocaleString('en-US'))`) {
		t.Errorf("the raise button does not say the amount %d", up)
	}
	do(t, ctx, "key r: raise", press('r'))
	waitJS[bool](t, ctx, "the raise in the hand log", fmt.Sprintf(`%s || %s`, logHas("raise"), logHas("bet")), 10*time.Second)
	hand := eval[string](t, ctx, `document.body.dataset.hand`)
	// Check or call with c and k by turns to the end of the hand.
	keys := []rune{'c', 'k'}
	for i := 0; ; i++ {
		acts := waitJS[[]string](t, ctx, "a turn or the end of the hand", turnJS, 20*time.Second)
		if acts[0] == "over" {
			break
		}
		if i > 20 {
			t.Fatal("the hand does not end")
		}
		want := len(eval[[]string](t, ctx, `[...document.querySelectorAll('#hand-log li')].map(l => l.textContent)`))
		do(t, ctx, "key "+string(keys[i%2]), press(keys[i%2]))
		waitJS[bool](t, ctx, "the check or call", fmt.Sprintf(`document.querySelectorAll('#hand-log li').length > %d`, want), 10*time.Second)
	}
	if eval[bool](t, ctx, logHas("fold")) {
		t.Errorf("%s folded hand %s with no fold key pressed", me, hand)
	}
	// A later hand: fold with f at the first turn that offers a fold.
	for i := 0; ; i++ {
		if i > 30 {
			t.Fatal("no turn with a fold in the next hands")
		}
		acts := waitJS[[]string](t, ctx, "a turn in a later hand", fmt.Sprintf(`document.body.dataset.hand !== %q && %s`, hand, turnJS), 30*time.Second)
		if acts[0] == "over" {
			hand = eval[string](t, ctx, `document.body.dataset.hand`)
			continue
		}
		if slices.Contains(acts, "fold") {
			do(t, ctx, "key f: fold", press('f'))
			waitJS[bool](t, ctx, "the fold in the hand log", logHas("fold"), 10*time.Second)
			break
		}
		n := eval[int](t, ctx, `document.querySelectorAll('#hand-log li').length`)
		do(t, ctx, "key k", press('k'))
		waitJS[bool](t, ctx, "the check", fmt.Sprintf(`document.querySelectorAll('#hand-log li').length > %d`, n), 10*time.Second)
	}
	// / goes to the chat, and keys typed there are text, not actions.
	do(t, ctx, "key /", press('/'))
	if id := eval[string](t, ctx, `document.activeElement.id`); id != "chat-text" {
		t.Errorf("after / the focus is on %q, not the chat", id)
	}
	do(t, ctx, "type in the chat", chromedp.KeyEvent("fck"))
	if v := eval[string](t, ctx, `document.getElementById('chat-text').value`); v != "fck" {
		t.Errorf("the chat field holds %q after typing fck", v)
	}
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

// TestBrowserReconnect closes the tab of a seated player in the middle of a
// hand (the tab, its page and its WebSocket go away) and opens the table in a
// new tab of the same browser profile: the same seat and the same cards come
// back. Bots think for 4 s here, so that the hand is still in play when the
// new tab opens.
func TestBrowserReconnect(t *testing.T) {
	browsertest.Need(t)
	base := startHouse(t, 4*time.Second, 600*time.Millisecond)
	browser := browsertest.New(t)
	d := profile(t, browser)
	register(t, d, base, "dave")
	table, err := chromedp.Run(d, chromedp.Evaluate[string](`fetch("/api/headsup", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({bot: "call", watchers: "anyone"})}).then(r => r.json()).then(j => j.name)`, chromedp.EvalAwaitPromise))
	if err != nil || table == "" {
		t.Fatalf("heads-up: %q %v", table, err)
	}
	url := fmt.Sprintf("%s/table/%s", base, table)

	// A new tab in dave's profile (it shares the profile's cookies).
	tab, closeTab := newTab(t, d)
	defer closeTab()
	do(t, tab, "open the table in a new tab", chromedp.Navigate(url), chromedp.WaitVisible("#my-cards .card"))
	tabID := chromedp.FromContext(tab).Target.TargetID
	// Act if it is our turn, so that the bot is thinking when the tab closes.
	step := waitJS[string](t, tab, "the bot to act or our turn", `(() => {
	  const b = [...document.querySelectorAll('#action-buttons [data-act="check"], #action-buttons [data-act="call"]')].find(b => !b.hidden && !b.disabled);
	  if (b) return b.dataset.act;
	  return document.querySelector('.seat.to-act:not(.me)') ? 'bot' : '';
	})()`, 20*time.Second)
	if step != "bot" {
		do(t, tab, "act", chromedp.Click(`#action-buttons [data-act="`+step+`"]:not([hidden])`))
		waitJS[bool](t, tab, "the bot to act", `!!document.querySelector('.seat.to-act:not(.me)')`, 10*time.Second)
	}
	type seen struct {
		Hand, Seat string
		Cards      []string
	}
	const look = `({hand: document.body.dataset.hand, seat: document.body.dataset.seated, cards: [...document.querySelectorAll('#my-cards .card')].map(c => c.dataset.card)})`
	before := eval[seen](t, tab, look)

	// Close the tab and check that it is gone from the browser.
	if err := chromedp.Cancel(tab); err != nil {
		t.Fatalf("closing the tab: %v", err)
	}
	targets, err := chromedp.Targets(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range targets {
		if ti.TargetID == tabID {
			t.Fatalf("the tab %s is still open: %+v", tabID, ti)
		}
	}
	// The house sees the player go: the seat is marked away for everyone.
	watcher := profile(t, browser)
	do(t, watcher, "watch the table", chromedp.Navigate(url), chromedp.WaitVisible(`.seat[data-name="dave"]`))
	waitJS[bool](t, watcher, "dave away", `document.querySelector('.seat[data-name="dave"]').dataset.status === 'away'`, 10*time.Second)

	// A new tab in the same profile: the seat and the cards are back.
	again, closeAgain := newTab(t, d)
	defer closeAgain()
	do(t, again, "open the table in another new tab", chromedp.Navigate(url), chromedp.WaitVisible("#my-cards .card"))
	after := eval[seen](t, again, look)
	if before.Hand != after.Hand || before.Seat != after.Seat || strings.Join(before.Cards, "") != strings.Join(after.Cards, "") {
		t.Fatalf("before closing the tab: %+v; in a new tab: %+v", before, after)
	}
	if len(after.Cards) != 2 || after.Seat == "" {
		t.Fatalf("after reconnecting: %+v", after)
	}
	waitJS[bool](t, watcher, "dave back", `document.querySelector('.seat[data-name="dave"]').dataset.status !== 'away'`, 10*time.Second)
	t.Logf("hand %s, seat %s, cards %v: back in a new tab after closing the old one", after.Hand, after.Seat, after.Cards)
}
