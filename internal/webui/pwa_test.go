package webui_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/felt-poker/felt/internal/browsertest"
	"github.com/felt-poker/felt/internal/webui"
)

// The manifest names the app, starts it at the lobby, and lists icons that
// exist at the sizes it says.
func TestManifest(t *testing.T) {
	ts := httptest.NewServer(webui.Handler())
	defer ts.Close()
	get := func(path string) (*http.Response, []byte) {
		t.Helper()
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	resp, body := get("/manifest.webmanifest")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/manifest+json" {
		t.Fatalf("manifest: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var m struct {
		Name, ShortName, StartURL, Display string
		Icons                              []struct{ Src, Sizes, Type string }
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	_ = json.Unmarshal(body, &raw)
	if raw["short_name"] != "felt" || raw["start_url"] != "/lobby" || raw["display"] != "standalone" || m.Name == "" {
		t.Errorf("manifest %v", raw)
	}
	pngs := 0
	for _, ic := range m.Icons {
		resp, b := get(ic.Src)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != ic.Type {
			t.Errorf("icon %s: %d %q, manifest says %s", ic.Src, resp.StatusCode, resp.Header.Get("Content-Type"), ic.Type)
			continue
		}
		if ic.Type != "image/png" {
			continue
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(b))
		if err != nil || fmt.Sprintf("%dx%d", cfg.Width, cfg.Height) != ic.Sizes {
			t.Errorf("icon %s is %dx%d (%v), manifest says %s", ic.Src, cfg.Width, cfg.Height, err, ic.Sizes)
		}
		pngs++
	}
	if pngs < 2 {
		t.Errorf("%d PNG icons; installing wants 192 and 512", pngs)
	}
	if resp, body := get("/sw.js"); resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), "javascript") || !bytes.Contains(body, []byte(`"/api/"`)) {
		t.Errorf("sw.js: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}

// In a real browser the service worker installs, controls the pages and keeps
// the shell: with the house gone the lobby page still opens (from the cache),
// while the API is never served from it.
func TestBrowserInstallable(t *testing.T) {
	browsertest.Need(t)
	ts := httptest.NewServer(webui.Handler())
	defer ts.Close()
	browser := browsertest.New(t)
	ctx := profile(t, browser)
	do(t, ctx, "open the lobby", chromedp.Navigate(ts.URL+"/lobby"))
	wait, cancelWait := context.WithTimeout(ctx, 30*time.Second)
	defer cancelWait()
	scope, err := chromedp.Run(wait, chromedp.Evaluate[string](`navigator.serviceWorker.ready.then(r => r.scope)`, chromedp.EvalAwaitPromise))
	if err != nil || scope != ts.URL+"/" {
		t.Fatalf("service worker scope %q, %v", scope, err)
	}
	for {
		has, err := chromedp.Run(wait, chromedp.Evaluate[bool](`caches.has("felt-shell-v1")`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("the shell was never cached: %v", err)
		}
		if has {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	cached, err := chromedp.Run(wait, chromedp.Evaluate[bool](`caches.open("felt-shell-v1").then(c => c.match("/lobby")).then(r => !!r)`, chromedp.EvalAwaitPromise))
	if err != nil || !cached {
		t.Fatalf("the lobby page is not cached: %v", err)
	}
	ts.CloseClientConnections()
	ts.Close()
	do(t, ctx, "open the lobby without the house", chromedp.Navigate(ts.URL+"/lobby"))
	if title := eval[string](t, ctx, `document.title`); !strings.Contains(title, "Lobby") {
		t.Fatalf("offline, the lobby's title is %q", title)
	}
	api, err := chromedp.Run(wait, chromedp.Evaluate[string](`fetch("/api/me").then(r => "served " + r.status, e => "refused")`, chromedp.EvalAwaitPromise))
	if err != nil || api != "refused" {
		t.Fatalf("offline, the API answered from a cache: %q, %v", api, err)
	}
}
