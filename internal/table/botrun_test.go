package table

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/engine"
)

// stubBot is a bot the test drives: it reports each question on asked and
// answers what the test sends on answers (a fold once answers is closed). A
// patient stub also answers when its context ends, with an all-in raise (an
// answer that must never be applied once stale); panicky ones panic instead.
type stubBot struct {
	asked    chan struct{}
	answers  chan engine.Action
	patient  bool
	panicky  bool
	returned atomic.Int32 // questions answered
}

func newStub() *stubBot {
	return &stubBot{asked: make(chan struct{}, 64), answers: make(chan engine.Action)}
}

func (b *stubBot) Act(v *engine.View) engine.Action { return b.ActContext(context.Background(), v) }

func (b *stubBot) ActContext(ctx context.Context, v *engine.View) engine.Action {
	defer b.returned.Add(1)
	b.asked <- struct{}{}
	if b.panicky {
		panic("stub bot gives up")
	}
	var done <-chan struct{}
	if b.patient {
		done = ctx.Done()
	}
	select {
	case a, ok := <-b.answers:
		if !ok {
			return engine.Action{Kind: engine.Fold}
		}
		return a
	case <-done:
		return engine.Action{Kind: engine.Raise, Amount: v.Legal.MaxTo}
	}
}

// stubTable opens a heads-up table with sb in seat 0 (the first button: it acts
// first) and alice, watching through the client returned, in seat 1.
func stubTable(t *testing.T, b *bank, sb *stubBot) (*Table, Player, *client) {
	t.Helper()
	cfg := testConfig(b, "call")
	cfg.Seats = 2
	cfg.NewBot = func(string, bot.Options) (bot.Bot, error) { return sb, nil }
	tb := mustNew(t, cfg)
	t.Cleanup(func() { close(sb.answers) }) // before mustNew's Close: a stub that ignores its context returns
	alice, c := Player{1, "alice"}, &client{}
	if _, err := tb.Watch(t.Context(), alice, c); err != nil {
		t.Fatal(err)
	}
	if err := tb.Sit(t.Context(), alice, 1, 1000); err != nil {
		t.Fatal(err)
	}
	return tb, alice, c
}

// While a bot thinks, the table serves everything else: a chat line and a new
// watcher are answered at once, and the bot's answer is applied when it comes.
// The old table asked bots on its own goroutine and answered nothing meanwhile.
func TestTableServesWhileBotThinks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		sb := newStub()
		sb.patient = true
		tb, alice, c := stubTable(t, b, sb)
		<-sb.asked
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		if err := tb.Chat(ctx, alice, "", "are you thinking?"); err != nil {
			t.Fatalf("chat while the bot thinks: %v", err)
		}
		bob := &client{}
		if _, err := tb.Watch(ctx, Player{2, "bob"}, bob); err != nil {
			t.Fatalf("watch while the bot thinks: %v", err)
		}
		synctest.Wait()
		if s := bob.last(t); s == nil || s.Hand == nil || s.Hand.ToAct != 0 {
			t.Fatalf("bob's state %+v: want the hand with the bot to act", s)
		}
		sb.answers <- engine.Action{Kind: engine.Call}
		time.Sleep(100 * time.Millisecond) // the bot delay
		synctest.Wait()
		if s := c.last(t); s.Hand == nil || s.Hand.ToAct != 1 || s.Hand.Legal == nil || s.Seats[0].Bet != 20 {
			t.Fatalf("after the bot's call: %+v", s.Hand)
		}
		checkChips(t, tb)
	})
}

// A bot that never answers: the clock acts for it (a fold, as the button before
// the flop), the table deals on, and its answer, when it comes at last, is
// dropped: it does not touch the next hand.
func TestClockActsForSilentBot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		sb := newStub() // ignores its context
		tb, alice, c := stubTable(t, b, sb)
		<-sb.asked
		time.Sleep(10*time.Second + 10*time.Millisecond) // the clock: bots have no time bank
		synctest.Wait()
		if n := b.numHands(); n != 1 {
			t.Fatalf("%d hands recorded after the bot's clock ran out, want 1 (the clock folds for it)", n)
		}
		for _, p := range b.hands[0].Players {
			if want := map[int]int64{0: -10, 1: 10}[p.Seat]; p.Net != want {
				t.Fatalf("seat %d net %d, want %d", p.Seat, p.Net, want)
			}
		}
		time.Sleep(2 * time.Second) // the next hand: alice is the button, to act
		synctest.Wait()
		s := c.last(t)
		if s.Hand == nil || s.Hand.Number != 2 || s.Hand.Legal == nil {
			t.Fatalf("hand %+v: want hand 2 with alice to act", s.Hand)
		}
		sb.answers <- engine.Action{Kind: engine.Raise, Amount: 990} // hand 1's answer, late
		synctest.Wait()
		if s := c.last(t); s.Seats[0].AllIn || s.Seats[0].Bet != 20 || s.Hand.ToAct != 1 {
			t.Fatalf("the late answer was applied: %+v", s.Seats[0])
		}
		if err := tb.Act(t.Context(), alice, engine.Call, 0); err != nil {
			t.Fatal(err)
		}
		<-sb.asked // hand 2's question, asked afresh
		sb.answers <- engine.Action{Kind: engine.Check}
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		if s := c.last(t); s.Hand.Street != "flop" {
			t.Fatalf("after the bot's check the hand is on the %s, want the flop", s.Hand.Street)
		}
		checkChips(t, tb)
	})
}

