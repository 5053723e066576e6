package house

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/argon2"

	"github.com/felt-poker/felt/internal/store/storetest"
)

// gatedHashes makes every password hash wait for release, counting the hashes in
// progress (now) and the most ever at once (most).
type gatedHashes struct {
	now, most atomic.Int32
	release   chan struct{}
}

func gateHashes(t *testing.T) *gatedHashes {
	g := &gatedHashes{release: make(chan struct{})}
	deriveKey = func(password, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte {
		n := g.now.Add(1)
		for m := g.most.Load(); n > m && !g.most.CompareAndSwap(m, n); m = g.most.Load() {
		}
		<-g.release
		g.now.Add(-1)
		return argon2.IDKey(password, salt, time, memory, threads, keyLen)
	}
	t.Cleanup(func() { deriveKey = argon2.IDKey })
	return g
}

// waitFor polls cond until it holds, failing t after 20 s (a stuck login).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within 20 s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func testHouse(t *testing.T, edit func(*Limits)) *House {
	cfg := DefaultConfig()
	cfg.Argon2 = Argon2Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}
	edit(&cfg.Limits)
	h, err := New(storetest.SQLite(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Register(t.Context(), Registration{Username: "alice", Password: "correct horse", ConfirmedAdult: true}); err != nil {
		t.Fatal(err)
	}
	return h
}

// TestHashesAtOnceBounded: 80 parallel logins took 19 MiB each at once; now at
// most MaxHashes hash at a time and the others queue, then all succeed.
func TestHashesAtOnceBounded(t *testing.T) {
	const bound, logins = 3, 24
	h := testHouse(t, func(l *Limits) { l.MaxHashes = bound; l.LoginFailures, l.AddressLoginFailures = 0, 0 })
	g := gateHashes(t)
	var wg sync.WaitGroup
	errs := make([]error, logins)
	for i := range logins {
		name := "alice"
		if i%2 == 1 {
			name = fmt.Sprintf("nobody%d", i) // an unknown name hashes too
		}
		wg.Go(func() { _, errs[i] = h.Login(t.Context(), name, "correct horse", fmt.Sprintf("192.0.2.%d", i)) })
	}
	// Every login is hashing or waiting for its turn before any hash ends.
	waitFor(t, "login hashing or waiting", func() bool { return int(g.now.Load())+int(h.hashes.waiting.Load()) == logins || g.now.Load() > bound })
	close(g.release)
	wg.Wait()
	if m := g.most.Load(); m != bound {
		t.Fatalf("%d hashes at once, want %d", m, bound)
	}
	for i, err := range errs {
		if want := i%2 == 1; want != errors.Is(err, ErrBadCredentials) || !want && err != nil {
			t.Errorf("login %d: %v", i, err)
		}
	}
}

// TestHashQueueBounded: a login waiting for a hash gives up when its request
// ends; beyond hashQueuePerSlot waiting per slot, one is refused at once as busy.
func TestHashQueueBounded(t *testing.T) {
	h := testHouse(t, func(l *Limits) { l.MaxHashes = 1; l.LoginFailures, l.AddressLoginFailures = 0, 0 })
	g := gateHashes(t)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(g.release)
	login := func() { _, _ = h.Login(context.Background(), "alice", "correct horse", "192.0.2.1") }
	wg.Go(login)
	waitFor(t, "hash in progress", func() bool { return g.now.Load() == 1 })
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := h.verify(ctx, "correct horse", h.dummyHash); !errors.Is(err, context.Canceled) {
		t.Fatalf("a hash whose request ended: %v", err)
	}
	for range hashQueuePerSlot {
		wg.Go(login)
	}
	waitFor(t, "full queue", func() bool { return h.hashes.waiting.Load() == hashQueuePerSlot })
	_, err := h.Login(t.Context(), "alice", "correct horse", "192.0.2.1")
	var pe *PlayerError
	if !errors.Is(err, ErrBusy) || !errors.As(err, &pe) || pe.RetryAfter != time.Second {
		t.Fatalf("login beyond the queue: %v", err)
	}
}

// TestLimitsForgetWithinTheirBound: a flood of names and addresses keeps each
// limit's memory at MaxTracked, and a locked-out account is not forgotten for it.
func TestLimitsForgetWithinTheirBound(t *testing.T) {
	l := DefaultLimits()
	l.MaxTracked = 100
	th := newLoginThrottle(l)
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for range l.LoginFailures {
		th.begin("alice", "192.0.2.1", now)
		th.end("alice", "192.0.2.1", ErrBadCredentials, now)
	}
	b := newBuckets(l.Guests, l.MaxTracked)
	for i := range 10_000 {
		name, from := fmt.Sprintf("user%d", i), fmt.Sprintf("10.%d.%d.%d", i>>16, i>>8&255, i&255)
		if w, _ := th.begin(name, from, now); w == 0 {
			th.end(name, from, ErrBadCredentials, now)
		}
		b.take(from, now)
	}
	if len(th.accounts) > l.MaxTracked || len(th.addresses) > l.MaxTracked || len(b.m) > l.MaxTracked {
		t.Fatalf("remembered %d accounts, %d addresses, %d buckets; bound %d", len(th.accounts), len(th.addresses), len(b.m), l.MaxTracked)
	}
	if w, locked := th.begin("alice", "192.0.2.99", now); w != l.LockOut || !locked {
		t.Fatalf("the locked-out account was forgotten (wait %v)", w)
	}
}
