// Package web is the house's HTTP and WebSocket JSON API (docs/protocol.md):
// accounts, the lobby, tables, heads-up against the computer, the message board
// and statistics, with health and Prometheus metrics. The browser UI and network
// bots both use it; it holds no game logic of its own.
package web

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/felt-poker/felt/internal/addrkey"
	"github.com/felt-poker/felt/internal/announce"
	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/chat"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/lobby"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/tournament/live"

	"github.com/felt-poker/felt/protocol"
)

// CookieName is the session cookie.
const CookieName = "felt_session"

// Limits on what a client sends.
const (
	maxBody       = 64 << 10
	maxWSMessage  = 4 << 10
	wsQueue       = 256 // messages queued for a slow client before it is dropped
	wsRateN       = 40  // messages a client may send ...
	wsRateWindow  = 2 * time.Second
	headsUpPrefix = "hu-"
)

// Config is the server's configuration.
type Config struct {
	House *house.House
	Log   *slog.Logger
	// Tables are the defaults for tables opened through the API: the durations
	// (action time excepted, which each request sets), the ledger prefix,
	// NewBot (tests seat bots of their own at every table the server opens)
	// and Thinkers (default: as many bots thinking for long at once as Go
	// uses CPUs, shared by every table of the server).
	Tables table.Config
	// HeadsUpActionTime is the clock of a heads-up game (default 30 s).
	HeadsUpActionTime time.Duration
	// MaxConnsPerIP bounds the WebSocket connections open from one address
	// (0: no bound): the client's address (clientIP), which behind a reverse
	// proxy is the one it forwards if the proxy is one of TrustedProxies. An
	// IPv6 address counts by /64, and one /48 holds addrkey.WideFactor times
	// the bound in all (addrkey.Counter).
	MaxConnsPerIP int
	// PublicMetrics serves GET /metrics to any address; by default only a client
	// on the machine itself (a loopback address) reads it, as the figures tell
	// an attacker how a flood is going.
	PublicMetrics bool
	// Houses, when set, lists the other felt houses heard on the local network
	// (announce.Directory), for GET /api/houses and the lobby.
	Houses func() []announce.House
	// MaxTablesPerPlayer bounds the tables one player may have open at once,
	// heads-up games included (0: no bound).
	MaxTablesPerPlayer int
	// MaxHTTPConnsPerIP bounds the connections of any kind (WebSockets included)
	// open at once from one IP address, or IPv6 /64, on the Listener (default
	// DefaultMaxHTTPConnsPerIP; negative: no bound). Trusted proxies are exempt.
	MaxHTTPConnsPerIP int
	// TrustedProxies are the addresses of reverse proxies in front of the house.
	// From them alone, X-Forwarded-For gives the client's address and
	// X-Forwarded-Proto: https makes the request HTTPS (Secure cookie, HSTS).
	TrustedProxies []netip.Prefix
	// The HTTPServer's limits: the time to read a request's header, its whole
	// request, to write its response, and to keep an idle connection open;
	// the largest request header. Zero takes the Default, negative means none.
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration
	MaxHeaderBytes    int

	// Checks are what GET /healthz checks besides the database, by name (a node
	// of a house on several nodes: "NATS"); each is given the health deadline.
	Checks map[string]func(context.Context) error
	// Collectors are more metrics for GET /metrics (a node's table leases).
	Collectors []prometheus.Collector
	// Relay carries messages for tables this node does not run to the node
	// that does (a house on several nodes; relay.go), or is nil.
	Relay Relay
	// Tournaments are the house's sit-and-goes, scheduled tournaments and bot
	// rules (House, Lobby, Tables and Log are the server's own).
	Tournaments live.Config
}