// A bot that panics is caught: its seat folds (or checks) and the table plays on.
func TestBotPanicFolds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		sb := newStub()
		sb.panicky = true
		tb, alice, c := stubTable(t, b, sb)
		<-sb.asked
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		if n := b.numHands(); n != 1 {
			t.Fatalf("%d hands recorded after the bot panicked, want 1 (folded for it)", n)
		}
		if err := tb.Chat(t.Context(), alice, "", "still here"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if s := c.last(t); s.Hand == nil || s.Hand.Number != 2 || s.Hand.Over {
			t.Fatalf("hand %+v: want hand 2 in play", s.Hand)
		}
		checkChips(t, tb)
	})
}

// Closing or handing over a table while its bot thinks returns at once; the
// bot's goroutine ends (its context is cancelled) before Done, and its answer,
// an all-in, is applied nowhere: no hand is recorded and, after Close, alice has
// all her credits back. No goroutine is left behind: synctest.Test fails a test
// whose bubble still holds a blocked goroutine when it ends.
func TestStopWhileBotThinks(t *testing.T) {
	for _, stop := range []struct {
		name string
		f    func(tb *Table, ctx context.Context) error
	}{
		{"close", func(tb *Table, ctx context.Context) error { return tb.Close(ctx, "test") }},
		{"hand over", func(tb *Table, ctx context.Context) error { return tb.HandOver(ctx, "test") }},
	} {
		t.Run(stop.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				b := newBank(1)
				sb := newStub()
				sb.patient = true
				tb, _, _ := stubTable(t, b, sb)
				<-sb.asked
				ctx, cancel := context.WithTimeout(t.Context(), time.Second)
				defer cancel()
				if err := stop.f(tb, ctx); err != nil {
					t.Fatalf("%s while the bot thinks: %v", stop.name, err)
				}
				select {
				case <-tb.Done():
				default:
					t.Fatal("Done is open after the table stopped")
				}
				if n := sb.returned.Load(); n != 1 {
					t.Fatalf("the bot answered %d questions by Done, want 1", n)
				}
				synctest.Wait()
				if n := b.numHands(); n != 0 {
					t.Fatalf("%d hands recorded: the bot's answer after the stop was applied", n)
				}
				if stop.name == "close" && b.credits[1] != 10_000 {
					t.Fatalf("alice has %d credits after the close, want 10000", b.credits[1])
				}
			})
		})
	}
}

// An answer to a question the hand has moved past is stale: bob leaves while the
// bot thinks about its first action, the table asks the bot again about the
// hand as it is now, and the first answer (a raise), when it comes, is dropped;
// the second (a call) is played.
func TestStaleBotAnswerDropped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1, 2)
		sb := newStub() // ignores its context
		cfg := testConfig(b, "call")
		cfg.Seats = 3
		cfg.NewBot = func(string, bot.Options) (bot.Bot, error) { return sb, nil }
		tb := mustNew(t, cfg)
		t.Cleanup(func() { close(sb.answers) })
		alice, bob, c := Player{1, "alice"}, Player{2, "bob"}, &client{}
		tb.Watch(t.Context(), alice, c)
		for i, p := range []Player{alice, bob} {
			if err := tb.Sit(t.Context(), p, i+1, 1000); err != nil {
				t.Fatal(err)
			}
		}
		<-sb.asked // hand 1, the bot and alice (bob sat after it began, and waits for the big blind): the bot folds
		sb.answers <- engine.Action{Kind: engine.Fold}
		time.Sleep(2 * time.Second) // hand 2, the bot and alice: alice the button folds
		synctest.Wait()
		if err := tb.Act(t.Context(), alice, engine.Fold, 0); err != nil {
			t.Fatalf("alice folds: %v", err)
		}
		// hand 3: the bot the button, alice the small blind, bob the big: the bot is first to act
		<-sb.asked
		if s := c.last(t); s.Hand == nil || s.Hand.Number != 3 || s.Hand.BigBlindSeat != 2 {
			t.Fatalf("hand 3 %+v: want bob dealt in at the big blind", s.Hand)
		}
		if err := tb.Leave(t.Context(), bob); err != nil {
			t.Fatal(err)
		}
		sb.answers <- engine.Action{Kind: engine.Raise, Amount: 990} // the answer to the first question
		<-sb.asked                                                   // asked again, bob gone
		sb.answers <- engine.Action{Kind: engine.Call}
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		if err := tb.Act(t.Context(), alice, engine.Call, 0); err != nil {
			t.Fatalf("alice calls: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		s := c.last(t)
		if s.Hand == nil || s.Hand.Number != 3 || s.Hand.Street != "flop" || s.Seats[0].Stack != 1980 {
			t.Fatalf("after the stale raise and the call: hand %+v, the bot's seat %+v; want the flop with the bot's 20 in", s.Hand, s.Seats[0])
		}
		checkChips(t, tb)
	})
}
