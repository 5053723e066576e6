package casino

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// Client is a player speaking the protocol: the reference client, or a felt bot
// sent to a Casino Day dealer. It answers login with ID:Avatar and asks Bot for
// every bet, through the seat's view that the question describes (ViewOf), by
// way of a bot.Guard: a bot that panics, or that has not answered
// bot.CutMargin before Timeout, is answered for with a check or fold.
type Client struct {
	ID, Avatar string
	Bot        bot.Bot
	Logger     *slog.Logger // nil discards the log
	// PanicLog gets the bot's first panic with its stack (nil: nowhere).
	PanicLog io.Writer
	// Budget is the time the bot may take per bet (0: no deadline of its own);
	// it reaches the bot through bot.Decide.
	Budget time.Duration
	// Timeout is the dealer's time for an answer (its Config.Timeout; 0: none),
	// counted from when the question is read: the bot's deadline is
	// bot.DeadlineMargin inside it.
	Timeout time.Duration
}

// Summary is what a client saw of a game.
type Summary struct {
	// Hands counts the status messages, Wins those that said "win".
	Hands, Wins int
	// Done is the reason the dealer gave when it put the client out.
	Done string
	// Panics and Late count the bets answered for the bot (a check or fold):
	// because it panicked, and because it had not answered in time.
	Panics, Late int
}

// Play plays on conn until the dealer sends done, which it returns in the
// summary with the bets answered for the bot; it closes conn. Cancelling ctx
// closes conn and ends Play.
func (c *Client) Play(ctx context.Context, conn net.Conn) (Summary, error) {
	g := bot.Guard{Bot: c.Bot, Log: c.PanicLog}
	sum, err := c.play(ctx, conn, &g)
	sum.Panics, sum.Late = g.Panics, g.Late
	return sum, err
}

// play is Play, asking the bot through g.
func (c *Client) play(ctx context.Context, conn net.Conn, g *bot.Guard) (Summary, error) {
	log := c.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	defer conn.Close()
	var sum Summary
	for {
		text, err := ReadUTF(conn)
		if err != nil {
			if ctx.Err() != nil {
				return sum, ctx.Err()
			}
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return sum, fmt.Errorf("read from dealer: %w", err)
		}
		start := time.Now()
		m, err := ParseMessage(text)
		if err != nil {
			return sum, err
		}
		var reply string
		switch m.Kind {
		case MsgLogin:
			reply = Login(c.ID, c.Avatar)
		case MsgBet1, MsgBet2:
			v, err := ViewOf(m)
			if err != nil {
				return sum, err
			}
			reply = ChipsReply(v.Legal, c.decide(ctx, g, v, start))
		case MsgStatus:
			sum.Hands++
			if m.Status.Win {
				sum.Wins++
			}
			log.Debug("status", "msg", text)
			continue
		case MsgDone:
			sum.Done = m.Reason
			log.Info("done", "reason", m.Reason, "hands", sum.Hands, "wins", sum.Wins, "panics", g.Panics, "late", g.Late)
			return sum, nil
		}
		log.Debug("reply", "msg", text, "reply", reply)
		if err := WriteUTF(conn, reply); err != nil {
			return sum, fmt.Errorf("write to dealer: %w", err)
		}
	}
}

// decide asks the bot for its action at v through g, with c.Budget and by
// c.Timeout counted from start.
func (c *Client) decide(ctx context.Context, g *bot.Guard, v engine.View, start time.Time) engine.Action {
	ctx, cancel := bot.WithBudget(ctx, c.Budget)
	defer cancel()
	var deadline time.Time
	if c.Timeout > 0 {
		deadline = start.Add(c.Timeout)
	}
	return g.Decide(ctx, v, deadline)
}

// ChipsReply writes an action of a view made by ViewOf as the protocol's reply:
// "fold" or "bet:<chips put in now>".
func ChipsReply(l engine.Legal, a engine.Action) string {
	switch a.Kind {
	case engine.Check:
		return Bet(0)
	case engine.Call:
		return Bet(l.CallAmount)
	case engine.Bet, engine.Raise:
		return Bet(a.Amount - l.Committed)
	}
	return MsgFold
}

// kinds builds a KindSet; Has is its definition (bit k is kind k).
func kinds(ks ...engine.ActionKind) engine.KindSet {
	var s engine.KindSet
	for _, k := range ks {
		s |= 1 << k
	}
	return s
}

// ViewOf builds the seat's view of the hand that a bet1 or bet2 question
// describes, so that any felt bot can answer it. The seats are the players the
// question lists, in its order (bet1 lists every player dealt in, so players who
// folded in round one look as if they were still in); the viewer is the seat whose
// up cards are the player's own. Other seats' hole cards are cards.NoCard. Legal
// allows a check or call of toCall and bets of 1 to MaxRaise chips more, within the
// stack; its Committed is 0, so an action's Amount is the chips it puts in.
func ViewOf(m Message) (engine.View, error) {
	v := engine.View{Variant: engine.StudThree, Viewer: engine.NoSeat, Button: engine.NoSeat,
		SmallBlind: engine.NoSeat, BigBlind: engine.NoSeat}
	var stack, pot, toCall int64
	var own [3]cards.Card
	var ups [][]cards.Card
	switch {
	case m.Bet1 != nil:
		b := m.Bet1
		stack, pot, toCall, v.Street = b.Stack, b.Pot, b.ToCall, engine.StudOne
		own = [3]cards.Card{b.Hole, b.Up, cards.NoCard}
		for _, u := range b.Ups {
			ups = append(ups, []cards.Card{u})
		}
	case m.Bet2 != nil:
		b := m.Bet2
		stack, pot, toCall, v.Street = b.Stack, b.Pot, b.ToCall, engine.StudTwo
		own = [3]cards.Card{b.Hole, b.Up1, b.Up2}
		for _, u := range b.Ups {
			ups = append(ups, []cards.Card{u[0], u[1]})
		}
	default:
		return v, fmt.Errorf("%w: %s is not a question", ErrBadMessage, m.Kind)
	}
	for i, u := range ups {
		s := engine.SeatView{InHand: true, NCards: 1 + len(u), Cards: [3]cards.Card{cards.NoCard, cards.NoCard, cards.NoCard}}
		copy(s.Cards[1:], u)
		if v.Viewer == engine.NoSeat && u[0] == own[1] && (len(u) == 1 || u[1] == own[2]) {
			v.Viewer = i
			s.Cards = own
		}
		v.Seats = append(v.Seats, s)
	}
	if v.Viewer == engine.NoSeat {
		return v, fmt.Errorf("%w: my up cards are not among the up cards", ErrBadMessage)
	}
	v.Pot, v.ToAct = pot, v.Viewer
	l := engine.Legal{Seat: v.Viewer, CurrentBet: toCall, Stack: stack, CallAmount: min(toCall, stack)}
	switch {
	case toCall == 0:
		l.Kinds = kinds(engine.Fold, engine.Check)
		if stack > 0 {
			l.Kinds |= kinds(engine.Bet)
		}
	case stack >= toCall:
		l.Kinds = kinds(engine.Fold, engine.Call)
		if stack > toCall {
			l.Kinds |= kinds(engine.Raise)
		}
	default: // cannot call: the only legal reply is fold
		l.Kinds, l.CallAmount = kinds(engine.Fold), 0
	}
	l.MinTo, l.MaxTo = min(toCall+1, stack), min(toCall+MaxRaise, stack)
	v.Legal = l
	return v, nil
}
