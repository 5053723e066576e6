package loadtest

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Config is a load run: the spec, and the base URLs of the house's nodes
// ("http://127.0.0.1:8081"); one node is a single-node house.
type Config struct {
	Spec  Spec
	Nodes []string
	// Kill, if set, kills a node with SIGKILL once the measurement is over
	// and measures how long its tables take to go on elsewhere.
	Kill *Kill
	// Logf reports progress; nil is silent.
	Logf func(format string, args ...any)
	// Probe, if set, reads counters of other parts of the house (NATS,
	// PostgreSQL) at the start and the end of the measurement; the result
	// has their increases.
	Probe func() map[string]float64
	// Runtime, if set, is a URL of the house's RuntimeHandler: its Go runtime
	// figures over the measurement go in the result (single-node runs).
	Runtime string
}

// Kill is the node a run kills: its process and the indexes of the tables it
// runs (TableName), whose hands must go on on another node.
type Kill struct {
	PID    int
	Tables []int
	// Wait bounds the wait for every table to go on (default a minute).
	Wait time.Duration
}

// Generator is one load run's clients and counters.
type Generator struct {
	cfg       Config
	spec      Spec
	tables    []*tableTrack
	transport *http.Transport
	wg        sync.WaitGroup

	lat                                                Histogram
	actions, connected, reconnected, failures, redials atomic.Int64

	errMu    sync.Mutex
	errCodes map[string]int // error replies by code
}

// Run connects every client, measures over the spec's duration, kills a node
// if the config says so, and reports.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.Spec.Check(); err != nil {
		return nil, err
	}
	if len(cfg.Nodes) == 0 {
		return nil, fmt.Errorf("loadtest: no node to load")
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	g := &Generator{cfg: cfg, spec: cfg.Spec, tables: make([]*tableTrack, cfg.Spec.Tables),
		transport: &http.Transport{MaxIdleConnsPerHost: 64}, errCodes: map[string]int{}}
	for i := range g.tables {
		g.tables[i] = &tableTrack{}
	}
	ctx, stop := context.WithCancel(ctx)
	defer func() { stop(); g.wg.Wait() }()
	res := &Result{Spec: cfg.Spec, Nodes: len(cfg.Nodes), LoadBefore: LoadAverage()}
	base := scrapeAll(cfg.Nodes)
	res.RSSIdle, res.HeapIdle = base.rss, base.heap
	g.connectAll(ctx, res)
	time.Sleep(5 * time.Second) // the first hands start
	if err := g.measure(res); err != nil {
		return nil, err
	}
	if cfg.Kill != nil {
		res.Takeover = g.kill(*cfg.Kill)
	}
	res.LoadAfter = LoadAverage()
	g.errMu.Lock()
	res.ErrorReplies = g.errCodes
	g.errMu.Unlock()
	res.Reconnected, res.Redials = g.reconnected.Load(), g.redials.Load()
	return res, nil
}

// connectAll starts every client, at most 100 connecting at once, and waits
// until each is in or has failed.
func (g *Generator) connectAll(ctx context.Context, res *Result) {
	start := time.Now()
	for i := range g.spec.Clients {
		for int64(i)-g.connected.Load()-g.failures.Load() >= 100 {
			time.Sleep(time.Millisecond)
		}
		g.wg.Add(1)
		go g.newClient(i).run(ctx)
	}
	for g.connected.Load()+g.failures.Load() < int64(g.spec.Clients) && time.Since(start) < 10*time.Minute {
		time.Sleep(10 * time.Millisecond)
	}
	res.Connected, res.Failures, res.ConnectTime = g.connected.Load(), g.failures.Load(), time.Since(start)
	g.cfg.Logf("%d clients connected (%d failed) in %s", res.Connected, res.Failures, res.ConnectTime.Round(time.Millisecond))
}

// measure counts the delays, actions, hands and CPU time over the spec's duration.
func (g *Generator) measure(res *Result) error {
	g.lat.Reset()
	rt0, err := readRuntime(g.cfg.Runtime)
	if err != nil {
		return err
	}
	p0 := g.probe()
	m0 := scrapeAll(g.cfg.Nodes)
	self0, cpu0 := readLocal(), processCPU()
	g.actions.Store(0)
	start := time.Now()
	time.Sleep(g.spec.Duration)
	res.Elapsed = time.Since(start)
	self1, cpu1 := readLocal(), processCPU()
	m1 := scrapeAll(g.cfg.Nodes)
	res.Probed = g.probe()
	for k, v := range p0 {
		res.Probed[k] -= v
	}
	res.Generator, res.GeneratorCPU = self1.since(&self0), cpu1-cpu0
	rt1, err := readRuntime(g.cfg.Runtime)
	if err != nil {
		return err
	}
	res.Runtime = rt1.since(rt0)
	res.Actions, res.Deliveries = g.actions.Load(), g.lat.Count()
	res.P50, res.P90, res.P99, res.P999, res.Max = g.lat.Quantile(0.5), g.lat.Quantile(0.9), g.lat.Quantile(0.99), g.lat.Quantile(0.999), g.lat.Max()
	res.Hands, res.CPUSeconds = m1.hands-m0.hands, m1.cpu-m0.cpu
	res.RSS, res.Heap, res.WSConns, res.TablesLive = m1.rss, m1.heap, m1.conns, m1.tables
	return nil
}

func (g *Generator) probe() map[string]float64 {
	m := map[string]float64{}
	if g.cfg.Probe != nil {
		for k, v := range g.cfg.Probe() {
			m[k] = v
		}
	}
	return m
}

func (g *Generator) errorReply(code string) {
	g.errMu.Lock()
	g.errCodes[code]++
	g.errMu.Unlock()
}

// kill kills k's node and waits until each of its tables has gone on (a
// client saw play go further than when the node died), or k.Wait.
func (g *Generator) kill(k Kill) *Takeover {
	if k.Wait <= 0 {
		k.Wait = time.Minute
	}
	killedAt := time.Now()
	if err := syscall.Kill(k.PID, syscall.SIGKILL); err != nil {
		return &Takeover{Err: err.Error()}
	}
	g.cfg.Logf("killed node pid %d (%d tables)", k.PID, len(k.Tables))
	// A state in flight from the dead node can still arrive a moment later.
	time.Sleep(200 * time.Millisecond)
	mark := make([]struct {
		hand   int64
		events int
	}, len(g.tables))
	for i, lt := range g.tables {
		lt.mu.Lock()
		mark[i].hand, mark[i].events = lt.seenHand, lt.seenEvents
		lt.mu.Unlock()
	}
	victim := map[int]bool{}
	for _, i := range k.Tables {
		victim[i] = true
	}
	tk := &Takeover{Tables: len(k.Tables)}
	for tick := 1; time.Since(killedAt) < k.Wait; tick++ {
		time.Sleep(100 * time.Millisecond)
		done := tk.collect(g.tables, mark, victim, killedAt)
		if tick%10 == 0 || done {
			g.cfg.Logf("%s after the kill: %d of %d tables gone on, and %d of the %d others",
				time.Since(killedAt).Round(100*time.Millisecond), tk.WentOn, tk.Tables, tk.SurvivorsOn, len(g.tables)-tk.Tables)
		}
		if done {
			break
		}
	}
	return tk
}

// processCPU is this process's CPU time (user and system) in seconds.
func processCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// LoadAverage is the machine's one-minute load average (0 where unknown).
func LoadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var l float64
	fmt.Sscan(string(b), &l)
	return l
}
