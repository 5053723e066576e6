package web

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/felt-poker/felt/internal/chat"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/solver"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/study"
)

// studyRoutes serves the Study page's API (docs/protocol.md): a logged-in player
// pastes a spot, the house solves it within study.Limits, and the player browses it.
func (s *Server) studyRoutes(mux *http.ServeMux) {
	sv := study.New(study.Limits{})
	mux.HandleFunc("POST /api/study", s.authed(func(w http.ResponseWriter, r *http.Request, u store.User) {
		var req study.Request
		if err := decode(w, r, &req); err != nil {
			s.writeError(w, err)
			return
		}
		req.From = house.AddressKey(clientIP(r))
		st, err := sv.Start(u.ID, req)
		if err != nil {
			s.writeError(w, studyError(err))
			return
		}
		s.writeJSON(w, http.StatusAccepted, st)
	}))
	mux.HandleFunc("GET /api/study", s.authed(func(w http.ResponseWriter, r *http.Request, u store.User) {
		s.writeJSON(w, http.StatusOK, sv.Status(u.ID))
	}))
	mux.HandleFunc("GET /api/study/node", s.authed(func(w http.ResponseWriter, r *http.Request, u store.User) {
		info, err := sv.Node(u.ID, strings.Fields(r.URL.Query().Get("path")))
		if err != nil {
			s.writeError(w, studyError(err))
			return
		}
		s.writeJSON(w, http.StatusOK, info)
	}))
	mux.HandleFunc("POST /api/study/stop", s.authed(func(w http.ResponseWriter, r *http.Request, u store.User) {
		if err := sv.Stop(u.ID); err != nil {
			s.writeError(w, studyError(err))
			return
		}
		s.writeJSON(w, http.StatusOK, sv.Status(u.ID))
	}))
}

// studyError gives a study error the status and the sentence the player reads. A bad
// spot or node path is described in the solver's words, which only quote what the
// player sent.
func studyError(err error) error {
	var rest *study.RestError
	switch {
	case errors.Is(err, study.ErrBadSpot):
		return &house.PlayerError{Message: strings.TrimPrefix(err.Error(), study.ErrBadSpot.Error()+": "), Err: house.ErrInvalid}
	case errors.Is(err, solver.ErrBadNode):
		return &house.PlayerError{Message: err.Error(), Err: house.ErrInvalid}
	case errors.Is(err, study.ErrBusy):
		return &house.PlayerError{Message: "the house's solver is busy with another spot: try again in a minute", RetryAfter: 30 * time.Second, Err: house.ErrBusy}
	case errors.As(err, &rest):
		return &house.PlayerError{Message: fmt.Sprintf("others waited for the house's solver while your last spot solved: your next may start in %d s", int(rest.Wait.Seconds())+1),
			RetryAfter: rest.Wait, Err: chat.ErrRateLimited}
	case errors.Is(err, study.ErrSolving):
		return &house.PlayerError{Message: "your spot is still solving: wait for it, or stop it", Err: chat.ErrRateLimited}
	case errors.Is(err, study.ErrNoSolve):
		return &house.PlayerError{Message: "you have no solve running or to browse: paste a spot first", Err: errNotFound}
	}
	return err
}
