package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// TestUpdateUserAndSessions checks the writes a profile needs: details and
// names changed (a taken name refused, an unknown account reported), a deleted
// account left out of the rankings, and every session of a user but one ended.
func TestUpdateUserAndSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		ann, bob := mustUser(t, s, "ann"), mustUser(t, s, "bob")
		for _, u := range []store.User{ann, bob} {
			if err := s.AddStats(ctx, u.ID, store.Stats{HandsPlayed: 10, NetWon: 100}); err != nil {
				t.Fatal(err)
			}
		}
		ann.Email, ann.Location, ann.PasswordHash = "ann@example.org", "Lyon", "$argon2id$new"
		if err := s.UpdateUser(ctx, ann); err != nil {
			t.Fatal(err)
		}
		if got, err := s.UserByID(ctx, ann.ID); err != nil || got.Email != ann.Email || got.Location != "Lyon" || got.PasswordHash != ann.PasswordHash || !got.DeletedAt.IsZero() {
			t.Fatalf("after the update: %+v %v", got, err)
		}
		if err := s.UpdateUser(ctx, store.User{ID: ann.ID, Username: "BOB"}); !errors.Is(err, store.ErrUsernameTaken) {
			t.Errorf("renamed to a taken name: %v", err)
		}
		if err := s.UpdateUser(ctx, store.User{ID: 9999, Username: "zed"}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("an unknown account updated: %v", err)
		}

		// Sessions: ann has three; all but the kept one end; bob's stays.
		for i, tok := range []string{"a1", "a2", "a3", "b1"} {
			uid := ann.ID
			if i == 3 {
				uid = bob.ID
			}
			if err := s.CreateSession(ctx, store.Session{TokenHash: []byte(tok), UserID: uid, CreatedAt: at, ExpiresAt: at.Add(time.Hour)}); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := s.DeleteUserSessions(ctx, ann.ID, []byte("a2")); err != nil || n != 2 {
			t.Fatalf("deleted %d of ann's sessions (%v), want 2", n, err)
		}
		if _, err := s.SessionByTokenHash(ctx, []byte("a2")); err != nil {
			t.Errorf("the kept session: %v", err)
		}
		if _, err := s.SessionByTokenHash(ctx, []byte("b1")); err != nil {
			t.Errorf("bob's session: %v", err)
		}
		if n, err := s.DeleteUserSessions(ctx, ann.ID, nil); err != nil || n != 1 {
			t.Fatalf("deleted %d of ann's sessions (%v), want the last one", n, err)
		}

		// Deleted: anonymised and out of the rankings; her name is free again.
		gone := store.User{ID: ann.ID, Username: "deleted-1x", DeletedAt: at}
		if err := s.UpdateUser(ctx, gone); err != nil {
			t.Fatal(err)
		}
		if got, err := s.UserByID(ctx, ann.ID); err != nil || !got.DeletedAt.Equal(at) || got.Email != "" || got.PasswordHash != "" {
			t.Fatalf("the deleted account: %+v %v", got, err)
		}
		rs, err := s.Rankings(ctx, store.RankByNet, 0, 10, 0)
		if err != nil || len(rs) != 1 || rs[0].Name != "bob" {
			t.Errorf("rankings after the deletion: %+v %v", rs, err)
		}
		mustUser(t, s, "Ann")
	})
}
