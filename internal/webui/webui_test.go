package webui

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func get(t *testing.T, h http.Handler, path string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	return rec
}

func TestPages(t *testing.T) {
	h := Handler()
	for _, tc := range []struct{ path, want string }{
		{"/", "play money"},
		{"/rules", "Hand rankings"},
		{"/register", `id="adult"`},
		{"/login", `id="login-form"`},
		{"/lobby", `id="create-form"`},
		{"/table/Main", `data-param="Main"`},
		{"/table/Main", `data-act="fold"`},
		{"/rankings", `id="rankings"`},
		{"/players/alice", `data-param="alice"`},
		{"/hands/17", `id="steps"`},
		{"/boards", `id="boards"`},
		{"/boards/general", `id="topic-form"`},
		{"/topics/3", `id="reply-form"`},
		{"/study", `id="study-form"`},
	} {
		rec := get(t, h, tc.path)
		if rec.Code != 200 {
			t.Errorf("GET %s: %d", tc.path, rec.Code)
			continue
		}
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Errorf("GET %s: Content-Type %q", tc.path, ct)
		}
		body := rec.Body.String()
		if !strings.Contains(body, tc.want) {
			t.Errorf("GET %s: no %q in the page", tc.path, tc.want)
		}
		if !strings.Contains(body, `<main id="main"`) || !strings.Contains(body, "18+") {
			t.Errorf("GET %s: the layout is missing", tc.path)
		}
	}
}

func TestParamIsEscaped(t *testing.T) {
	rec := get(t, Handler(), `/players/%3Cb%3Ex%22`)
	if body := rec.Body.String(); strings.Contains(body, "<b>x") || !strings.Contains(body, "&lt;b&gt;x") {
		t.Fatal("a path parameter reached the page unescaped")
	}
}

func TestUnknownPaths(t *testing.T) {
	h := Handler()
	for _, p := range []string{"/nope", "/static/nope.js", "/table/", "/api/me"} {
		if rec := get(t, h, p); rec.Code != 404 {
			t.Errorf("GET %s: %d, want 404", p, rec.Code)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/lobby", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /lobby: %d", rec.Code)
	}
}

func TestStaticFiles(t *testing.T) {
	h := Handler()
	for path, ct := range map[string]string{
		"/static/css/felt.css": "text/css",
		"/static/js/app.js":    "javascript",
		"/static/js/table.js":  "javascript",
		"/static/favicon.svg":  "image/svg+xml",
	} {
		rec := get(t, h, path)
		if rec.Code != 200 || !strings.Contains(rec.Header().Get("Content-Type"), ct) {
			t.Errorf("GET %s: %d %q", path, rec.Code, rec.Header().Get("Content-Type"))
		}
	}
}

// Every module a page loads and every import between modules is an embedded file,
// so that a renamed file cannot leave a page without its script.
func TestScriptsResolve(t *testing.T) {
	for _, p := range pages {
		if p.script == "" {
			continue
		}
		if _, err := fs.Stat(files, "static/js/"+p.script+".js"); err != nil {
			t.Errorf("page %s: %v", p.template, err)
		}
	}
	imp := regexp.MustCompile(`from "\./([a-z-]+\.js)"`)
	err := fs.WalkDir(files, "static/js", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, _ := fs.ReadFile(files, path)
		for _, m := range imp.FindAllStringSubmatch(string(src), -1) {
			if _, err := fs.Stat(files, "static/js/"+m[1]); err != nil {
				t.Errorf("%s imports %s: %v", path, m[1], err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The winning five come with the table's state (docs/protocol.md); the UI has no
// endpoint of its own for them.
func TestNoBestEndpoint(t *testing.T) {
	if rec := get(t, Handler(), "/ui/best?cards=AsKd7h7c7s2d9h"); rec.Code != 404 {
		t.Fatalf("GET /ui/best: %d", rec.Code)
	}
}

// The house's Content-Security-Policy (internal/web) refuses inline scripts,
// style elements and attributes, and event-handler attributes: no template
// may hold one (the browser tests catch those that JavaScript makes).
func TestNoInlineCode(t *testing.T) {
	inline := regexp.MustCompile(`(?i)<script(\s[^>]*)?>\s*[^<\s]|<script>|<style|\sstyle\s*=|\son[a-z]+\s*=|javascript:`)
	err := fs.WalkDir(files, "templates", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, _ := fs.ReadFile(files, path)
		for _, m := range inline.FindAllString(string(src), -1) {
			t.Errorf("%s: inline code %q, which the Content-Security-Policy refuses", path, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
