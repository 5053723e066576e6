package web

import (
	"log"
	"net"
	"net/http"
	"time"
)

// The defaults of the HTTP server's limits (Config).
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 30 * time.Second
	DefaultWriteTimeout      = 60 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
	DefaultMaxHeaderBytes    = 32 << 10
	DefaultMaxHTTPConnsPerIP = 128
)

// contentSecurityPolicy lets the UI's pages load scripts, styles, images and
// WebSockets from the house alone: no inline script, no inline style element,
// no plugin, no other site framing the house. The pages are written for it:
// no inline script, and styles set from JavaScript through the CSSOM.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// hsts is sent on responses over HTTPS: browsers then use HTTPS alone for a year.
const hsts = "max-age=31536000"

// setDefaults fills in Config's zero limits. A negative duration or size means
// none.
func (c *Config) setDefaults() {
	def := func(v *time.Duration, d time.Duration) {
		switch {
		case *v == 0:
			*v = d
		case *v < 0:
			*v = 0
		}
	}
	def(&c.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	def(&c.ReadTimeout, DefaultReadTimeout)
	def(&c.WriteTimeout, DefaultWriteTimeout)
	def(&c.IdleTimeout, DefaultIdleTimeout)
	if c.MaxHeaderBytes == 0 {
		c.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if c.MaxHTTPConnsPerIP == 0 {
		c.MaxHTTPConnsPerIP = DefaultMaxHTTPConnsPerIP
	}
	if c.HeadsUpActionTime == 0 {
		c.HeadsUpActionTime = 30 * time.Second
	}
}

// Limits are an HTTP server's bounds on slow and idle clients: the time to read
// a request's header, its whole request, to write its response, and to keep an
// idle connection open between requests; the largest request header. A zero
// duration is no bound; a zero MaxHeaderBytes is net/http's 1 MB.
type Limits struct {
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration
	MaxHeaderBytes    int
}

// DefaultLimits are the Default bounds above: felt serve's unless its Config
// says otherwise, and the page of felt dealer.
var DefaultLimits = Limits{
	ReadHeaderTimeout: DefaultReadHeaderTimeout,
	ReadTimeout:       DefaultReadTimeout,
	WriteTimeout:      DefaultWriteTimeout,
	IdleTimeout:       DefaultIdleTimeout,
	MaxHeaderBytes:    DefaultMaxHeaderBytes,
}

// Server returns an http.Server for h bounded by l. A response that streams
// for longer than WriteTimeout sets a write deadline of its own before each
// write (http.ResponseController); ReadTimeout does not end it (net/http
// clears the read deadline once the request is read). A hijacked connection
// (a WebSocket) has its deadlines cleared by net/http.
func (l Limits) Server(h http.Handler, errorLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.ReadHeaderTimeout,
		ReadTimeout:       l.ReadTimeout,
		WriteTimeout:      l.WriteTimeout,
		IdleTimeout:       l.IdleTimeout,
		MaxHeaderBytes:    l.MaxHeaderBytes,
		ErrorLog:          errorLog,
	}
}

// HTTPServer returns an http.Server for Handler with the Config's timeouts and
// header bound (Limits.Server). WebSockets are not cut by the timeouts:
// net/http clears a connection's deadlines when it is hijacked for a
// WebSocket, whose reads and writes then have deadlines of their own.
func (s *Server) HTTPServer(errorLog *log.Logger) *http.Server {
	return Limits{
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		ReadTimeout:       s.cfg.ReadTimeout,
		WriteTimeout:      s.cfg.WriteTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		MaxHeaderBytes:    s.cfg.MaxHeaderBytes,
	}.Server(s.handler, errorLog)
}

// Listener wraps ln so that at most Config.MaxHTTPConnsPerIP connections are
// open at once from one address (trusted proxies excepted): serve the house on
// what it returns.
func (s *Server) Listener(ln net.Listener) net.Listener {
	if s.cfg.MaxHTTPConnsPerIP < 0 {
		return ln
	}
	return limitPerIP(ln, s.cfg.MaxHTTPConnsPerIP, s.trustedProxy, s.mRefused.Inc)
}

// secureHeaders sets the security headers of every response (see
// contentSecurityPolicy), and HSTS on those over HTTPS.
func secureHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", contentSecurityPolicy)
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "same-origin")
		if isHTTPS(r) {
			hd.Set("Strict-Transport-Security", hsts)
		}
		h.ServeHTTP(w, r)
	})
}
