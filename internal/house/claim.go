package house

import (
	"context"
	"errors"
	"fmt"

	"github.com/felt-poker/felt/internal/store"
)

// ErrDatabaseInUse reports a database that another house holds (see Claim).
var ErrDatabaseInUse = errors.New("another felt house is using this database")

// errNotClaimed refuses a Recover by a house that has not claimed its database.
var errNotClaimed = errors.New("the house has not claimed its database (House.Claim)")

// Claim makes the house the only one on its database: it takes the store's
// lock store.HouseKey, held until Unclaim or the end of the process. While
// another house holds it, Claim returns ErrDatabaseInUse, naming the holder
// where the store knows it. Recover runs only in a house that has claimed its
// database, since a second house recovering the seats of a running one would
// pay their stacks out twice.
//
// One house per database is the rule today. Several nodes on one database would
// claim each table they run under a key of its own instead (store.Store.Lock
// takes any key), and recover only the seats of the tables they claim.
func (h *House) Claim(ctx context.Context) error {
	return h.claimAs(ctx, false)
}

// ClaimNode claims the database for one node of a house on several nodes
// (felt serve --nats): the store's lock store.HouseKey taken shared, so that
// any number of nodes share the database but no single-node house (whose
// Recover would pay out the seats of the nodes' live tables) starts while one
// runs, nor a node while a single-node house runs. A node does not Recover:
// each table's seats are its owner's (ReturnSeat, TableStacks). PostgreSQL only.
func (h *House) ClaimNode(ctx context.Context) error {
	return h.claimAs(ctx, true)
}

func (h *House) claimAs(ctx context.Context, node bool) error {
	h.claimMu.Lock()
	defer h.claimMu.Unlock()
	if h.claim != nil {
		return nil
	}
	lock := h.st.Lock
	if node {
		lock = h.st.LockShared
	}
	held, err := lock(ctx, store.HouseKey)
	var le *store.LockedError
	switch {
	case errors.As(err, &le) && le.Holder != "":
		return fmt.Errorf("%w (%s)", ErrDatabaseInUse, le.Holder)
	case errors.Is(err, store.ErrLocked):
		return ErrDatabaseInUse
	case err != nil:
		return fmt.Errorf("claim the database: %w", err)
	}
	h.claim, h.node = held, node
	return nil
}

// Unclaim gives up the claim Claim took, if any: call it once the house is shut
// down, before its store closes.
func (h *House) Unclaim() error {
	h.claimMu.Lock()
	defer h.claimMu.Unlock()
	if h.claim == nil {
		return nil
	}
	err := h.claim.Release()
	h.claim = nil
	return err
}

// claimed reports whether the house holds its database alone (Claim).
func (h *House) claimed() bool {
	h.claimMu.Lock()
	defer h.claimMu.Unlock()
	return h.claim != nil && !h.node
}

// claimedAny reports whether the house has claimed its database, alone or as
// a node (ClaimNode).
func (h *House) claimedAny() bool {
	h.claimMu.Lock()
	defer h.claimMu.Unlock()
	return h.claim != nil
}

// ErrFenced refuses a write for a table that another node has taken over since
// this one started running it (see Fence).
var ErrFenced = store.ErrFenced

// Fence records in the database that this node runs table ref with fencing
// token (its lease's, docs/scaling.md), refusing with ErrFenced if a node with
// a higher token has run it. From then on every write of this house for the
// table (buy-ins, cash-outs, hands) checks the token in its own transaction: a
// node that lost the table to another (which fenced it with a higher token)
// has its writes refused, and one whose write began first finishes it before
// the other's fence, which waits for it.
func (h *House) Fence(ctx context.Context, ref string, token int64) error {
	err := h.st.InTx(ctx, func(q store.Queries) error { return q.Fence(ctx, ref, token) })
	if err != nil {
		return fmt.Errorf("fence %s: %w", ref, err)
	}
	h.fences.Store(ref, token)
	return nil
}

// fenced checks in q's transaction that no newer owner has fenced table ref,
// when this house runs it with a token.
func (h *House) fenced(ctx context.Context, q store.Queries, ref string) error {
	token, ok := h.fences.Load(ref)
	if !ok {
		return nil
	}
	return q.Fence(ctx, ref, token.(int64))
}
