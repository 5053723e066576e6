package table

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/engine"
)

// Bots think off the table's goroutine. Every bot seat has a botSeat: the bot and
// a queue of jobs (a decision, the names of a hand's players, a hand's end) that
// one goroutine at a time runs in order, so that no two goroutines ever use the
// bot at once and the table never waits for it. A goroutine runs only while the
// queue holds jobs. A decision's answer comes back to the table as a command, as
// a player's action does; meanwhile the table serves everything else (chat,
// watchers, other seats' clocks). The table applies an answer only if the bot's
// thought is still the table's: the same seat to act at the same point of the
// same hand. When the seat's clock runs out first, the clock acts for the bot
// (a check, else a fold) and the late answer is dropped; a bot that panics is
// answered for the same way, and the table plays on.

// botSeat is one seated bot and its jobs.
type botSeat struct {
	b bot.Bot
	// name is the bot's name without options, for DecisionObserver.
	name string
	// jobs is the table's count of jobs queued or running: the table's finish
	// waits for it before it writes the bots' models.
	jobs *sync.WaitGroup

	mu      sync.Mutex
	queue   []func()
	running bool
}

// newBotSeat makes the bot called name (with its options) with newBot.
func (t *Table) newBotSeat(name string, o bot.Options) (*botSeat, error) {
	newBot := t.cfg.NewBot
	if newBot == nil {
		newBot = bot.New
	}
	b, err := newBot(name, o)
	if err != nil {
		return nil, invalid("bots", "%v", err)
	}
	base, _, _ := strings.Cut(name, ":")
	return &botSeat{b: b, name: base, jobs: &t.botJobs}, nil
}

// do queues f to run after the bot's earlier jobs, off the caller's goroutine.
// Only the table's goroutine calls it.
func (bs *botSeat) do(f func()) {
	bs.jobs.Add(1)
	bs.mu.Lock()
	bs.queue = append(bs.queue, f)
	start := !bs.running
	bs.running = true
	bs.mu.Unlock()
	if start {
		go bs.drain()
	}
}

// drain runs the queued jobs until none is left.
func (bs *botSeat) drain() {
	for {
		bs.mu.Lock()
		if len(bs.queue) == 0 {
			bs.running = false
			bs.mu.Unlock()
			return
		}
		f := bs.queue[0]
		bs.queue[0] = nil
		bs.queue = bs.queue[1:]
		bs.mu.Unlock()
		f()
		bs.jobs.Done()
	}
}

// catch runs f and returns the panic it raised as an error, or nil.
func catch(f func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("bot panicked: %v\n%s", p, debug.Stack())
		}
	}()
	f()
	return nil
}

// thought is a decision asked of a bot: the seat, the point of the hand it was
// asked at, and, once the bot has answered, its answer.
type thought struct {
	seat int
	bot  *botSeat
	key  turnKey
	// cancel ends the decision's context: the bot should answer at once.
	cancel context.CancelFunc
	// done is set when the answer came back (on the table's goroutine); err is
	// the bot's panic, or nil.
	done   bool
	action engine.Action
	err    error
}

// turnKey is a point of a hand: its number and the events so far. Any action,
// card or departure moves it on, so an answer given at another key is stale.
type turnKey struct {
	hand   int64
	events int
}

func (t *Table) turnKey() turnKey { return turnKey{t.handNo, len(t.hand.Events())} }

// think asks seat s's bot for its action, with a context ending
// bot.DeadlineMargin before the seat's clock runs out. Any earlier thought is
// ended first.
func (t *Table) think(s int) {
	t.endThought()
	bs := t.seats[s].bot
	ctx, cancel := bot.WithDeadline(context.Background(), t.deadline())
	th := &thought{seat: s, bot: bs, key: t.turnKey(), cancel: cancel}
	t.thinking = th
	v := t.hand.View(s) // the view is the bot's own copy
	observer := t.cfg.BotTimes
	bs.do(func() {
		start := time.Now()
		var a engine.Action
		err := catch(func() { a = t.decide(ctx, bs, &v) })
		if observer != nil && err == nil {
			observer.ObserveDecision(bs.name, v.Street, time.Since(start))
		}
		cancel()
		t.deliver(th, a, err)
	})
}

