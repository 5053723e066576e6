package acpc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// Version is the protocol version a client announces first ("VERSION:2.0.0").
const Version = "VERSION:2.0.0"

// Match configures a duplicate heads-up match.
type Match struct {
	Game *GameDef
	// Deals is the number of deals; each is played twice, the players swapping
	// positions, so the match has 2*Deals hands.
	Deals int
	// Seed fixes the deals (nil: crypto/rand).
	Seed *cards.Seed
	// Timeout is the time a player has for each action; a late or invalid
	// action is replaced by a check or call, a player that hangs up folds.
	Timeout time.Duration
	// Names name the two players in the log (default "p1", "p2").
	Names [2]string
	// Log receives the ACPC log: a STATE line per hand and a SCORE line.
	Log io.Writer
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// Score is the match's result: chips won by each player (the player of port i)
// over all hands.
type Score struct {
	Hands int
	Total [2]int64
}

// player is one connected seat.
type player struct {
	conn net.Conn
	r    *bufio.Reader
	gone bool
}

// Run waits for one player on each listener (the player of lns[i] is player i),
// reads their VERSION lines and plays the match. It closes the listeners and the
// connections.
func (m *Match) Run(ctx context.Context, lns [2]net.Listener) (Score, error) {
	log := m.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg, err := m.Game.Config()
	if err != nil {
		return Score{}, err
	}
	if m.Timeout == 0 {
		m.Timeout = time.Second
	}
	names := m.Names
	for i := range names {
		if names[i] == "" {
			names[i] = fmt.Sprintf("p%d", i+1)
		}
	}
	var ps [2]*player
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, ln := range lns {
		stop := context.AfterFunc(ctx, func() { ln.Close() })
		defer stop()
		defer ln.Close()
		wg.Go(func() {
			conn, err := ln.Accept()
			if err != nil {
				errs[i] = fmt.Errorf("seat %d: %w", i, err)
				return
			}
			ps[i] = &player{conn: conn, r: bufio.NewReader(conn)}
			conn.SetDeadline(time.Now().Add(10 * m.Timeout))
			line, err := ps[i].r.ReadString('\n')
			if err != nil || strings.TrimSpace(line) != Version {
				errs[i] = fmt.Errorf("seat %d: want %q first, got %q: %v", i, Version, strings.TrimSpace(line), err)
			}
		})
	}
	wg.Wait()
	for _, p := range ps {
		if p != nil {
			defer p.conn.Close()
		}
	}
	if err := errors.Join(errs...); err != nil {
		return Score{}, err
	}
	seed := cards.RandomSeed()
	if m.Seed != nil {
		seed = *m.Seed
	}
	seeds := rand.NewChaCha8(seed)
	var score Score
	for d := 0; d < m.Deals && ctx.Err() == nil; d++ {
		var s cards.Seed
		seeds.Read(s[:])
		for swap := range 2 {
			// at[pos] is the player at position pos.
			at := [2]int{0, 1}
			if swap == 1 {
				at = [2]int{1, 0}
			}
			hand := score.Hands
			c := cfg
			c.Seed = s
			net, err := m.playHand(c, ps, at, hand, log)
			if err != nil {
				return score, err
			}
			for pos, pl := range at {
				score.Total[pl] += net[pos]
			}
			score.Hands++
		}
	}
	if m.Log != nil {
		fmt.Fprintf(m.Log, "SCORE:%d|%d:%s|%s\n", score.Total[0], score.Total[1], names[0], names[1])
	}
	return score, ctx.Err()
}

// playHand plays one hand with player at[pos] at position pos and returns each
// position's chips won.
func (m *Match) playHand(cfg engine.Config, ps [2]*player, at [2]int, hand int, log *slog.Logger) ([]int64, error) {
	h, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	limit := cfg.Structure == engine.FixedLimit
	send := func() {
		for pos, pl := range at {
			p := ps[pl]
			if p.gone {
				continue
			}
			p.conn.SetWriteDeadline(time.Now().Add(m.Timeout))
			if _, err := io.WriteString(p.conn, MatchState(h, limit, pos, hand)+"\r\n"); err != nil {
				log.Info("player gone", "player", pl, "err", err)
				p.gone = true
			}
		}
	}
	for !h.Over() {
		send()
		pos := h.ToAct()
		p := ps[at[pos]]
		state := MatchState(h, limit, pos, hand)
		a, err := m.read(p, h, limit, state)
		if err != nil {
			log.Info("action replaced", "hand", hand, "position", pos, "err", err)
			a, _ = Action(h, limit, "c")
			if p.gone {
				a = engine.Action{Seat: pos, Kind: engine.Fold}
			}
		}
		if err := h.Apply(a); err != nil {
			return nil, fmt.Errorf("hand %d: %w", hand, err)
		}
	}
	send()
	res := h.Result()
	if m.Log != nil {
		names := m.Names
		for i := range names {
			if names[i] == "" {
				names[i] = fmt.Sprintf("p%d", i+1)
			}
		}
		fmt.Fprintf(m.Log, "STATE:%d:%s:%s:%d|%d:%s|%s\n", hand, Betting(h, limit), allCards(h), res.Net[0], res.Net[1], names[at[0]], names[at[1]])
	}
	return res.Net, nil
}

// allCards writes every card of the hand (the log shows both hands).
func allCards(h *engine.Hand) string {
	var b strings.Builder
	for i := range h.Seats() {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(cards.Format(h.Cards(i)))
	}
	for i, c := range h.Board() {
		if i == 0 || i >= 3 {
			b.WriteByte('/')
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// read gets the action of player p, who was sent state.
func (m *Match) read(p *player, h *engine.Hand, limit bool, state string) (engine.Action, error) {
	if p.gone {
		return engine.Action{}, errors.New("player gone")
	}
	p.conn.SetReadDeadline(time.Now().Add(m.Timeout))
	for {
		line, err := p.r.ReadString('\n')
		if err != nil {
			if !isTimeout(err) {
				p.gone = true
			}
			return engine.Action{}, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";") {
			continue // comments are allowed
		}
		act, ok := strings.CutPrefix(line, state+":")
		if !ok {
			return engine.Action{}, fmt.Errorf("%w: answer %q to %q", ErrState, line, state)
		}
		a, err := Action(h, limit, act)
		if err != nil {
			return a, err
		}
		return a, h.Clone().Apply(a)
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
