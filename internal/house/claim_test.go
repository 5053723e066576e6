package house_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// TestSecondHouseCannotRecover starts two houses on one database while a player
// has chips at a table: the second cannot claim the database, its Recover fails,
// and no credit is paid out twice (issue 12: a second "felt serve" minted the
// running house's stacks).
func TestSecondHouseCannotRecover(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		c := newClock()
		first := newHouse(t, s, c)
		if err := first.Claim(ctx); err != nil {
			t.Fatal(err)
		}
		u := register(t, first, "alice")
		if _, err := first.BuyIn(ctx, u.ID, "main", 2_000); err != nil {
			t.Fatal(err)
		}
		before, err := s.Balance(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}

		second := newHouse(t, s, c)
		err = second.Claim(ctx)
		if !errors.Is(err, house.ErrDatabaseInUse) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
			t.Fatalf("second Claim: %v, want ErrDatabaseInUse naming this process", err)
		}
		if refunds, err := second.Recover(ctx); err == nil || len(refunds) != 0 {
			t.Fatalf("second house's Recover: %v, %v", refunds, err)
		}
		if after, _ := s.Balance(ctx, u.ID); after != before {
			t.Fatalf("credits %d after the second house started, %d before", after, before)
		}

		// Once the first house is gone, the next one claims the database and
		// returns the stack, once.
		if err := first.Unclaim(); err != nil {
			t.Fatal(err)
		}
		if err := second.Claim(ctx); err != nil {
			t.Fatal(err)
		}
		defer second.Unclaim()
		refunds, err := second.Recover(ctx)
		if err != nil || len(refunds) != 1 || refunds[0].Amount != 2_000 {
			t.Fatalf("Recover after the first house stopped: %v, %v", refunds, err)
		}
		if after, _ := s.Balance(ctx, u.ID); after != before+2_000 {
			t.Fatalf("credits %d after recovery, want %d", after, before+2_000)
		}
	})
}
