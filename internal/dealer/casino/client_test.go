package casino

import (
	"context"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// talk runs c.Play against a dealer that sends each of questions, reading the
// client's reply to each but the last (done), and returns the replies and
// Play's summary. It fails the test if Play has not returned after a minute.
func talk(t *testing.T, c Client, questions []string) ([]string, Summary) {
	t.Helper()
	mine, dealer := net.Pipe()
	defer dealer.Close()
	type played struct {
		sum Summary
		err error
	}
	done := make(chan played, 1)
	go func() {
		sum, err := c.Play(context.Background(), mine)
		done <- played{sum, err}
	}()
	var replies []string
	for i, q := range questions {
		if err := WriteUTF(dealer, q); err != nil {
			t.Fatalf("write %q: %v", q, err)
		}
		if i == len(questions)-1 {
			break
		}
		r, err := ReadUTF(dealer)
		if err != nil {
			t.Fatalf("reply to %q: %v", q, err)
		}
		replies = append(replies, r)
	}
	select {
	case p := <-done:
		if p.err != nil {
			t.Fatal(p.err)
		}
		return replies, p.sum
	case <-time.After(time.Minute):
		t.Fatal("Play still going a minute after done")
		return nil, Summary{}
	}
}

// casinoScript is a login, two first-round questions (nothing to call, then 3
// to call), a second-round one (4 to call) and done.
func casinoScript(t *testing.T) []string {
	t.Helper()
	card := func(s string) (c cards.Card) {
		var err error
		if c, err = ParseCard(s); err != nil {
			t.Fatal(err)
		}
		return c
	}
	hole, up, up2, other, other2 := card("10S"), card("QH"), card("3D"), card("AD"), card("AC")
	return []string{MsgLogin,
		Bet1{Stack: 99, Pot: 3, Hole: hole, Up: up, Ups: []cards.Card{up, other}}.String(),
		Bet1{Stack: 99, Pot: 6, ToCall: 3, Hole: hole, Up: up, Ups: []cards.Card{up, other}}.String(),
		Bet2{Stack: 90, Pot: 21, ToCall: 4, Hole: hole, Up1: up, Up2: up2, Ups: [][2]cards.Card{{up, up2}, {other, other2}}}.String(),
		Done("game over")}
}

// firstRoundPanics calls or checks, but panics at every question of the first round.
type firstRoundPanics struct{ asked int }

func (b *firstRoundPanics) Act(v *engine.View) engine.Action {
	b.asked++
	if v.Street == engine.StudOne {
		panic("first round")
	}
	if v.Legal.Can(engine.Check) {
		return engine.Action{Seat: v.Legal.Seat, Kind: engine.Check}
	}
	return engine.Action{Seat: v.Legal.Seat, Kind: engine.Call, Amount: v.Legal.CallAmount}
}

// TestClientAnswersForAPanickingBot: a bot that panics costs each such question a
// check (bet:0) or a fold; the game carries on, the bot is asked again, the
// panics are counted and the first is logged with its stack, once. The old
// client let the panic end the process.
func TestClientAnswersForAPanickingBot(t *testing.T) {
	var log strings.Builder
	b := &firstRoundPanics{}
	replies, sum := talk(t, Client{ID: "octocat", Avatar: "Cat", Bot: b, PanicLog: &log}, casinoScript(t))
	if want := []string{"octocat:Cat", Bet(0), MsgFold, Bet(4)}; !slices.Equal(replies, want) {
		t.Errorf("replies %q, want %q", replies, want)
	}
	if sum.Panics != 2 || sum.Late != 0 || sum.Done != "game over" || b.asked != 3 {
		t.Errorf("summary %+v, bot asked %d times; want 2 panics, done, 3 questions", sum, b.asked)
	}
	if text := log.String(); strings.Count(text, "bot panicked: first round") != 1 || !strings.Contains(text, "(*firstRoundPanics).Act") {
		t.Errorf("want the first panic logged once with its stack; logged:\n%s", text)
	}
}

// stuck never answers before release is closed.
type stuck struct {
	release chan struct{}
	asked   atomic.Int32
}

func (b *stuck) Act(v *engine.View) engine.Action {
	b.asked.Add(1)
	<-b.release
	return engine.Action{Seat: v.Legal.Seat, Kind: engine.Fold}
}

// TestClientAnswersForALateBot: a bot that does not answer within the dealer's
// timeout is answered for (a check, then folds) before the dealer's time is up,
// is not asked again while still busy, and every such answer is counted. The
// old client waited for the bot, and the dealer put it out as too slow.
func TestClientAnswersForALateBot(t *testing.T) {
	b := &stuck{release: make(chan struct{})}
	defer close(b.release)
	replies, sum := talk(t, Client{ID: "octocat", Avatar: "Cat", Bot: b, Timeout: 300 * time.Millisecond}, casinoScript(t))
	if want := []string{"octocat:Cat", Bet(0), MsgFold, MsgFold}; !slices.Equal(replies, want) {
		t.Errorf("replies %q, want %q", replies, want)
	}
	if sum.Late != 3 || sum.Panics != 0 || b.asked.Load() != 1 {
		t.Errorf("summary %+v, bot asked %d times; want 3 late answers and the bot asked once", sum, b.asked.Load())
	}
}
