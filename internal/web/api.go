package web

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/lobby"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/webui"
)

func (s *Server) routes() {
	mux := http.NewServeMux()
	mux.Handle("/", webui.Handler()) // the browser UI (internal/webui): every path the API does not claim
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.Handle("GET /metrics", s.metricsFor(promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{})))
	mux.HandleFunc("GET /ws", s.serveWS)

	mux.HandleFunc("POST /api/register", s.register)
	mux.HandleFunc("POST /api/login", s.login)
	mux.HandleFunc("POST /api/logout", s.logout)
	mux.HandleFunc("POST /api/guest", s.guest)
	mux.HandleFunc("GET /api/me", s.playAuthed(s.me))
	mux.HandleFunc("POST /api/refill", s.playAuthed(s.refill))
	mux.HandleFunc("POST /api/me/details", s.authed(s.updateDetails))
	mux.HandleFunc("POST /api/me/password", s.authed(s.changePassword))
	mux.HandleFunc("POST /api/me/delete", s.authed(s.deleteAccount))
	mux.HandleFunc("GET /api/me/bots", s.authed(s.listBots))
	mux.HandleFunc("POST /api/me/bots", s.authed(s.createBot))
	mux.HandleFunc("POST /api/me/bots/{name}/token", s.authed(s.newBotToken))
	mux.HandleFunc("POST /api/me/bots/{name}/revoke", s.authed(s.revokeBot))

	mux.HandleFunc("GET /api/tables", s.tables)
	s.placeRoutes(mux) // POST /api/tables, POST /api/headsup
	mux.HandleFunc("GET /api/headsup/levels", s.headsUpLevels)
	mux.HandleFunc("GET /api/bots", s.bots)
	s.tournamentRoutes(mux)
	mux.HandleFunc("GET /api/houses", s.houses)

	mux.HandleFunc("GET /api/rankings", s.rankings)
	mux.HandleFunc("GET /api/players/{name}", s.player)
	mux.HandleFunc("GET /api/players/{name}/hands", s.playerHands)
	mux.HandleFunc("GET /api/hands/{id}", s.hand)

	mux.HandleFunc("GET /api/boards", s.boards)
	mux.HandleFunc("GET /api/boards/{slug}/topics", s.topics)
	mux.HandleFunc("POST /api/boards/{slug}/topics", s.authed(s.createTopic))
	mux.HandleFunc("GET /api/topics/{id}", s.topic)
	mux.HandleFunc("POST /api/topics/{id}/posts", s.authed(s.reply))

	s.studyRoutes(mux) // study.go

	cop := http.NewCrossOriginProtection()
	s.handler = s.withClient(secureHeaders(cop.Handler(mux)))
}

// healthPing bounds the time /healthz waits for the database.
const healthPing = 2 * time.Second

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	if !s.ready.Load() {
		http.Error(w, "starting or stopping", http.StatusServiceUnavailable)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), healthPing)
	defer cancel()
	if err := s.house.Ping(ctx); err != nil {
		s.log.Warn("health check: the database does not answer", "err", err)
		http.Error(w, "the database does not answer", http.StatusServiceUnavailable)
		return
	}
	for name, check := range s.cfg.Checks {
		if err := check(ctx); err != nil {
			s.log.Warn("health check failed", "check", name, "err", err)
			http.Error(w, name+" does not answer", http.StatusServiceUnavailable)
			return
		}
	}
	_, _ = io.WriteString(w, "ok\n")
}

// decode reads a JSON body of at most maxBody bytes into v, refusing unknown fields.
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %v", errBadJSON, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: more than one JSON value", errBadJSON)
	}
	return nil
}

// user returns the logged-in user of r.
func (s *Server) user(r *http.Request) (store.User, error) {
	c, err := r.Cookie(CookieName)
	if err != nil || c.Value == "" {
		return store.User{}, errLogin
	}
	return s.house.Authenticate(r.Context(), c.Value)
}

func (s *Server) authed(h func(http.ResponseWriter, *http.Request, store.User)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		u, err := s.user(r)
		if err != nil {
			s.writeError(w, err)
			return
		}
		h(w, r, u)
	}
}

func setSession(w http.ResponseWriter, r *http.Request, sess house.Session) {
	http.SetCookie(w, &http.Cookie{
		Name: CookieName, Value: sess.Token, Path: "/", Expires: sess.ExpiresAt,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: isHTTPS(r),
	})
}

