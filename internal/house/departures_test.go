package house_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// sweepBlocked: a departure from Main is kept, and an expired one from Side;
// another connection holds the database's write lock (SQLite: a write
// transaction; PostgreSQL: the expired row locked), as the writes of a
// house's other tables may, past the opening's deadline. The table opening
// still reads Main's departure; the expired one is deleted once the lock
// is gone. Before, the failed delete of the expired departures failed the
// read, and Main opened without its departures: a player who had left it
// with a big stack sat down again with the minimum.
func sweepBlocked(t *testing.T, s store.Store, driver, dsn, lock string) {
	ctx := t.Context()
	h := newHouse(t, s, newClock())
	now := time.Now()
	left := store.Departure{Table: "Main", UserID: 7, LeftAt: now, ExpiresAt: now.Add(30 * time.Minute), Stack: 5000, Won: 3000}
	gone := store.Departure{Table: "Side", UserID: 8, LeftAt: now.Add(-time.Hour), ExpiresAt: now.Add(-time.Minute), Stack: 900}
	for _, d := range []store.Departure{left, gone} {
		if err := h.KeepDeparture(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, lock); err != nil {
		t.Fatal(err)
	}
	octx, cancel := context.WithTimeout(ctx, time.Second)
	ds, err := h.Departures(octx, "main", now, 10)
	cancel()
	if err != nil || len(ds) != 1 || ds[0].UserID != 7 || ds[0].Stack != 5000 {
		t.Errorf("Main's departures with the write lock held: %+v, %v; want player 7's", ds, err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Departures(ctx, "main", now, 10); err != nil {
		t.Fatal(err)
	}
	if ds, err := s.Departures(ctx, "side", time.Time{}, 10); err != nil || len(ds) != 0 {
		t.Errorf("Side's expired departure once the lock is gone: %+v, %v; want it deleted", ds, err)
	}
}

func TestDeparturesReadWhileTheSweepIsBlocked(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "felt.db")
		s, err := store.OpenSQLite(t.Context(), path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		// A write takes SQLite's one write lock until the transaction ends.
		sweepBlocked(t, s, "sqlite", path, "UPDATE table_departures SET seat = seat WHERE table_name = 'main'")
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := storetest.PostgresDSN(t)
		s, err := store.OpenPostgres(t.Context(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		sweepBlocked(t, s, "pgx", dsn, "SELECT * FROM table_departures WHERE table_name = 'side' FOR UPDATE")
	})
}
