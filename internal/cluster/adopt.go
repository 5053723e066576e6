package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/sync/errgroup"
)

// adopters bounds the adoptions a node has in flight at once. An adoption is
// round trips far more than CPU (the lease, the log read and its fence record,
// the database's fence, the seats read, the hand recorded last; the replay of
// one hand's actions takes microseconds), so the bound does not follow the
// cores: eight at once take 200 tables over in about 25 adoptions' time rather
// than 200, while leaving most of the database pool's 32 connections to the
// node's own tables and keeping a busy node's adoptions short, each lease
// being unrenewed until its table is open. A bound of the cores × 4 would be
// 8 here but 64 on a 16-core node: the whole pool.
const adopters = 8

// orphans is what a pass of the keeper reads of the house: the registered
// tables that no node holds, in an order of this node's (shuffled, so that
// nodes adopting at once seldom race for the same table), how many of them
// this node takes in the pass (its share), and the live nodes the share was
// counted over.
type orphans struct {
	regs  []Registration
	share int
	live  int
}

// findOrphans reads the registry and the leases, one listing each, and
// returns the orphans and this node's share of them: the tables it lacks to
// hold its fair part of the house's tables (their number over the live
// nodes), and at least the orphans over the live nodes (rounded up), so that
// orphans never wait on a node that does not adopt: a node leaves the others
// their part, and takes more at its next pass if they have not.
func (n *Node) findOrphans(ctx context.Context) (orphans, error) {
	regs, err := n.Registered(ctx)
	if err != nil {
		return orphans{}, fmt.Errorf("the house's tables were not read: %w", err)
	}
	holders := map[string]string{}   // lease key -> node
	newest := map[string]time.Time{} // node -> its newest lease write
	var latest time.Time
	err = n.each(ctx, n.leases, func(e jetstream.KeyValueEntry) {
		var lv leaseValue
		if json.Unmarshal(e.Value(), &lv) != nil {
			return
		}
		holders[e.Key()] = lv.Node
		if c := e.Created(); c.After(newest[lv.Node]) {
			newest[lv.Node] = c
			latest = maxTime(latest, c)
		}
	})
	if err != nil {
		return orphans{}, fmt.Errorf("the leases were not read: %w", err)
	}
	o := orphans{live: n.liveNodes(newest, latest)}
	mine := 0
	for _, reg := range regs {
		h, held := holders[TableKey(reg.Table)]
		switch {
		case reg.Role != "":
			continue // the role's holder opens it
		case h == n.cfg.Node:
			mine++
		case !held && !n.Owns(reg.Table):
			o.regs = append(o.regs, reg)
		}
	}
	rand.Shuffle(len(o.regs), func(i, j int) { o.regs[i], o.regs[j] = o.regs[j], o.regs[i] })
	o.share = max(ceilDiv(len(regs), o.live)-mine, ceilDiv(len(o.regs), o.live))
	return o, nil
}

// liveNodes counts this node and those whose newest lease write (newest, by
// node, in the server's time) is less than half a TTL older than the
// bucket's newest (latest): a live node renews every lease it holds each
// TTL/3, so a lost node stops counting before its leases expire, and its
// tables are shared among the others only. A node that holds no lease is not
// counted.
func (n *Node) liveNodes(newest map[string]time.Time, latest time.Time) int {
	live := 1
	for node, t := range newest {
		if node != n.cfg.Node && latest.Sub(t) < n.cfg.LeaseTTL/2 {
			live++
		}
	}
	return live
}

// ceilDiv returns a/b rounded up.
func ceilDiv(a, b int) int { return (a + b - 1) / b }

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// adoptOrphans acquires the registered tables that no node holds, up to this
// node's share, and hands each to adopt, adopters at a time. It reports
// whether it stopped at its share with orphans it did not try: the keeper
// then passes again at once, taking its share of those the other nodes have
// not taken meanwhile. Once ctx is done it acquires nothing more, and it
// returns when the adoptions under way have ended.
func (n *Node) adoptOrphans(ctx context.Context, adopt Adopter) (more bool) {
	o, err := n.findOrphans(ctx)
	if err != nil {
		if ctx.Err() == nil {
			n.cfg.Log.Warn("no table adopted in this pass", "err", err)
		}
		return false
	}
	if len(o.regs) == 0 {
		return false
	}
	start := time.Now()
	var g errgroup.Group
	g.SetLimit(adopters)
	var taken atomic.Int64 // leases acquired in the pass, or being acquired
	for _, reg := range o.regs {
		if ctx.Err() != nil {
			break
		}
		if taken.Load() >= int64(o.share) {
			more = true
			break
		}
		taken.Add(1) // before waiting for a worker: the share is never overrun
		g.Go(func() error {
			if !n.adoptOne(ctx, adopt, reg) {
				taken.Add(-1) // not taken: the pass goes on to another
			}
			return nil
		})
	}
	_ = g.Wait()
	n.cfg.Log.Info("tables without a node", "found", len(o.regs), "share", o.share, "live_nodes", o.live,
		"adopted", taken.Load(), "took", time.Since(start).Round(time.Millisecond))
	return more && ctx.Err() == nil
}

// adoptOne acquires reg's table and hands it to adopt, and reports whether
// the node owns the table now. A table not adopted has its lease released at
// once, for the next pass (this node's or another's) to try again.
func (n *Node) adoptOne(ctx context.Context, adopt Adopter, reg Registration) bool {
	if ctx.Err() != nil {
		return false // the node is stopping: it adopts nothing more
	}
	l, err := n.Acquire(ctx, reg.Table)
	if err != nil {
		return false // another node was faster, or NATS is away
	}
	if err := adopt(ctx, l, reg); err != nil {
		n.cfg.Log.Warn("table not adopted", "table", reg.Table, "err", err)
		// Released even when the node is stopping, not left to expire.
		_ = n.Disown(context.WithoutCancel(ctx), l)
		return false
	}
	n.Own(l) // owned once open (adopt may have said so already)
	n.mu.Lock()
	n.stats.Takeovers++
	n.mu.Unlock()
	n.cfg.Log.Info("table taken over", "table", reg.Table, "token", l.token)
	return true
}