// meReply is the player as GET /api/me shows them.
type meReply struct {
	ID          int64    `json:"id"`
	Name        string   `json:"name"`
	Guest       bool     `json:"guest"`
	Credits     int64    `json:"credits"`
	NetWon      int64    `json:"net_won"`
	GamesPlayed int64    `json:"games_played"`
	HandsPlayed int64    `json:"hands_played"`
	HandsWon    int64    `json:"hands_won"`
	Tables      []string `json:"tables"`
	Email       string   `json:"email"`
	Location    string   `json:"location"`
}

func (s *Server) meOf(ctx context.Context, u store.User) (meReply, error) {
	t, err := s.house.Totals(ctx, u.ID)
	if err != nil {
		return meReply{}, err
	}
	return meReply{ID: u.ID, Name: u.Username, Guest: u.Guest, Credits: t.Credits, NetWon: t.NetWon,
		GamesPlayed: t.GamesPlayed, HandsPlayed: t.HandsPlayed, HandsWon: t.HandsWon, Tables: s.lobby.SeatedAt(u.Username),
		Email: u.Email, Location: u.Location}, nil
}

func (s *Server) replyMe(w http.ResponseWriter, r *http.Request, status int, u store.User) {
	me, err := s.meOf(r.Context(), u)
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.writeJSON(w, status, me)
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Username string `json:"username"`
		Password string `json:"password"`
		Adult    bool   `json:"adult"`
		Email    string `json:"email"`
		Location string `json:"location"`
	}
	if err := decode(w, r, &req); err != nil {
		s.writeError(w, err)
		return
	}
	sess, err := s.house.SignUp(r.Context(), house.Registration{Username: req.Username, Password: req.Password, ConfirmedAdult: req.Adult, Email: req.Email, Location: req.Location, From: clientIP(r)})
	if err != nil {
		s.writeError(w, err)
		return
	}
	setSession(w, r, sess)
	s.replyMe(w, r, http.StatusCreated, sess.User)
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Username string `json:"username"`
		Password string `json:"password"`
	}
	if err := decode(w, r, &req); err != nil {
		s.writeError(w, err)
		return
	}
	s.logIn(w, r, req.Username, req.Password, http.StatusOK)
}

// logIn opens a session for the player, sets its cookie and answers with the
// player's account (status), or with the error.
func (s *Server) logIn(w http.ResponseWriter, r *http.Request, username, password string, status int) {
	sess, err := s.house.Login(r.Context(), username, password, clientIP(r))
	if err != nil {
		s.writeError(w, err)
		return
	}
	setSession(w, r, sess)
	s.replyMe(w, r, status, sess.User)
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(CookieName); err == nil {
		if err := s.house.Logout(r.Context(), c.Value); err != nil {
			s.writeError(w, err)
			return
		}
	}
	clearSession(w, r)
	s.writeJSON(w, http.StatusNoContent, nil)
}

// clearSession tells the browser to forget its session cookie.
func clearSession(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: isHTTPS(r)})
}

func (s *Server) guest(w http.ResponseWriter, r *http.Request) {
	sess, err := s.house.Guest(r.Context(), clientIP(r))
	if err != nil {
		s.writeError(w, err)
		return
	}
	setSession(w, r, sess)
	s.replyMe(w, r, http.StatusCreated, sess.User)
}

func (s *Server) me(w http.ResponseWriter, r *http.Request, u store.User) {
	s.replyMe(w, r, http.StatusOK, u)
}

func (s *Server) refill(w http.ResponseWriter, r *http.Request, u store.User) {
	granted, err := s.house.Refill(r.Context(), u.ID)
	if err != nil {
		s.writeError(w, err)
		return
	}
	credits, err := s.house.Credits(r.Context(), u.ID)
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.writeJSON(w, http.StatusOK, map[string]int64{"granted": granted, "credits": credits})
}

func (s *Server) tables(w http.ResponseWriter, r *http.Request) {
	s.writeJSON(w, http.StatusOK, map[string]any{"tables": s.lobby.Tables()})
}

