package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"text/tabwriter"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/dealer/casino"
	"github.com/felt-poker/felt/internal/web"
)

// dealerCmd is "felt dealer": the Casino Day three card stud dealer.
type dealerCmd struct {
	Addr          string        `default:"127.0.0.1:4000" env:"FELT_DEALER_ADDR" help:"Address players connect to (HOST:PORT; 0.0.0.0:4000 for a classroom)."`
	Players       int           `default:"2" env:"FELT_DEALER_PLAYERS" help:"Start when this many players have logged in (bots not counted); 0 waits for the page's start button (or starts at once without --http)."`
	MaxPlayers    int           `name:"max-players" default:"1000" help:"Most players who may log in (a login past it is told done:game full)."`
	MaxPerAddress int           `name:"max-per-address" default:"100" help:"Most players who may log in from one address (an IPv6 /64 counts as one, and one IPv6 /48 holds 8 times as many; past it: done:too many players from one address)."`
	Hands         int           `default:"0" help:"Most rounds of hands (0: until one player is left)."`
	Stack         int64         `default:"100" help:"Chips each player starts with."`
	Ante          int64         `default:"1" help:"Ante per hand."`
	Timeout       time.Duration `default:"1s" env:"FELT_DEALER_TIMEOUT" help:"Time a player has to answer."`
	HTTP          string        `name:"http" env:"FELT_DEALER_HTTP" help:"Serve the spectator page on HOST:PORT (e.g. 127.0.0.1:8080)." placeholder:"HOST:PORT"`
	Bots          int           `default:"0" help:"Felt bots to seat besides the network players."`
	Bot           string        `default:"stud" help:"Which bot fills seats: stud (the reference strategy) or any name of the bot registry."`
	TableSize     int           `default:"10" help:"Most players at one table (2-10); a bigger class plays at several tables."`
	Seed          string        `help:"Master seed of the shuffles (decimal or 64 hex digits; default random, printed)."`
	Log           string        `default:"felt-dealer.phhs" help:"Hand log file (PHH, read it with felt replay); empty for none."`
	// StartToken is a secret: from the environment rather than the command line,
	// where other users of the machine can read it.
	StartToken string        `name:"start-token" env:"FELT_DEALER_START_TOKEN" help:"Secret the spectator page's start button needs (at least 16 characters; default random, printed with the page's address)." placeholder:"SECRET"`
	FlushWait  time.Duration `default:"5s" help:"At the end, the most time to wait for the players' last messages to be written."`
}

// dealerPageLimits bound the spectator page's connections as felt serve's are
// bounded (a variable so that tests may shorten them). The page's event stream
// sets deadlines of its own and outlives them.
var dealerPageLimits = web.DefaultLimits

// Help is the long help of "felt dealer".
func (c *dealerCmd) Help() string {
	return `Deals three card stud to bots that connect over TCP and speak the Casino Day protocol
(docs/casino-day.md): writeUTF frames, login, bet1, bet2, status and done. A player that
answers late, answers something that is not a legal reply, or disconnects is out; its chips
in the pot stay there. The game ends when one player is left or after --hands rounds, and
the standings of every player are printed.`
}

// Run is called by kong.
func (c *dealerCmd) Run(ctx context.Context) error {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	return c.run(ctx, os.Stdout, log)
}

func (c *dealerCmd) run(ctx context.Context, out io.Writer, log *slog.Logger) error {
	cfg := casino.Config{
		Players: c.Players, MaxPlayers: c.MaxPlayers, MaxPerAddress: c.MaxPerAddress, Hands: c.Hands, Stack: c.Stack, Ante: c.Ante, Timeout: c.Timeout,
		Bots: c.Bots, Bot: c.Bot, TableSize: c.TableSize, Logger: log,
		StartToken: c.StartToken, FlushWait: c.FlushWait,
	}
	if c.Seed != "" {
		s, err := cards.ParseSeed(c.Seed)
		if err != nil {
			return usageError("--seed: %v", err)
		}
		cfg.Seed = &s
	}
	if c.Log != "" {
		f, err := os.Create(c.Log)
		if err != nil {
			return fmt.Errorf("hand log: %w", err)
		}
		defer f.Close()
		cfg.HandLog = f
	}
	d, err := casino.New(cfg)
	if err != nil {
		return usageError("%v", err)
	}
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return fmt.Errorf("dealer: %w", err)
	}
	fmt.Fprintf(out, "dealer listening on %s; waiting for %d players\n", ln.Addr(), c.Players)
	if c.HTTP != "" {
		web, err := net.Listen("tcp", c.HTTP)
		if err != nil {
			ln.Close()
			return fmt.Errorf("spectator page: %w", err)
		}
		srv := dealerPageLimits.Server(d.Handler(), slog.NewLogLogger(log.Handler(), slog.LevelWarn))
		go func() {
			if err := srv.Serve(web); err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Error("spectator page", "err", err)
			}
		}()
		defer srv.Close()
		fmt.Fprintf(out, "spectator page on http://%s/\n", web.Addr())
		fmt.Fprintf(out, "operator's page (start button) on http://%s/?token=%s\n", web.Addr(), d.StartToken())
	} else if c.Players == 0 {
		d.Start()
	}
	res, err := d.Run(ctx, ln)
	printStandings(out, res)
	if c.Log != "" {
		fmt.Fprintf(out, "hands logged to %s (felt replay %s)\n", c.Log, c.Log)
	}
	return err
}

// printStandings writes the standings table.
func printStandings(out io.Writer, res casino.Result) {
	fmt.Fprintf(out, "\n%d rounds of hands; seed %s\n", res.Hands, res.Seed)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "place\tplayer\tavatar\tchips\tstatus")
	for _, s := range res.Standings {
		status := "in"
		switch {
		case s.Out && s.OutHand == 0:
			status = "out before the first hand: " + s.Reason
		case s.Out:
			status = fmt.Sprintf("out in hand %d: %s", s.OutHand, s.Reason)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\n", s.Place, s.ID, s.Avatar, s.Chips, status)
	}
	tw.Flush()
}
