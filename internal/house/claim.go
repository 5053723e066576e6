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
	h.claimMu.Lock()
	defer h.claimMu.Unlock()
	if h.claim != nil {
		return nil
	}
	held, err := h.st.Lock(ctx, store.HouseKey)
	var le *store.LockedError
	switch {
	case errors.As(err, &le) && le.Holder != "":
		return fmt.Errorf("%w (%s)", ErrDatabaseInUse, le.Holder)
	case errors.Is(err, store.ErrLocked):
		return ErrDatabaseInUse
	case err != nil:
		return fmt.Errorf("claim the database: %w", err)
	}
	h.claim = held
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

func (h *House) claimed() bool {
	h.claimMu.Lock()
	defer h.claimMu.Unlock()
	return h.claim != nil
}
