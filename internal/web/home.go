package web

import (
	_ "embed"
	"net/http"
)

//go:embed home.html
var homePage []byte

// home serves the placeholder front page until the browser UI lands.
func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(homePage)
}
