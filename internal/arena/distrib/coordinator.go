package distrib

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/lbr"
)

// Defaults of Config.Chunk.
const (
	matchChunk = 128
	lbrChunk   = 8
)

// job is one run shared out: what its items carry and how its results add up.
type job struct {
	what     string // for logs: "call vs raise"
	deals    int
	chunk    int
	match    *matchSpec
	lbr      *lbrSpec
	add      func(lo int, r *result) error // counts a result's outcomes; an error refuses them
	progress func(hands int)
}

// Match plays mc on the farm's workers and returns what arena.Match would:
// the same figures, Workers the number of worker processes that played deals;
// stopped by ctx, a partial result with ctx's error. It is an arena.MatchFunc. mc.Hand must be nil, and no bot may learn.
func (c *Conn) Match(ctx context.Context, mc arena.MatchConfig) (arena.Result, error) {
	deals, err := mc.Prepare()
	if err != nil {
		return arena.Result{}, err
	}
	spec, err := newMatchSpec(&mc)
	if err != nil {
		return arena.Result{}, err
	}
	if err := checkNoLearner(mc.NewBot, mc.Game.Bot(2), mc.A, mc.B); err != nil {
		return arena.Result{}, err
	}
	prefix := mc.NewPrefix()
	j := &job{what: mc.A + " vs " + mc.B, deals: deals, chunk: c.chunk(matchChunk), match: spec, progress: mc.Progress,
		add: func(lo int, r *result) error {
			if len(r.Match) != r.Hi-r.Lo || r.LBR != nil {
				return fmt.Errorf("%d match outcomes and %d LBR ones for deals %d to %d", len(r.Match), len(r.LBR), r.Lo, r.Hi-1)
			}
			prefix.Add(lo, r.Match...)
			return nil
		}}
	start := time.Now()
	workers, err := c.share(ctx, j)
	// Stopped (ctx ended), the match is partial, as arena.Match's: the deals of
	// the items counted before the first item that was not.
	return mc.Gather(ctx, prefix, workers, time.Since(start), err)
}

// LBR plays lc on the farm's workers and returns what lbr.Run would: the same
// figures, Workers the number of worker processes that played deals; stopped
// by ctx, a partial result with ctx's error.
func (c *Conn) LBR(ctx context.Context, lc lbr.Config) (lbr.Result, error) {
	deals, err := lc.Prepare()
	if err != nil {
		return lbr.Result{}, err
	}
	if err := checkNoLearner(lc.NewBot, lc.BotGame(), lc.Bot); err != nil {
		return lbr.Result{}, err
	}
	spec, err := newLBRSpec(&lc)
	if err != nil {
		return lbr.Result{}, err
	}
	prefix := lc.NewPrefix()
	j := &job{what: "LBR vs " + lc.Bot, deals: deals, chunk: c.chunk(lbrChunk), lbr: spec, progress: lc.Progress,
		add: func(lo int, r *result) error {
			if len(r.LBR) != r.Hi-r.Lo || r.Match != nil {
				return fmt.Errorf("%d LBR outcomes and %d match ones for deals %d to %d", len(r.LBR), len(r.Match), r.Lo, r.Hi-1)
			}
			prefix.Add(lo, r.LBR...)
			for k, o := range r.LBR {
				if lc.Deal != nil {
					lc.Deal(lc.FirstDeal+lo+k, o)
				}
			}
			return nil
		}}
	start := time.Now()
	workers, err := c.share(ctx, j)
	// Stopped (ctx ended), the run is partial, as lbr.Run's: the deals of the
	// items counted before the first item that was not.
	return lc.Gather(ctx, prefix, workers, time.Since(start), err)
}

// chunk returns the deals per item: Config.Chunk, or def.
func (c *Conn) chunk(def int) int {
	if c.cfg.Chunk > 0 {
		return c.cfg.Chunk
	}
	return def
}

// share publishes j's items under a new run and gathers their results until
// every deal is counted; it returns the number of workers that played them.
func (c *Conn) share(ctx context.Context, j *job) (int, error) {
	run := newRunID()
	log := c.cfg.Log.With("run", run)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-c.closed:
			cancel()
		case <-ctx.Done():
		}
	}()
	if _, err := c.runs.Put(ctx, run, []byte(j.what)); err != nil {
		return 0, fmt.Errorf("distrib: run %s: %w", run, err)
	}
	keepAlive := make(chan struct{})
	go func() { defer close(keepAlive); c.keepAlive(ctx, run, j.what) }()
	defer func() { cancel(); <-keepAlive; c.forget(run) }()
	cons, err := c.js.OrderedConsumer(ctx, c.results.CachedInfo().Config.Name,
		jetstream.OrderedConsumerConfig{FilterSubjects: []string{c.resultSubject(run)}})
	if err != nil {
		return 0, fmt.Errorf("distrib: results of run %s: %w", run, err)
	}
	msgs, err := cons.Messages()
	if err != nil {
		return 0, fmt.Errorf("distrib: results of run %s: %w", run, err)
	}
	defer msgs.Stop()
	items := (j.deals + j.chunk - 1) / j.chunk
	if err := c.publish(ctx, run, j); err != nil {
		return 0, err
	}
	log.Info("arena run shared out", "what", j.what, "deals", j.deals, "items", items)
	g := gathering{job: j, run: run, done: make([]*counted, items), left: items, workers: map[string]bool{}, refusals: map[string]bool{}}
	for g.left > 0 {
		m, err := msgs.Next(jetstream.NextContext(ctx))
		if err != nil {
			if c.nc.IsClosed() {
				err = errors.New("the NATS connection is closed")
			}
			return len(g.workers), fmt.Errorf("distrib: run %s: %w", run, errors.Join(ctx.Err(), err))
		}
		if err := g.take(log, m.Data()); err != nil {
			return 0, err
		}
	}
	return len(g.workers), nil
}

