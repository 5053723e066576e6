package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// The lobby the nodes share besides the listings (keeper.go): its chat, a
// subject whose last ChatKept lines a stream keeps for the nodes that start
// later, and its players online, a bucket with an entry per node that expires
// a lease TTL after the node's last write (a lost node's players leave the
// list with it).

// ChatKept is how many of the lobby chat's last lines the house keeps for
// nodes that start later: at least a lobby's history.
const ChatKept = 100

func (n *Node) chatSubject() string { return n.cfg.Prefix + ".chat.lobby" }

// PublishChat sends b, a lobby chat line (protocol.LobbyChat), to every node,
// and keeps it among the last ChatKept.
func (n *Node) PublishChat(b []byte) error {
	if err := n.nc.Publish(n.chatSubject(), b); err != nil {
		return fmt.Errorf("cluster: publish a chat line: %w", err)
	}
	return nil
}

// WatchChat calls f with each lobby chat line kept after the stream
// sequence after (0: every line kept), oldest first, calls caughtUp (if not
// nil) once those are in, then calls f with every new line, until ctx is done
// or the watch fails. Lines are those PublishChat sent, this node's too; f
// gets each with its sequence, to watch again after it.
func (n *Node) WatchChat(ctx context.Context, after uint64, f func(seq uint64, b []byte), caughtUp func()) error {
	info, err := n.chat.Info(ctx)
	if err != nil {
		return fmt.Errorf("cluster: the chat's stream: %w", err)
	}
	last := info.State.LastSeq
	cfg := jetstream.OrderedConsumerConfig{}
	if after > 0 {
		cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, after+1
	}
	c, err := n.chat.OrderedConsumer(ctx, cfg)
	if err != nil {
		return fmt.Errorf("cluster: watch the chat: %w", err)
	}
	ready := func() {
		if caughtUp != nil {
			caughtUp()
			caughtUp = nil
		}
	}
	if info.State.Msgs == 0 || last <= after {
		ready()
	}
	lines := make(chan jetstream.Msg, 64)
	cc, err := c.Consume(func(m jetstream.Msg) {
		select {
		case lines <- m:
		case <-ctx.Done():
		}
	})
	if err != nil {
		return fmt.Errorf("cluster: watch the chat: %w", err)
	}
	defer cc.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-cc.Closed():
			return errors.New("cluster: the chat's watch ended")
		case m := <-lines:
			md, err := m.Metadata()
			if err != nil {
				continue
			}
			f(md.Sequence.Stream, m.Data())
			if md.Sequence.Stream >= last {
				ready()
			}
		}
	}
}

// PutOnline writes this node's entry in the house's players online: b, a
// protocol.NodeOnline. It lasts a lease TTL unless written again.
func (n *Node) PutOnline(ctx context.Context, b []byte) error {
	ctx, cancel := n.request(ctx)
	defer cancel()
	if _, err := n.online.Put(ctx, TableKey(n.cfg.Node), b); err != nil {
		return fmt.Errorf("cluster: players online: %w", err)
	}
	return nil
}

// WatchOnline calls put with every node's entry of players online (by the
// node's key), those already written first and then each as it is written,
// and gone with the key of each node's entry removed or expired, until ctx
// is done or the watch fails.
func (n *Node) WatchOnline(ctx context.Context, put func(key string, v []byte), gone func(key string)) error {
	return n.watch(ctx, n.online, put, gone)
}

// RateWindowMax is the longest window Allow counts in: the bucket of rates
// forgets a key this long after its last write.
const RateWindowMax = time.Minute

// ErrRateKey refuses a rate's key or bounds that Allow cannot count.
var ErrRateKey = errors.New("cluster: a rate's key or bounds are not valid")

// Allow reports whether the sender of key (a rate of one sender, such as
// "chat.lobby.42") may do one more thing at now, at most limit in any window
// of per across the house, whichever node counts it; if so it is counted. Of
// any number of nodes counting one key at once, no more pass than limit
// allows: the times are changed by a compare-and-set. now is the counting
// node's clock: nodes whose clocks differ by d shift the window by up to d.
func (n *Node) Allow(ctx context.Context, key string, limit int, per time.Duration, now time.Time) (bool, error) {
	if limit <= 0 || per <= 0 || per > RateWindowMax || !rateKeyRE.MatchString(key) {
		return false, fmt.Errorf("%w: %q, %d in %v", ErrRateKey, key, limit, per)
	}
	ctx, cancel := n.request(ctx)
	defer cancel()
	err := compareAndSet(ctx, n.rates, key, func(v []byte) ([]byte, error) {
		var times []int64 // Unix milliseconds
		if v != nil && json.Unmarshal(v, &times) != nil {
			times = nil // unreadable: counted afresh
		}
		keep := times[:0]
		for _, t := range times {
			if now.Sub(time.UnixMilli(t)) < per {
				keep = append(keep, t)
			}
		}
		if len(keep) >= limit {
			return nil, errRateFull
		}
		return json.Marshal(append(keep, now.UnixMilli()))
	})
	switch {
	case errors.Is(err, errRateFull):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("cluster: rate %s: %w", key, err)
	}
	return true, nil
}

// errRateFull ends Allow's compare-and-set: the window is full.
var errRateFull = errors.New("rate full")

var rateKeyRE = regexp.MustCompile(`^[a-zA-Z0-9_=-]+(\.[a-zA-Z0-9_=-]+)*$`)
