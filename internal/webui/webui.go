// Package webui is felt's browser UI: HTML pages, a style sheet and vanilla
// JavaScript modules embedded in the binary and served by Handler. The pages talk
// to the house only through the HTTP and WebSocket API of docs/protocol.md.
package webui

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
)

//go:embed static templates
var files embed.FS

// A page is one route of the UI: the template that draws it, its title and the
// JavaScript module that brings it to life (empty for a static page).
type page struct {
	pattern  string
	template string
	title    string
	script   string
	// wide pages use the whole width of the window (the table).
	wide bool
}

// pages are the UI's routes. Paths under /api/, /ws, /healthz and /metrics belong
// to the house's API.
var pages = []page{
	{"GET /{$}", "home", "A play-money poker house", "", false},
	{"GET /rules", "rules", "Rules and hand rankings", "rules", false},
	{"GET /register", "register", "Register", "auth", false},
	{"GET /login", "login", "Log in", "auth", false},
	{"GET /lobby", "lobby", "Lobby", "lobby", false},
	{"GET /table/{name}", "table", "Table", "table", true},
	{"GET /tournaments", "tournaments", "Tournaments", "", false},
	{"GET /tournaments/{id}", "tournament", "Tournament", "tournament", false},
	{"GET /rankings", "rankings", "Rankings", "rankings", false},
	{"GET /players/{name}", "player", "Player", "player", false},
	{"GET /profile", "profile", "Your profile", "profile", false},
	{"GET /hands/{id}", "hand", "Hand history", "hand", false},
	{"GET /boards", "boards", "Message board", "boards", false},
	{"GET /boards/{slug}", "board", "Message board", "boards", false},
	{"GET /topics/{id}", "topic", "Message board", "boards", false},
	{"GET /study", "study", "Study", "study", false},
}

// pageData is what the layout template receives.
type pageData struct {
	Title  string
	Script string
	Wide   bool
	// Param is the page's path parameter (a table or player name, a hand id ...).
	Param string
}

// Handler returns the UI: every page of pages and the files under /static/. Any
// other path is 404. It panics if the embedded templates do
// not parse, which the package's tests rule out.
func Handler() http.Handler {
	mux := http.NewServeMux()
	static, err := fs.Sub(files, "static")
	if err != nil {
		panic(err)
	}
	mux.Handle("GET /static/", http.StripPrefix("/static/", noCacheFS(http.FileServerFS(static))))
	// The app's manifest and service worker live at the root: a worker controls
	// only the pages under its own path.
	mux.Handle("GET /manifest.webmanifest", rootFile("static/manifest.webmanifest", "application/manifest+json"))
	mux.Handle("GET /sw.js", rootFile("static/sw.js", "text/javascript; charset=utf-8"))
	for _, p := range pages {
		tmpl := template.Must(template.New("").ParseFS(files, "templates/layout.html", "templates/"+p.template+".html"))
		mux.Handle(p.pattern, pageHandler(tmpl, p))
	}
	return mux
}

func pageHandler(tmpl *template.Template, p page) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		param := r.PathValue("name")
		for _, k := range []string{"id", "slug"} {
			if v := r.PathValue(k); v != "" {
				param = v
			}
		}
		title := p.title
		if param != "" {
			title = param + " · " + title
		}
		var buf bytes.Buffer
		if err := tmpl.ExecuteTemplate(&buf, "layout", pageData{Title: title, Script: p.script, Wide: p.wide, Param: param}); err != nil {
			slog.Error("webui: page", "page", p.template, "err", err)
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Write(buf.Bytes())
	})
}

// noCacheFS makes browsers revalidate the embedded files, so a new binary's UI is
// picked up at once (the files carry no version in their names).
// rootFile serves the embedded file name with its content type, never cached
// without a check, so that a new house's worker and manifest take over.
func rootFile(name, contentType string) http.Handler {
	data, err := files.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return noCacheFS(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write(data)
	}))
}

func noCacheFS(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		h.ServeHTTP(w, r)
	})
}
