package store_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// TestAPITokens: a bot account names its owner; its token is found by its ID
// and by its user, replaced whole (one per bot), and deleted.
func TestAPITokens(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		ann := mustUser(t, s, "ann")
		bot, err := s.CreateUser(ctx, store.User{Username: "bot_x", OwnerID: ann.ID})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := s.UserByID(ctx, bot.ID); err != nil || got.OwnerID != ann.ID {
			t.Fatalf("the bot's owner: %+v %v", got, err)
		}
		if bots, err := s.BotsOf(ctx, ann.ID); err != nil || len(bots) != 1 || bots[0].Username != "bot_x" {
			t.Fatalf("bots of ann: %+v %v", bots, err)
		}
		if _, err := s.APITokenOf(ctx, bot.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a token before any: %v", err)
		}
		for _, id := range []string{"first", "second"} {
			if err := s.PutAPIToken(ctx, store.APIToken{ID: id, UserID: bot.ID, SecretHash: []byte(id)}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.APIToken(ctx, "first"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("the replaced token: %v", err)
		}
		if tok, err := s.APIToken(ctx, "second"); err != nil || tok.UserID != bot.ID || !bytes.Equal(tok.SecretHash, []byte("second")) {
			t.Fatalf("the token: %+v %v", tok, err)
		}
		if err := s.DeleteAPIToken(ctx, bot.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.APITokenOf(ctx, bot.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a deleted token: %v", err)
		}
	})
}
