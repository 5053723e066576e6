package casino

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/history"
)

// playHand deals one hand of three card stud to players (seat i is players[i]) at
// table t and plays it to the end. It owns the engine hand: network players are
// asked through their connection goroutines, bots are called directly. A player
// that fails to answer properly is put out and leaves the hand; its chips in the
// pot stay there.
func (d *Dealer) playHand(round, t int, players []*entrant, seed cards.Seed) {
	cfg := engine.Config{
		Variant: engine.StudThree,
		Stacks:  make([]int64, len(players)),
		Ante:    d.cfg.Ante,
		Button:  (round - 1) % len(players),
		Seed:    seed,
	}
	d.mu.Lock()
	for i, e := range players {
		cfg.Stacks[i] = e.chips
		e.last = ""
	}
	d.mu.Unlock()
	h, err := engine.New(cfg)
	if err != nil { // the dealer only seats players who can pay the ante
		d.log.Error("cannot deal", "table", t, "err", err)
		return
	}
	d.update(t, h, players)
	for !h.Over() {
		s := h.ToAct()
		e := players[s]
		a, why := d.decide(h, s, e)
		if why != "" {
			d.putOut(e, round, why)
			a = engine.Action{Seat: s, Kind: engine.Leave}
		}
		if err := h.Apply(a); err != nil {
			// decide returns only legal actions; a bot's illegal one is a felt bug.
			d.log.Error("action refused", "table", t, "id", e.id, "action", a.String(), "err", err)
			d.putOut(e, round, ReasonIllegal)
			if err := h.Leave(s); err != nil {
				d.log.Error("leave refused", "table", t, "id", e.id, "err", err)
				return
			}
		}
		d.mu.Lock()
		e.last = lastAction(h)
		d.record(round, t+1, e.id, e.last)
		d.mu.Unlock()
		d.update(t, h, players)
	}
	res := h.Result()
	d.mu.Lock()
	for i, e := range players {
		e.chips = res.Stacks[i]
	}
	for _, p := range res.Pots {
		for _, a := range p.Awards {
			if a.Amount > 0 {
				d.record(round, t+1, players[a.Seat].id, fmt.Sprintf("wins %d", a.Amount))
			}
		}
	}
	d.mu.Unlock()
	d.tellStatus(h, cfg, players, round)
	d.hands.write(cfg, h, t, players)
	d.update(t, h, players)
}

// decide gets the action of seat s, or why its player is out.
func (d *Dealer) decide(h *engine.Hand, s int, e *entrant) (engine.Action, string) {
	d.mu.Lock()
	out := e.out
	d.mu.Unlock()
	if out { // put out at another moment (a failed status message)
		return engine.Action{}, e.reason
	}
	if e.bot != nil {
		v := h.View(s)
		ctx, cancel := bot.WithBudget(context.Background(), d.cfg.Timeout)
		defer cancel()
		return bot.Decide(ctx, e.bot, &v), ""
	}
	msg := question(h, s)
	text, err := e.remote.ask(msg)
	if err != nil {
		d.log.Info("no reply", "id", e.id, "msg", msg, "err", err)
		return engine.Action{}, reason(err)
	}
	a, err := Reply(h.Legal(), text)
	if err != nil {
		d.log.Info("illegal reply", "id", e.id, "msg", msg, "reply", clip(text), "err", err)
		return engine.Action{}, ReasonIllegal
	}
	return a, ""
}

// ErrIllegalBet is wrapped by Reply for a well-formed bet outside the bounds.
var ErrIllegalBet = errors.New("illegal bet")

// Reply turns a player's answer into the engine action it stands for: "fold", or
// "bet:n" with toCall ≤ n ≤ toCall+MaxRaise and n ≤ stack (n = toCall checks or
// calls).
func Reply(l engine.Legal, text string) (engine.Action, error) {
	n, fold, err := ParseReply(text)
	if err != nil {
		return engine.Action{}, err
	}
	if fold {
		return engine.Action{Seat: l.Seat, Kind: engine.Fold}, nil
	}
	toCall := l.CurrentBet - l.Committed
	if n < toCall || n > toCall+MaxRaise || n > l.Stack {
		return engine.Action{}, fmt.Errorf("%w: bet:%d with %d to call and %d chips", ErrIllegalBet, n, toCall, l.Stack)
	}
	a, ok := l.Put(n)
	if !ok {
		return engine.Action{}, fmt.Errorf("%w: bet:%d is not allowed now (%s)", ErrIllegalBet, n, l.Kinds)
	}
	return a, nil
}