// Server is the house's API. Create it with New; serve Handler.
type Server struct {
	house *house.House
	lobby *lobby.Lobby
	// tourneys is the tournaments' director (tourneyMu): on a house of several
	// nodes, a new one each time this node gets the director lease
	// (DirectTournaments).
	tourneyMu  sync.Mutex
	tourneys   *live.Director
	tourneyCfg live.Config
	// tourneyHost forwards the director's routes (SetTournamentsHost);
	// directorMux answers them here.
	tourneyHost TournamentsHost
	directorMux *http.ServeMux
	log         *slog.Logger
	cfg         Config
	handler     http.Handler
	ready       atomic.Bool

	// kept holds when each player's table still open was stored (by lower-case
	// name; see keepPlayerTable), under tablesMu.
	tablesMu sync.Mutex
	kept     map[string]time.Time
	host     TableHost // a house on several nodes: SetTableHost
	// placer places players' new tables on the house's nodes
	// (SetTablePlacer, under tablesMu); placeMux opens them here.
	placer   TablePlacer
	placeMux *http.ServeMux

	mu    sync.Mutex
	conns map[*conn]struct{}
	// wsPerIP counts the open WebSockets by address (Config.MaxConnsPerIP).
	wsPerIP *addrkey.Counter
	// shadows are the connections of other nodes' players to tables of this
	// node, by name (relay.go).
	shadows map[string]*conn
	wg      sync.WaitGroup

	reg        *prometheus.Registry
	mConns     prometheus.Gauge
	mRefused   prometheus.Counter
	mHands     prometheus.Counter
	mMessages  *prometheus.CounterVec
	mResponses *prometheus.CounterVec
	mBotTime   *prometheus.HistogramVec
}

