package table

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// TestTourneyTable plays a tournament's table of three all-in bots and a player
// who sits out from the start: the player is dealt every hand and blinded out;
// every hand is reported with the busted players' starting stacks; nobody buys
// in, tops up or leaves; and the chips are conserved, none of them booked.
func TestTourneyTable(t *testing.T) {
	b := newBank(1)
	p := Player{ID: 1, Name: "alice"}
	var (
		mu      sync.Mutex
		reports []TourneyHand
	)
	done := make(chan struct{})
	cfg := testConfig(b)
	cfg.BotDelay, cfg.HandPause = time.Millisecond, time.Millisecond
	cfg.Tourney = &Tourney{
		ID: 7,
		Seats: []TourneySeat{{Player: p, Stack: 300}, {Player: Player{Name: "bot-raise-2"}, Bot: "raise", Stack: 300},
			{Player: Player{Name: "bot-raise-3"}, Bot: "raise", Stack: 300}, {Player: Player{Name: "bot-call-4"}, Bot: "call", Stack: 300}},
		Blinds: func(time.Time) (int, int64, int64, int64) { return 2, 25, 50, 5 },
		HandEnd: func(h TourneyHand) []Player {
			mu.Lock()
			defer mu.Unlock()
			reports = append(reports, h)
			if len(h.Seats) == 1 {
				close(done)
				return []Player{h.Seats[0].Player} // the winner leaves
			}
			return nil
		},
	}
	tb := mustNew(t, cfg)
	ctx := context.Background()
	if err := tb.SitOut(ctx, p); err != nil {
		t.Fatal(err)
	}
	if err := tb.Sit(ctx, Player{ID: 2, Name: "bob"}, -1, 300); !errors.Is(err, ErrTourneySeat) {
		t.Errorf("buy in: %v", err)
	}
	if err := tb.TopUp(ctx, p, 100); !errors.Is(err, ErrTourneySeat) {
		t.Errorf("top up: %v", err)
	}
	if _, err := tb.JoinWaitlist(ctx, Player{ID: 2, Name: "bob"}, ""); !errors.Is(err, ErrTourneySeat) {
		t.Errorf("join the waiting list: %v", err)
	}
	if err := tb.Leave(ctx, p); err != nil {
		t.Errorf("leave: %v", err)
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("no winner")
	}
	in, err := tb.Info(ctx)
	if err != nil || in.Tournament != 7 || in.BigBlind != 50 || in.Level != 2 || in.Taken != 0 {
		t.Errorf("info after the last hand: %+v %v", in, err)
	}
	checkChips(t, tb)
	mu.Lock()
	defer mu.Unlock()
	busted, dealt := 0, false
	for _, h := range reports {
		var sum int64 // the busted have none left
		for _, s := range h.Seats {
			sum += s.Stack
			dealt = dealt || (s.Player == p && s.Stack != 300) // blinded
		}
		for _, s := range h.Busted {
			busted++
			if s.Stack <= 0 {
				t.Errorf("hand %d: %s busted with a starting stack of %d", h.Hand, s.Player.Name, s.Stack)
			}
			dealt = dealt || s.Player == p
		}
		if sum != 1200 {
			t.Errorf("hand %d: stacks sum to %d", h.Hand, sum)
		}
	}
	if busted != 3 || !dealt {
		t.Errorf("%d busted, the player sitting out dealt: %v", busted, dealt)
	}
	if b.credits[1] != 10_000 {
		t.Errorf("credits moved: %d", b.credits[1])
	}
	if _, err := tb.UnseatTourney(ctx, p); !errors.Is(err, ErrNotSeated) && !errors.Is(err, ErrClosed) {
		t.Errorf("unseat a player gone: %v", err)
	}
}
