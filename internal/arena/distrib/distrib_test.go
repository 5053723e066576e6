package distrib

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/lbr"
)

func game(t *testing.T, name string) arena.Game {
	t.Helper()
	g, err := arena.ParseGame(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// sameMatch fails the test unless the two results are equal but for the time
// taken and the workers.
func sameMatch(t *testing.T, what string, got, want arena.Result) {
	t.Helper()
	got.Elapsed, got.Workers, want.Elapsed, want.Workers = 0, 0, 0, 0
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s on the farm:\n%+v\non one machine:\n%+v", what, got, want)
	}
}

// testMatches are matches the farm must play as one machine does: with the
// control variate, with seed 001's doubling blinds, in stud.
func testMatches(t *testing.T) []arena.MatchConfig {
	return []arena.MatchConfig{
		{A: "montecarlo:samples=20", B: "random", Game: game(t, "nl"), Hands: 60, Seed: 7, ControlVariate: true},
		{A: "tag", B: "maniac", Game: game(t, "nl"), Hands: 90, Seed: 8, Format: arena.Seed001(10)},
		{A: "random", B: "call", Game: game(t, "stud"), Hands: 41, Seed: 9},
		// Deals 23 to 67 travel as such: a worker that started at deal 0, or
		// at the first level of blinds, would differ.
		{A: "random", B: "maniac", Game: game(t, "nl"), Hands: 90, Seed: 8, Format: arena.Seed001(10), FirstDeal: 23, ControlVariate: true},
	}
}

// TestFarmEqualsOneMachine: matches, a league, a gauntlet and LBR runs played by three
// workers give the very result of the same run on one machine.
func TestFarmEqualsOneMachine(t *testing.T) {
	url := farm(t)
	coord := dial(t, url, "coordinator", newLogSink())
	for _, name := range []string{"w1", "w2", "w3"} {
		startWorker(t, dial(t, url, name, newLogSink()), WorkerConfig{Workers: 1})
	}
	ctx := context.Background()
	for _, mc := range testMatches(t) {
		var progress int
		mc.Progress = func(n int) { progress += n }
		got, err := coord.Match(ctx, mc)
		if err != nil {
			t.Fatal(err)
		}
		mc.Progress = nil
		want, err := arena.Match(ctx, mc)
		if err != nil {
			t.Fatal(err)
		}
		sameMatch(t, mc.A+" vs "+mc.B, got, want)
		if progress != want.Hands || got.Workers < 1 || got.Workers > 3 {
			t.Errorf("%s vs %s: progress %d hands, want %d; %d workers", mc.A, mc.B, progress, want.Hands, got.Workers)
		}
	}

	lc := arena.LeagueConfig{Bots: []string{"call", "raise", "random", "tag"}, Game: game(t, "limit"), Hands: 30, Seed: 3}
	want, err := arena.PlayLeague(ctx, lc)
	if err != nil {
		t.Fatal(err)
	}
	lc.Match = coord.Match
	got, err := arena.PlayLeague(ctx, lc)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []*arena.League{&got, &want} {
		for _, row := range l.Matches {
			for j := range row {
				row[j].Elapsed, row[j].Workers = 0, 0
			}
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("league on the farm:\n%+v\non one machine:\n%+v", got, want)
	}

	gc := arena.GauntletConfig{Bot: "random", Game: game(t, "nl"), Hands: 16, Seed: 4, ControlVariate: true}
	wantG, err := arena.PlayGauntlet(ctx, gc)
	if err != nil {
		t.Fatal(err)
	}
	gc.Match = coord.Match
	gotG, err := arena.PlayGauntlet(ctx, gc)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []*arena.Gauntlet{&gotG, &wantG} {
		for k := range g.Matches {
			g.Matches[k].Elapsed, g.Matches[k].Workers = 0, 0
		}
	}
	if !reflect.DeepEqual(gotG, wantG) {
		t.Errorf("gauntlet on the farm:\n%+v\non one machine:\n%+v", gotG, wantG)
	}

	// The game travels with the run: LBR in fixed-limit on the farm is LBR in
	// fixed-limit (a worker that played nl would differ). So does the first
	// deal: a run of deals 7 to 11 plays those deals (a worker that started at
	// deal 0 would differ).
	for _, run := range []struct {
		bot, game string
		first     int
	}{{"call", "nl", 0}, {"tag", "nl", 0}, {"call", "limit", 0}, {"call", "nl", 7}} {
		b := run.bot
		c := lbr.Config{Bot: b, Game: game(t, run.game), Hands: 10, Seed: 5, Runouts: 40, FirstDeal: run.first}
		want, err := lbr.Run(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		got, err := coord.LBR(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		got.Elapsed, got.Workers, want.Elapsed, want.Workers = 0, 0, 0, 0
		if !reflect.DeepEqual(got, want) {
			t.Errorf("LBR vs %s on the farm:\n%+v\non one machine:\n%+v", b, got, want)
		}
	}
}

// gateBot waits, at its first decision, until its gate opens.
type gateBot struct {
	bot.Bot
	once    *sync.Once
	reached chan struct{}
	open    chan struct{}
}

func (b gateBot) Act(v *engine.View) engine.Action {
	b.once.Do(func() { close(b.reached) })
	<-b.open
	return b.Bot.Act(v)
}

// TestKilledWorkerItemRedone: a worker lost mid-item (its connection gone, as
// when killed) answers nothing; its item goes to another worker after the ack
// wait, and the result is the one machine's.
func TestKilledWorkerItemRedone(t *testing.T) {
	url := farm(t)
	coord := dial(t, url, "coordinator", newLogSink())
	mc := arena.MatchConfig{A: "montecarlo:samples=10", B: "call", Game: game(t, "nl"), Hands: 40, Seed: 11}
	want, err := arena.Match(context.Background(), mc)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan arena.Result, 1)
	go func() {
		r, err := coord.Match(context.Background(), mc)
		if err != nil {
			t.Error(err)
		}
		got <- r
	}()

	var once sync.Once
	reached, open := make(chan struct{}), make(chan struct{})
	doomed := dial(t, url, "doomed", newLogSink())
	stopDoomed := startWorker(t, doomed, WorkerConfig{Workers: 1, NewBot: func(name string, o bot.Options) (bot.Bot, error) {
		b, err := bot.New(name, o)
		return gateBot{b, &once, reached, open}, err
	}})
	<-reached // mid-item
	doomed.Close()
	close(open)
	if err := stopDoomed(); err == nil {
		t.Error("a worker whose connection closed returned no error")
	}

	sink := newLogSink()
	startWorker(t, dial(t, url, "heir", sink), WorkerConfig{Workers: 2})
	r := await(t, got)
	sameMatch(t, "a match whose worker was killed", r, want)
	sink.wait(t, "given again")
	if r.Workers != 1 {
		t.Errorf("%d workers played deals, want only the heir", r.Workers)
	}
}

// TestWorkersThatRefuse: a worker of another build and one that cannot make
// a bot of the match refuse its items, the coordinator logs each once, and a
// good worker plays them all.
func TestWorkersThatRefuse(t *testing.T) {
	url := farm(t)
	log := newLogSink()
	coord := dial(t, url, "coordinator", log)
	mc := arena.MatchConfig{A: "tag", B: "random", Game: game(t, "pl"), Hands: 24, Seed: 12}
	want, err := arena.Match(context.Background(), mc)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan arena.Result, 1)
	go func() {
		r, err := coord.Match(context.Background(), mc)
		if err != nil {
			t.Error(err)
		}
		got <- r
	}()
	startWorker(t, dial(t, url, "old", newLogSink(), func(c *Config) { c.Build = "v0.1 0123abc linux/amd64" }), WorkerConfig{Workers: 1})
	startWorker(t, dial(t, url, "notag", newLogSink()), WorkerConfig{Workers: 1, NewBot: func(name string, o bot.Options) (bot.Bot, error) {
		if name == "tag" {
			return nil, bot.ErrUnknownBot
		}
		return bot.New(name, o)
	}})
	log.wait(t, "refused", "worker=old", "reason=v0.1 0123abc")
	log.wait(t, "refused", "worker=notag", "reason=unknown bot")
	startWorker(t, dial(t, url, "good", newLogSink()), WorkerConfig{Workers: 1})
	r := await(t, got)
	sameMatch(t, "a match with refusing workers", r, want)
	if r.Workers != 1 {
		t.Errorf("%d workers played deals, want only the good one", r.Workers)
	}
	if n := log.count("refused"); n != 2 {
		t.Errorf("%d refusals logged, want one per worker", n)
	}
}

// TestGarbageOnTheSubjects: messages that are not items or results are logged
// and dropped, and the run's result is the one machine's.
func TestGarbageOnTheSubjects(t *testing.T) {
	url := farm(t)
	log := newLogSink()
	coord := dial(t, url, "coordinator", log)
	mc := arena.MatchConfig{A: "raise", B: "random", Game: game(t, "nl"), Hands: 20, Seed: 13}
	want, err := arena.Match(context.Background(), mc)
	if err != nil {
		t.Fatal(err)
	}
	// Items before the run's, so that the worker meets them first.
	ctx := context.Background()
	for _, data := range []string{"not json", `{"protocol":1,"run":"a b"}`, `{"protocol":1,"run":"junk","lo":0,"hi":4}`, `[1,2,3]`} {
		if _, err := coord.js.Publish(ctx, "felt.arena.work.junk", []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	got := make(chan arena.Result, 1)
	go func() {
		r, err := coord.Match(context.Background(), mc)
		if err != nil {
			t.Error(err)
		}
		got <- r
	}()
	run := log.wait(t, "shared out").attrs["run"]
	for _, m := range []struct{ subject, data string }{
		{"felt.arena.result." + run, "\x00\x01garbage"},
		{"felt.arena.result." + run, `{"protocol":1,"run":"` + run + `","lo":3,"hi":99,"match":[]}`},
		{"felt.arena.result." + run, `{"protocol":1,"run":"` + run + `","lo":0,"hi":4,"match":[{"net":[1,2]}]}`},
		{"felt.arena.result." + run, `{"protocol":1,"run":"other","lo":0,"hi":4}`},
	} {
		if _, err := coord.js.Publish(ctx, m.subject, []byte(m.data)); err != nil {
			t.Fatal(err)
		}
	}
	wlog := newLogSink()
	startWorker(t, dial(t, url, "worker", wlog), WorkerConfig{Workers: 1})
	sameMatch(t, "a match among garbage", await(t, got), want)
	if n := wlog.count("not an item"); n != 4 {
		t.Errorf("the worker logged %d messages that are not items, want 4: %+v", n, wlog.lines)
	}
	if n := log.count("not a result") + log.count("no item of the run") + log.count("malformed result"); n != 4 {
		t.Errorf("the coordinator logged %d bad results, want 4", n)
	}
}

// TestCoordinatorStoppedOrLost: a coordinator stopped removes its items; one
// lost (its connection gone) returns an error, not a result; a coordinator
// started again plays the match anew to the one machine's result.
func TestCoordinatorStoppedOrLost(t *testing.T) {
	url := farm(t)
	mc := arena.MatchConfig{A: "call", B: "random", Game: game(t, "nl"), Hands: 48, Seed: 14}
	want, err := arena.Match(context.Background(), mc)
	if err != nil {
		t.Fatal(err)
	}

	log := newLogSink()
	first := dial(t, url, "first", log)
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 1)
	go func() { _, err := first.Match(ctx, mc); errs <- err }()
	log.wait(t, "shared out")
	cancel()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Errorf("stopped coordinator: %v", err)
	}
	info, err := first.work.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n := info.State.Msgs; n != 0 {
		t.Errorf("%d items left by a stopped coordinator", n)
	}

	log = newLogSink()
	lost := dial(t, url, "lost", log)
	go func() { _, err := lost.Match(context.Background(), mc); errs <- err }()
	log.wait(t, "shared out")
	lost.Close()
	if err := <-errs; err == nil {
		t.Error("a coordinator that lost its connection returned a result")
	}

	again := dial(t, url, "again", newLogSink())
	startWorker(t, dial(t, url, "worker", newLogSink()), WorkerConfig{Workers: 2})
	r, err := again.Match(context.Background(), mc)
	if err != nil {
		t.Fatal(err)
	}
	sameMatch(t, "a match started again", r, want)
}

// panicBot panics at its first decision.
type panicBot struct{ bot.Bot }

func (panicBot) Act(*engine.View) engine.Action { panic("the bot is broken") }

// TestFailuresAndRefusals: a deal that panics fails the run with the worker's
// error (the worker lives on); a learning bot, a traced match and a game of
// no arena are refused before anything is published.
func TestFailuresAndRefusals(t *testing.T) {
	url := farm(t)
	coord := dial(t, url, "coordinator", newLogSink())
	startWorker(t, dial(t, url, "worker", newLogSink()), WorkerConfig{Workers: 1, NewBot: func(name string, o bot.Options) (bot.Bot, error) {
		b, err := bot.New(name, o)
		if name == "maniac" {
			return panicBot{b}, err
		}
		return b, err
	}})
	ctx := context.Background()
	_, err := coord.Match(ctx, arena.MatchConfig{A: "maniac", B: "call", Game: game(t, "nl"), Hands: 8, Seed: 1})
	if err == nil || !strings.Contains(err.Error(), "panic: the bot is broken") || !strings.Contains(err.Error(), "worker") {
		t.Errorf("a panicking bot: %v", err)
	}
	mc := arena.MatchConfig{A: "call", B: "raise", Game: game(t, "nl"), Hands: 8, Seed: 1}
	want, err := arena.Match(ctx, mc)
	if err != nil {
		t.Fatal(err)
	}
	r, err := coord.Match(ctx, mc)
	if err != nil {
		t.Fatalf("the worker after a panic: %v", err)
	}
	sameMatch(t, "the match after a panic", r, want)

	odd := game(t, "nl")
	odd.Unit = 7
	for what, mc := range map[string]arena.MatchConfig{
		"learns": {A: "adaptive", B: "call", Game: game(t, "nl"), Hands: 8},
		"traced": {A: "call", B: "raise", Game: game(t, "nl"), Hands: 8,
			Hand: func(engine.Config, *engine.Hand, []string) error { return nil }},
		"not one of the arena's": {A: "call", B: "raise", Game: odd, Hands: 8},
	} {
		if _, err := coord.Match(ctx, mc); err == nil || !strings.Contains(err.Error(), what) {
			t.Errorf("want an error saying %q, got %v", what, err)
		}
	}
	if _, err := coord.LBR(ctx, lbr.Config{Bot: "bayes", Hands: 8}); err == nil || !strings.Contains(err.Error(), "learns") {
		t.Errorf("LBR against a learning bot: %v", err)
	}
}

// TestLostCoordinatorsItemsDropped: once the key of a lost coordinator's run
// has expired, workers, of any build, drop its items unplayed.
func TestLostCoordinatorsItemsDropped(t *testing.T) {
	old := runTTL
	t.Cleanup(func() { runTTL = old }) // after the coordinator stops
	runTTL = time.Second
	url := farm(t)
	log := newLogSink()
	lost := dial(t, url, "lost", log)
	errs := make(chan error, 1)
	go func() {
		_, err := lost.Match(context.Background(), arena.MatchConfig{A: "call", B: "raise", Game: game(t, "nl"), Hands: 40, Seed: 1})
		errs <- err
	}()
	run := log.wait(t, "shared out").attrs["run"]
	lost.Close()
	<-errs
	c := dial(t, url, "watcher", newLogSink())
	for { // the key expires runTTL after its last refresh
		_, err := c.runs.Get(context.Background(), run)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	wlog := newLogSink() // a worker of another build drops them too
	startWorker(t, dial(t, url, "worker", wlog, func(c *Config) { c.Build = "v0.1" }), WorkerConfig{Workers: 1})
	wlog.waitCount(t, 5, "coordinator is gone", "run="+run) // 20 deals in items of 4
	info, err := c.results.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n := info.State.Msgs; n != 0 {
		t.Errorf("%d results of a lost run's items", n)
	}
}

// TestIdleWorkerQuiet: a worker without items waits again after each pull's
// timeout, with no warning.
func TestIdleWorkerQuiet(t *testing.T) {
	old := pullWait
	t.Cleanup(func() { pullWait = old }) // after the worker stops
	pullWait = 100 * time.Millisecond
	log := newLogSink()
	startWorker(t, dial(t, farm(t), "idle", log), WorkerConfig{Workers: 1})
	log.waitCount(t, 3, "no item yet")
	if n := log.count("pulling an item"); n != 0 {
		t.Errorf("%d warnings about pulling while idle", n)
	}
}

// TestDisagreeingWorkersFailTheRun: a second result for an item that differs
// from the one counted (a bot differing between machines) fails the run; an
// equal one is ignored.
func TestDisagreeingWorkersFailTheRun(t *testing.T) {
	j := &job{deals: 8, chunk: 4, add: func(int, *result) error { return nil }}
	g := gathering{job: j, run: "r", done: make([]*counted, 2), left: 2, workers: map[string]bool{}, refusals: map[string]bool{}}
	log := slog.New(newLogSink())
	first := result{Protocol: Protocol, Run: "r", Lo: 0, Hi: 4, Worker: "a", Match: make([]arena.Outcome, 4)}
	second := first
	second.Worker = "b"
	for _, r := range []result{first, second} {
		data, _ := json.Marshal(r)
		if err := g.take(log, data); err != nil {
			t.Fatalf("an equal duplicate: %v", err)
		}
	}
	if g.left != 1 {
		t.Fatalf("%d items left, want 1", g.left)
	}
	second.Worker = "c"
	second.Match = []arena.Outcome{{Net: [2]int64{100, -100}}, {}, {}, {}}
	data, _ := json.Marshal(second)
	if err := g.take(log, data); err == nil || !strings.Contains(err.Error(), "workers a and c disagree") {
		t.Errorf("a differing duplicate: %v", err)
	}
}

// TestStoppedWorkerGivesItemBack: a worker stopped mid-item gives it back at
// once: with an ack wait of an hour, another worker can only have it so.
func TestStoppedWorkerGivesItemBack(t *testing.T) {
	url := farm(t)
	hour := func(c *Config) { c.AckWait = time.Hour }
	coord := dial(t, url, "coordinator", newLogSink())
	mc := arena.MatchConfig{A: "tag", B: "call", Game: game(t, "nl"), Hands: 16, Seed: 15}
	want, err := arena.Match(context.Background(), mc)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan arena.Result, 1)
	go func() {
		r, err := coord.Match(context.Background(), mc)
		if err != nil {
			t.Error(err)
		}
		got <- r
	}()
	var once sync.Once
	reached, open := make(chan struct{}), make(chan struct{})
	leaving := dial(t, url, "leaving", newLogSink(), hour)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- leaving.Work(ctx, WorkerConfig{Workers: 1, NewBot: func(name string, o bot.Options) (bot.Bot, error) {
			b, err := bot.New(name, o)
			return gateBot{b, &once, reached, open}, err
		}})
	}()
	<-reached
	cancel() // stopped mid-item: the deal in play ends, the item goes back
	close(open)
	if err := <-done; err != nil {
		t.Errorf("a worker stopped: %v", err)
	}
	sink := newLogSink()
	startWorker(t, dial(t, url, "heir", sink, hour), WorkerConfig{Workers: 1})
	r := await(t, got)
	sameMatch(t, "a match whose worker left", r, want)
	sink.wait(t, "given again")
	if r.Workers != 1 {
		t.Errorf("%d workers played deals, want only the heir", r.Workers)
	}
}

// await returns the result on got, failing the test after a minute without.
func await(t *testing.T, got <-chan arena.Result) arena.Result {
	t.Helper()
	select {
	case r := <-got:
		return r
	case <-time.After(time.Minute):
		t.Fatal("no result after a minute")
	}
	return arena.Result{}
}

// TestStoppedLBRIsPartial: an LBR run on the farm stopped by its context
// returns, as on one machine, the deals of the items counted up to the first
// one that was not, with the context's error: the one machine's figures for
// those deals.
func TestStoppedLBRIsPartial(t *testing.T) {
	url := farm(t)
	coord := dial(t, url, "coordinator", newLogSink(), func(c *Config) { c.Chunk = 2 })
	startWorker(t, dial(t, url, "w1", newLogSink()), WorkerConfig{Workers: 1})
	c := lbr.Config{Bot: "call", Hands: 2 * 40, Seed: 6, FirstDeal: 3, Runouts: 20}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	seen := map[int]bool{}
	c.Deal = func(d int, _ lbr.Outcome) {
		mu.Lock()
		defer mu.Unlock()
		seen[d] = true
		if len(seen) == 4 {
			cancel()
		}
	}
	got, err := coord.LBR(ctx, c)
	if !errors.Is(err, context.Canceled) || !got.Partial || got.FirstDeal != 3 || got.Deals < 4 || got.Deals == 40 {
		t.Fatalf("LBR stopped after 4 deals: %+v, %v; want a partial result from deal 3 and context.Canceled", got, err)
	}
	for d := 3; d < 3+got.Deals; d++ {
		if !seen[d] {
			t.Fatalf("deal %d counted in %+v, never completed", d, got)
		}
	}
	c.Deal, c.Hands = nil, 2*got.Deals
	want, err := lbr.Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	got.Elapsed, got.Workers, want.Elapsed, want.Workers = 0, 0, 0, 0
	got.Partial, got.Dropped = false, 0
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stopped on the farm:\n%+v\nthose deals on one machine:\n%+v", got, want)
	}
}