// tableRequest is the body of POST /api/tables.
type tableRequest struct {
	Name          string         `json:"name"`
	Variant       string         `json:"variant"`
	Seats         int            `json:"seats"`
	SmallBlind    int64          `json:"small_blind"`
	BigBlind      int64          `json:"big_blind"`
	Ante          int64          `json:"ante"`
	MinBuyIn      int64          `json:"min_buy_in"`
	MaxBuyIn      int64          `json:"max_buy_in"`
	Schedule      table.Schedule `json:"schedule"`
	ActionSeconds int            `json:"action_seconds"`
	Bots          []string       `json:"bots"`
	Showcase      bool           `json:"showcase"`
	Straddle      bool           `json:"straddle,omitempty"`
	RunItTwice    bool           `json:"run_it_twice,omitempty"`
	// Access is who may come in: "" (anyone), "password" (who gives Password;
	// the table is listed as locked) or "invite" (who opens the link with the
	// invitation the reply gives; the table is not listed).
	Access   string `json:"access,omitempty"`
	Password string `json:"password,omitempty"`
	// Lock is what the house keeps of the password or invitation, written
	// when the table is kept (never sent by a client, nor the password kept).
	Lock *table.Lock `json:"lock,omitempty"`
}

// createdTable is the reply to POST /api/tables: the table's listing and, for
// a table by invitation, the invitation (shown this once).
type createdTable struct {
	table.Info
	Invite string `json:"invite,omitempty"`
}

// lockTable sets req.Lock from req.Access and req.Password and forgets the
// password; it returns the invitation token of a table by invitation.
func lockTable(req *tableRequest) (string, error) {
	if req.Lock != nil {
		return "", &house.FieldError{Field: "lock", Message: "lock: is set by the house", Err: house.ErrInvalid}
	}
	var invite string
	var err error
	switch req.Access {
	case "":
		if req.Password != "" {
			return "", &house.FieldError{Field: "access", Message: `access: must be "password" with a password`, Err: house.ErrInvalid}
		}
	case table.LockPassword:
		req.Lock, err = table.NewPasswordLock(req.Password)
	case table.LockInvite:
		req.Lock, invite = table.NewInviteLock()
	default:
		return "", &house.FieldError{Field: "access", Message: `access: must be "", "password" or "invite"`, Err: house.ErrInvalid}
	}
	req.Password = ""
	return invite, err
}

func (s *Server) createTable(w http.ResponseWriter, r *http.Request, u store.User) {
	var req tableRequest
	if err := decode(w, r, &req); err != nil {
		s.writeError(w, err)
		return
	}
	if err := lobby.ValidPlayerName(req.Name); err != nil {
		s.writeError(w, err)
		return
	}
	if err := s.house.AllowTableOpen(u.ID); err != nil {
		s.writeError(w, err)
		return
	}
	key := req.Password
	invite, err := lockTable(&req)
	if invite != "" {
		key = invite
	}
	if err != nil {
		s.writeError(w, err)
		return
	}
	t, err := s.openPlayerTable(r.Context(), u.ID, s.cfg.MaxTablesPerPlayer, req)
	if err == nil {
		// The creator is let in without typing the key they chose.
		err = t.Admit(r.Context(), table.Player{ID: u.ID, Name: u.Username}, key)
		if err == nil && s.tableHost() == nil { // a house on several nodes keeps it in its registry
			err = s.keepPlayerTable(r.Context(), u.ID, req)
		}
		if err != nil {
			_ = t.Close(context.WithoutCancel(r.Context()), "the table could not be kept")
		}
	}
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.log.Info("table opened", "table", t.Name(), "by", u.Username)
	in, err := t.Info(r.Context())
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.writeJSON(w, http.StatusCreated, createdTable{Info: in, Invite: invite})
}

// openPlayerTable checks req and opens its table for the player whose ID is
// owner, who may have at most maxOwned tables open (0: no bound).
func (s *Server) openPlayerTable(ctx context.Context, owner int64, maxOwned int, req tableRequest) (*table.Table, error) {
	cfg, err := s.playerTableConfig(req)
	if err != nil {
		return nil, err
	}
	return s.openTable(ctx, owner, maxOwned, cfg, registeredTable{Owner: owner, Table: &req})
}

