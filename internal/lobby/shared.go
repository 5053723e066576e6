package lobby

import (
	"cmp"
	"maps"
	"slices"
	"time"

	"github.com/felt-poker/felt/internal/chat"
	"github.com/felt-poker/felt/protocol"
)

// A house on several nodes has one lobby chat and one list of players online:
// each node's lobby tells its Peers what is said and who comes and goes on
// this node, and takes in what the other nodes say (RemoteChat) and who is
// online there (SetRemoteOnline). A line's rules (its text, its sender's rate)
// are checked once, by the node it is said on; the rate is counted across the
// house (Peers.AllowChat), besides this node's own count.

// Peers are the other nodes of the house, as a lobby sees them.
type Peers interface {
	// Chat sends them a lobby line said on this node (checked already). It
	// is called outside the lobby's lock, in the order the lines are said.
	Chat(line chat.Line)
	// PresenceChanged says that this node's players online changed
	// (LocalOnline). It is called under the lobby's lock: it must return at
	// once, without calling the lobby.
	PresenceChanged()
	// AllowChat reports whether the sender of key (a player's ID, or "addr."
	// and an address in hexadecimal) may say one more lobby line at now, at
	// most lines in any window of per on every node of the house together,
	// and counts it if so. It is called outside the lobby's lock, once the
	// line has passed this node's own count. An error (the count could not be
	// read or written) refuses the line: the lobby fails closed.
	AllowChat(key string, lines int, per time.Duration, now time.Time) (bool, error)
}

// SetPeers makes the lobby share its chat and its players online with p. Set
// it before the lobby has subscribers.
func (l *Lobby) SetPeers(p Peers) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.peers = p
}

// RemoteChat takes in a lobby line said on another node: kept for newcomers
// and sent to every subscriber, without this node's checks (its node made
// them).
func (l *Lobby) RemoteChat(line chat.Line) {
	line.Type, line.Table = "chat", ""
	l.sendMu.Lock()
	defer l.sendMu.Unlock()
	l.mu.Lock()
	l.chatLog.Add(line)
	subs := l.subsLocked()
	l.mu.Unlock()
	if b := l.marshal(line); b != nil {
		for _, s := range subs {
			s.Send(b)
		}
	}
}

// LocalOnline returns the players online on this node, by ID.
func (l *Lobby) LocalOnline() []protocol.Player {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]protocol.Player, 0, len(l.online))
	for id, p := range l.online {
		out = append(out, protocol.Player{ID: id, Name: p.name})
	}
	slices.SortFunc(out, func(a, b protocol.Player) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// HouseOnline returns the number of players online on any node of the
// house, each once (on a single node, Online).
func (l *Lobby) HouseOnline() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.remoteOnline) == 0 {
		return len(l.online)
	}
	ids := make(map[int64]bool, len(l.online))
	for id := range l.online {
		ids[id] = true
	}
	for _, ps := range l.remoteOnline {
		for id := range ps {
			ids[id] = true
		}
	}
	return len(ids)
}

// SetRemoteOnline sets the players online on the node named node (another
// node): the lobby's list of players online is every node's, and the players
// who come or go with this change are pushed as this node's own are.
func (l *Lobby) SetRemoteOnline(node string, players []protocol.Player) {
	now := make(map[int64]string, len(players))
	for _, p := range players {
		if p.ID != 0 {
			now[p.ID] = p.Name
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closing {
		return
	}
	ids := maps.Clone(now)
	maps.Copy(ids, l.remoteOnline[node])
	l.changePresenceLocked(ids, func() { l.remoteOnline[node] = now })
}

// RemoveRemoteOnline takes the players of the node named node off the list
// (the node left, or is lost), unless they are online elsewhere.
func (l *Lobby) RemoveRemoteOnline(node string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if before, ok := l.remoteOnline[node]; ok {
		l.changePresenceLocked(before, func() { delete(l.remoteOnline, node) })
	}
}

// changePresenceLocked applies change to the lists of players online, and
// notes for the next push the players of ids (their names by ID) whose
// presence in the house it changed; l.mu is held.
func (l *Lobby) changePresenceLocked(ids map[int64]string, change func()) {
	was := make(map[int64]bool, len(ids))
	for id := range ids {
		was[id] = l.isOnlineLocked(id)
	}
	change()
	for id, name := range ids {
		if l.isOnlineLocked(id) != was[id] {
			l.presence[id] = name
			l.scheduleLocked()
		}
	}
}

// isOnlineLocked reports whether player id is online on any node; l.mu is
// held.
func (l *Lobby) isOnlineLocked(id int64) bool {
	if _, on := l.online[id]; on {
		return true
	}
	for _, ps := range l.remoteOnline {
		if _, on := ps[id]; on {
			return true
		}
	}
	return false
}