// TestStoppedMatchIsPartial: a match on the farm stopped by its context
// returns, as on one machine, the deals of the items counted up to the first
// one that was not, with the context's error: the one machine's figures for
// those deals.
func TestStoppedMatchIsPartial(t *testing.T) {
	url := farm(t)
	coord := dial(t, url, "coordinator", newLogSink(), func(c *Config) { c.Chunk = 2 })
	startWorker(t, dial(t, url, "w1", newLogSink()), WorkerConfig{Workers: 1})
	mc := arena.MatchConfig{A: "random", B: "maniac", Game: game(t, "nl"), Hands: 2 * 4000, Seed: 6, FirstDeal: 3, ControlVariate: true}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var hands atomic.Int64
	mc.Progress = func(n int) {
		if hands.Add(int64(n)) >= 8 {
			cancel()
		}
	}
	got, err := coord.Match(ctx, mc)
	if !errors.Is(err, context.Canceled) || !got.Partial || got.FirstDeal != 3 || got.Deals < 4 || got.Deals == 4000 {
		t.Fatalf("match stopped after 4 deals: %+v, %v; want a partial result from deal 3 and context.Canceled", got, err)
	}
	mc.Progress, mc.Hands = nil, 2*got.Deals
	want, err := arena.Match(context.Background(), mc)
	if err != nil {
		t.Fatal(err)
	}
	got.Elapsed, got.Workers, want.Elapsed, want.Workers = 0, 0, 0, 0
	got.Partial, got.Dropped = false, 0
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stopped on the farm:\n%+v\nthose deals on one machine:\n%+v", got, want)
	}
}
