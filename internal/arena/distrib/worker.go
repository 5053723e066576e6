package distrib

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/lbr"
)

// WorkerConfig is how a worker process plays.
type WorkerConfig struct {
	// Workers is the number of items played at once, each on its own goroutine
	// (0: GOMAXPROCS).
	Workers int
	// NewBot makes the bots (nil: bot.New).
	NewBot func(name string, o bot.Options) (bot.Bot, error)
}

// pullWait bounds one wait for an item, so that a worker notices a closed
// connection. Tests shorten it.
var pullWait = 30 * time.Second

// Work pulls items from the work queue and plays them until ctx is done (it
// then gives back the items in play and returns nil) or the connection is
// closed.
func (c *Conn) Work(ctx context.Context, wc WorkerConfig) error {
	if wc.NewBot == nil {
		wc.NewBot = bot.New
	}
	if wc.Workers <= 0 {
		wc.Workers = runtime.GOMAXPROCS(0)
	}
	cons, err := c.js.CreateOrUpdateConsumer(ctx, c.work.CachedInfo().Config.Name, jetstream.ConsumerConfig{
		Durable: c.cfg.Prefix + "_arena_workers", Description: "felt: the arena's workers",
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: c.cfg.AckWait, MaxDeliver: -1,
	})
	if err != nil {
		return fmt.Errorf("distrib: consumer: %w", err)
	}
	// Another worker may have set another ack wait on the shared consumer: say
	// "at work" often enough for the one in force.
	ackWait := min(c.cfg.AckWait, cons.CachedInfo().Config.AckWait)
	c.cfg.Log.Info("arena worker ready", "worker", c.cfg.Name, "build", c.cfg.Build, "goroutines", wc.Workers)
	var wg sync.WaitGroup
	for range wc.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := puller{c: c, wc: &wc, ackWait: ackWait}
			w.run(ctx, cons)
		}()
	}
	wg.Wait()
	if c.nc.IsClosed() {
		return errors.New("distrib: the NATS connection is closed")
	}
	return nil
}

// puller is one goroutine of a worker: it plays one item at a time, keeping
// the bots of the last match it played.
type puller struct {
	c       *Conn
	wc      *WorkerConfig
	ackWait time.Duration
	spec    string // the specification the dealer is for
	dealer  dealer
}

func (w *puller) run(ctx context.Context, cons jetstream.Consumer) {
	for ctx.Err() == nil && !w.c.nc.IsClosed() {
		fctx, cancel := context.WithTimeout(ctx, pullWait)
		msg, err := cons.Next(jetstream.FetchContext(fctx))
		cancel()
		switch {
		case err == nil:
			if w.handle(ctx, msg) {
				sleep(ctx, w.ackWait) // refused: leave the next items to the others a while
			}
		case ctx.Err() != nil || w.c.nc.IsClosed():
		case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout):
			w.c.cfg.Log.Debug("arena worker: no item yet", "waited", pullWait)
		default:
			w.c.cfg.Log.Warn("arena worker: pulling an item", "err", err)
			sleep(ctx, time.Second)
		}
	}
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// handle plays one message of the work queue and answers it; it returns whether
// it refused the item.
func (w *puller) handle(ctx context.Context, msg jetstream.Msg) (refused bool) {
	log := w.c.cfg.Log
	var it item
	err := json.Unmarshal(msg.Data(), &it)
	if err == nil && !runRE.MatchString(it.Run) {
		err = errors.New("no run")
	}
	if err == nil && it.Protocol == Protocol && (it.Match == nil) == (it.LBR == nil) {
		err = errors.New("not one match or LBR run")
	}
	if err != nil {
		log.Warn("arena worker: a message on the work queue is not an item, dropped", "subject", msg.Subject(), "err", err, "bytes", len(msg.Data()))
		_ = msg.Term()
		return false
	}
	if md, err := msg.Metadata(); err == nil && md.NumDelivered > 1 {
		log.Info("arena worker: an item given again (its worker was lost, left, refused it or was slow)", "run", it.Run, "lo", it.Lo, "delivered", md.NumDelivered)
	}
	res := result{Protocol: Protocol, Run: it.Run, Lo: it.Lo, Hi: it.Hi, Worker: w.c.cfg.Name, Build: w.c.cfg.Build}
	if it.Protocol != Protocol {
		return w.refuse(ctx, msg, &res, fmt.Sprintf("item of protocol %d, this worker speaks %d", it.Protocol, Protocol))
	}
	if live, err := w.live(ctx, it.Run); err != nil || !live { // any build drops a dead run's items
		if err != nil {
			log.Warn("arena worker: cannot tell whether a run lives", "run", it.Run, "err", err)
			_ = msg.NakWithDelay(w.ackWait)
		} else {
			log.Info("arena worker: an item of a run whose coordinator is gone, dropped", "run", it.Run)
			_ = msg.Term()
		}
		return false
	}
	if it.Build != w.c.cfg.Build {
		return w.refuse(ctx, msg, &res, fmt.Sprintf("item of felt %s, this worker is %s", it.Build, w.c.cfg.Build))
	}
	d, err := w.dealerFor(&it)
	if err != nil {
		return w.refuse(ctx, msg, &res, err.Error())
	}
	w.play(ctx, msg, d, &it, &res)
	if ctx.Err() != nil {
		_ = msg.Nak() // leaving on purpose: the item goes to another worker now
		return false
	}
	w.answer(ctx, msg, &res)
	return false
}

// live reports whether run's coordinator still waits for its results.
func (w *puller) live(ctx context.Context, run string) (bool, error) {
	_, err := w.c.runs.Get(ctx, run)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return false, nil
	}
	return err == nil, err
}

