package table

import (
	"database/sql"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// floodRows is how many departures a hostile or corrupt store holds.
const floodRows = 100_000

// fillDepartures writes floodRows departures from Main with 300 chips each
// (players 1 to floodRows), in one statement on the database at dsn.
func fillDepartures(t *testing.T, driver, dsn string, now time.Time) {
	t.Helper()
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = db.ExecContext(t.Context(), `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $1)
		INSERT INTO table_departures (table_name, user_id, seat, hand, left_at, expires_at, owes_bb, busted, stack, won, bank_ms, timeouts)
		SELECT 'main', i, 0, 0, $2, $3, FALSE, FALSE, 300, 0, 0, 0 FROM n`,
		floodRows, now.UnixMilli(), now.Add(time.Hour).UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
}

// hostileRows: the store holds 100,000 departures from Main, one with a
// stack and winnings near the largest int64, a negative time bank and count
// of timeouts, left an hour from now; one with a time bank past what a
// time.Duration holds; one left in year 1 that expires in a century. The
// table opening reads at most maxDeparted of them, the hostile one among
// them, its clock a full bank at most, nothing negative, none left after
// now, won no more than the stack, the one left in year 1 not at all; the
// player refused a seat with less than that stack gets a clear error.
// Forgetting them deletes their rows; the one left in year 1 is deleted as
// it is read. Before, the restart read none (and the log's reading wrapped
// a huge age round to a negative one).
func hostileRows(t *testing.T, driver, dsn string) {
	now := time.Now()
	n := openOneNode(t, dsn)
	fillDepartures(t, driver, dsn, now)
	hostile := []store.Departure{
		{Table: "Main", UserID: floodRows + 1, Seat: -7, Hand: math.MaxInt64, LeftAt: now.Add(time.Hour), ExpiresAt: now.AddDate(100, 0, 0),
			Stack: 1 << 62, Won: math.MaxInt64, Bank: -5 * time.Second, Timeouts: -3},
		{Table: "MAIN", UserID: floodRows + 2, LeftAt: now, ExpiresAt: now.Add(time.Hour), Stack: 5000, Won: -5, Bank: math.MaxInt64},
		{Table: "main", UserID: floodRows + 3, LeftAt: time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), ExpiresAt: now.AddDate(100, 0, 0), Stack: 1 << 40, Won: 1 << 40},
	}
	for _, d := range hostile {
		if err := n.st.PutDeparture(t.Context(), d); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	tb := n.table(t)
	t.Logf("opened over %d departures in %v", floodRows+len(hostile), time.Since(start))
	var taken int
	err := tb.call(t.Context(), func() error {
		taken = len(tb.departed)
		if taken == 0 || taken > maxDeparted {
			t.Errorf("%d departures taken up, want 1 to %d", taken, maxDeparted)
		}
		for id, d := range tb.departed {
			if d.at.After(time.Now()) || d.bank < 0 || d.bank > tb.cfg.TimeBank || d.timeouts < 0 || d.won < 0 || d.won > d.stack {
				t.Errorf("player %d's departure taken up as %+v", id, d)
			}
		}
		if _, ok := tb.departed[floodRows+1]; !ok {
			t.Error("the departure with the most won left out")
		}
		if _, ok := tb.departed[floodRows+3]; ok {
			t.Error("a departure left in year 1 taken up")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = tb.Sit(t.Context(), Player{ID: floodRows + 1, Name: "hostile"}, 1, 200)
	var fe *house.FieldError
	if !errors.As(err, &fe) || fe.Field != "buy_in" || !strings.Contains(err.Error(), "4611686018427387904") {
		t.Errorf("the player of the huge stack sits down with 200: %v, want a buy_in error naming it", err)
	}
	// Forgotten (expired), the departures taken up are deleted from the store.
	err = tb.call(t.Context(), func() error { tb.forget(time.Now().Add(tb.keepDeparted()), 0); return nil })
	if err != nil {
		t.Fatal(err)
	}
	want := floodRows + len(hostile) - taken - 1 // and the one left in year 1, read and deleted
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		ds, err := n.st.Departures(t.Context(), "main", time.Time{}, 2*floodRows)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d departures left in the store once the table forgot %d, want %d", len(ds), taken, want)
		}
	}
	checkChips(t, tb)
}

func TestHostileDepartureRowsBounded(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { hostileRows(t, "sqlite", filepath.Join(t.TempDir(), "felt.db")) })
	t.Run("postgres", func(t *testing.T) { hostileRows(t, "pgx", storetest.PostgresDSN(t)) })
}
