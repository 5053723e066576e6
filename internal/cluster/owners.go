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

// LiveFunc reports whether a table named in a player's claims is still theirs
// (registered in the house with them as its owner). A claim calls it only when
// the player is at their bound (mustPrune), so that a claim left by a node lost
// between a table's closing and its release frees its place then.
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
		if len(withoutTable(names, table)) < len(names) {
			return names, nil // claimed already
		}
		if live != nil && mustPrune(len(names), max) {
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

// pruneFrom is the fewest claims a player with no bound must hold before a
// claim checks them: at pruneFrom, 2×pruneFrom, 4×pruneFrom ... claims.
const pruneFrom = 32

// mustPrune reports whether a claim among n claims, at most max (0: no
// bound), checks them first (LiveFunc): at the bound, or with no bound at
// each doubling from pruneFrom on. Without it, a house with no bound never
// dropped a place left behind by a lost node, and a player's entry grew by
// one for each; with it, the entry holds at most about twice the player's
// live tables (and pruneFrom), at a few reads a claim on average.
func mustPrune(n, max int) bool {
	if max > 0 {
		return n >= max
	}
	return n >= pruneFrom && n&(n-1) == 0
}

// Unclaim takes table out of the tables owner owns (it closed for good and
// left the registry), unless live (if not nil) reports a table of that name
// theirs again: one they opened on another node since, while the node
// releasing the closed one was held up past its lease's life. A release by
// name would otherwise free the new table's place.
func (n *Node) Unclaim(ctx context.Context, owner int64, table string, live LiveFunc) error {
	ctx, cancel := n.request(ctx)
	defer cancel()
	return n.changeClaims(ctx, owner, func(names []string) ([]string, error) {
		rest := withoutTable(names, table)
		if len(rest) == len(names) || live == nil {
			return rest, nil
		}
		ok, err := live(ctx, owner, table)
		if err != nil || ok {
			return names, err
		}
		return rest, nil
	})
}

// Claims returns the names of the tables owner owns.
func (n *Node) Claims(ctx context.Context, owner int64) ([]string, error) {
	ctx, cancel := n.request(ctx)
	defer cancel()
	return n.claims(ctx, owner)
}

// changeClaims writes owner's claims as change makes them from those stored
// (nothing if it leaves them as they are), by a compare-and-set.
func (n *Node) changeClaims(ctx context.Context, owner int64, change func([]string) ([]string, error)) error {
	return compareAndSet(ctx, n.owners, strconv.FormatInt(owner, 10), func(v []byte) ([]byte, error) {
		names, err := decodeClaims(owner, v)
		if err != nil {
			return nil, err
		}
		changed, err := change(names)
		if err != nil {
			return nil, err
		}
		if v != nil && slices.Equal(changed, names) {
			return v, nil
		}
		return json.Marshal(changed)
	})
}

// claims returns owner's claims.
func (n *Node) claims(ctx context.Context, owner int64) ([]string, error) {
	e, err := n.owners.Get(ctx, strconv.FormatInt(owner, 10))
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("cluster: the tables of player %d: %w", owner, err)
	}
	return decodeClaims(owner, e.Value())
}

// decodeClaims decodes owner's claims from v, their entry's value (nil: none).
func decodeClaims(owner int64, v []byte) ([]string, error) {
	var names []string
	if v == nil {
		return nil, nil
	}
	if err := json.Unmarshal(v, &names); err != nil {
		return nil, fmt.Errorf("cluster: the tables of player %d: %w", owner, err)
	}
	return names, nil
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
