package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/felt-poker/felt/internal/announce"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
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
}

func (c *serveCmd) Run(ctx context.Context) error {
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	return c.run(ctx, log, func(addr string) {
		fmt.Fprintf(os.Stderr, "felt: the house is open at http://%s (play money only; Ctrl-C to close it)\n", addr)
	})
}

// run serves until ctx is done, then shuts the house down: every hand in play is
// cancelled and every stack returned to its player's credits. ready is called
// with the address once the house answers.
func (c *serveCmd) run(ctx context.Context, log *slog.Logger, ready func(addr string)) error {
	hc, err := loadHouseConfig(c.Config)
	if err != nil {
		return usageError("%v", err)
	}
	if c.Announce != "" {
		hc.Announce = c.Announce
	}
	dsn := c.DB
	if dsn == "" {
		if err := os.MkdirAll(c.Data, 0o750); err != nil {
			return fmt.Errorf("data directory: %w", err)
		}
		dsn = filepath.Join(c.Data, "felt.db")
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return fmt.Errorf("open the database: %w", err)
	}
	defer st.Close()
	h, err := house.New(st, hc.houseSettings())
	if err != nil {
		return err
	}
	if err := h.EnsureBoards(ctx); err != nil {
		return err
	}
	// Games the house was in when it last stopped without closing its tables
	// (kill -9, a crash) are over: their stacks go back to the credits.
	refunds, err := h.Recover(ctx)
	for _, r := range refunds {
		log.Warn("returned a stack left at a table when the house last stopped", "table", r.TableRef, "user", r.UserID, "amount", r.Amount)
	}
	if err != nil {
		return err
	}
	srv, err := web.New(web.Config{House: h, Log: log, MaxConnsPerIP: hc.MaxConnsPerIP, MaxTablesPerPlayer: hc.MaxTables})
	if err != nil {
		return err
	}
	if !c.NoBots {
		for i := range hc.Tables {
			tc, err := hc.table(i, h)
			if err != nil {
				return usageError("config: %v", err)
			}
			if _, err := srv.Lobby().Open(srv.TableDefaults(tc)); err != nil {
				return fmt.Errorf("default table %s: %w", tc.Name, err)
			}
		}
	}
	restored, err := srv.RestoreTables(ctx)
	if err != nil {
		return err
	}
	if restored > 0 {
		log.Info("opened again the tables players had open", "tables", restored)
	}
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return usageError("listen on %s: %v", c.Addr, err)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	srv.SetReady()
	log.Info("house open", "name", hc.Name, "addr", ln.Addr().String(), "database", st.Backend())
	if hc.Announce != "" && hc.Announce != "off" {
		a := &announce.Announcer{To: hc.Announce, Log: log, Beacon: func() announce.Beacon {
			l := srv.Lobby()
			return announce.Beacon{Name: hc.Name, Addr: ln.Addr().String(), Tables: len(l.Tables()), Players: l.Online(), Seated: l.Seated()}
		}}
		go func() {
			if err := a.Run(ctx); err != nil {
				log.Warn("not announced on the local network", "err", err)
			}
		}()
	}
	ready(ln.Addr().String())

	select {
	case <-ctx.Done():
	case err := <-served:
		return err
	}
	log.Info("shutting down: cancelling hands in play and returning every stack")
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = srv.Shutdown(sctx)
	if herr := hs.Shutdown(sctx); herr != nil && !errors.Is(herr, http.ErrServerClosed) {
		err = errors.Join(err, herr)
	}
	log.Info("house closed")
	return err
}