// New returns a server. It is not ready (GET /healthz answers 503) until
// SetReady.
func New(cfg Config) (*Server, error) {
	if cfg.House == nil {
		return nil, errors.New("web: a house is required")
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	cfg.setDefaults()
	if cfg.Tables.Thinkers == nil { // one bound for every table of the server
		cfg.Tables.Thinkers = table.NewThinkers(0)
	}
	s := &Server{house: cfg.House, log: cfg.Log, cfg: cfg, conns: map[*conn]struct{}{}, wsPerIP: &addrkey.Counter{Max: cfg.MaxConnsPerIP}, kept: map[string]time.Time{},
		shadows: map[string]*conn{}}
	s.initMetrics()
	s.lobby = lobby.New(cfg.Log, func() { s.mHands.Inc() })
	s.lobby.OnClose(s.tableClosed)
	tc := cfg.Tournaments
	tc.House, tc.Lobby, tc.Tables, tc.Log = s.house, s.lobby, s.TableDefaults, s.log
	s.tourneyCfg = tc
	var err error
	if s.tourneys, err = live.New(tc); err != nil {
		return nil, err
	}
	s.routes()
	return s, nil
}

// Lobby returns the server's lobby, for opening the house's default tables.
func (s *Server) Lobby() *lobby.Lobby { return s.lobby }

// Handler returns the server's HTTP handler.
func (s *Server) Handler() http.Handler { return s.handler }

// SetReady makes GET /healthz answer 200.
func (s *Server) SetReady() { s.ready.Store(true) }

// TableDefaults returns c's table settings over the defaults, for a table the
// house opens itself.
func (s *Server) TableDefaults(c table.Config) table.Config {
	d := s.cfg.Tables
	c.Bank = s.house
	if c.BotModels == nil {
		c.BotModels = bot.StoreModels{Store: s.house.BotModels()}
	}
	if c.BotTimes == nil {
		c.BotTimes = botTimes{s.mBotTime}
	}
	pick := func(v *time.Duration, def time.Duration) {
		if *v == 0 {
			*v = def
		}
	}
	pick(&c.ActionTime, d.ActionTime)
	pick(&c.TimeBank, d.TimeBank)
	pick(&c.Grace, d.Grace)
	pick(&c.SitOutLimit, d.SitOutLimit)
	pick(&c.ReturnWindow, d.ReturnWindow)
	pick(&c.BotDelay, d.BotDelay)
	pick(&c.HandPause, d.HandPause)
	pick(&c.IdleClose, d.IdleClose)
	if c.MaxTimeouts == 0 {
		c.MaxTimeouts = d.MaxTimeouts
	}
	if c.RefPrefix == "" {
		c.RefPrefix = d.RefPrefix
	}
	if c.NewBot == nil {
		c.NewBot = d.NewBot
	}
	if c.Thinkers == nil {
		c.Thinkers = d.Thinkers
	}
	return c
}

// Shutdown stops the house: /healthz answers 503, every table closes (hands in
// play are cancelled and every stack returns to its player's credits), and the
// WebSocket connections close with "going away".
func (s *Server) Shutdown(ctx context.Context) error {
	s.ready.Store(false)
	err := s.lobby.Shutdown(ctx)
	// The tournaments' tables are closed: store their last steps.
	err = errors.Join(err, s.director().Close(ctx))
	s.mu.Lock()
	for c := range s.conns {
		c.close(websocket.StatusGoingAway, "the house is shutting down")
	}
	s.mu.Unlock()
	// The tables are closed: store the hands they queued before the store closes.
	if ferr := s.house.Flush(ctx); ferr != nil {
		err = errors.Join(err, ferr)
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		return errors.Join(err, ctx.Err())
	}
	return err
}

func (s *Server) initMetrics() {
	s.reg = prometheus.NewRegistry()
	s.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	s.mConns = prometheus.NewGauge(prometheus.GaugeOpts{Name: "felt_ws_connections", Help: "Open WebSocket connections."})
	s.mRefused = prometheus.NewCounter(prometheus.CounterOpts{Name: "felt_conns_refused_total", Help: "Connections closed on accept: their address had Config.MaxHTTPConnsPerIP open."})
	s.mHands = prometheus.NewCounter(prometheus.CounterOpts{Name: "felt_hands_total", Help: "Hands finished at all tables."})
	s.mMessages = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "felt_ws_messages_total", Help: "WebSocket messages by direction (in, out)."}, []string{"dir"})
	s.mResponses = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "felt_http_requests_total", Help: "HTTP API requests by status code."}, []string{"code"})
	s.mBotTime = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "felt_bot_decision_seconds",
		Help:    "Time each bot decision took at the house's tables (from the question to the answer), by bot and street.",
		Buckets: []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 1.5, 2, 3, 5, 10}}, []string{"bot", "street"})
	s.reg.MustRegister(s.mConns, s.mRefused, s.mHands, s.mMessages, s.mResponses, s.mBotTime,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "felt_tables", Help: "Open tables."}, func() float64 { return float64(s.lobby.Count()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "felt_seated_players", Help: "Seats taken at all tables (bots included)."}, func() float64 { return float64(s.lobby.Seated()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "felt_players_online", Help: "Players with a connection open to this node."}, func() float64 { return float64(s.lobby.Online()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "felt_house_players_online", Help: "Players with a connection open to any node of the house, each once (one node: felt_players_online)."},
			func() float64 { return float64(s.lobby.HouseOnline()) }),
	)
	s.reg.MustRegister(s.cfg.Collectors...)
}

// botTimes is the tables' bot.DecisionObserver: the felt_bot_decision_seconds
// histogram.
type botTimes struct{ h *prometheus.HistogramVec }

// ObserveDecision counts one decision's time.
func (b botTimes) ObserveDecision(name string, street engine.Street, d time.Duration) {
	b.h.WithLabelValues(name, street.String()).Observe(d.Seconds())
}

// errorKind is how the API answers the errors that wrap one of errs: the HTTP
// status, the code, and the sentence a player reads when the error carries
// none written for them (a *house.FieldError or a *house.PlayerError).
type errorKind struct {
	errs    []error
	status  int
	code    string
	message string
}

