package distrib

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/felt-poker/felt/internal/buildinfo"
)

// Config is how a coordinator or a worker reaches NATS.
type Config struct {
	// URL is the NATS server (nats://host:4222; several, comma-separated).
	URL string
	// Name names this process in logs and results (default: host-pid).
	Name string
	// Prefix begins the names of the streams, the consumer and the bucket
	// (default "felt"), so that several farms may share one NATS.
	Prefix string
	// AckWait is how long an item stays with a worker that stopped saying it is
	// at work before another worker gets it (default 30 s). Workers set it on
	// the consumer they share.
	AckWait time.Duration
	// Chunk is the deals in one item a coordinator publishes (default 128 for a
	// match, 8 for LBR, whose deals are slow). It changes no result.
	Chunk int
	// Timeout bounds each NATS request (default 5 s).
	Timeout time.Duration
	// Build is what build of felt this process is; workers play only the items
	// of their own build (default: Build()).
	Build string
	// Log receives the log lines (default slog.Default()).
	Log *slog.Logger
	// Options are more options of the connection.
	Options []nats.Option
}

// Bounds of Config.
const (
	minAckWait = 100 * time.Millisecond
	maxAckWait = time.Hour
	// MaxChunk bounds the deals of one item, so that a result stays far under
	// NATS's default limit of 1 MB a message.
	MaxChunk = 4096
)

// runTTL is how long a run's key lives in the runs bucket without a refresh
// from its coordinator (which refreshes it every runTTL/3): how long workers
// may go on playing the items of a dead coordinator. Tests shorten it.
var runTTL = 15 * time.Second

// Protocol is the version of the items and results on the wire.
const Protocol = 1

var (
	prefixRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,32}$`)
	runRE    = regexp.MustCompile(`^[a-zA-Z0-9]{1,64}$`)
)

// setDefaults fills the zero fields of c.
func (c *Config) setDefaults() {
	if c.Name == "" {
		host, _ := os.Hostname()
		c.Name = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	if c.Prefix == "" {
		c.Prefix = "felt"
	}
	if c.AckWait == 0 {
		c.AckWait = 30 * time.Second
	}
	if c.Timeout == 0 {
		c.Timeout = 5 * time.Second
	}
	if c.Build == "" {
		c.Build = Build()
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
}

// Validate reports the first problem with c, its zero fields taken at their
// defaults.
func (c Config) Validate() error {
	c.setDefaults()
	switch {
	case c.URL == "":
		return errors.New("distrib: no NATS URL")
	case !prefixRE.MatchString(c.Prefix):
		return fmt.Errorf("distrib: prefix %q: want 1 to 32 of a-z, A-Z, 0-9, _ and -", c.Prefix)
	case c.AckWait < minAckWait || c.AckWait > maxAckWait:
		return fmt.Errorf("distrib: ack wait %v: want %v to %v", c.AckWait, minAckWait, maxAckWait)
	case c.Chunk < 0 || c.Chunk > MaxChunk:
		return fmt.Errorf("distrib: chunk %d: want 1 to %d deals (0: the default)", c.Chunk, MaxChunk)
	case c.Timeout <= 0:
		return fmt.Errorf("distrib: timeout %v: want more than 0", c.Timeout)
	}
	return nil
}

// Build returns this program's build as workers compare it: the main module's
// version, its commit ("+dirty" when built from a modified tree) and the
// architecture (Go fuses multiply-adds on some, so that a float may round
// differently there).
func Build() string {
	id := buildinfo.Unknown
	if bi, ok := debug.ReadBuildInfo(); ok {
		id = bi.Main.Version
	}
	if rev := buildinfo.Revision(); rev != buildinfo.Unknown {
		id += " " + rev
	}
	return id + " " + runtime.GOOS + "/" + runtime.GOARCH
}

// Conn is a coordinator's or a worker's connection to the farm: NATS, the work
// and results streams and the runs bucket. Its methods are safe for concurrent
// use.
type Conn struct {
	cfg     Config
	nc      *nats.Conn
	js      jetstream.JetStream
	work    jetstream.Stream
	results jetstream.Stream
	runs    jetstream.KeyValue // run id -> what it plays, TTL runTTL
	closed  chan struct{}      // closed with the connection
}

// Dial connects to NATS and makes sure the streams and the bucket exist
// (creating them the first time).
func Dial(ctx context.Context, cfg Config) (*Conn, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.setDefaults()
	c := &Conn{cfg: cfg, closed: make(chan struct{})}
	opts := append([]nats.Option{nats.Name("felt arena " + cfg.Name), nats.MaxReconnects(-1)}, cfg.Options...)
	opts = append(opts, nats.ClosedHandler(func(*nats.Conn) { close(c.closed) }))
	nc, err := nats.Connect(cfg.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("distrib: connect to %s: %w", cfg.URL, err)
	}
	c.nc = nc
	if err := c.setup(ctx); err != nil {
		nc.Close()
		return nil, err
	}
	return c, nil
}

// setup creates or updates the streams and the bucket.
func (c *Conn) setup(ctx context.Context) error {
	js, err := jetstream.New(c.nc, jetstream.WithDefaultTimeout(c.cfg.Timeout))
	if err != nil {
		return fmt.Errorf("distrib: jetstream: %w", err)
	}
	c.js = js
	ctx, cancel := context.WithTimeout(ctx, 4*c.cfg.Timeout)
	defer cancel()
	p := c.cfg.Prefix
	c.work, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: p + "_arena_work", Description: "felt: the arena's work queue, deals to play",
		Subjects: []string{p + ".arena.work.*"}, Retention: jetstream.WorkQueuePolicy,
		Storage: jetstream.FileStorage, MaxAge: 7 * 24 * time.Hour,
	})
	if err != nil {
		return fmt.Errorf("distrib: stream %s_arena_work: %w", p, err)
	}
	c.results, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: p + "_arena_results", Description: "felt: the arena's results, deal by deal",
		Subjects: []string{p + ".arena.result.*"}, Storage: jetstream.FileStorage, MaxAge: 24 * time.Hour,
	})
	if err != nil {
		return fmt.Errorf("distrib: stream %s_arena_results: %w", p, err)
	}
	kcfg := jetstream.KeyValueConfig{Bucket: p + "_arena_runs", Description: "felt: the arena runs whose coordinator lives",
		TTL: runTTL, Storage: jetstream.FileStorage}
	c.runs, err = js.KeyValue(ctx, kcfg.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		c.runs, err = js.CreateKeyValue(ctx, kcfg)
		if errors.Is(err, jetstream.ErrBucketExists) { // another process was first
			c.runs, err = js.KeyValue(ctx, kcfg.Bucket)
		}
	}
	if err != nil {
		return fmt.Errorf("distrib: bucket %s: %w", kcfg.Bucket, err)
	}
	return nil
}

// workSubject and resultSubject are a run's subjects.
func (c *Conn) workSubject(run string) string   { return c.cfg.Prefix + ".arena.work." + run }
func (c *Conn) resultSubject(run string) string { return c.cfg.Prefix + ".arena.result." + run }

// Close closes the connection.
func (c *Conn) Close() { c.nc.Close() }
