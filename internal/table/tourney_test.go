package table

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
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

// TestTourneyTakeoverKeepsAwayAndGrace takes a tournament's table over 40 s
// after alice's connection dropped (a minute of grace), while bob is connected
// and carol sits out: after the takeover all three are away until they
// reconnect, alice with the grace she had left (she is sat out, blinded out,
// some 20 s later, not a minute later), and carol still sits out. Before,
// the table taken over had nobody away and nobody sitting out: alice's
// grace was gone and carol was dealt in with a full clock again. Dave, whom
// the tournament moved to the table and its log does not seat, is away too.
func TestTourneyTakeoverKeepsAwayAndGrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, log := newBank(), &memLog{}
		alice, bob, carol := Player{1, "alice"}, Player{2, "bob"}, Player{3, "carol"}
		cfg := testConfig(b)
		cfg.Grace, cfg.MaxTimeouts, cfg.HandLog = time.Minute, 100, log
		cfg.Tourney = &Tourney{
			ID:      9,
			Seats:   []TourneySeat{{Player: alice, Stack: 5000}, {Player: bob, Stack: 5000}, {Player: carol, Stack: 5000}},
			Blinds:  func(time.Time) (int, int64, int64, int64) { return 0, 10, 20, 0 },
			HandEnd: func(TourneyHand) []Player { return nil },
		}
		a := mustNew(t, cfg)
		ctx := t.Context()
		aliceWatch, err := a.Watch(ctx, alice, &client{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []Player{bob, carol} {
			if _, err := a.Watch(ctx, p, &client{}); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.SitOut(ctx, carol); err != nil {
			t.Fatal(err)
		}
		if err := a.Unwatch(ctx, aliceWatch); err != nil {
			t.Fatal(err)
		}
		time.Sleep(40 * time.Second)
		lose(t, a, log, false)
		// Dave, moved to the table by the tournament, is not in its log.
		dave, moved := Player{4, "dave"}, *cfg.Tourney
		moved.Seats = append(slices.Clone(moved.Seats), TourneySeat{Player: dave, Stack: 5000})
		cfg.Tourney = &moved
		bt := takeOver(t, cfg, log, 5*time.Second, nil)

		type seatNow struct {
			away, sittingOut bool
			awayFor          time.Duration
		}
		look := func() map[int64]seatNow {
			out := map[int64]seatNow{}
			_ = bt.call(ctx, func() error {
				for _, st := range bt.seats {
					if st.occupied {
						out[st.p.ID] = seatNow{st.away, st.sittingOut, time.Since(st.awaySince)}
					}
				}
				return nil
			})
			return out
		}
		now := look()
		// Alice's grace as the lost node last wrote it (it notes a clock every 5 s).
		if s := now[alice.ID]; !s.away || s.awayFor < 34*time.Second || s.awayFor > 40*time.Second {
			t.Errorf("alice after the takeover: %+v, want away for 35 to 40 s", s)
		}
		if s := now[bob.ID]; !s.away || s.awayFor > time.Second {
			t.Errorf("bob after the takeover: %+v, want away since the takeover", s)
		}
		if s := now[carol.ID]; !s.sittingOut {
			t.Errorf("carol after the takeover: %+v, want sitting out", s)
		}
		if s := now[dave.ID]; !s.away || s.awayFor > time.Second {
			t.Errorf("dave, seated at the takeover: %+v, want away since then", s)
		}
		if _, err := bt.Watch(ctx, bob, &client{}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Second)
		if s := look()[alice.ID]; s.sittingOut {
			t.Fatalf("alice sat out 10 s after the takeover: her grace was cut short (%+v)", s)
		}
		time.Sleep(17 * time.Second)
		now = look()
		if s := now[alice.ID]; !s.sittingOut {
			t.Errorf("alice 27 s after the takeover: %+v, want sat out (her grace ran out)", s)
		}
		if s := now[bob.ID]; s.away || s.sittingOut {
			t.Errorf("bob, back, 27 s after the takeover: %+v, want playing", s)
		}
	})
}