// errorKinds are checked in order; an error matching none is internal.
var errorKinds = []errorKind{
	{[]error{house.ErrUsernameTaken}, http.StatusConflict, "taken", "that name is taken"},
	{[]error{lobby.ErrNameTaken}, http.StatusConflict, "taken", "a table of that name is open already"},
	{[]error{house.ErrInvalid, bot.ErrUnknownBot, bot.ErrBadOption}, http.StatusBadRequest, "invalid", "the request is not valid"},
	{[]error{errBadJSON}, http.StatusBadRequest, "bad_json", "the request is not the JSON expected (docs/protocol.md)"},
	{[]error{house.ErrBadCredentials}, http.StatusUnauthorized, "unauthorized", "wrong username or password"},
	{[]error{house.ErrNoSession}, http.StatusUnauthorized, "unauthorized", "your session has ended: log in again"},
	{[]error{house.ErrBadToken}, http.StatusUnauthorized, "unauthorized", "that API token is not valid: it was revoked or mistyped"},
	{[]error{table.ErrAnonymous, errLogin}, http.StatusUnauthorized, "unauthorized", "log in first"},
	{[]error{table.ErrPrivate}, http.StatusForbidden, "forbidden", "this table is private: only its players may watch or chat"},
	{[]error{table.ErrLocked}, http.StatusForbidden, "locked", "this table is locked: give its password, or open its invitation link"},
	{[]error{house.ErrForbidden}, http.StatusForbidden, "forbidden", "you may not do that"},
	{[]error{house.ErrWrongPassword}, http.StatusForbidden, "wrong_password", "that is not your password"},
	{[]error{house.ErrHoldsSeat}, http.StatusConflict, "holds_seat", "leave your tables first"},
	{[]error{store.ErrNotFound, errNotFound}, http.StatusNotFound, "not_found", "nothing of that name or number is here"},
	{[]error{lobby.ErrNoTable}, http.StatusNotFound, "not_found", "there is no such table"},
	{[]error{house.ErrInsufficientCredits}, http.StatusBadRequest, "insufficient_credits", "you do not have the credits for that"},
	{[]error{house.ErrRefillNotNeeded}, http.StatusBadRequest, "refill_not_needed", "you have enough credits: no refill is needed"},
	{[]error{house.ErrRefillTooSoon}, http.StatusTooManyRequests, "refill_too_soon", "you have had your refill: try again later"},
	{[]error{house.ErrTooManyLogins}, http.StatusTooManyRequests, "rate_limited", "too many failed logins: try again later"},
	{[]error{house.ErrTooManyAccounts}, http.StatusTooManyRequests, "rate_limited", "too many new accounts from your address: try again later"},
	{[]error{chat.ErrRateLimited}, http.StatusTooManyRequests, "rate_limited", "too many messages: slow down"},
	{[]error{errTooManyConns}, http.StatusTooManyRequests, "rate_limited", "too many connections from your address"},
	{[]error{house.ErrTooManyOpens}, http.StatusTooManyRequests, "rate_limited", "you have opened many tables in a short time: try again later"},
	{[]error{lobby.ErrTooManyTables}, http.StatusTooManyRequests, "rate_limited", "you have as many tables open as a player may: close one first"},
	{[]error{table.ErrNotSeated}, http.StatusConflict, "not_seated", "you are not seated at this table"},
	{[]error{table.ErrSeated}, http.StatusConflict, "seated", "you are already seated at this table"},
	{[]error{table.ErrSeatTaken}, http.StatusConflict, "seat_taken", "that seat is taken"},
	{[]error{house.ErrEntered}, http.StatusConflict, "registered", "you are registered for this tournament already"},
	{[]error{house.ErrNotEntered}, http.StatusConflict, "not_registered", "you are not registered for this tournament"},
	{[]error{live.ErrClosed}, http.StatusConflict, "registration_closed", "registration is closed: the tournament has started"},
	{[]error{live.ErrFull}, http.StatusConflict, "full", "the tournament is full"},
	{[]error{live.ErrNoBots}, http.StatusForbidden, "forbidden", "this house does not seat bots in tournaments"},
	{[]error{live.ErrMoved}, http.StatusServiceUnavailable, "tournaments_moved", "the tournaments have moved to another node of the house: try again"},
	{[]error{ErrNoDirector}, http.StatusServiceUnavailable, "no_director", "no node directs the tournaments at the moment: try again"},
	{[]error{table.ErrSeatFree}, http.StatusConflict, "seat_free", "a seat is free: sit down"},
	{[]error{engine.ErrNotYourTurn}, http.StatusConflict, "not_your_turn", "it is not your turn"},
	{[]error{engine.ErrIllegalAction, engine.ErrBadSeat}, http.StatusBadRequest, "illegal_action", "that action is not allowed now"},
	{[]error{engine.ErrBadAmount}, http.StatusBadRequest, "bad_amount", "that amount is not allowed now"},
	{[]error{engine.ErrHandOver}, http.StatusConflict, "hand_over", "the hand is over"},
	{[]error{table.ErrClosed}, http.StatusGone, "table_closed", "the table has closed"},
	{[]error{table.ErrMoved}, http.StatusServiceUnavailable, "table_moved", "the table has moved to another node of the house: try again"},
	// The client went away, or the house is too busy to answer in time.
	{[]error{house.ErrBusy, context.Canceled, context.DeadlineExceeded}, http.StatusServiceUnavailable, "busy", "the house did not answer in time: try again"},
}

