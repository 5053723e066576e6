package house_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// TestGuestsFromOneSlash48: a holder of a /48 (65,536 /64s) got 20 guests from
// each /64 before; now the whole /48 gets 8 times one /64's allowance (160, then
// one every 3.75 s), another /48 keeps its own, and a /64 refused for its /48
// keeps its own token for later.
func TestGuestsFromOneSlash48(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx, c := context.Background(), newClock()
		h := newHouse(t, s, c)
		guest := func(from string) error { _, err := h.Guest(ctx, from); return err }
		const mine = "2001:db8:7:0::1"
		for i := range 19 {
			if err := guest(mine); err != nil {
				t.Fatalf("guest %d from %s: %v", i, mine, err)
			}
		}
		for n := 1; n <= 8; n++ {
			for i := range 20 {
				if n == 8 && i > 0 {
					break // 19 + 7·20 + 1 = 160: the /48's allowance
				}
				if err := guest(fmt.Sprintf("2001:db8:7:%x::%x", n, i+1)); err != nil {
					t.Fatalf("guest %d from /64 %d: %v", i, n, err)
				}
			}
		}
		for _, from := range []string{"2001:db8:7:9::1", "2001:db8:7:ffff::1", mine} {
			if d := retry(t, guest(from), house.ErrTooManyAccounts); d != 3750*time.Millisecond {
				t.Fatalf("guest 161 of the /48 from %s: retry after %v, want 3.75 s", from, d)
			}
		}
		if err := guest("2001:db8:8::1"); err != nil {
			t.Fatalf("guest from another /48: %v", err)
		}
		if err := guest("192.0.2.1"); err != nil {
			t.Fatalf("guest from IPv4: %v", err)
		}
		c.Advance(3750 * time.Millisecond)
		if err := guest(mine); err != nil {
			t.Fatalf("its 20th guest once the /48 has a token (the refusal spent none of its own): %v", err)
		}
		if err := guest("2001:db8:7:a::1"); !errors.Is(err, house.ErrTooManyAccounts) {
			t.Fatalf("a further guest of the /48 at once: %v", err)
		}
	})
}

// TestRegistrationsFromOneSlash48: 80 registrations from 80 /64s of one /48
// (8 times one address's 10), then none from a further /64 of it, while
// another /48 and IPv4 addresses register as before.
func TestRegistrationsFromOneSlash48(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx, c := context.Background(), newClock()
		h := newHouse(t, s, c)
		reg := func(i int, from string) error {
			_, err := h.Register(ctx, house.Registration{Username: fmt.Sprintf("w48n%03d", i), Password: "correct horse", ConfirmedAdult: true, From: from})
			return err
		}
		for i := range 80 {
			if err := reg(i, fmt.Sprintf("2001:db8:5:%x::1", i)); err != nil {
				t.Fatalf("registration %d: %v", i, err)
			}
		}
		if d := retry(t, reg(80, "2001:db8:5:ff::1"), house.ErrTooManyAccounts); d != 7500*time.Millisecond {
			t.Fatalf("registration 81 of the /48: retry after %v, want 7.5 s", d)
		}
		if _, _, err := h.Player(ctx, "w48n080"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a refused registration made an account: %v", err)
		}
		if err := reg(81, "2001:db8:6::1"); err != nil {
			t.Fatalf("registration from another /48: %v", err)
		}
		for i := range 10 {
			if err := reg(100+i, fmt.Sprintf("198.51.100.%d", i)); err != nil {
				t.Fatalf("IPv4 registration %d: %v", i, err)
			}
		}
		c.Advance(7500 * time.Millisecond)
		if err := reg(82, "2001:db8:5:ff::1"); err != nil {
			t.Fatalf("registration once the /48 has a token: %v", err)
		}
	})
}
