package house

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/felt-poker/felt/internal/store"
)

// The departures of the cash tables of a house (a player's stack when they
// left a seat, the part of it won, the big blind owed, their time bank and
// timeouts in a row) are kept in the store, so that neither a restart nor a
// table closed and opened again, on any node of the house, forgets them
// (internal/table/departures.go; a house on several nodes keeps them in each
// table's log too, for a takeover). A table's ledger worker writes each
// departure before it books the departure's cash-out, and deletes it when the
// table forgets it; a table opening without a log to resume reads back the
// departures kept under its name.

// KeepDeparture writes each of ds over the departure its player had from
// its table, in one transaction (a table taken over writes at once the
// departures its log has and the store lacks).
func (h *House) KeepDeparture(ctx context.Context, ds ...store.Departure) error {
	if len(ds) == 1 {
		return h.st.PutDeparture(ctx, ds[0])
	}
	return h.st.InTx(ctx, func(q store.Queries) error {
		for _, d := range ds {
			if err := q.PutDeparture(ctx, d); err != nil {
				return err
			}
		}
		return nil
	})
}

// ForgetDepartures deletes the departures the players userIDs had from
// table, if any, in one transaction.
func (h *House) ForgetDepartures(ctx context.Context, table string, userIDs []int64) error {
	return h.st.InTx(ctx, func(q store.Queries) error {
		for _, id := range userIDs {
			if err := q.DeleteDeparture(ctx, table, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// Departures returns the departures kept from table that expire after now,
// at most limit of them (the most won first); it then deletes the
// departures of every table expired at now. A delete that fails (the
// database busy with other writes, a lock held past ctx) is logged: the
// departures read are returned all the same, and the next table opening
// deletes those expired. Before, it failed the read, and the table opened
// without the departures, letting its players come back short-stacked.
func (h *House) Departures(ctx context.Context, table string, now time.Time, limit int) ([]store.Departure, error) {
	ds, err := h.st.Departures(ctx, table, now, limit)
	if err != nil {
		return nil, fmt.Errorf("departures from %s: %w", table, err)
	}
	if _, err := h.st.DeleteExpiredDepartures(ctx, now); err != nil {
		slog.Warn("expired departures not deleted: the next table opening deletes them", "table", table, "err", err)
	}
	return ds, nil
}