// classify maps an error to its HTTP status and the error object a player
// reads. The player reads only sentences written for them, never err's own
// text (it may name users, tables, files or SQL): that goes to the log.
func (s *Server) classify(err error) (int, protocol.Error) {
	var re *RemoteError
	if errors.As(err, &re) { // classified by the node that runs the table
		return re.Status, protocol.Error{Code: re.Code, Field: re.Field, Message: re.Message, RetryAfter: re.RetryAfter}
	}
	for _, k := range errorKinds {
		for _, target := range k.errs {
			if errors.Is(err, target) {
				s.log.Debug("request refused", "code", k.code, "err", err)
				return k.status, playerError(err, k)
			}
		}
	}
	s.log.Error("internal error", "err", err)
	return http.StatusInternalServerError, protocol.Error{Code: "internal", Message: "internal error: the house has logged it"}
}

// playerError is the error object of err, of kind k.
func playerError(err error, k errorKind) protocol.Error {
	e := protocol.Error{Code: k.code, Message: k.message}
	var fe *house.FieldError
	var pe *house.PlayerError
	switch {
	case errors.As(err, &fe):
		e.Field, e.Message = fe.Field, fe.Message
	case errors.As(err, &pe):
		e.Message = pe.Message
		if pe.RetryAfter > 0 {
			e.RetryAfter = int64(math.Ceil(pe.RetryAfter.Seconds()))
		}
	}
	return e
}

var (
	errBadJSON  = errors.New("bad JSON")
	errLogin    = errors.New("log in first")
	errNotFound = errors.New("not found")
	// errTooManyConns refuses a WebSocket beyond Config.MaxConnsPerIP.
	errTooManyConns = errors.New("too many connections")
)

func (s *Server) writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	s.mResponses.WithLabelValues(strconv.Itoa(status)).Inc()
	if v != nil {
		_ = json.NewEncoder(w).Encode(v)
	}
}

func (s *Server) writeError(w http.ResponseWriter, err error) {
	status, e := s.classify(err)
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(e.RetryAfter, 10))
	}
	s.writeJSON(w, status, map[string]protocol.Error{"error": e})
}

// metricsFor serves h to the clients Config.PublicMetrics allows, and answers
// 404 to the others.
func (s *Server) metricsFor(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.cfg.PublicMetrics {
			if ip, err := netip.ParseAddr(clientIP(r)); err != nil || !ip.IsLoopback() {
				http.NotFound(w, r)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}
