package table

import (
	"fmt"
	"testing"
)

// blindSeats returns where the engine puts the blinds of a hand dealing
// dealt with the button at button (three seats dealt or more): the first
// and second seats dealt after it.
func blindSeats(dealt []bool, button int) (sb, bb int) {
	n, sb, bb := len(dealt), -1, -1
	for k := 1; k <= n && bb < 0; k++ {
		if i := (button + k) % n; !dealt[i] {
			continue
		} else if sb < 0 {
			sb = i
		} else {
			bb = i
		}
	}
	return sb, bb
}

// TestOwingSeatsPostTheBigBlind deals, at a table of six seats, hands from
// every button and every set of seats owing the big blind (sat out while
// hands were dealt, or back soon after leaving), with at least two others to
// play without them: a seat owing the big blind is first dealt in where the
// engine puts the big blind, and within an orbit and a half. Before, two
// adjacent seats owing it, the first where the small blind falls, had the
// second dealt in at once posting the small blind: it then had the button
// and never paid the big blind it owed.
func TestOwingSeatsPostTheBigBlind(t *testing.T) {
	const n = 6
	tb := mustNew(t, Config{Name: "owing", Variant: NoLimit, Seats: n, SmallBlind: 10, BigBlind: 20,
		MinBuyIn: 200, MaxBuyIn: 2000, Bank: newBank()})
	err := tb.call(t.Context(), func() error {
		defer func() { tb.seats = make([]seat, n) }()
		for button := range n {
			for owing := range 1 << n {
				if n-popcount(owing) < 2 {
					continue // too few to deal without them: all are dealt in at once
				}
				if err := dealOwing(tb, button, owing); err != nil {
					t.Error(err)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func popcount(x int) int {
	c := 0
	for ; x > 0; x &= x - 1 {
		c++
	}
	return c
}

// dealOwing seats six players at tb, those in the bits of owing owing the
// big blind, the button at button, and deals hands (dealtIn, as startHand
// marks them) until none owes: it returns what went wrong.
func dealOwing(tb *Table, button, owing int) error {
	n := len(tb.seats)
	for i := range n {
		tb.seats[i] = seat{occupied: true, p: Player{ID: int64(i + 1), Name: fmt.Sprint("p", i)}, stack: 1000, owesBB: owing&(1<<i) != 0}
	}
	tb.button = button
	for hand := 1; hand <= n+n/2; hand++ {
		dealt := tb.dealtIn()
		_, bb := blindSeats(dealt, tb.button)
		for i := range n {
			if dealt[i] && tb.seats[i].owesBB && i != bb {
				return fmt.Errorf("button %d, owing %06b: seat %d, owing the big blind, dealt in hand %d where the big blind is seat %d (button %d)",
					button, owing, i, hand, bb, tb.button)
			}
			if dealt[i] {
				tb.seats[i].owesBB = false
			}
		}
		if tb.seats[tb.button].owesBB {
			return fmt.Errorf("button %d, owing %06b: the button on seat %d, which owes the big blind", button, owing, tb.button)
		}
		still := false
		for i := range n {
			still = still || tb.seats[i].owesBB
		}
		if !still {
			return nil
		}
	}
	return fmt.Errorf("button %d, owing %06b: seats still owe the big blind after %d hands", button, owing, n+n/2)
}
