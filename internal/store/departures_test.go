package store_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/store"
)

// testDepartures: a departure is kept by table (ignoring case) and player,
// replaced by the next (never by an earlier one written late), deleted, read back most won first, never once
// expired, and swept; a time bank too large for a time.Duration reads back
// bounded, not wrapped round.
func testDepartures(t *testing.T, s store.Store) {
	ctx := context.Background()
	d := store.Departure{Table: "Main", UserID: 7, Seat: 2, Hand: 41, LeftAt: at, ExpiresAt: at.Add(30 * time.Minute),
		Owes: true, Stack: 5000, Won: 3000, Bank: 12 * time.Second, Timeouts: 1}
	if err := s.PutDeparture(ctx, d); err != nil {
		t.Fatal(err)
	}
	small := store.Departure{Table: "main", UserID: 8, LeftAt: at, ExpiresAt: at.Add(time.Minute), Busted: true}
	other := store.Departure{Table: "Side", UserID: 7, LeftAt: at, ExpiresAt: at.Add(time.Hour), Stack: 1, Bank: math.MaxInt64}
	for _, x := range []store.Departure{small, other} {
		if err := s.PutDeparture(ctx, x); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Departures(ctx, "MAIN", at, 10)
	if err != nil {
		t.Fatal(err)
	}
	d.Table, small.Table = "main", "main"
	if len(got) != 2 || got[0] != d || got[1] != small {
		t.Fatalf("Departures = %+v, want %+v then %+v", got, d, small)
	}
	if got, err := s.Departures(ctx, "main", at, 1); err != nil || len(got) != 1 || got[0].UserID != 7 {
		t.Errorf("Departures limited to 1 = %+v, %v; want the most won", got, err)
	}
	if got, err := s.Departures(ctx, "main", at.Add(time.Minute), 10); err != nil || len(got) != 1 || got[0].UserID != 7 {
		t.Errorf("Departures once the small one expired = %+v, %v", got, err)
	}
	if got, err := s.Departures(ctx, "side", at, 10); err != nil || len(got) != 1 || got[0].Bank <= 0 {
		t.Errorf("Departures from Side = %+v, %v; want one with a positive bank", got, err)
	}
	d.Stack, d.Won, d.Busted = 0, 0, true
	if err := s.PutDeparture(ctx, d); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Departures(ctx, "main", at, 10); len(got) != 2 || got[0] != d {
		t.Errorf("after a busted departure replaced it: %+v", got)
	}
	stale := d
	stale.LeftAt, stale.Stack, stale.Busted = at.Add(-time.Second), 100, false
	if err := s.PutDeparture(ctx, stale); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Departures(ctx, "main", at, 10); len(got) != 2 || got[0] != d {
		t.Errorf("an earlier departure written late (a node that lost the table) replaced the later one: %+v", got)
	}
	if err := s.DeleteDeparture(ctx, "MAIN", 7); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteDeparture(ctx, "main", 7); err != nil {
		t.Errorf("deleting a departure already gone: %v", err)
	}
	if got, _ := s.Departures(ctx, "main", at, 10); len(got) != 1 || got[0].UserID != 8 {
		t.Errorf("after the delete: %+v", got)
	}
	if n, err := s.DeleteExpiredDepartures(ctx, at.Add(time.Minute)); err != nil || n != 1 {
		t.Errorf("DeleteExpiredDepartures = %d, %v; want 1", n, err)
	}
	if got, _ := s.Departures(ctx, "main", at, 10); len(got) != 0 {
		t.Errorf("after the sweep: %+v", got)
	}
	if got, _ := s.Departures(ctx, "side", at, 10); len(got) != 1 {
		t.Errorf("the sweep took a departure not expired: %+v", got)
	}
}