// playerTableConfig checks req and returns its table's settings. The table
// package holds the defaults and bounds; bots are checked here as anything a
// player names is (bot.CheckUntrusted).
func (s *Server) playerTableConfig(req tableRequest) (table.Config, error) {
	action, err := table.ActionTime(req.ActionSeconds)
	if err != nil {
		return table.Config{}, err
	}
	for _, b := range req.Bots {
		if err := bot.CheckUntrusted(b); err != nil {
			return table.Config{}, &house.FieldError{Field: "bots", Message: "bots: " + err.Error(), Err: house.ErrInvalid}
		}
	}
	return s.TableDefaults(table.Config{
		Name: req.Name, Variant: req.Variant, Seats: req.Seats, SmallBlind: req.SmallBlind, BigBlind: req.BigBlind,
		Ante: req.Ante, MinBuyIn: req.MinBuyIn, MaxBuyIn: req.MaxBuyIn, Schedule: req.Schedule,
		ActionTime: action, Bots: req.Bots, Permanent: req.Showcase, Straddle: req.Straddle, RunItTwice: req.RunItTwice,
		Lock: req.Lock,
	}), nil
}

// replyInfo answers 201 with a new table's listing, as the table reports it.
func (s *Server) replyInfo(w http.ResponseWriter, r *http.Request, t *table.Table) {
	in, err := t.Info(r.Context())
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.writeJSON(w, http.StatusCreated, in)
}

func (s *Server) headsUp(w http.ResponseWriter, r *http.Request, u store.User) {
	req := table.DefaultHeadsUp()
	if err := decode(w, r, &req); err != nil {
		s.writeError(w, err)
		return
	}
	name := headsUpPrefix + strings.ToLower(rand.Text()[:6])
	cfg, err := s.headsUpConfig(name, req)
	if err == nil {
		err = s.house.AllowTableOpen(u.ID)
	}
	if err != nil {
		s.writeError(w, err)
		return
	}
	t, err := s.openTable(r.Context(), u.ID, s.cfg.MaxTablesPerPlayer, cfg, registeredTable{Owner: u.ID, HeadsUp: &headsUpGame{Name: name, HeadsUp: req}})
	if err != nil {
		s.writeError(w, err)
		return
	}
	if err := t.Sit(r.Context(), table.Player{ID: u.ID, Name: u.Username}, 1, req.Chips); err != nil {
		_ = t.Close(context.WithoutCancel(r.Context()), "the player could not sit")
		s.writeError(w, err)
		return
	}
	s.log.Info("heads-up opened", "table", t.Name(), "player", u.Username, "bot", cfg.Bots[0], "level", req.Level)
	s.replyInfo(w, r, t)
}

// headsUpLevels answers GET /api/headsup/levels: table.HeadsUpLevels, weakest
// first, and the level the lobby offers first.
func (s *Server) headsUpLevels(w http.ResponseWriter, r *http.Request) {
	type level struct {
		table.Level
		BudgetMS int64 `json:"budget_ms"`
	}
	out := make([]level, len(table.HeadsUpLevels))
	for i, l := range table.HeadsUpLevels {
		out[i] = level{l, l.BudgetMS()}
	}
	s.writeJSON(w, http.StatusOK, map[string]any{"levels": out, "default": table.HeadsUpLevels[0].Key})
}

// headsUpConfig checks req and returns the settings of the heads-up game
// called name: its level's bot, or a bot a player may ask for by name.
func (s *Server) headsUpConfig(name string, req table.HeadsUp) (table.Config, error) {
	cfg, err := table.HeadsUpConfig(name, req)
	if err != nil {
		return table.Config{}, err
	}
	if err := bot.CheckUntrusted(cfg.Bots[0]); err != nil {
		return table.Config{}, &house.FieldError{Field: "bot", Message: "bot: " + err.Error(), Err: house.ErrInvalid}
	}
	cfg.ActionTime = s.cfg.HeadsUpActionTime
	return s.TableDefaults(cfg), nil
}

func (s *Server) bots(w http.ResponseWriter, r *http.Request) {
	type info struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		HeadsUp     bool   `json:"heads_up"` // it may be the opponent of a heads-up game
	}
	out := []info{}
	for _, b := range bot.List() {
		out = append(out, info{b.Name, b.Description, table.PlaysHeadsUp(b.Name)})
	}
	s.writeJSON(w, http.StatusOK, map[string]any{"bots": out})
}

// statsReply is a player's statistics, in GET /api/players/{name} and in rankings.
type statsReply struct {
	NetWon      int64   `json:"net_won"`
	GamesPlayed int64   `json:"games_played"`
	HandsPlayed int64   `json:"hands_played"`
	HandsWon    int64   `json:"hands_won"`
	WinRate     float64 `json:"win_rate"`
	BBPer100    float64 `json:"bb_per_100"`
	VPIP        float64 `json:"vpip"`
	PFR         float64 `json:"pfr"`
}

