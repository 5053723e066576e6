package web

import (
	"net/http"
	"strings"

	"github.com/felt-poker/felt/internal/store"
)

// Players' own bots (house/bots.go holds the rules): the owner makes, lists and
// revokes them with the session cookie; a bot program authenticates with its
// API token as "Authorization: Bearer TOKEN", which opens only what playing
// needs (the WebSocket, GET /api/me, POST /api/refill, hands), never an
// account change.

// bearer returns the token of r's "Authorization: Bearer" header, if any.
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	if len(h) < 7 || !strings.EqualFold(h[:7], "bearer ") {
		return "", false
	}
	return strings.TrimSpace(h[7:]), true
}

// playerOf returns the player of r for what a bot may do: the bot of a bearer
// token (a bad one is an error, never a fall-back to the cookie), or else the
// logged-in user.
func (s *Server) playerOf(r *http.Request) (store.User, error) {
	if tok, ok := bearer(r); ok {
		return s.house.AuthenticateToken(r.Context(), tok, clientIP(r))
	}
	return s.user(r)
}

// playAuthed is authed for the requests a bot's token may make.
func (s *Server) playAuthed(h func(http.ResponseWriter, *http.Request, store.User)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		u, err := s.playerOf(r)
		if err != nil {
			s.writeError(w, err)
			return
		}
		h(w, r, u)
	}
}

// botReply is one of a player's bots as GET /api/me/bots lists it; Token is
// set only in the reply that made the token.
type botReply struct {
	Name       string `json:"name"`
	Credits    int64  `json:"credits"`
	Created    int64  `json:"created_at"`
	TokenSince int64  `json:"token_since,omitempty"`
	Token      string `json:"token,omitempty"`
}

func (s *Server) listBots(w http.ResponseWriter, r *http.Request, u store.User) {
	bs, err := s.house.Bots(r.Context(), u)
	if err != nil {
		s.writeError(w, err)
		return
	}
	out := []botReply{}
	for _, b := range bs {
		credits, err := s.house.Credits(r.Context(), b.User.ID)
		if err != nil {
			s.writeError(w, err)
			return
		}
		br := botReply{Name: b.User.Username, Credits: credits, Created: b.User.CreatedAt.UnixMilli()}
		if !b.TokenSince.IsZero() {
			br.TokenSince = b.TokenSince.UnixMilli()
		}
		out = append(out, br)
	}
	s.writeJSON(w, http.StatusOK, map[string]any{"bots": out})
}

func (s *Server) createBot(w http.ResponseWriter, r *http.Request, u store.User) {
	var req struct {
		Name string `json:"name"`
	}
	if err := decode(w, r, &req); err != nil {
		s.writeError(w, err)
		return
	}
	b, token, err := s.house.CreateBot(r.Context(), u, req.Name, clientIP(r))
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.log.Info("bot made", "bot", b.Username, "owner", u.Username)
	s.replyToken(w, r, http.StatusCreated, b, token)
}

func (s *Server) newBotToken(w http.ResponseWriter, r *http.Request, u store.User) {
	b, token, err := s.house.NewBotToken(r.Context(), u, r.PathValue("name"))
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.closeSessionsOf(b.ID, "", "the bot's token was replaced")
	s.replyToken(w, r, http.StatusOK, b, token)
}

func (s *Server) replyToken(w http.ResponseWriter, r *http.Request, status int, b store.User, token string) {
	credits, err := s.house.Credits(r.Context(), b.ID)
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.writeJSON(w, status, botReply{Name: b.Username, Credits: credits, Created: b.CreatedAt.UnixMilli(), Token: token})
}

func (s *Server) revokeBot(w http.ResponseWriter, r *http.Request, u store.User) {
	b, err := s.house.RevokeBotToken(r.Context(), u, r.PathValue("name"))
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.closeSessionsOf(b.ID, "", "the bot's token was revoked")
	s.writeJSON(w, http.StatusNoContent, nil)
}
