package acpc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
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
	// Timeout, HandTime and PerHand are the dealer's clocks, as the ACPC
	// dealer's --t_response, --t_hand and --t_per_hand (0: none): the most time
	// for one action, for the actions of one hand, and the average per hand over
	// the match. The bot's deadline keeps bot.DeadlineMargin inside them (see
	// clocks); when the bot overruns it by half that margin, the client answers
	// for it (a check, else a fold) and drops its late answer.
	Timeout, HandTime, PerHand time.Duration
	// Idle is the most time to wait on the dealer, for its next line or for it
	// to take an answer (0: no limit); past it Play ends with an error.
	Idle time.Duration
	// Log gets the bot's first panic with its stack (nil: nowhere); see bot.Guard.
	Log io.Writer
}

// Summary is what Play did: the hands it saw, and the decisions it answered
// for the bot because the bot panicked (Panics) or ran out of time (Late).
type Summary struct {
	Hands, Panics, Late int
}

// Errors of Play about what the dealer sent.
var (
	ErrLineTooLong = errors.New("line from the dealer too long")
	ErrMidLine     = errors.New("dealer closed the connection mid-line")
	ErrIdle        = errors.New("no word from the dealer")
)

// Play announces the protocol version and answers every MATCHSTATE in which its
// position is to act, until the dealer closes the connection. It returns the
// summary of the hands it saw and the decisions it answered for the bot
// (bot.Guard: the connection carries on past a bot that panics or is late). A
// line that is not a state that may follow the one before (ParseState,
// State.Replay, State.follows) ends it with an error, as do a line longer than
// maxLine, a connection closed mid-line and a dealer silent for longer than
// Idle. Cancelling ctx closes conn.
func (c *Client) Play(ctx context.Context, conn net.Conn) (Summary, error) {
	g := bot.Guard{Bot: c.Bot, Log: c.Log}
	k := clocks{timeout: c.Timeout, hand: c.HandTime, perHand: c.PerHand}
	err := c.play(ctx, conn, &g, &k)
	return Summary{Hands: k.hands, Panics: g.Panics, Late: g.Late}, err
}

// play is Play, answering through g and keeping time on k.
func (c *Client) play(ctx context.Context, conn net.Conn, g *bot.Guard, k *clocks) error {
	cfg, err := c.Game.Config()
	if err != nil {
		return err
	}
	limit := cfg.Structure == engine.FixedLimit
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	defer conn.Close()
	if err := c.send(conn, Version); err != nil {
		return err
	}
	r := bufio.NewReaderSize(conn, maxLine)
	prev := State{Hand: -1}
	for {
		line, err := c.readLine(conn, r)
		if err != nil {
			if errors.Is(err, io.EOF) || ctx.Err() != nil {
				return nil
			}
			return err
		}
		start := time.Now()
		if comment(line) {
			continue
		}
		s, err := ParseState(line)
		if err == nil {
			err = s.follows(prev)
		}
		if err != nil {
			return fmt.Errorf("acpc client: %w", err)
		}
		if s.Hand != prev.Hand {
			k.newHand()
		}
		prev = s
		h, err := s.Replay(cfg, limit)
		if err != nil {
			return fmt.Errorf("acpc client: %q: %w", line, err)
		}
		if h.Over() || h.ToAct() != s.Position {
			continue
		}
		a := c.decide(ctx, g, h.View(s.Position), k, start)
		if err := c.send(conn, line+":"+ActionString(h, limit, a)); err != nil {
			return err
		}
		k.spend(time.Since(start))
	}
}

// decide asks the bot for its action through g, with c.Budget and by the
// dealer's clocks counted from start (bot.Guard: a bot that panics, or has not
// answered bot.CutMargin before the clocks run out, is answered for).
func (c *Client) decide(ctx context.Context, g *bot.Guard, v engine.View, k *clocks, start time.Time) engine.Action {
	ctx, cancel := bot.WithBudget(ctx, c.Budget)
	defer cancel()
	var deadline time.Time
	if left, ok := k.left(); ok {
		deadline = start.Add(left)
	}
	return g.Decide(ctx, v, deadline)
}

