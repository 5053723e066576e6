package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/felt-poker/felt/internal/cluster"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/lobby"
)

// A player's tables are counted across the house, not per node: each player
// table opened is claimed in its owner's entry of the cluster's bucket of
// owners (cluster.Node.Claim, a compare-and-set), after its registration and
// before it opens, and released when it closes for good (forget). A claim left
// behind by a node lost between a table's closing and its release is dropped
// when the player is at the bound: a claimed table counts only while the
// registry has it as theirs.

// claim counts the table name among owner's, who may own maxOwned (0: no
// bound), or refuses it with lobby.ErrTooManyTables.
func (ts *Tables) claim(ctx context.Context, owner int64, name string, maxOwned int) error {
	err := ts.cfg.Cluster.Claim(ctx, owner, name, maxOwned, ts.ownedBy)
	if errors.Is(err, cluster.ErrClaimsFull) {
		return &house.FieldError{Field: "name", Message: fmt.Sprintf("you have %d tables open in the house, the most a player may: close one first", maxOwned), Err: lobby.ErrTooManyTables}
	}
	return err
}

// unclaim takes the table name, out of the registry now, out of owner's
// count (0: no owner known; a claim left behind is dropped by the owner's
// next claim at the bound), unless the registry has a table of that name as
// theirs again (opened since on another node).
func (ts *Tables) unclaim(ctx context.Context, owner int64, name string) {
	if owner == 0 {
		return
	}
	if err := ts.cfg.Cluster.Unclaim(ctx, owner, name, ts.ownedBy); err != nil {
		ts.cfg.Log.Warn("a closed table still counts among its owner's until their next table", "table", name, "owner", owner, "err", err)
	}
}

// ownedBy reports whether the registry has the table name as owner's
// (cluster.LiveFunc).
func (ts *Tables) ownedBy(ctx context.Context, owner int64, name string) (bool, error) {
	reg, ok, err := ts.cfg.Cluster.Lookup(ctx, name)
	if err != nil || !ok {
		return false, err
	}
	var r registration
	if err := json.Unmarshal(reg.Config, &r); err != nil {
		return false, nil
	}
	return r.Owner == owner, nil
}
