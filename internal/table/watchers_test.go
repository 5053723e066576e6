package table

import (
	"errors"
	"testing"
	"testing/synctest"

	"github.com/felt-poker/felt/internal/house"
)

// TestPrivateTableRefusesStrangers checks Config.Watchers: a private table is
// watched (and chatted at) by its players alone unless they open it to anyone.
func TestPrivateTableRefusesStrangers(t *testing.T) {
	alice, stranger, anonymous := Player{1, "alice"}, Player{2, "mallory"}, Player{}
	for _, tc := range []struct {
		watchers string
		open     bool
	}{{"", false}, {WatchPlayers, false}, {WatchAnyone, true}} {
		t.Run("watchers="+tc.watchers, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := testConfig(newBank(1, 2), "call")
				cfg.Seats, cfg.HeadsUp, cfg.Private, cfg.Watchers = 2, true, true, tc.watchers
				tb := mustNew(t, cfg)
				if err := tb.Sit(t.Context(), alice, 1, 1000); err != nil {
					t.Fatal(err)
				}
				if _, err := tb.Watch(t.Context(), alice, &client{}); err != nil {
					t.Fatalf("the player cannot watch her own table: %v", err)
				}
				for _, p := range []Player{stranger, anonymous} {
					c := &client{}
					_, err := tb.Watch(t.Context(), p, c)
					if tc.open != (err == nil) {
						t.Fatalf("watchers %q: %s watches: %v", tc.watchers, p.Name, err)
					}
					if !tc.open && (!errors.Is(err, ErrPrivate) || !errors.Is(err, house.ErrForbidden)) {
						t.Fatalf("refused with %v, want ErrPrivate", err)
					}
					synctest.Wait()
					if !tc.open && len(c.all()) != 0 {
						t.Fatalf("a refused stranger got %d messages", len(c.all()))
					}
				}
				if err := tb.Chat(t.Context(), stranger, "", "hello"); tc.open != (err == nil) {
					t.Fatalf("watchers %q: the stranger chats: %v", tc.watchers, err)
				}
			})
		})
	}
}

func TestWatchersValidated(t *testing.T) {
	cfg := testConfig(newBank(), "call")
	cfg.Watchers = "friends"
	var fe *house.FieldError
	if _, err := New(cfg); !errors.As(err, &fe) || fe.Field != "watchers" {
		t.Fatalf("watchers %q: %v", cfg.Watchers, err)
	}
}
