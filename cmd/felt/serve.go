package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/felt-poker/felt/internal/announce"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/web"
)

// serveCmd is "felt serve": the poker house.
type serveCmd struct {
	Addr   string `default:"127.0.0.1:8080" env:"FELT_ADDR" help:"Address to listen on (HOST:PORT)."`
	Data   string `default:"." env:"FELT_DATA" help:"Directory of the SQLite database felt.db (created if missing)."`
	DB     string `env:"FELT_DB" help:"PostgreSQL URL (postgres://user:pass@host/db) to use instead of SQLite."`
	NoBots bool   `env:"FELT_NO_BOTS" help:"Do not open the default tables with bots."`
	Config string `env:"FELT_CONFIG" type:"existingfile" help:"The house's settings (TOML; docs/house.md): name, credits, refills, default tables and bots."`
	// Announce overrides the config file's announce.
	Announce string `env:"FELT_ANNOUNCE" help:"Where to announce the house on the local network (HOST:PORT, default the config's, 239.255.70.84:47474), or \"off\"."`
	TLSCert  string `name:"tls-cert" env:"FELT_TLS_CERT" type:"existingfile" help:"Serve HTTPS with this certificate (PEM; with --tls-key)."`
	TLSKey   string `name:"tls-key" env:"FELT_TLS_KEY" type:"existingfile" help:"The private key of --tls-cert (PEM)."`
	// TrustedProxy lists the reverse proxies whose forwarded headers are believed.
	TrustedProxy []string `name:"trusted-proxy" env:"FELT_TRUSTED_PROXY" placeholder:"CIDR" help:"A reverse proxy in front of the house (IP or CIDR, repeatable): its X-Forwarded-For and X-Forwarded-Proto are believed (docs/security.md)."`
	LogLevel     string   `name:"log-level" default:"info" enum:"debug,info,warn,error" env:"FELT_LOG_LEVEL" help:"The least important log lines written: debug, info, warn or error."`
	LogFormat    string   `name:"log-format" default:"text" enum:"text,json" env:"FELT_LOG_FORMAT" help:"Log lines as text (key=value) or JSON, one object a line."`
	CheckConfig  bool     `name:"check-config" help:"Check the flags and the --config file, say what is wrong or \"configuration ok\", and exit (2 on an error) without opening anything."`
	clusterFlags
}

// logger returns the house's logger on w, as --log-level and --log-format say.
func (c *serveCmd) logger(w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(c.LogLevel)) // kong checked it against the enum
	o := &slog.HandlerOptions{Level: level}
	if c.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, o))
	}
	return slog.New(slog.NewTextHandler(w, o))
}

// checkConfig checks the house's configuration without opening anything.
func (c *serveCmd) checkConfig(w io.Writer) error {
	hc, err := loadHouseConfig(c.Config)
	if err != nil {
		return usageError("%v", err)
	}
	if _, err := c.tlsConfig(); err != nil {
		return err
	}
	if _, err := parseTrustedProxies(c.TrustedProxy); err != nil {
		return err
	}
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		return usageError("--addr %q: %v", c.Addr, err)
	}
	if err := c.checkCluster(c.DB); err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "configuration ok: house %q, %d tables of its own\n", hc.Name, len(hc.Tables))
	return err
}

func (c *serveCmd) Run(ctx context.Context) error {
	if c.CheckConfig {
		return c.checkConfig(os.Stdout)
	}
	log := c.logger(os.Stderr)
	return c.run(ctx, log, func(url string) {
		fmt.Fprintf(os.Stderr, "felt: the house is open at %s (play money only; Ctrl-C to close it)\n", url)
	})
}

