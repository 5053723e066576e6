package table

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"
)

// playing is a player the test plays for, with the client they watch by.
type playing struct {
	p Player
	c *client
}

// tickAll lets 100 ms pass and plays (a check or a call) for each of ps whom
// the table asks to act; it returns the newest state of ps[0].
func tickAll(t *testing.T, tb *Table, ps []playing) *State {
	t.Helper()
	time.Sleep(100 * time.Millisecond)
	synctest.Wait()
	for _, x := range ps {
		if s := x.c.last(t); s != nil && s.Hand != nil && s.Hand.Legal != nil {
			actAs(t, tb, x.p, s)
			synctest.Wait()
		}
	}
	return ps[0].c.last(t)
}

// TestNewAccountsDodgeNoBlind: a player with several accounts plays each in
// turn against bob, heads-up and three-handed (with a bot): at the end of
// every hand the account seated stands up, and the next, new to the table,
// sits down in the free seat right after the button, where the button goes
// next. Each account is first dealt in at the big blind. Before, each was
// dealt in at once as a newcomer, given the button: the accounts took turns
// at playing the button's hand, and bob paid every blind.
func TestNewAccountsDodgeNoBlind(t *testing.T) {
	for _, tc := range []struct {
		name string
		bots []string
	}{{"heads-up", nil}, {"three-handed", []string{"call"}}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				const accounts = 5
				users := []int64{2}
				for k := range accounts {
					users = append(users, int64(10+k))
				}
				b := newBank(users...)
				cfg := testConfig(b, tc.bots...)
				cfg.Seats = 6
				tb := mustNew(t, cfg)
				bob := playing{Player{2, "bob"}, &client{}}
				if _, err := tb.Watch(t.Context(), bob.p, bob.c); err != nil {
					t.Fatal(err)
				}
				if err := tb.Sit(t.Context(), bob.p, 3, 1000); err != nil {
					t.Fatal(err)
				}
				var cur *playing
				seat, blinds := -1, 0
				for k := range accounts {
					ps := []playing{bob}
					if cur != nil {
						ps = append(ps, *cur)
					}
					s := bob.c.last(t)
					for i := 0; tc.bots != nil || cur != nil; i++ { // heads-up, the first deals nothing
						if s != nil && s.Hand != nil && s.Hand.Over {
							break
						}
						if i > 3000 {
							t.Fatal("no hand ends")
						}
						s = tickAll(t, tb, ps)
					}
					if cur != nil {
						if err := tb.Stand(t.Context(), cur.p); err != nil {
							t.Fatal(err)
						}
					}
					next, after := 4, int64(0)
					if s.Hand != nil {
						next, after = (s.Hand.Button+1)%cfg.Seats, s.Hand.Number
					}
					for tb.seatTaken(t, next) || next == seat {
						next = (next + 1) % cfg.Seats
					}
					acct := playing{Player{int64(10 + k), fmt.Sprintf("acct%d", k)}, &client{}}
					if _, err := tb.Watch(t.Context(), acct.p, acct.c); err != nil {
						t.Fatal(err)
					}
					if err := tb.Sit(t.Context(), acct.p, next, 1000); err != nil {
						t.Fatal(err)
					}
					cur, seat = &acct, next
					ps = []playing{bob, acct}
					for i := 0; ; i++ {
						if i > 3000 {
							t.Fatalf("account %d never dealt in", k)
						}
						s = tickAll(t, tb, ps)
						if s.Hand != nil && s.Hand.Number > after && s.Seats[seat].InHand {
							break
						}
					}
					if s.Hand.BigBlindSeat != seat {
						t.Errorf("account %d, new to the table in seat %d, is first dealt in hand %d with the big blind in seat %d: it dodged it",
							k, seat, s.Hand.Number, s.Hand.BigBlindSeat)
					} else {
						blinds++
					}
				}
				if blinds != accounts {
					t.Errorf("%d of %d accounts paid the big blind first", blinds, accounts)
				}
				checkChips(t, tb)
			})
		})
	}
}

// seatTaken reports whether seat i is occupied.
func (tb *Table) seatTaken(t *testing.T, i int) bool {
	t.Helper()
	var taken bool
	if err := tb.call(t.Context(), func() error { taken = tb.seats[i].occupied; return nil }); err != nil {
		t.Fatal(err)
	}
	return taken
}
