package cluster

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestClaimsRace has two nodes claim ten tables of one player at once, at
// most three: exactly three claims succeed, the others are refused with
// ErrClaimsFull, and a release frees a place.
func TestClaimsRace(t *testing.T) {
	url, _ := startNATS(t)
	a, b := connectTTL(t, url, "a", 10*time.Second), connectTTL(t, url, "b", 10*time.Second)
	ctx := context.Background()
	var won, full atomic.Int32
	var wg sync.WaitGroup
	for i := range 10 {
		n := []*Node{a, b}[i%2]
		wg.Go(func() {
			err := n.Claim(ctx, 7, fmt.Sprintf("T%d", i), 3, nil)
			switch {
			case err == nil:
				won.Add(1)
			case errors.Is(err, ErrClaimsFull):
				full.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	names, err := a.Claims(ctx, 7)
	if won.Load() != 3 || full.Load() != 7 || err != nil || len(names) != 3 {
		t.Fatalf("%d claims won, %d refused, claims %v %v: want 3 and 7", won.Load(), full.Load(), names, err)
	}
	if err := b.Claim(ctx, 7, names[0], 3, nil); err != nil {
		t.Fatalf("a table claimed again: %v", err)
	}
	if err := b.Unclaim(ctx, 7, names[0]); err != nil {
		t.Fatal(err)
	}
	if err := a.Claim(ctx, 7, "Another", 3, nil); err != nil {
		t.Fatalf("a claim after a release: %v", err)
	}
	if err := a.Claim(ctx, 8, "Another", 3, nil); err != nil {
		t.Fatalf("another player's claim: %v", err)
	}
}