// run serves until ctx is done, then shuts the house down: every hand in play is
// cancelled and every stack returned to its player's credits. ready is called
// with the house's URL once it answers.
//
// Nothing in the database changes before the house has its address and holds
// the database alone: a second house on the same database, or on a port in
// use, stops before it recovers anything.
func (c *serveCmd) run(ctx context.Context, log *slog.Logger, ready func(url string)) error {
	hc, err := loadHouseConfig(c.Config)
	if err != nil {
		return usageError("%v", err)
	}
	if c.Announce != "" {
		hc.Announce = c.Announce
	}
	tlsCfg, err := c.tlsConfig()
	if err != nil {
		return err
	}
	proxies, err := parseTrustedProxies(c.TrustedProxy)
	if err != nil {
		return err
	}
	if err := c.checkCluster(c.DB); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return usageError("listen on %s: %v", c.Addr, err)
	}
	defer ln.Close()
	hn, err := c.joinCluster(ctx, log)
	if err != nil {
		return err
	}
	defer hn.close()
	st, h, err := c.openHouse(ctx, log, &hc, hn)
	if err != nil {
		return err
	}
	defer st.Close()
	defer h.Unclaim()
	httpConns := hc.MaxHTTPConnsPerIP
	if httpConns == 0 {
		httpConns = -1 // the file's 0 is no bound; web's is its default
	}
	tourneys, err := hc.Tournaments.director(c.NoBots)
	if err != nil {
		return usageError("config: %v", err)
	}
	srv, err := web.New(hn.webConfig(web.Config{House: h, Log: log, MaxConnsPerIP: hc.MaxConnsPerIP, Tournaments: tourneys,
		MaxHTTPConnsPerIP: httpConns, TrustedProxies: proxies, MaxTablesPerPlayer: hc.MaxTables, PublicMetrics: hc.Metrics == "public",
		Tables: table.Config{SitOutLimit: time.Duration(hc.SitOutLimit), ReturnWindow: time.Duration(hc.ReturnWindow)}, Houses: neighbours(ctx, log, &hc, ln.Addr().String())}))
	if err != nil {
		return err
	}
	if err := c.startTables(ctx, log, &hc, h, hn, srv); err != nil {
		return err
	}
	hs := srv.HTTPServer(slog.NewLogLogger(log.Handler(), slog.LevelWarn))
	served := make(chan error, 1)
	scheme := "http"
	if tlsCfg != nil {
		scheme, hs.TLSConfig = "https", tlsCfg
		go func() { served <- hs.ServeTLS(srv.Listener(ln), "", "") }()
	} else {
		go func() { served <- hs.Serve(srv.Listener(ln)) }()
	}
	srv.SetReady()
	log.Info("house open", "name", hc.Name, "addr", ln.Addr().String(), "database", st.Backend())
	announceHouse(ctx, log, &hc, srv, ln.Addr().String())
	ready(scheme + "://" + ln.Addr().String())

	select {
	case <-ctx.Done():
	case err := <-served:
		return err
	}
	log.Info("shutting down: cancelling hands in play and returning every stack")
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = errors.Join(hn.handOver(sctx), srv.Shutdown(sctx), hn.releaseDirector(sctx))
	if herr := hs.Shutdown(sctx); herr != nil && !errors.Is(herr, http.ErrServerClosed) {
		err = errors.Join(err, herr)
	}
	log.Info("house closed")
	return err
}

// startTables opens the house's tables: the relay of a node, the house's own
// tables, those players had open and, on one node, the tournaments; then the
// node's own work.
func (c *serveCmd) startTables(ctx context.Context, log *slog.Logger, hc *houseConfig, h *house.House, hn *houseNode, srv *web.Server) error {
	if err := hn.serveRelay(ctx, srv); err != nil {
		return err
	}
	if err := hn.openTables(ctx, hc, h, srv, c.NoBots); err != nil {
		return err
	}
	// A node of several moves the tables a house on one node kept into the
	// house's registry, whose tables the nodes open again (docs/scaling.md).
	restored, err := srv.RestoreTables(ctx)
	if err != nil {
		return err
	}
	if restored > 0 {
		log.Info("opened again the tables players had open", "tables", restored)
	}
	if hn == nil {
		if err := srv.RestoreTournaments(ctx); err != nil {
			return err
		}
	}
	return hn.run(ctx, h, srv)
}

