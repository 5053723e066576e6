// Package browsertest starts headless Chromium for felt's end-to-end tests, with
// the flags this machine needs, so that every browser test starts it the same way.
package browsertest

import (
	"context"
	"os"
	"testing"

	"github.com/chromedp/chromedp"
)

// Chromium is where Debian's chromium package installs the browser.
const Chromium = "/usr/bin/chromium"

// Need skips the test where no browser is installed, unless CI is set, where it
// fails instead: CI installs Chromium and must run every browser test.
func Need(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(Chromium); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set but there is no browser at %s (apt-get install chromium): %v", Chromium, err)
		}
		t.Skipf("no browser at %s: install Debian's chromium package to run the browser tests (under CI=true they fail instead)", Chromium)
	}
}

// New starts Chromium (headless, no sandbox, no background networking, a fresh
// profile in a temporary directory) and returns a context whose children are tabs
// in it. The browser stops when the test ends.
func New(t *testing.T) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(Chromium), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU, chromedp.NoFirstRun,
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
