package main

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/dealer/casino"
	"github.com/felt-poker/felt/internal/engine"
)

// studCmd is "felt stud-bot": the reference Casino Day client.
type studCmd struct {
	Host    string        `default:"127.0.0.1" help:"Dealer host."`
	Port    int           `default:"4000" help:"Dealer port."`
	ID      string        `name:"id" required:"" help:"GitHub id to log in with."`
	Avatar  string        `default:"Robot" help:"Avatar name."`
	Bot     string        `default:"stud" help:"Strategy: stud (the reference strategy: up cards and the spade rule) or any felt bot name."`
	Seed    uint64        `help:"Seed of the bot's random choices (bots that have them)."`
	Debug   bool          `help:"Log every message and reply."`
	Timeout time.Duration `default:"1s" help:"The dealer's time for an answer (felt dealer --timeout); the bot's deadline stays inside it, and a bot that has not answered is answered for (a check or fold). 0: none."`
}

// Run is called by kong.
func (c *studCmd) Run(ctx context.Context) error {
	level := slog.LevelInfo
	if c.Debug {
		level = slog.LevelDebug
	}
	if c.Timeout < 0 {
		return usageError("--timeout must not be negative")
	}
	if err := casino.CheckLogin(c.ID, c.Avatar); err != nil {
		return usageError("--id, --avatar: %v", err)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	// Casino Day deals three card stud; the client does not know the table's size.
	b, err := casino.NewBot(c.Bot, &bot.Game{Variant: engine.StudThree}, rand.New(rand.NewPCG(c.Seed, 0)))
	if err != nil {
		return usageError("--bot: %v", err)
	}
	addr := net.JoinHostPort(c.Host, strconv.Itoa(c.Port))
	conn, err := (&net.Dialer{Timeout: 5 * time.Second}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("stud-bot: %w", err)
	}
	cl := casino.Client{ID: c.ID, Avatar: c.Avatar, Bot: b, Logger: log, PanicLog: os.Stderr, Timeout: c.Timeout}
	sum, err := cl.Play(ctx, conn)
	fmt.Printf("%s: %d hands, %d won; out: %s; %s\n", c.ID, sum.Hands, sum.Wins, sum.Done, answeredFor(sum.Panics, sum.Late))
	return err
}
