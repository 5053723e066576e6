package node

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/chat"
	"github.com/felt-poker/felt/internal/cluster"
	"github.com/felt-poker/felt/internal/lobby"

	"github.com/felt-poker/felt/protocol"
)

// SharedLobby carries a node's lobby chat and players online to the other
// nodes of the house, and theirs to its lobby (lobby.Peers), over the
// cluster: each line said here is published once its rules are checked here;
// the lines of other nodes are shown as they come; this node's players online
// are its entry in the bucket of players online, written when they change (at
// most every lobby.FlushInterval) and every TTL/3, so that a lost node's
// players leave every list within a TTL.
type SharedLobby struct {
	n   *cluster.Node
	l   *lobby.Lobby
	log *slog.Logger
	// id names this lobby in the lines it publishes: it shows its own lines
	// itself. A node started again under its name is another lobby, and
	// shows its former life's lines as the others'.
	id      string
	changed chan struct{}
}

var _ lobby.Peers = (*SharedLobby)(nil)

// historyWait bounds how long ShareLobby waits for the chat's last lines.
const historyWait = 10 * time.Second

// ShareLobby shares l with the house's other nodes through n until ctx is
// done. It returns once the chat's last lines are in l (or after
// historyWait), so that the node's first connections find them.
func ShareLobby(ctx context.Context, n *cluster.Node, l *lobby.Lobby, log *slog.Logger) *SharedLobby {
	s := &SharedLobby{n: n, l: l, log: log, id: n.Name() + "/" + rand.Text(), changed: make(chan struct{}, 1)}
	l.SetPeers(s)
	caught := make(chan struct{})
	go s.watchChat(ctx, sync.OnceFunc(func() { close(caught) }))
	go s.writeOnline(ctx)
	go s.watchOnline(ctx)
	select {
	case <-caught:
	case <-ctx.Done():
	case <-time.After(historyWait):
		log.Warn("the lobby chat's last lines did not come: the lobby starts without them")
	}
	return s
}

// Chat publishes a line said on this node.
func (s *SharedLobby) Chat(line chat.Line) {
	if err := s.n.PublishChat(mustJSON(protocol.LobbyChat{Origin: s.id, Line: line})); err != nil {
		s.log.Warn("a lobby chat line was not sent to the other nodes", "err", err)
	}
}

// AllowChat counts a lobby line of the sender of key across the house
// (cluster.Node.Allow).
// When the count cannot be read or written (NATS does not answer within its
// timeout, or the entry was written by others at every one of the
// compare-and-set's tries), the error refuses the line: a rate that passed
// lines whenever it failed would let a sender on several nodes, racing their
// own lines, through unbounded by the house's count.
func (s *SharedLobby) AllowChat(key string, lines int, per time.Duration, now time.Time) (bool, error) {
	ok, err := s.n.Allow(context.Background(), "chat.lobby."+key, lines, per, now)
	if err != nil {
		s.log.Warn("a lobby chat line not counted across the house: refused", "err", err)
	}
	return ok, err
}

// PresenceChanged has this node's players online written again.
func (s *SharedLobby) PresenceChanged() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// watchChat shows the other nodes' lines in the lobby, and calls caughtUp
// once the lines kept are in, until ctx is done.
func (s *SharedLobby) watchChat(ctx context.Context, caughtUp func()) {
	var after uint64
	for ctx.Err() == nil {
		err := s.n.WatchChat(ctx, after, func(seq uint64, b []byte) {
			after = seq
			var m protocol.LobbyChat
			if json.Unmarshal(b, &m) == nil && m.Origin != s.id {
				s.l.RemoteChat(m.Line)
			}
		}, caughtUp)
		again(ctx, s.log, s.n.LeaseTTL(), "the other nodes' lobby chat is not shown", err)
	}
}

// writeOnline writes this node's players online when they change and every
// third of the TTL, until ctx is done.
func (s *SharedLobby) writeOnline(ctx context.Context) {
	tick := time.NewTicker(s.n.LeaseTTL() / 3)
	defer tick.Stop()
	for {
		b := mustJSON(protocol.NodeOnline{Node: s.n.Name(), Players: s.l.LocalOnline()})
		if err := s.n.PutOnline(ctx, b); err != nil && ctx.Err() == nil {
			s.log.Warn("this node's players online not written", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-s.changed:
		}
		select { // one write per push of the lobby at most
		case <-ctx.Done():
			return
		case <-time.After(lobby.FlushInterval):
		}
	}
}

// watchOnline lists in the lobby the other nodes' players online, until ctx
// is done.
func (s *SharedLobby) watchOnline(ctx context.Context) {
	self := cluster.TableKey(s.n.Name())
	for ctx.Err() == nil {
		err := s.n.WatchOnline(ctx, func(key string, v []byte) {
			var m protocol.NodeOnline
			if key != self && json.Unmarshal(v, &m) == nil {
				s.l.SetRemoteOnline(key, m.Players)
			}
		}, s.l.RemoveRemoteOnline)
		again(ctx, s.log, s.n.LeaseTTL(), "the other nodes' players online are not listed", err)
	}
}
