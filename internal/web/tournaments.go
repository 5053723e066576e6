package web

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/tournament"
	"github.com/felt-poker/felt/internal/tournament/live"
)

// The tournaments' API (docs/protocol.md, "Tournaments"): the handlers decode,
// call the director (internal/tournament/live) and encode.

func (s *Server) tournamentRoutes(mux *http.ServeMux) {
	// The director's routes: on a house of several nodes, answered by the
	// node that directs the tournaments (TournamentsHost); s.directorMux
	// answers them here.
	s.directorMux = http.NewServeMux()
	for pattern, h := range map[string]http.HandlerFunc{
		"GET /api/tournaments":                  s.tournaments,
		"GET /api/tournaments/{id}":             s.tournamentInfo,
		"POST /api/tournaments/{id}/register":   s.authed(s.tournamentRegister),
		"POST /api/tournaments/{id}/unregister": s.authed(s.tournamentUnregister),
		"POST /api/tournaments/{id}/bots":       s.authed(s.tournamentBots),
	} {
		s.directorMux.HandleFunc(pattern, h)
		mux.HandleFunc(pattern, s.viaDirector(h))
	}
	mux.HandleFunc("GET /api/players/{name}/tournaments", s.playerTournaments)
	mux.HandleFunc("GET /api/rankings/tournaments", s.tournamentRankings)
}

// TournamentsHost carries the tournaments' API to the node that directs the
// tournaments (a house on several nodes: node.TournamentsRelay).
type TournamentsHost interface {
	// Forward answers r from the director's node and reports true; it
	// reports false, and writes nothing, when this node directs the
	// tournaments (r is answered here). An error (ErrNoDirector: no node
	// directs them for the moment) is the answer, and nothing was written.
	Forward(w http.ResponseWriter, r *http.Request) (bool, error)
}

// ErrNoDirector answers a request of the tournaments' API when no node of the
// house directs the tournaments at the moment (the director's node lost, its
// lease not taken yet): try again.
var ErrNoDirector = errors.New("no node directs the tournaments at the moment")

// SetTournamentsHost has the director's routes answered by the node that
// directs the tournaments; call it before serving.
func (s *Server) SetTournamentsHost(h TournamentsHost) { s.tourneyHost = h }

// DirectorHandler answers the director's routes of the tournaments' API on
// this node, for a request another node forwarded here.
func (s *Server) DirectorHandler() http.Handler { return s.directorMux }

// viaDirector answers with h here, or forwards to the director's node.
func (s *Server) viaDirector(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.tourneyHost != nil {
			done, err := s.tourneyHost.Forward(w, r)
			if err != nil {
				s.writeError(w, err)
				return
			}
			if done {
				return
			}
		}
		h(w, r)
	}
}

// viewerID is the requester's user id, 0 when not logged in.
func (s *Server) viewerID(r *http.Request) int64 {
	if u, err := s.user(r); err == nil {
		return u.ID
	}
	return 0
}

func (s *Server) tournaments(w http.ResponseWriter, r *http.Request) {
	s.writeJSON(w, http.StatusOK, map[string]any{
		"tournaments": s.director().List(s.viewerID(r)),
		"payouts":     tournament.PayoutTable,
	})
}

func (s *Server) tournamentInfo(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err == nil {
		var in live.Info
		if in, err = s.director().Info(r.Context(), id, s.viewerID(r)); err == nil {
			s.writeJSON(w, http.StatusOK, in)
			return
		}
	}
	s.writeError(w, err)
}

// tournamentCall runs f on the tournament of the path for u and replies with
// the tournament as u sees it then.
func (s *Server) tournamentCall(w http.ResponseWriter, r *http.Request, u store.User, f func(ctx context.Context, id int64, p table.Player) error) {
	id, err := pathID(r)
	if err == nil {
		err = f(r.Context(), id, table.Player{ID: u.ID, Name: u.Username})
	}
	if err != nil {
		s.writeError(w, err)
		return
	}
	in, err := s.director().Info(r.Context(), id, u.ID)
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.writeJSON(w, http.StatusOK, in)
}

