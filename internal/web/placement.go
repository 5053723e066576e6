package web

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
)

// A house on several nodes places each player's new table (POST /api/tables,
// POST /api/headsup) on one of its nodes, not necessarily the one the
// request reached (TablePlacer, package node): the request then goes, as the
// player sent it, to the chosen node, which answers it with its own handler
// (PlacedHandler) and opens the table there. The player plays it from any
// node through the relay.

// TablePlacer places players' new tables on the nodes of a house.
type TablePlacer interface {
	// Place answers r, whose body is body, from the node where its new table
	// is to open and reports true; it reports false, and writes nothing, when
	// the table opens on this node. An error is the answer (nothing was
	// written).
	Place(w http.ResponseWriter, r *http.Request, body []byte) (bool, error)
}

// placeRoutes routes the requests that open a player's table: placed by the
// TablePlacer if any, and opened here by placeMux.
func (s *Server) placeRoutes(mux *http.ServeMux) {
	s.placeMux = http.NewServeMux()
	for pattern, h := range map[string]http.HandlerFunc{
		"POST /api/tables":  s.authed(s.createTable),
		"POST /api/headsup": s.authed(s.headsUp),
	} {
		s.placeMux.HandleFunc(pattern, h)
		mux.HandleFunc(pattern, s.viaPlacer(h))
	}
}

// SetTablePlacer has players' new tables placed on the house's nodes by p.
func (s *Server) SetTablePlacer(p TablePlacer) {
	s.tablesMu.Lock()
	defer s.tablesMu.Unlock()
	s.placer = p
}

func (s *Server) tablePlacer() TablePlacer {
	s.tablesMu.Lock()
	defer s.tablesMu.Unlock()
	return s.placer
}

// PlacedHandler opens on this node the players' tables that another node
// placed here: the routes of POST /api/tables and POST /api/headsup, never
// placed again.
func (s *Server) PlacedHandler() http.Handler { return s.placeMux }

// viaPlacer answers with h here, or from the node the placer chooses. Only a
// logged-in player's request is placed (others are refused here).
func (s *Server) viaPlacer(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p := s.tablePlacer()
		if p == nil {
			h(w, r)
			return
		}
		if _, err := s.user(r); err != nil {
			s.writeError(w, err)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
		if err != nil {
			s.writeError(w, fmt.Errorf("%w: %v", errBadJSON, err))
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		done, err := p.Place(w, r, body)
		switch {
		case err != nil:
			s.writeError(w, err)
		case !done:
			r.Body = io.NopCloser(bytes.NewReader(body))
			h(w, r)
		}
	}
}