// question writes bet1 or bet2 for seat s, the seat to act.
func question(h *engine.Hand, s int) string {
	v := h.View(s)
	me := v.Seats[s]
	stack, pot, toCall := v.Legal.Stack, v.Pot, v.Legal.CurrentBet-v.Legal.Committed
	if v.Street == engine.StudOne {
		m := Bet1{Stack: stack, Pot: pot, ToCall: toCall, Hole: me.Cards[0], Up: me.Cards[1]}
		for _, o := range v.Seats {
			if o.InHand {
				m.Ups = append(m.Ups, o.Cards[1])
			}
		}
		return m.String()
	}
	m := Bet2{Stack: stack, Pot: pot, ToCall: toCall, Hole: me.Cards[0], Up1: me.Cards[1], Up2: me.Cards[2]}
	for _, o := range v.Seats {
		if o.InHand && !o.Folded && o.NCards == 3 {
			m.Ups = append(m.Ups, [2]cards.Card{o.Cards[1], o.Cards[2]})
		}
	}
	return m.String()
}

// tellStatus sends status to every network player of the hand still in the game.
func (d *Dealer) tellStatus(h *engine.Hand, cfg engine.Config, players []*entrant, round int) {
	res := h.Result()
	best := WinningCards(h, cfg)
	won := make([]bool, len(players))
	for _, p := range res.Pots {
		for _, a := range p.Awards {
			if a.Amount > 0 {
				won[a.Seat] = true
			}
		}
	}
	for i, e := range players {
		d.mu.Lock()
		out := e.out
		d.mu.Unlock()
		if out || e.remote == nil {
			continue
		}
		if !e.remote.tell(Status{Win: won[i], Cards: best}.String()) {
			d.putOut(e, round, ReasonTooSlow)
		}
	}
}

// WinningCards returns the three cards of the hand's winning poker hand: the best
// hand shown, or, when everybody else folded, the winner's hole and up cards; if the
// hand ended before the second up card, the card that would have been dealt next
// completes the three (docs/rules.md).
func WinningCards(h *engine.Hand, cfg engine.Config) [3]cards.Card {
	var out [3]cards.Card
	res := h.Result()
	if len(res.Shown) > 0 {
		best := res.Shown[0]
		for _, s := range res.Shown[1:] {
			if s.Rank > best.Rank {
				best = s
			}
		}
		copy(out[:], best.Cards)
		return out
	}
	winner := -1
	for _, p := range res.Pots {
		for _, a := range p.Awards {
			if a.Amount > 0 {
				winner = a.Seat
			}
		}
	}
	if winner < 0 {
		return out
	}
	n := copy(out[:], h.Cards(winner))
	if n < 3 {
		dealt := 0
		for i := range h.Seats() {
			dealt += len(h.Cards(i))
		}
		deck := cfg.Deck
		if deck == nil {
			deck = cards.Shuffled(cfg.Seed)
		}
		copy(out[n:], deck[dealt:])
	}
	return out
}

// lastAction describes the hand's last player action for the spectators.
func lastAction(h *engine.Hand) string {
	ev := h.Events()
	for i := len(ev) - 1; i >= 0; i-- {
		e := ev[i]
		switch e.Kind {
		case engine.EvFold, engine.EvLeave:
			return e.Kind.String()
		case engine.EvCheck:
			return "check"
		case engine.EvCall, engine.EvBet, engine.EvRaise:
			return fmt.Sprintf("%s %d", e.Kind, e.Amount)
		}
	}
	return ""
}

// handLog writes every hand, from every table, to one .phhs stream.
type handLog struct {
	mu   sync.Mutex
	w    io.Writer
	n    int
	err  error // the first write error; later hands are not written
	seed cards.Seed
}

// write appends one finished hand as PHH under the header [n].
func (l *handLog) write(cfg engine.Config, h *engine.Hand, t int, players []*entrant) {
	if l.w == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return
	}
	l.n++
	names := make([]string, len(players))
	for i, e := range players {
		names[i] = e.id
	}
	p, err := history.FromHand(cfg, h, history.Info{Hand: int64(l.n), Table: strconv.Itoa(t + 1), Players: names})
	if err != nil {
		l.err = fmt.Errorf("hand %d: %w", l.n, err)
		return
	}
	body, err := p.Marshal()
	if err != nil {
		l.err = fmt.Errorf("hand %d: %w", l.n, err)
		return
	}
	sep := ""
	if l.n > 1 {
		sep = "\n"
	}
	if _, err := fmt.Fprintf(l.w, "%s[%d]\n%s", sep, l.n, body); err != nil {
		l.err = fmt.Errorf("hand %d: %w", l.n, err)
	}
}
