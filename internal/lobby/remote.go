package lobby

import (
	"reflect"
	"strings"

	"github.com/felt-poker/felt/internal/table"
)

// A house on several nodes lists in every node's lobby the tables of the other
// nodes too (their listings come from the cluster's lobby bucket): they are
// shown and pushed like this node's own, but Table does not find them (a
// message for one goes through the web's relay to its node).

// SetRemote lists in, the listing of a table that runs on another node. A
// table open on this node keeps its own listing.
func (l *Lobby) SetRemote(in table.Info) {
	key := strings.ToLower(in.Name)
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, local := l.tables[key]; local || l.opening[key] || l.closing {
		return
	}
	if old, had := l.infos[key]; had && l.remote[key] && old.Name == in.Name && sameListing(old, in) {
		return
	}
	l.infos[key], l.remote[key] = in, true
	if !in.Private {
		l.dirty[key] = true
		delete(l.closed, key)
		l.scheduleLocked()
	}
}

// RemoveRemote takes off the listing of a table of another node (it closed, or
// its node is lost), unless the table runs on this node now: one being opened
// or open here (taken over or handed over) keeps the former node's listing
// until its own first listing replaces it, so that the table never drops out
// of the lobby as it moves.
func (l *Lobby) RemoveRemote(name string) {
	key := strings.ToLower(name)
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, local := l.tables[key]; !l.remote[key] || local || l.opening[key] {
		return
	}
	in := l.infos[key]
	delete(l.remote, key)
	delete(l.infos, key)
	delete(l.dirty, key)
	if !in.Private {
		l.closed[key] = in.Name
		l.scheduleLocked()
	}
}

// sameListing reports whether two listings show the same (the spectator count
// aside, as for local tables).
func sameListing(a, b table.Info) bool {
	a.Spectators = b.Spectators
	return reflect.DeepEqual(a, b)
}