func statsOf(st store.Stats) statsReply {
	return statsReply{NetWon: st.NetWon, GamesPlayed: st.GamesPlayed, HandsPlayed: st.HandsPlayed, HandsWon: st.HandsWon,
		WinRate: st.HandsWonShare(), BBPer100: st.BBPer100(), VPIP: st.VPIP(), PFR: st.PFR()}
}

func (s *Server) player(w http.ResponseWriter, r *http.Request) {
	u, st, err := s.house.Player(r.Context(), r.PathValue("name"))
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.writeJSON(w, http.StatusOK, struct {
		Name  string `json:"name"`
		Guest bool   `json:"guest"`
		Since int64  `json:"since"`
		statsReply
	}{u.Username, u.Guest, u.CreatedAt.UnixMilli(), statsOf(st)})
}

func (s *Server) rankings(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	by := store.Rank(q.Get("by"))
	if by == "" {
		by = store.RankByNet
	}
	limit, offset := 50, 0
	if v := q.Get("limit"); v != "" {
		var err error
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > 100 {
			s.writeError(w, &house.FieldError{Field: "limit", Message: "limit: must be 1 to 100", Err: house.ErrInvalid})
			return
		}
	}
	if v := q.Get("offset"); v != "" {
		var err error
		if offset, err = strconv.Atoi(v); err != nil || offset < 0 {
			s.writeError(w, &house.FieldError{Field: "offset", Message: "offset: must be a number, at least 0", Err: house.ErrInvalid})
			return
		}
	}
	rs, err := s.house.Rankings(r.Context(), by, limit, offset)
	if err != nil {
		s.writeError(w, err)
		return
	}
	type row struct {
		Rank int    `json:"rank"`
		Name string `json:"name"`
		statsReply
	}
	out := []row{}
	for i, p := range rs {
		out = append(out, row{offset + i + 1, p.Name, statsOf(p.Stats)})
	}
	s.writeJSON(w, http.StatusOK, map[string]any{"by": by, "min_hands": s.house.MinHands(by), "rankings": out})
}

type handPlayer struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
	Net  int64  `json:"net"`
	Won  bool   `json:"won"`
}

type handReply struct {
	ID       int64        `json:"id"`
	Table    string       `json:"table"`
	Variant  string       `json:"variant"`
	PlayedAt int64        `json:"played_at"`
	Players  []handPlayer `json:"players"`
	PHH      string       `json:"phh,omitempty"`
}

func handOf(h store.Hand, withPHH bool) handReply {
	out := handReply{ID: h.ID, Table: h.TableRef, Variant: h.Variant, PlayedAt: h.PlayedAt.UnixMilli(), Players: []handPlayer{}}
	if withPHH {
		out.PHH = h.PHH
	}
	for _, p := range h.Players {
		out.Players = append(out.Players, handPlayer{p.Seat, p.Name, p.Net, p.Won})
	}
	return out
}

func (s *Server) playerHands(w http.ResponseWriter, r *http.Request) {
	u, _, err := s.house.Player(r.Context(), r.PathValue("name"))
	if err != nil {
		s.writeError(w, err)
		return
	}
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	if limit == 0 {
		limit = 20
	}
	var viewer int64
	if v, err := s.user(r); err == nil {
		viewer = v.ID
	}
	hs, err := s.house.HandsOf(r.Context(), u.ID, viewer, limit)
	if err != nil {
		s.writeError(w, err)
		return
	}
	out := []handReply{}
	for _, h := range hs {
		out = append(out, handOf(h, false))
	}
	s.writeJSON(w, http.StatusOK, map[string]any{"hands": out})
}

func pathID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, fmt.Errorf("%w: id %q", errNotFound, r.PathValue("id"))
	}
	return id, nil
}

// hand replies with a stored hand as the requester (logged in or not) may see it
// (house.HandFor).
func (s *Server) hand(w http.ResponseWriter, r *http.Request) {
	var viewer int64
	if u, err := s.user(r); err == nil {
		viewer = u.ID
	}
	id, err := pathID(r)
	if err == nil {
		var h store.Hand
		if h, err = s.house.HandFor(r.Context(), id, viewer); err == nil {
			s.writeJSON(w, http.StatusOK, handOf(h, true))
			return
		}
	}
	s.writeError(w, err)
}

