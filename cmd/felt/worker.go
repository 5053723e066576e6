package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/arena/distrib"
)

// workerCmd is "felt worker": plays the deals that arena commands run with
// --nats share out.
type workerCmd struct {
	NATS    string        `name:"nats" required:"" placeholder:"URL" help:"The NATS server with JetStream (nats://host:4222; several, comma-separated)."`
	Workers int           `help:"Items played at once, each on a goroutine (default: all cores)."`
	AckWait time.Duration `default:"30s" help:"How long an item stays with a worker that stopped saying it is at work (killed, cut off) before another worker gets it."`
	Name    string        `help:"This worker's name in logs and in the coordinators' (default: host-pid)."`
}

// Help is the long help of "felt worker".
func (c *workerCmd) Help() string {
	return `Plays, until stopped (SIGINT, SIGTERM), the deals that felt match, league, gauntlet
and lbr share out when given --nats: any number of workers on any number of machines
pull items (a few consecutive deals of a run) from a JetStream work queue, play them
with the arena's code and publish each deal's outcome. The coordinator adds them up
into the very result the same command gives on one machine. A worker plays only the
items of its own felt build (version, commit, architecture) and refuses the others,
which go to another worker; a worker killed mid-item has its item played by another
after --ack-wait. See docs/scaling.md, "The arena on NATS".`
}

// Run is called by kong.
func (c *workerCmd) Run(ctx context.Context) error { return c.run(ctx, os.Stderr) }

func (c *workerCmd) run(ctx context.Context, stderr io.Writer) error {
	if c.Workers < 0 {
		return usageError("--workers cannot be negative")
	}
	cfg := distrib.Config{URL: c.NATS, Name: c.Name, AckWait: c.AckWait, Log: slog.New(slog.NewTextHandler(stderr, nil))}
	if err := cfg.Validate(); err != nil {
		return usageError("%v", err)
	}
	conn, err := distrib.Dial(ctx, cfg)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Work(ctx, distrib.WorkerConfig{Workers: c.Workers})
}

// farmFlags is --nats of the arena commands that can share their deals out.
type farmFlags struct {
	NATS string `name:"nats" placeholder:"URL" help:"Share the deals out to felt worker processes through NATS JetStream at URL (nats://host:4222): the result is the one machine's, bit for bit (--workers is then the workers' own). See docs/scaling.md."`
}

// farm connects to the farm when --nats asks (nil otherwise: play here), its
// log lines, warnings only, on stderr. The caller closes it.
func (f *farmFlags) farm(ctx context.Context, stderr io.Writer) (*distrib.Conn, error) {
	if f.NATS == "" {
		return nil, nil
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	return distrib.Dial(ctx, distrib.Config{URL: f.NATS, Log: log})
}

// matchFunc returns how conn plays a match: arena.Match without a farm.
func matchFunc(conn *distrib.Conn) arena.MatchFunc {
	if conn == nil {
		return arena.Match
	}
	return conn.Match
}

// closeFarm closes conn, if any.
func closeFarm(conn *distrib.Conn) {
	if conn != nil {
		conn.Close()
	}
}
