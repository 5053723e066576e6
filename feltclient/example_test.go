package feltclient_test

import (
	"context"
	"log"
	"os"

	"github.com/felt-poker/felt/feltclient"
)

// A bot that raises the minimum with a pair in the hole and checks or calls
// otherwise, for ten hands at the table Main. The token comes from the
// player's profile page (or POST /api/me/bots).
func Example() {
	ctx := context.Background()
	c, err := feltclient.Dial(ctx, "http://localhost:8080", os.Getenv("FELT_TOKEN"))
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	pairs := func(s *feltclient.State) feltclient.Action {
		me, legal := s.Mine(), s.Hand.Legal
		if len(me.Cards) == 2 && me.Cards[0][0] == me.Cards[1][0] && legal.Can("raise") {
			return feltclient.Action{Kind: "raise", Amount: legal.MinTo}
		}
		return feltclient.CheckOrCall(s)
	}
	err = c.Play(ctx, feltclient.PlayOptions{Table: "Main", AnySeat: true, BuyIn: 2000, Hands: 10}, pairs)
	if err != nil {
		log.Fatal(err)
	}
}
