package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"
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
	if err := b.Unclaim(ctx, 7, names[0], nil); err != nil {
		t.Fatal(err)
	}
	if err := a.Claim(ctx, 7, "Another", 3, nil); err != nil {
		t.Fatalf("a claim after a release: %v", err)
	}
	if err := a.Claim(ctx, 8, "Another", 3, nil); err != nil {
		t.Fatalf("another player's claim: %v", err)
	}
}

// TestAllowAcrossNodes counts one sender's lines on two nodes: five in ten
// seconds pass in all, whichever node counts them and however many count at
// once; the sixth is refused on both nodes, and passes once the first is ten
// seconds old.
func TestAllowAcrossNodes(t *testing.T) {
	url, _ := startNATS(t)
	a, b := connectTTL(t, url, "a", 10*time.Second), connectTTL(t, url, "b", 10*time.Second)
	ctx := context.Background()
	t0 := time.Unix(1_800_000_000, 0)
	var passed atomic.Int32
	var wg sync.WaitGroup
	for i := range 12 {
		n := []*Node{a, b}[i%2]
		wg.Go(func() {
			ok, err := n.Allow(ctx, "chat.lobby.1", 5, 10*time.Second, t0.Add(time.Duration(i)*time.Millisecond))
			if err != nil {
				t.Error(err)
			}
			if ok {
				passed.Add(1)
			}
		})
	}
	wg.Wait()
	if passed.Load() != 5 {
		t.Fatalf("%d lines of 12 passed at once on two nodes, want 5", passed.Load())
	}
	for _, n := range []*Node{a, b} {
		if ok, err := n.Allow(ctx, "chat.lobby.1", 5, 10*time.Second, t0.Add(9*time.Second)); ok || err != nil {
			t.Fatalf("a sixth line within ten seconds on %s: %v %v", n.Name(), ok, err)
		}
	}
	if ok, err := b.Allow(ctx, "chat.lobby.2", 5, 10*time.Second, t0); !ok || err != nil {
		t.Fatalf("another sender's line: %v %v", ok, err)
	}
	if ok, err := b.Allow(ctx, "chat.lobby.1", 5, 10*time.Second, t0.Add(10*time.Second+20*time.Millisecond)); !ok || err != nil {
		t.Fatalf("a line once the first ones are ten seconds old: %v %v", ok, err)
	}
	for _, bad := range []string{"", "a b", "chat..x", "chat.>"} {
		if _, err := a.Allow(ctx, bad, 5, time.Second, t0); !errors.Is(err, ErrRateKey) {
			t.Errorf("key %q: %v, want ErrRateKey", bad, err)
		}
	}
	if _, err := a.Allow(ctx, "x", 5, 2*RateWindowMax, t0); !errors.Is(err, ErrRateKey) {
		t.Errorf("a window longer than the bucket keeps: %v", err)
	}
}

// TestClaimsWithoutBoundPruned: with no bound on a player's tables, places
// left behind by lost nodes (claims of tables no longer theirs) are dropped
// when the player's entry reaches pruneFrom claims, so that it does not grow
// by one for every such crash; live tables keep theirs, and a player with no
// bound may own more than pruneFrom tables.
func TestClaimsWithoutBoundPruned(t *testing.T) {
	url, _ := startNATS(t)
	a := connectTTL(t, url, "a", 10*time.Second)
	ctx := context.Background()
	isLive := func(name string) bool { return strings.HasPrefix(name, "Live") }
	checked := 0
	live := func(_ context.Context, _ int64, name string) (bool, error) {
		checked++
		return isLive(name), nil
	}
	for i := range pruneFrom {
		name := fmt.Sprintf("Ghost%d", i)
		if i%4 == 0 {
			name = fmt.Sprintf("Live%d", i)
		}
		if err := a.Claim(ctx, 7, name, 0, live); err != nil {
			t.Fatal(err)
		}
	}
	if checked != 0 {
		t.Fatalf("%d checks below pruneFrom claims, want none", checked)
	}
	if err := a.Claim(ctx, 7, "Live-new", 0, live); err != nil {
		t.Fatal(err)
	}
	names, err := a.Claims(ctx, 7)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if !isLive(n) {
			t.Fatalf("claims after the claim at pruneFrom: %v, still holding %q", names, n)
		}
	}
	if want := pruneFrom/4 + 1; len(names) != want || checked != pruneFrom {
		t.Fatalf("%d claims (%v) after %d checks, want %d after %d", len(names), names, checked, want, pruneFrom)
	}
	for i := range 2 * pruneFrom {
		if err := a.Claim(ctx, 7, fmt.Sprintf("Live-more%d", i), 0, live); err != nil {
			t.Fatalf("a player with no bound, claim %d: %v", i, err)
		}
	}
}
