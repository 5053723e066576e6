package acpc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/engine"
)

// Client plays a felt bot on an ACPC dealer.
type Client struct {
	Game *GameDef
	Bot  bot.Bot
	// Budget is the time the bot may take per decision (0: no deadline); it
	// reaches the bot through bot.Decide.
	Budget time.Duration
}

// Play announces the protocol version and answers every MATCHSTATE in which its
// position is to act, until the dealer closes the connection. It returns the
// number of hands it saw. Cancelling ctx closes conn.
func (c *Client) Play(ctx context.Context, conn net.Conn) (int, error) {
	cfg, err := c.Game.Config()
	if err != nil {
		return 0, err
	}
	limit := cfg.Structure == engine.FixedLimit
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	defer conn.Close()
	if _, err := io.WriteString(conn, Version+"\r\n"); err != nil {
		return 0, fmt.Errorf("acpc client: %w", err)
	}
	r := bufio.NewReader(conn)
	hands := map[int]bool{}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if errors.Is(err, io.EOF) || ctx.Err() != nil {
				return len(hands), nil
			}
			return len(hands), fmt.Errorf("acpc client: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		s, err := ParseState(line)
		if err != nil {
			return len(hands), err
		}
		hands[s.Hand] = true
		h, err := s.Replay(cfg, limit)
		if err != nil {
			return len(hands), fmt.Errorf("acpc client: %q: %w", line, err)
		}
		if h.Over() || h.ToAct() != s.Position {
			continue
		}
		v := h.View(s.Position)
		actx, cancel := bot.WithBudget(ctx, c.Budget)
		a := bot.Decide(actx, c.Bot, &v)
		cancel()
		if _, err := io.WriteString(conn, line+":"+ActionString(h, limit, a)+"\r\n"); err != nil {
			return len(hands), fmt.Errorf("acpc client: %w", err)
		}
	}
}