// deliver hands a bot's answer to the table's goroutine, unless the table has
// stopped.
func (t *Table) deliver(th *thought, a engine.Action, err error) {
	select {
	case t.cmds <- func() { t.answered(th, a, err) }:
	case <-t.loopDone:
	}
}

// answered keeps the answer to th if th is still the table's thought (step
// applies it once the bot delay has passed); a stale answer is dropped.
func (t *Table) answered(th *thought, a engine.Action, err error) {
	if t.thinking != th {
		return
	}
	th.done, th.action, th.err = true, a, err
}

// endThought forgets the thought under way, if any, and tells its bot to stop.
func (t *Table) endThought() {
	if t.thinking != nil {
		t.thinking.cancel()
		t.thinking = nil
	}
}

// botStep moves the turn of seat s, a bot's, on at now: it asks the bot if no
// thought of this turn is under way, acts for it when its clock has run out,
// and applies its answer once it has come and the bot delay has passed. It
// reports whether an action was applied.
func (t *Table) botStep(s int, now time.Time) bool {
	th := t.thinking
	if th == nil || th.seat != s || th.bot != t.seats[s].bot || th.key != t.turnKey() {
		th = nil // not this turn's
	}
	switch {
	case th != nil && th.done && !now.Before(t.botAt):
		t.endThought()
		t.botAct(s, th)
		return true
	case !now.Before(t.deadline()):
		t.endThought()
		t.log.Warn("bot did not answer in time: the clock acts for it", "seat", s, "bot", t.seats[s].bot.name)
		t.autoAct(s)
		return true
	case th == nil:
		t.think(s)
	}
	return false
}

// botAct applies the bot's answer th; an answer the engine refuses, or a bot's
// panic, is replaced by a check or a fold.
func (t *Table) botAct(s int, th *thought) {
	if th.err != nil {
		t.log.Error("bot failed: the table acts for it", "seat", s, "bot", th.bot.name, "err", th.err)
		t.autoAct(s)
		return
	}
	a := th.action
	a.Seat = s
	if err := t.apply(a); err != nil {
		if t.closed {
			return
		}
		t.log.Error("bot action refused", "seat", s, "action", a.String(), "err", err)
		t.autoAct(s)
		return
	}
	t.applied()
}

// seatNames tells the bots dealt in that want to know (bot.Seater) the names of
// the players of the hand about to start, "" for a seat not dealt in.
func (t *Table) seatNames() {
	var names []string
	for i := range t.seats {
		bs := t.seats[i].bot
		if bs == nil || !t.seats[i].inHand {
			continue
		}
		s, ok := bs.b.(bot.Seater)
		if !ok {
			continue
		}
		if names == nil {
			names = make([]string, len(t.seats))
			for j, p := range t.handPlayers {
				names[j] = p.Name
			}
		}
		bs.do(func() {
			if err := catch(func() { s.SeatNames(names) }); err != nil {
				t.log.Error("bot failed to hear the players' names", "seat", i, "bot", bs.name, "err", err)
			}
		})
	}
}

// handEnd tells the learning bots dealt in (bot.Learner) how the hand ended.
func (t *Table) handEnd() {
	for i := range t.seats {
		bs := t.seats[i].bot
		if bs == nil || !t.seats[i].inHand {
			continue
		}
		l, ok := bs.b.(bot.Learner)
		if !ok {
			continue
		}
		v, r := t.hand.View(i), t.hand.Result()
		bs.do(func() {
			if err := catch(func() { l.HandEnd(&v, &r) }); err != nil {
				t.log.Error("bot failed to learn from the hand", "seat", i, "bot", bs.name, "err", err)
			}
		})
	}
}