// announceHouse sends the house's beacon on the local network until ctx is done,
// unless the config says "off".
func announceHouse(ctx context.Context, log *slog.Logger, hc *houseConfig, srv *web.Server, addr string) {
	if hc.Announce == "" || hc.Announce == "off" {
		return
	}
	a := &announce.Announcer{To: hc.Announce, Log: log, Beacon: func() announce.Beacon {
		l := srv.Lobby()
		return announce.Beacon{Name: hc.Name, Addr: addr, Tables: len(l.Tables()), Players: l.Online(), Seated: l.Seated()}
	}}
	go func() {
		if err := a.Run(ctx); err != nil {
			log.Warn("not announced on the local network", "err", err)
		}
	}()
}

// neighboursKeep is how long a house silent on the network stays listed.
const neighboursKeep = 10 * time.Second

// neighbours listens, while ctx lasts, for the other houses announced to the
// multicast group the house announces itself to, and returns the function
// listing them (this house left out) for the lobby; nil when the house does
// not announce to a multicast group or cannot listen to it.
func neighbours(ctx context.Context, log *slog.Logger, hc *houseConfig, addr string) func() []announce.House {
	ua, err := net.ResolveUDPAddr("udp", hc.Announce)
	if hc.Announce == "" || hc.Announce == "off" || err != nil || !ua.IP.IsMulticast() {
		return nil
	}
	c, err := announce.Listen(hc.Announce)
	if err != nil {
		log.Warn("not listening for other houses on the local network", "err", err)
		return nil
	}
	d := announce.Watch(ctx, c, neighboursKeep)
	return func() []announce.House {
		return slices.DeleteFunc(d.Houses(), func(h announce.House) bool { return h.Name == hc.Name && h.Addr == addr })
	}
}

// openHouse opens the database, claims it for this house alone (refusing while
// another house holds it), and returns to their players the stacks left at
// tables when a house last stopped without closing them (kill -9, a crash). The
// caller unclaims the house, then closes the store.
func (c *serveCmd) openHouse(ctx context.Context, log *slog.Logger, hc *houseConfig, hn *houseNode) (store.Store, *house.House, error) {
	st, err := c.openStore(ctx)
	if err != nil {
		return nil, nil, err
	}
	h, err := house.New(st, hc.houseSettings())
	if err == nil {
		err = hn.claim(ctx, h)
		if errors.Is(err, house.ErrDatabaseInUse) {
			err = fmt.Errorf("%w: stop it first, or give this one another --data or --db", err)
		}
	}
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	if err = h.EnsureBoards(ctx); err == nil && hn == nil { // a node of several recovers table by table (docs/scaling.md)
		var refunds []house.Refund
		refunds, err = h.Recover(ctx)
		for _, r := range refunds {
			log.Warn("returned a stack left at a table when the house last stopped", "table", r.TableRef, "user", r.UserID, "amount", r.Amount)
		}
	}
	if err != nil {
		h.Unclaim()
		st.Close()
		return nil, nil, err
	}
	return st, h, nil
}

// openStore opens the database: --db, or felt.db in --data.
func (c *serveCmd) openStore(ctx context.Context) (store.Store, error) {
	dsn := c.DB
	if dsn == "" {
		if err := os.MkdirAll(c.Data, 0o750); err != nil {
			return nil, fmt.Errorf("data directory: %w", err)
		}
		dsn = filepath.Join(c.Data, "felt.db")
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("open the database: %w", err)
	}
	return st, nil
}

// tlsConfig loads --tls-cert and --tls-key, or returns nil without them.
func (c *serveCmd) tlsConfig() (*tls.Config, error) {
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return nil, usageError("--tls-cert and --tls-key go together")
	}
	if c.TLSCert == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(c.TLSCert, c.TLSKey)
	if err != nil {
		return nil, usageError("TLS: %v", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// parseTrustedProxies reads --trusted-proxy: IP addresses or CIDR prefixes.
func parseTrustedProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range list {
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		ip, err := netip.ParseAddr(s)
		if err != nil {
			return nil, usageError("--trusted-proxy %q: want an IP address or a CIDR prefix (10.0.0.0/8)", s)
		}
		ip = ip.Unmap()
		out = append(out, netip.PrefixFrom(ip, ip.BitLen()))
	}
	return out, nil
}
