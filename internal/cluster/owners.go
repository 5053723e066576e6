package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/nats-io/nats.go/jetstream"
)

// The tables each player owns, across the house: an entry per player in the
// bucket of owners, the names of their tables, changed only by a
// compare-and-set on the entry's revision. Of two nodes claiming a player's
// last free place at once, one writes first and the other, its revision now
// stale, reads the entry again and finds no place.

// ErrClaimsFull refuses a claim of a player who owns as many tables as they may.
var ErrClaimsFull = errors.New("the player owns as many tables as they may")

// claimTries bounds a claim's (or a release's) compare-and-set attempts: each
// lost attempt means another node changed the entry meanwhile.
const claimTries = 16

// LiveFunc reports whether a table named in a player's claims is still theirs
// (registered in the house with them as its owner). A claim calls it only when
// the player is at their bound, so that a claim left by a node lost between a
// table's closing and its release frees its place then.
type LiveFunc func(ctx context.Context, owner int64, table string) (bool, error)

// Claim counts table among the tables the player whose ID is owner owns, if
// they own fewer than max (0: no bound), and otherwise returns an error
// wrapping ErrClaimsFull and the number they own. Claiming a table already
// claimed changes nothing. Of any number of claims of one player racing on any
// nodes, no more succeed than there are places.
func (n *Node) Claim(ctx context.Context, owner int64, table string, max int, live LiveFunc) error {
	ctx, cancel := context.WithTimeout(ctx, 4*n.cfg.Timeout)
	defer cancel()
	return n.changeClaims(ctx, owner, func(names []string) ([]string, error) {
		names = withoutTable(names, table)
		if max > 0 && len(names) >= max && live != nil {
			kept := names[:0:0]
			for _, name := range names {
				ok, err := live(ctx, owner, name)
				if err != nil {
					return nil, err
				}
				if ok {
					kept = append(kept, name)
				}
			}
			names = kept
		}
		if max > 0 && len(names) >= max {
			return nil, fmt.Errorf("%w: %d", ErrClaimsFull, len(names))
		}
		return append(names, table), nil
	})
}

// Unclaim takes table out of the tables owner owns (it closed for good).
func (n *Node) Unclaim(ctx context.Context, owner int64, table string) error {
	ctx, cancel := n.request(ctx)
	defer cancel()
	return n.changeClaims(ctx, owner, func(names []string) ([]string, error) {
		return withoutTable(names, table), nil
	})
}

// Claims returns the names of the tables owner owns.
func (n *Node) Claims(ctx context.Context, owner int64) ([]string, error) {
	ctx, cancel := n.request(ctx)
	defer cancel()
	names, _, err := n.claims(ctx, owner)
	return names, err
}

// changeClaims writes owner's claims as change makes them from those stored
// (nothing if it leaves them as they are), by a compare-and-set, reading them
// again each time another node wrote first.
func (n *Node) changeClaims(ctx context.Context, owner int64, change func([]string) ([]string, error)) error {
	key := strconv.FormatInt(owner, 10)
	for range claimTries {
		names, rev, err := n.claims(ctx, owner)
		if err != nil {
			return err
		}
		changed, err := change(names)
		if err != nil {
			return err
		}
		if slices.Equal(changed, names) {
			return nil
		}
		b, err := json.Marshal(changed)
		if err != nil {
			return err
		}
		if rev == 0 {
			_, err = n.owners.Create(ctx, key, b)
		} else {
			_, err = n.owners.Update(ctx, key, b, rev)
		}
		switch {
		case err == nil:
			return nil
		case errors.Is(err, jetstream.ErrKeyExists) || wrongLastSequence(err):
			continue // another node wrote first: read again
		default:
			return fmt.Errorf("cluster: the tables of player %d: %w", owner, err)
		}
	}
	return fmt.Errorf("cluster: the tables of player %d: changed by others %d times in a row", owner, claimTries)
}

// claims returns owner's claims and their entry's revision (0: none).
func (n *Node) claims(ctx context.Context, owner int64) ([]string, uint64, error) {
	e, err := n.owners.Get(ctx, strconv.FormatInt(owner, 10))
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return nil, 0, nil
	case err != nil:
		return nil, 0, fmt.Errorf("cluster: the tables of player %d: %w", owner, err)
	}
	var names []string
	if err := json.Unmarshal(e.Value(), &names); err != nil {
		return nil, 0, fmt.Errorf("cluster: the tables of player %d: %w", owner, err)
	}
	return names, e.Revision(), nil
}

// withoutTable returns names without table (compared as keys: ignoring case).
func withoutTable(names []string, table string) []string {
	key := TableKey(table)
	out := names[:0:0]
	for _, name := range names {
		if TableKey(name) != key {
			out = append(out, name)
		}
	}
	return out
}
