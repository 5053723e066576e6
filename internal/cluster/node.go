package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Config is how a node joins the house's NATS.
type Config struct {
	// URL is the NATS server (nats://host:4222; several, comma-separated).
	URL string
	// Node names this node, unique in the house (default: host-pid).
	Node string
	// LeaseTTL is how long a table's lease lives without a renewal, and so the
	// longest a table stays without an owner after its node is lost (default
	// 10 s). The keeper renews every LeaseTTL/3.
	LeaseTTL time.Duration
	// Prefix begins the names of the buckets and the stream (default "felt"),
	// so that several houses may share one NATS.
	Prefix string
	// Timeout bounds each NATS request (default 5 s).
	Timeout time.Duration
	// Log receives the node's log lines (default slog.Default()).
	Log *slog.Logger
	// Options are more options of the connection (tests: reconnect waits).
	Options []nats.Option
}

// Bounds of Config.
const (
	minLeaseTTL = 200 * time.Millisecond
	maxLeaseTTL = 10 * time.Minute
)

var prefixRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,32}$`)

// setDefaults fills the zero fields of c.
func (c *Config) setDefaults() {
	if c.Node == "" {
		host, _ := os.Hostname()
		c.Node = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	if c.LeaseTTL == 0 {
		c.LeaseTTL = 10 * time.Second
	}
	if c.Prefix == "" {
		c.Prefix = "felt"
	}
	if c.Timeout == 0 {
		c.Timeout = 5 * time.Second
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
		return errors.New("cluster: no NATS URL")
	case c.LeaseTTL < minLeaseTTL || c.LeaseTTL > maxLeaseTTL:
		return fmt.Errorf("cluster: lease TTL %v: want %v to %v", c.LeaseTTL, minLeaseTTL, maxLeaseTTL)
	case !prefixRE.MatchString(c.Prefix):
		return fmt.Errorf("cluster: prefix %q: want 1 to 32 of a-z, A-Z, 0-9, _ and -", c.Prefix)
	case c.Timeout <= 0:
		return fmt.Errorf("cluster: timeout %v: want more than 0", c.Timeout)
	}
	return nil
}

// Node is one felt node's membership of the house: its NATS connection, the
// leases it holds and its lobby entries. Its methods are safe for concurrent use.
type Node struct {
	cfg    Config
	nc     *nats.Conn
	js     jetstream.JetStream
	leases jetstream.KeyValue // table key -> leaseValue, TTL cfg.LeaseTTL
	lobby  jetstream.KeyValue // table key -> Listing, TTL cfg.LeaseTTL
	tables jetstream.KeyValue // table key -> Registration, no TTL
	online jetstream.KeyValue // node key -> its players online, TTL cfg.LeaseTTL
	owners jetstream.KeyValue // player ID -> the tables they own (Claim), no TTL
	rates  jetstream.KeyValue // rate key -> the times counted (Allow), TTL RateWindowMax
	wal    jetstream.Stream
	chat   jetstream.Stream // the lobby chat's last lines

	mu    sync.Mutex
	owned map[string]*ownedTable // by table key
	// opening counts, by table key, the leases this node is acquiring or has
	// acquired and not yet handed to Own: their tables are being opened here
	// (AwaitOpen).
	opening map[string]*opening
	stats   Stats

	leaseWaits leaseWaits // AwaitHolder's waiters
}

// Connect joins the house: it connects to NATS and makes sure the buckets and
// the stream exist (creating them the first time).
func Connect(ctx context.Context, cfg Config) (*Node, error) {
	cfg.setDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	opts := append([]nats.Option{nats.Name("felt " + cfg.Node), nats.MaxReconnects(-1)}, cfg.Options...)
	nc, err := nats.Connect(cfg.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("cluster: connect to %s: %w", cfg.URL, err)
	}
	n := &Node{cfg: cfg, nc: nc, owned: map[string]*ownedTable{}, opening: map[string]*opening{}}
	if err := n.setup(ctx); err != nil {
		nc.Close()
		return nil, err
	}
	return n, nil
}

// setup creates or updates the buckets and the stream.
func (n *Node) setup(ctx context.Context) error {
	js, err := jetstream.New(n.nc, jetstream.WithDefaultTimeout(n.cfg.Timeout))
	if err != nil {
		return fmt.Errorf("cluster: jetstream: %w", err)
	}
	n.js = js
	ctx, cancel := context.WithTimeout(ctx, 4*n.cfg.Timeout)
	defer cancel()
	p := n.cfg.Prefix
	buckets := []struct {
		kv   *jetstream.KeyValue
		name string
		ttl  time.Duration
		what string
		// quiet: no marker when an entry expires (nobody watches them)
		quiet bool
	}{
		{&n.leases, p + "_leases", n.cfg.LeaseTTL, "table leases", false},
		{&n.lobby, p + "_lobby", n.cfg.LeaseTTL, "lobby listings", false},
		{&n.tables, p + "_tables", 0, "the house's tables", false},
		{&n.online, p + "_online", n.cfg.LeaseTTL, "players online, by node", false},
		{&n.owners, p + "_owners", 0, "the tables each player owns", false},
		{&n.rates, p + "_rates", RateWindowMax, "rate limits counted across the house", true},
	}
	for _, b := range buckets {
		cfg := jetstream.KeyValueConfig{Bucket: b.name, Description: "felt: " + b.what, TTL: b.ttl, Storage: jetstream.FileStorage}
		if b.ttl > 0 && !b.quiet {
			// A lease or listing that expires leaves a marker that the nodes
			// watch: a lease is adopted at its expiry (Run), not at a later
			// tick, and a listing leaves every lobby (WatchLobby).
			cfg.LimitMarkerTTL = max(b.ttl, time.Second)
		}
		kv, err := n.bucket(ctx, cfg)
		if err != nil {
			return err
		}
		*b.kv = kv
	}
	n.wal, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: p + "_wal", Description: "felt: the write-ahead log of every table's hand in play",
		Subjects: []string{p + ".wal.>"}, Storage: jetstream.FileStorage,
		MaxMsgsPerSubject: walMaxPerSubject, Discard: jetstream.DiscardOld,
	})
	if err != nil {
		return fmt.Errorf("cluster: stream %s_wal: %w", p, err)
	}
	n.chat, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: p + "_chat", Description: "felt: the lobby chat's last lines",
		Subjects: []string{n.chatSubject()}, Storage: jetstream.FileStorage,
		MaxMsgs: ChatKept, Discard: jetstream.DiscardOld,
	})
	if err != nil {
		return fmt.Errorf("cluster: stream %s_chat: %w", p, err)
	}
	return nil
}

// bucket opens the bucket cfg describes, creating it the first time. A bucket
// whose TTL differs from cfg's is refused: every node of a house must count a
// lease's life alike, or one would hold for 10 s a lease the bucket drops
// after 1 s.
func (n *Node) bucket(ctx context.Context, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
	kv, err := n.js.KeyValue(ctx, cfg.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = n.js.CreateKeyValue(ctx, cfg)
		if errors.Is(err, jetstream.ErrBucketExists) { // another node was first
			kv, err = n.js.KeyValue(ctx, cfg.Bucket)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("cluster: bucket %s: %w", cfg.Bucket, err)
	}
	st, err := kv.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("cluster: bucket %s: %w", cfg.Bucket, err)
	}
	if st.TTL() != cfg.TTL {
		return nil, fmt.Errorf("cluster: bucket %s keeps entries %v, this node wants %v: give every node of the house the same lease TTL", cfg.Bucket, st.TTL(), cfg.TTL)
	}
	return kv, nil
}

// Conn returns the node's NATS connection, for the messages between nodes.
func (n *Node) Conn() *nats.Conn { return n.nc }

// Subject returns the house's NATS subject made of tokens, each encoded as a
// table's key is (TableKey): the house's prefix first.
func (n *Node) Subject(tokens ...string) string {
	s := n.cfg.Prefix
	for _, t := range tokens {
		s += "." + TableKey(t)
	}
	return s
}

// Name returns the node's name.
func (n *Node) Name() string { return n.cfg.Node }

// LeaseTTL returns the lifetime of a lease without a renewal.
func (n *Node) LeaseTTL() time.Duration { return n.cfg.LeaseTTL }

// Connected reports whether the node's NATS connection is up (for health).
func (n *Node) Connected() bool { return n.nc.IsConnected() }

// Ping makes one round trip to the NATS server, for health checks.
func (n *Node) Ping(ctx context.Context) error {
	if !n.nc.IsConnected() {
		return errors.New("cluster: not connected to NATS")
	}
	_, err := n.js.AccountInfo(ctx)
	return err
}

// Close leaves the house on purpose: it releases every lease the node holds and
// removes its lobby entries (so that other nodes may take its tables at once)
// and its players online, then closes the connection. A node lost without Close leaves its leases to
// expire.
func (n *Node) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*n.cfg.Timeout)
	defer cancel()
	var errs []error
	for _, o := range n.ownedTables() {
		errs = append(errs, n.Disown(ctx, o.lease))
	}
	if err := n.online.Delete(ctx, TableKey(n.cfg.Node)); err != nil {
		errs = append(errs, fmt.Errorf("cluster: players online: %w", err))
	}
	n.nc.Close()
	return errors.Join(errs...)
}

// request returns ctx bounded by the node's Timeout.
func (n *Node) request(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, n.cfg.Timeout)
}

// wrongLastSequence reports a refused compare-and-set: the key's revision or the
// subject's last sequence was not the one expected.
func wrongLastSequence(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && (apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}
