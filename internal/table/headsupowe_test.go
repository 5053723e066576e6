package table

import (
	"testing"
	"testing/synctest"
)

// TestHeadsUpBackAtTheBigBlind: heads-up against a bot, alice stands up
// after every hand and sits down again in the free seat right after the
// button, where the button goes next. Back owing the big blind, she is
// dealt in at once (there is no third player to deal without her), and as
// the big blind every time. Before, the button went to her new seat: she
// posted the small blind hand after hand and never the big blind.
func TestHeadsUpBackAtTheBigBlind(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		cfg := testConfig(b, "call") // a bot in seat 0
		cfg.Seats = 6
		tb := mustNew(t, cfg)
		alice, c := Player{1, "alice"}, &client{}
		if _, err := tb.Watch(t.Context(), alice, c); err != nil {
			t.Fatal(err)
		}
		if err := tb.Sit(t.Context(), alice, 3, 1000); err != nil {
			t.Fatal(err)
		}
		seat := 3
		for cycle := range 8 {
			s := tickUntil(t, tb, alice, c, "the end of a hand", handOver)
			if !s.Seats[seat].InHand && s.You == nil {
				t.Fatalf("cycle %d: alice busted", cycle)
			}
			next := (s.Hand.Button + 1) % cfg.Seats
			for next == 0 || next == seat { // the bot's, or hers: the next free one
				next = (next + 1) % cfg.Seats
			}
			if err := tb.Stand(t.Context(), alice); err != nil {
				t.Fatal(err)
			}
			if err := tb.Sit(t.Context(), alice, next, backWith(t, tb, alice, 1000)); err != nil {
				t.Fatal(err)
			}
			seat = next
			synctest.Wait()
			s = firstDealt(t, tb, alice, c, seat, s.Hand.Number)
			if s.Hand.BigBlindSeat != seat {
				t.Fatalf("cycle %d: heads-up, back owing the big blind in seat %d, alice is dealt in hand %d with the button (the big blind in seat %d): she dodged it",
					cycle, seat, s.Hand.Number, s.Hand.BigBlindSeat)
			}
		}
		checkChips(t, tb)
	})
}

// TestButtonSkipsSeatsOwing: at a table of six seats with two or three
// players, from every button, with every set of them owing the big blind
// that leaves fewer than two others (so all are dealt in at once), the
// button goes to a seat that owes nothing whenever one is dealt in.
func TestButtonSkipsSeatsOwing(t *testing.T) {
	const n = 6
	tb := mustNew(t, Config{Name: "owing", Variant: NoLimit, Seats: n, SmallBlind: 10, BigBlind: 20,
		MinBuyIn: 200, MaxBuyIn: 2000, Bank: newBank()})
	err := tb.call(t.Context(), func() error {
		defer func() { tb.seats = make([]seat, n) }()
		for occupied := range 1 << n {
			if k := popcount(occupied); k < 2 || k > 3 {
				continue
			}
			for owing := range 1 << n {
				if owing&^occupied != 0 || owing == occupied || popcount(occupied)-popcount(owing) >= 2 {
					continue
				}
				for button := range n {
					for i := range n {
						tb.seats[i] = seat{}
						if occupied&(1<<i) != 0 {
							tb.seats[i] = seat{occupied: true, p: Player{ID: int64(i + 1)}, stack: 1000, owesBB: owing&(1<<i) != 0}
						}
					}
					tb.button = button
					dealt := tb.dealtIn()
					if popcount(occupied) != count(dealt) {
						t.Errorf("seats %06b, owing %06b, button %d: dealt %v, want all", occupied, owing, button, dealt)
					}
					if tb.seats[tb.button].owesBB {
						t.Errorf("seats %06b, owing %06b, button %d: the button goes to seat %d, which owes the big blind", occupied, owing, button, tb.button)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
