package house_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
)

// A player registers, logs in, buys in at a table and cashes out richer.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "felt-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	st, err := store.Open(ctx, filepath.Join(dir, "felt.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	h, err := house.New(st, house.DefaultConfig())
	if err != nil {
		log.Fatal(err)
	}

	u, err := h.Register(ctx, house.Registration{Username: "alice", Password: "correct horse", ConfirmedAdult: true})
	if err != nil {
		log.Fatal(err)
	}
	s, err := h.Login(ctx, "Alice", "correct horse", "192.0.2.1")
	if err != nil {
		log.Fatal(err)
	}
	who, _ := h.Authenticate(ctx, s.Token)
	fmt.Println("logged in:", who.Username)

	left, _ := h.BuyIn(ctx, u.ID, "table1", 2_000)
	fmt.Println("credits after the buy-in:", left)
	credits, _ := h.CashOut(ctx, u.ID, "table1", 2_500)
	fmt.Println("credits after the cash-out:", credits)
	if _, err := h.BuyIn(ctx, u.ID, "table1", 20_000); err != nil {
		fmt.Println(err)
	}
	// Output:
	// logged in: alice
	// credits after the buy-in: 8000
	// credits after the cash-out: 10500
	// buy-in of user 1 at table1: you have 10500 credits, less than the buy-in of 20000
}