// readLine reads one line without its line end, waiting at most c.Idle.
func (c *Client) readLine(conn net.Conn, r *bufio.Reader) (string, error) {
	if c.Idle > 0 {
		// An error here is a closed connection, which the read reports once
		// the lines already buffered are read.
		_ = conn.SetReadDeadline(time.Now().Add(c.Idle))
	}
	b, err := r.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return "", fmt.Errorf("acpc client: %w (over %d bytes)", ErrLineTooLong, maxLine)
	case errors.Is(err, io.EOF) && len(b) > 0:
		return "", fmt.Errorf("acpc client: %w: %q", ErrMidLine, b)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return "", fmt.Errorf("acpc client: %w in %v", ErrIdle, c.Idle)
	case errors.Is(err, io.EOF):
		return "", err
	case err != nil:
		return "", fmt.Errorf("acpc client: %w", err)
	}
	return strings.TrimRight(string(b), "\r\n"), nil
}

// send writes line and its line end, waiting at most c.Idle.
func (c *Client) send(conn net.Conn, line string) error {
	if c.Idle > 0 {
		_ = conn.SetWriteDeadline(time.Now().Add(c.Idle)) // as in readLine
	}
	if _, err := io.WriteString(conn, line+"\r\n"); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("acpc client: %w: it took no answer in %v", ErrIdle, c.Idle)
		}
		return fmt.Errorf("acpc client: %w", err)
	}
	return nil
}

// clocks is a client's account of its time against the dealer's limits (0:
// none). The time bank of the ACPC dealer is PerHand times the match's hands,
// which a client is not told: it counts PerHand for each hand begun, which never
// exceeds the dealer's bank.
type clocks struct {
	timeout, hand, perHand time.Duration
	hands                  int           // hands begun
	usedHand, usedMatch    time.Duration // time spent in this hand and in the match
}

// newHand begins a hand.
func (k *clocks) newHand() {
	k.hands++
	k.usedHand = 0
}

// spend counts d against the hand's and the match's time.
func (k *clocks) spend(d time.Duration) {
	k.usedHand += d
	k.usedMatch += d
}

// left returns the most time the next action may take by the clocks (0 or
// less when one of them is spent), and false when none is set.
func (k *clocks) left() (time.Duration, bool) {
	var lefts []time.Duration
	if k.timeout > 0 {
		lefts = append(lefts, k.timeout)
	}
	if k.hand > 0 {
		lefts = append(lefts, k.hand-k.usedHand)
	}
	if k.perHand > 0 {
		lefts = append(lefts, k.perHand*time.Duration(k.hands)-k.usedMatch)
	}
	if len(lefts) == 0 {
		return 0, false
	}
	return slices.Min(lefts), true
}

// follows checks that s may come after prev on one connection (prev.Hand -1: s
// is the first): a later hand, or the same hand from the same position, with the
// same cards shown again and the betting and the board carried on.
func (s State) follows(prev State) error {
	switch {
	case s.Hand > prev.Hand:
		return nil
	case s.Hand < prev.Hand:
		return fmt.Errorf("%w: hand %d after hand %d", ErrState, s.Hand, prev.Hand)
	case s.Position != prev.Position:
		return fmt.Errorf("%w: position %d in hand %d, earlier %d", ErrState, s.Position, s.Hand, prev.Position)
	case !strings.HasPrefix(s.Betting, prev.Betting):
		return fmt.Errorf("%w: betting %q after %q", ErrState, s.Betting, prev.Betting)
	case len(s.Board) < len(prev.Board) || !slices.Equal(s.Board[:len(prev.Board)], prev.Board):
		return fmt.Errorf("%w: board %v after %v", ErrState, s.Board, prev.Board)
	}
	for i, h := range prev.Hole {
		if h != nil && !slices.Equal(s.Hole[i], h) {
			return fmt.Errorf("%w: hole cards %v after %v in hand %d", ErrState, s.Hole[i], h, s.Hand)
		}
	}
	return nil
}
