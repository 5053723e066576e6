package cluster

import (
	"context"
	"errors"
	"fmt"

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