type topicReply struct {
	ID         int64  `json:"id"`
	Title      string `json:"title"`
	Author     string `json:"author"`
	Posts      int    `json:"posts"`
	CreatedAt  int64  `json:"created_at"`
	LastPostAt int64  `json:"last_post_at"`
	// Board is the slug of the topic's board (GET /api/topics/{id} only).
	Board string `json:"board,omitempty"`
}

func topicOf(t store.Topic) topicReply {
	return topicReply{ID: t.ID, Title: t.Title, Author: t.Author, Posts: t.Posts, CreatedAt: t.CreatedAt.UnixMilli(), LastPostAt: t.LastPostAt.UnixMilli()}
}

type postReply struct {
	ID        int64  `json:"id"`
	Author    string `json:"author"`
	Body      string `json:"body"`
	CreatedAt int64  `json:"created_at"`
}

func postOf(p store.Post) postReply {
	return postReply{p.ID, p.Author, p.Body, p.CreatedAt.UnixMilli()}
}

func (s *Server) boards(w http.ResponseWriter, r *http.Request) {
	bs, err := s.house.Boards(r.Context())
	if err != nil {
		s.writeError(w, err)
		return
	}
	out := []map[string]string{}
	for _, b := range bs {
		out = append(out, map[string]string{"slug": b.Slug, "title": b.Title, "description": b.Description})
	}
	s.writeJSON(w, http.StatusOK, map[string]any{"boards": out})
}

func (s *Server) topics(w http.ResponseWriter, r *http.Request) {
	offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	ts, err := s.house.Topics(r.Context(), r.PathValue("slug"), offset)
	if err != nil {
		s.writeError(w, err)
		return
	}
	out := []topicReply{}
	for _, t := range ts {
		out = append(out, topicOf(t))
	}
	s.writeJSON(w, http.StatusOK, map[string]any{"topics": out})
}

func (s *Server) createTopic(w http.ResponseWriter, r *http.Request, u store.User) {
	var req struct {
		Title string `json:"title"`
		Body  string `json:"body"`
	}
	if err := decode(w, r, &req); err != nil {
		s.writeError(w, err)
		return
	}
	t, err := s.house.CreateTopic(r.Context(), u, r.PathValue("slug"), req.Title, req.Body)
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.writeJSON(w, http.StatusCreated, topicOf(t))
}

func (s *Server) topic(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, err)
		return
	}
	offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	t, ps, err := s.house.Topic(r.Context(), id, offset)
	if err != nil {
		s.writeError(w, err)
		return
	}
	posts := []postReply{}
	for _, p := range ps {
		posts = append(posts, postOf(p))
	}
	tr := topicOf(t)
	if bs, err := s.house.Boards(r.Context()); err == nil {
		for _, b := range bs {
			if b.ID == t.BoardID {
				tr.Board = b.Slug
			}
		}
	}
	s.writeJSON(w, http.StatusOK, map[string]any{"topic": tr, "posts": posts})
}

func (s *Server) reply(w http.ResponseWriter, r *http.Request, u store.User) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, err)
		return
	}
	var req struct {
		Body string `json:"body"`
	}
	if err := decode(w, r, &req); err != nil {
		s.writeError(w, err)
		return
	}
	p, err := s.house.Reply(r.Context(), u, id, req.Body)
	if err != nil {
		s.writeError(w, err)
		return
	}
	p.Author = u.Username
	s.writeJSON(w, http.StatusCreated, postOf(p))
}

// houseReply is a house heard on the local network, as GET /api/houses lists it.
type houseReply struct {
	Name    string `json:"name"`
	URL     string `json:"url"`
	Tables  int    `json:"tables"`
	Players int    `json:"players"`
	Seated  int    `json:"seated"`
}

// houses lists the other houses on the local network (Config.Houses);
// "listening" is false when the house does not listen for them.
func (s *Server) houses(w http.ResponseWriter, r *http.Request) {
	out := []houseReply{}
	if s.cfg.Houses != nil {
		for _, h := range s.cfg.Houses() {
			out = append(out, houseReply{Name: h.Name, URL: h.URL, Tables: h.Tables, Players: h.Players, Seated: h.Seated})
		}
	}
	s.writeJSON(w, http.StatusOK, map[string]any{"listening": s.cfg.Houses != nil, "houses": out})
}
