package web

import (
	"net/http"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
)

// The player's own profile (house/profile.go holds the rules): details,
// password, and deleting the account.

func (s *Server) updateDetails(w http.ResponseWriter, r *http.Request, u store.User) {
	var req struct {
		Email    string `json:"email"`
		Location string `json:"location"`
	}
	if err := decode(w, r, &req); err != nil {
		s.writeError(w, err)
		return
	}
	u, err := s.house.UpdateDetails(r.Context(), u, house.Details{Email: req.Email, Location: req.Location})
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.replyMe(w, r, http.StatusOK, u)
}

func (s *Server) changePassword(w http.ResponseWriter, r *http.Request, u store.User) {
	var req struct {
		Current string `json:"current_password"`
		New     string `json:"new_password"`
	}
	if err := decode(w, r, &req); err != nil {
		s.writeError(w, err)
		return
	}
	c, _ := r.Cookie(CookieName) // authed found it
	if err := s.house.ChangePassword(r.Context(), u, req.Current, req.New, c.Value, clientIP(r)); err != nil {
		s.writeError(w, err)
		return
	}
	s.closeSessionsOf(u.ID, c.Value, "the password changed: log in again")
	s.writeJSON(w, http.StatusNoContent, nil)
}

func (s *Server) deleteAccount(w http.ResponseWriter, r *http.Request, u store.User) {
	var req struct {
		Password string `json:"password"`
	}
	if err := decode(w, r, &req); err != nil {
		s.writeError(w, err)
		return
	}
	bots, err := s.house.Bots(r.Context(), u)
	if err == nil {
		err = s.house.DeleteAccount(r.Context(), u, req.Password, clientIP(r))
	}
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.log.Info("account deleted", "user", u.ID)
	s.closeSessionsOf(u.ID, "", "the account is deleted")
	for _, b := range bots { // their tokens are revoked
		s.closeSessionsOf(b.User.ID, "", "the bot's owner deleted their account")
	}
	clearSession(w, r)
	s.writeJSON(w, http.StatusNoContent, nil)
}
