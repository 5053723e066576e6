package house_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// retry returns how long err says to wait, failing t unless err is a
// *house.PlayerError wrapping want.
func retry(t *testing.T, err, want error) time.Duration {
	t.Helper()
	var pe *house.PlayerError
	if !errors.Is(err, want) || !errors.As(err, &pe) {
		t.Fatalf("err = %v, want %v", err, want)
	}
	return pe.RetryAfter
}

// TestLoginLockOut: 100 wrong passwords then the right one were all answered
// before; now the sixth login is refused, the right password too, from any
// address, and the lock-out doubles with each further failure up to its cap.
func TestLoginLockOut(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx, c := context.Background(), newClock()
		h := newHouse(t, s, c)
		register(t, h, "alice")
		for i := range 5 {
			if _, err := h.Login(ctx, "alice", fmt.Sprintf("guess %d!", i), "192.0.2.1"); !errors.Is(err, house.ErrBadCredentials) {
				t.Fatalf("guess %d: %v", i, err)
			}
		}
		for _, from := range []string{"192.0.2.1", "198.51.100.7"} {
			_, err := h.Login(ctx, "ALICE", "correct horse", from)
			if d := retry(t, err, house.ErrTooManyLogins); d != 20*time.Second || err.Error() != "too many failed logins: try again in 20 s" {
				t.Fatalf("right password while locked out from %s: %v (retry after %v)", from, err, d)
			}
		}
		c.Advance(20 * time.Second)
		if _, err := h.Login(ctx, "alice", "correct horse", "192.0.2.1"); err != nil {
			t.Fatalf("after the lock-out: %v", err)
		}
		// The good login reset the count: five more failures before a lock-out,
		// then each failure doubles it: 20 s, 40 s, 80 s ... 15 min.
		for i := range 5 {
			if _, err := h.Login(ctx, "alice", "wrong horse", "198.51.100.7"); !errors.Is(err, house.ErrBadCredentials) {
				t.Fatalf("failure %d after a good login: %v", i, err)
			}
		}
		want := 20 * time.Second
		for range 8 {
			_, err := h.Login(ctx, "alice", "wrong horse", "198.51.100.7")
			if d := retry(t, err, house.ErrTooManyLogins); d != want {
				t.Fatalf("lock-out %v, want %v", d, want)
			}
			c.Advance(want)
			if _, err := h.Login(ctx, "alice", "wrong horse", "198.51.100.7"); !errors.Is(err, house.ErrBadCredentials) {
				t.Fatalf("after %v: %v", want, err)
			}
			want = min(2*want, 15*time.Minute)
		}
		if want != 15*time.Minute {
			t.Fatalf("lock-out grew to %v only", want)
		}
		// Failures are forgotten after an hour without one.
		c.Advance(time.Hour + 15*time.Minute)
		if _, err := h.Login(ctx, "alice", "correct horse", "203.0.113.9"); err != nil {
			t.Fatalf("an hour later: %v", err)
		}
	})
}

// TestLoginLockOutByAddress: one address guessing at many names (existing or
// not) is locked out after 20 failures, for every name; other addresses are not.
// An IPv6 address counts by its /64.
func TestLoginLockOutByAddress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx, c := context.Background(), newClock()
		h := newHouse(t, s, c)
		register(t, h, "alice")
		for i := range 20 {
			from := fmt.Sprintf("2001:db8:1:2::%x", i+1) // one /64
			if _, err := h.Login(ctx, fmt.Sprintf("user%d", i), "wrong horse", from); !errors.Is(err, house.ErrBadCredentials) {
				t.Fatalf("guess %d: %v", i, err)
			}
		}
		_, err := h.Login(ctx, "alice", "correct horse", "2001:db8:1:2:ffff::1")
		if d := retry(t, err, house.ErrTooManyLogins); d != 20*time.Second {
			t.Fatalf("retry after %v", d)
		}
		if _, err := h.Login(ctx, "alice", "correct horse", "2001:db8:1:3::1"); err != nil {
			t.Fatalf("from another /64: %v", err)
		}
		// A good login does not reset the address.
		_, err = h.Login(ctx, "alice", "correct horse", "2001:db8:1:2::1")
		retry(t, err, house.ErrTooManyLogins)
	})
}

// TestParallelGuessesStopAtTheLimit: guesses sent at once cannot overshoot the
// limit: at most 5 are checked, the rest are refused until the lock-out ends.
func TestParallelGuessesStopAtTheLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx, c := context.Background(), newClock()
		h := newHouse(t, s, c)
		register(t, h, "alice")
		var wg sync.WaitGroup
		errs := make([]error, 40)
		for i := range errs {
			wg.Go(func() { _, errs[i] = h.Login(ctx, "alice", fmt.Sprintf("guess %d!", i), "192.0.2.1") })
		}
		wg.Wait()
		checked := 0
		for _, err := range errs {
			switch {
			case errors.Is(err, house.ErrBadCredentials):
				checked++
			case !errors.Is(err, house.ErrTooManyLogins):
				t.Fatalf("guess: %v", err)
			}
		}
		if checked < 1 || checked > 5 {
			t.Fatalf("%d of 40 parallel guesses were checked, want 1 to 5", checked)
		}
	})
}

// TestNewAccountsPerAddress: guests and registrations from one address are a
// token bucket (20 guests then one every 30 s; 10 registrations then one a
// minute); other addresses keep their own.
func TestNewAccountsPerAddress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx, c := context.Background(), newClock()
		h := newHouse(t, s, c)
		for i := range 20 {
			if _, err := h.Guest(ctx, "192.0.2.1"); err != nil {
				t.Fatalf("guest %d: %v", i, err)
			}
		}
		_, err := h.Guest(ctx, "192.0.2.1")
		if d := retry(t, err, house.ErrTooManyAccounts); d != 30*time.Second {
			t.Fatalf("guest 21: retry after %v", d)
		}
		if _, err := h.Guest(ctx, "192.0.2.2"); err != nil {
			t.Fatalf("guest from another address: %v", err)
		}
		c.Advance(30 * time.Second)
		if _, err := h.Guest(ctx, "192.0.2.1"); err != nil {
			t.Fatalf("guest 30 s later: %v", err)
		}
		reg := func(i int, from string) error {
			_, err := h.Register(ctx, house.Registration{Username: fmt.Sprintf("player%d", i), Password: "correct horse", ConfirmedAdult: true, From: from})
			return err
		}
		for i := range 10 {
			if err := reg(i, "::ffff:198.51.100.7"); err != nil {
				t.Fatalf("registration %d: %v", i, err)
			}
		}
		if d := retry(t, reg(10, "198.51.100.7"), house.ErrTooManyAccounts); d != time.Minute {
			t.Fatalf("registration 11: retry after %v", d)
		}
		if _, _, err := h.Player(ctx, "player10"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a refused registration made an account: %v", err)
		}
	})
}

// TestBotNamesReserved: the names bots have at house tables ("bot-chart-1") and
// anything like them cannot be registered, in any case.
func TestBotNamesReserved(t *testing.T) {
	for _, name := range []string{"bot-chart-1", "BOT-Chart-1", "Bot-montecarlo", "bot_chart_1", "bot-x"} {
		if err := house.ValidateUsername(name); !errors.Is(err, house.ErrInvalid) || !strings.Contains(err.Error(), "reserved") {
			t.Errorf("ValidateUsername(%q) = %v, want reserved", name, err)
		}
	}
	for _, name := range []string{"bottle", "robot-1", "abbot"} {
		if err := house.ValidateUsername(name); err != nil {
			t.Errorf("ValidateUsername(%q) = %v", name, err)
		}
	}
}