func (s *Server) tournamentRegister(w http.ResponseWriter, r *http.Request, u store.User) {
	s.tournamentCall(w, r, u, s.director().Register)
}

func (s *Server) tournamentUnregister(w http.ResponseWriter, r *http.Request, u store.User) {
	s.tournamentCall(w, r, u, s.director().Unregister)
}

// tournamentBots fills a sit-and-go the player registered for with bots (when
// the house allows it).
func (s *Server) tournamentBots(w http.ResponseWriter, r *http.Request, u store.User) {
	s.tournamentCall(w, r, u, s.director().FillWithBots)
}

func (s *Server) playerTournaments(w http.ResponseWriter, r *http.Request) {
	u, _, err := s.house.Player(r.Context(), r.PathValue("name"))
	if err != nil {
		s.writeError(w, err)
		return
	}
	res, err := s.house.TournamentResults(r.Context(), u.ID)
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.writeJSON(w, http.StatusOK, map[string]int64{
		"played": res.Played, "won": res.Won, "cashed": res.Cashed, "buy_ins": res.BuyIns, "prizes": res.Prizes,
	})
}

// tournamentRankings lists the players by tournament net: ?limit=1..100 (default
// 50) and ?offset.
func (s *Server) tournamentRankings(w http.ResponseWriter, r *http.Request) {
	limit, offset := 50, 0
	q := r.URL.Query()
	var err error
	if v := q.Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil {
			limit = -1
		}
	}
	if v := q.Get("offset"); v != "" {
		if offset, err = strconv.Atoi(v); err != nil {
			offset = -1
		}
	}
	rs, err := s.house.TournamentRankings(r.Context(), limit, offset)
	if err != nil {
		s.writeError(w, err)
		return
	}
	out := []map[string]any{}
	for _, x := range rs {
		out = append(out, map[string]any{"name": x.Name, "played": x.Played, "won": x.Won, "cashed": x.Cashed,
			"buy_ins": x.BuyIns, "prizes": x.Prizes, "net": x.Prizes - x.BuyIns})
	}
	s.writeJSON(w, http.StatusOK, map[string]any{"rankings": out})
}

// RestoreTournaments loads the stored tournaments (running ones resume) and
// opens the configured sit-and-goes and scheduled tournaments. Call it once the
// house has recovered, before serving.
func (s *Server) RestoreTournaments(ctx context.Context) error {
	return s.director().Start(ctx)
}

// Tournaments returns the house's tournament director.
func (s *Server) Tournaments() *live.Director { return s.director() }

// director returns the tournaments' director of the moment.
func (s *Server) director() *live.Director {
	s.tourneyMu.Lock()
	defer s.tourneyMu.Unlock()
	return s.tourneys
}

// DirectTournaments makes this node the tournaments' director of a house on
// several nodes, once it holds the director lease and has fenced the store
// with it (docs/scaling.md, "Tournaments"): a new director restores the stored
// tournaments, host opening their tables (running ones taken up from their
// logs, the hand in play included). The returned abandon stops it when the
// lease is lost: its tables stop paying nobody and it writes nothing more; an
// idle director (listing nothing, never started) takes its place.
func (s *Server) DirectTournaments(ctx context.Context, host live.TableHost) (abandon func(context.Context), err error) {
	cfg := s.tourneyCfg
	cfg.Host = host
	d, err := live.New(cfg)
	if err != nil {
		return nil, err
	}
	s.tourneyMu.Lock()
	s.tourneys = d
	s.tourneyMu.Unlock()
	if err := d.Start(ctx); err != nil {
		d.Abandon(ctx)
		s.idleDirector(d)
		return nil, err
	}
	return func(ctx context.Context) {
		d.Abandon(ctx)
		s.idleDirector(d)
	}, nil
}

// idleDirector puts an idle director in the place of d, if d is still the
// director of the moment.
func (s *Server) idleDirector(d *live.Director) {
	idle, err := live.New(s.tourneyCfg)
	if err != nil {
		return // s.tourneyCfg made d: it makes another
	}
	s.tourneyMu.Lock()
	defer s.tourneyMu.Unlock()
	if s.tourneys == d {
		s.tourneys = idle
	}
}