// newRunID returns a new run's id: 128 random bits in hex, a NATS subject token.
func newRunID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// publish puts j's items on the work queue.
func (c *Conn) publish(ctx context.Context, run string, j *job) error {
	for lo := 0; lo < j.deals; lo += j.chunk {
		it := item{Protocol: Protocol, Build: c.cfg.Build, Run: run, Lo: lo, Hi: min(lo+j.chunk, j.deals), Match: j.match, LBR: j.lbr}
		data, err := json.Marshal(it)
		if err != nil {
			return err
		}
		if _, err := c.js.Publish(ctx, c.workSubject(run), data, jetstream.WithMsgID(run+"."+strconv.Itoa(lo))); err != nil {
			return fmt.Errorf("distrib: run %s: publish deals %d to %d: %w", run, it.Lo, it.Hi-1, err)
		}
	}
	return nil
}

// keepAlive refreshes the run's key until ctx is done, so that workers go on
// playing its items.
func (c *Conn) keepAlive(ctx context.Context, run, what string) {
	t := time.NewTicker(runTTL / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := c.runs.Put(ctx, run, []byte(what)); err != nil && ctx.Err() == nil {
				c.cfg.Log.Warn("arena run: cannot refresh its key", "run", run, "err", err)
			}
		}
	}
}

// forget removes a finished or abandoned run: its key, so that workers drop its
// items, the items left (duplicates, or all of them when it was stopped) and
// its results.
func (c *Conn) forget(run string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*c.cfg.Timeout)
	defer cancel()
	err := errors.Join(c.runs.Delete(ctx, run),
		c.work.Purge(ctx, jetstream.WithPurgeSubject(c.workSubject(run))),
		c.results.Purge(ctx, jetstream.WithPurgeSubject(c.resultSubject(run))))
	if err != nil {
		c.cfg.Log.Warn("arena run: cleaning up", "run", run, "err", err)
	}
}

// maxRefusals bounds the refusals a run remembers (and logs): a hostile worker
// giving a new reason in every message cannot grow the coordinator's memory.
const maxRefusals = 256

// gathering is a coordinator's count of one run's results.
type gathering struct {
	job      *job
	run      string
	done     []*counted // by item: nil until counted
	left     int
	workers  map[string]bool // that played deals
	refusals map[string]bool // worker and reason, logged once
}

// take counts one message of the run's results subject: a result is added once,
// a refusal logged once per worker and reason, anything else logged and
// dropped. An error fails the run.
func (g *gathering) take(log *slog.Logger, data []byte) error {
	var r result
	if err := json.Unmarshal(data, &r); err != nil {
		log.Warn("arena run: a message on the results subject is not a result, dropped", "err", err, "bytes", len(data))
		return nil
	}
	k, ok := g.item(&r)
	if !ok {
		log.Warn("arena run: a result for no item of the run, dropped", "worker", r.Worker, "lo", r.Lo, "hi", r.Hi, "protocol", r.Protocol)
		return nil
	}
	switch {
	case r.Refused != "":
		if key := r.Worker + "\x00" + r.Refused; !g.refusals[key] && len(g.refusals) < maxRefusals {
			g.refusals[key] = true
			log.Warn("arena run: a worker refused an item; it goes to another worker", "worker", r.Worker, "build", r.Build, "reason", r.Refused)
		}
		return nil
	case r.Error != "":
		return fmt.Errorf("deals %d to %d on worker %s: %s", r.Lo, r.Hi-1, r.Worker, r.Error)
	case g.done[k] != nil: // a duplicate: the item was played twice
		if sum := outcomesSum(&r); sum != g.done[k].sum {
			return fmt.Errorf("deals %d to %d: workers %s and %s disagree on their outcomes: the bots differ between them (a bot's file?)",
				r.Lo, r.Hi-1, g.done[k].worker, r.Worker)
		}
		return nil
	}
	if err := g.job.add(r.Lo, &r); err != nil {
		log.Warn("arena run: a malformed result, dropped", "worker", r.Worker, "err", err)
		return nil
	}
	g.done[k] = &counted{worker: r.Worker, sum: outcomesSum(&r)}
	g.left--
	g.workers[r.Worker] = true
	if g.job.progress != nil {
		g.job.progress(2 * (r.Hi - r.Lo))
	}
	return nil
}

// counted is an item whose result is counted: who played it and a digest of
// its outcomes, to which a second result must agree.
type counted struct {
	worker string
	sum    [sha256.Size]byte
}

// outcomesSum returns the digest of r's outcomes.
func outcomesSum(r *result) [sha256.Size]byte {
	data, _ := json.Marshal(struct {
		M []arena.Outcome
		L []lbr.Outcome
	}{r.Match, r.LBR}) // slices of numbers: no error
	return sha256.Sum256(data)
}

// item returns the index of the item r answers, and whether it answers one.
func (g *gathering) item(r *result) (int, bool) {
	j := g.job
	if r.Protocol != Protocol || r.Run != g.run || r.Lo < 0 || r.Lo >= j.deals || r.Lo%j.chunk != 0 ||
		r.Hi != min(r.Lo+j.chunk, j.deals) {
		return 0, false
	}
	return r.Lo / j.chunk, true
}