// refuse tells the run's coordinator why this worker will not play an item and
// gives it back, for another worker, after the ack wait.
func (w *puller) refuse(ctx context.Context, msg jetstream.Msg, res *result, reason string) bool {
	w.c.cfg.Log.Warn("arena worker: item refused", "run", res.Run, "reason", reason)
	res.Refused = reason
	if data, err := json.Marshal(res); err == nil {
		if _, err := w.c.js.Publish(ctx, w.c.resultSubject(res.Run), data); err != nil {
			w.c.cfg.Log.Warn("arena worker: cannot tell the coordinator", "run", res.Run, "err", err)
		}
	}
	_ = msg.NakWithDelay(w.ackWait)
	return true
}

// answer publishes the result and only then acknowledges the item (a worker
// lost in between has its item played again, and the coordinator ignores the
// second result); an item whose deals failed is not given to anyone else.
func (w *puller) answer(ctx context.Context, msg jetstream.Msg, res *result) {
	data, err := json.Marshal(res)
	if err == nil {
		_, err = w.c.js.Publish(ctx, w.c.resultSubject(res.Run), data)
	}
	if err != nil {
		w.c.cfg.Log.Warn("arena worker: cannot publish a result; the item goes back", "run", res.Run, "err", err)
		_ = msg.Nak()
		return
	}
	if res.Error != "" {
		_ = msg.Term()
		return
	}
	if err := msg.DoubleAck(ctx); err != nil {
		w.c.cfg.Log.Warn("arena worker: acknowledging an item", "run", res.Run, "err", err)
	}
}

// play plays the item's deals into res, telling the server every ackWait/3
// that it is at work; a deal's error or panic ends it in res.Error.
func (w *puller) play(ctx context.Context, msg jetstream.Msg, d dealer, it *item, res *result) {
	beat, stop := time.NewTicker(w.ackWait/3), make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-beat.C:
				_ = msg.InProgress()
			}
		}
	}()
	defer func() { beat.Stop(); close(stop); wg.Wait() }()
	defer func() {
		if v := recover(); v != nil {
			res.Error = fmt.Sprintf("panic: %v", v)
		}
		if res.Error != "" {
			res.Match, res.LBR = nil, nil
			w.spec, w.dealer = "", nil // its state is in doubt
		}
	}()
	if it.Lo < 0 || it.Hi <= it.Lo || it.Hi-it.Lo > MaxChunk || it.Hi > d.deals() {
		res.Error = fmt.Sprintf("deals %d to %d: not within the run's %d deals, %d at most at a time", it.Lo, it.Hi-1, d.deals(), MaxChunk)
		return
	}
	for k := it.Lo; k < it.Hi && ctx.Err() == nil; k++ {
		if err := d.play(ctx, k, res); err != nil {
			res.Error = err.Error()
			return
		}
	}
}

// dealerFor returns the dealer of the item's run, made anew when the run is
// not the last one's (a bot it cannot make is an error).
func (w *puller) dealerFor(it *item) (dealer, error) {
	key, err := json.Marshal(struct {
		M *matchSpec
		L *lbrSpec
	}{it.Match, it.LBR})
	if err != nil {
		return nil, err
	}
	if string(key) == w.spec && w.dealer != nil {
		return w.dealer, nil
	}
	var d dealer
	if it.Match != nil {
		d, err = newMatchDealer(it.Match, w.wc.NewBot)
	} else {
		d, err = newLBRDealer(it.LBR, w.wc.NewBot)
	}
	if err != nil {
		return nil, err
	}
	w.spec, w.dealer = string(key), d
	return d, nil
}

// dealer plays the deals of one run into results.
type dealer interface {
	deals() int
	// play plays deal d into r; when ctx ends it may stop with ctx's error.
	play(ctx context.Context, d int, r *result) error
}

type matchDealer struct {
	mc *arena.MatchConfig
	n  int
	p  *arena.DealPlayer
}

func newMatchDealer(s *matchSpec, newBot func(string, bot.Options) (bot.Bot, error)) (*matchDealer, error) {
	mc, err := s.config(newBot)
	if err != nil {
		return nil, err
	}
	d := &matchDealer{mc: &mc}
	if d.n, err = d.mc.Prepare(); err != nil {
		return nil, err
	}
	// The coordinator refuses learners too, but a worker trusts no item: a
	// learner's state=FILE would be written on the worker's disk.
	if err := checkNoLearner(newBot, mc.Game.Bot(2), mc.A, mc.B); err != nil {
		return nil, err
	}
	if d.p, err = arena.NewDealPlayer(d.mc); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *matchDealer) deals() int { return d.n }

func (d *matchDealer) play(ctx context.Context, k int, r *result) error {
	o, err := d.p.Play(ctx, k)
	r.Match = append(r.Match, o)
	return err
}

type lbrDealer struct {
	c *lbr.Config
	n int
	p *lbr.DealPlayer
}

func newLBRDealer(s *lbrSpec, newBot func(string, bot.Options) (bot.Bot, error)) (*lbrDealer, error) {
	c, err := s.config(newBot)
	if err != nil {
		return nil, err
	}
	d := &lbrDealer{c: &c}
	if d.n, err = d.c.Prepare(); err != nil {
		return nil, err
	}
	if err := checkNoLearner(newBot, c.BotGame(), c.Bot); err != nil {
		return nil, err
	}
	if d.p, err = lbr.NewDealPlayer(d.c); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *lbrDealer) deals() int { return d.n }

func (d *lbrDealer) play(ctx context.Context, k int, r *result) error {
	o, err := d.p.Play(ctx, k)
	r.LBR = append(r.LBR, o)
	return err
}
