package feltclient_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/felt-poker/felt/feltclient"
)

// TestBotPlaysAHand: a bot of a player's, with its token, sits at a table
// against one of the house's bots, acts on its turn and plays a whole hand, then
// leaves.
func TestBotPlaysAHand(t *testing.T) {
	th := newHouse(t)
	token := th.bot("tester")
	th.table("Bots")
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	c, err := feltclient.Dial(ctx, th.url, token)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.User.Name != "bot_tester" {
		t.Fatalf("playing as %q, want bot_tester", c.User.Name)
	}
	turns, over := 0, false
	err = c.Play(ctx, feltclient.PlayOptions{Table: "Bots", AnySeat: true, BuyIn: 1000, Hands: 1,
		OnState: func(s *feltclient.State) {
			if s.MyTurn() {
				turns++
			}
			if s.Hand != nil && s.Hand.Over && s.Hand.Result != nil {
				over = true
			}
		}}, feltclient.CheckOrCall)
	if err != nil {
		t.Fatal(err)
	}
	if turns == 0 || !over {
		t.Fatalf("the bot had %d turns and saw the hand over: %v", turns, over)
	}
}

// TestDialRefusesBadTokens: a revoked, mistyped or guessed token opens no
// connection; the error says why.
func TestDialRefusesBadTokens(t *testing.T) {
	th := newHouse(t)
	token := th.bot("gone")
	th.post("/api/me/bots/bot_gone/revoke", map[string]any{}, 204)
	for _, tok := range []string{token, "felt_aaaaaaaaaaaa_AAAAAAAAAAAAAAAAAAAAAAAAAA", "garbage"} {
		_, err := feltclient.Dial(t.Context(), th.url, tok)
		var e *feltclient.Error
		if !errors.As(err, &e) || e.Status != 401 || e.Code != "unauthorized" {
			t.Fatalf("token %q: %v, want a 401 unauthorized", tok, err)
		}
	}
}
