package acpc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/engine"
)

// TestImpossibleStates feeds the client's reading of a dealer's line (ParseState,
// then Replay) states no dealer may send: each is refused with ErrState, where
// the old reading played some of them on board cards it made up (a "cc" with no
// flop shown, a "c/c" whose '/' ends no round) or ignored what did not fit.
func TestImpossibleStates(t *testing.T) {
	cfg, limit := fuzzGame(t, true)
	for _, line := range []string{
		"MATCHSTATE:0:0::AsAs|",                         // a card twice in a hand
		"MATCHSTATE:0:0:cc/:AsKs|/AsKd2c",               // a hole card on the board
		"MATCHSTATE:1:0:cc/:AsKs|AsQd/2c3c4c",           // in both hands
		"MATCHSTATE:0:0:cc:AsKs|",                       // the flop dealt, not marked nor shown
		"MATCHSTATE:0:0:c/c:AsKs|",                      // a '/' that ends no round
		"MATCHSTATE:0:0:cc/cc:AsKs|/2c3c4c",             // the turn dealt, not marked nor shown
		"MATCHSTATE:0:0:cc/cc/:AsKs|/2c3c4c",            // the turn marked, not shown
		"MATCHSTATE:0:0::AsKs|/2c3c4c",                  // a flop no betting dealt
		"MATCHSTATE:0:0:cc/:AsKs|/2c3c4c5c6c7c",         // six flop cards
		"MATCHSTATE:0:0:cc/:AsKs|/2c/3c/4c/5c/6c",       // five boards
		"MATCHSTATE:0:0:cc/:AsKs|/2c3c",                 // a short flop
		"MATCHSTATE:0:0:r20000c:AsKs|QdQh",              // an all-in run-out not marked
		"MATCHSTATE:0:0:r20000c///:AsKs|QdQh/2c3c4c/5c", // nor shown
		"MATCHSTATE:0:0:r30000:AsKs|",                   // a raise past the stack
		"MATCHSTATE:0:0:r100:AsKs|",                     // a raise below the big blind
		"MATCHSTATE:0:0:fc:AsKs|",                       // an action after the hand ended
		"MATCHSTATE:0:0:cf:AsKs|",                       // a fold with nothing to call
		"MATCHSTATE:0:-3::AsKs|",                        // a hand before the first
		"MATCHSTATE:0:0::|AsKs",                         // my hole cards hidden
	} {
		s, err := ParseState(line)
		if err == nil {
			_, err = s.Replay(cfg, limit)
		}
		if !errors.Is(err, ErrState) {
			t.Errorf("%s: got %v, want an ErrState", line, err)
		}
	}
}

// deadlineBot is a ContextActor that checks or calls and writes down, at each
// decision, when it was asked and the deadline its context had (zero: none).
type deadlineBot struct {
	asked, deadlines []time.Time
}

func (b *deadlineBot) Act(v *engine.View) engine.Action {
	return b.ActContext(context.Background(), v)
}

func (b *deadlineBot) ActContext(ctx context.Context, v *engine.View) engine.Action {
	d, _ := ctx.Deadline()
	b.asked, b.deadlines = append(b.asked, time.Now()), append(b.deadlines, d)
	if v.Legal.Can(engine.Check) {
		return engine.Action{Seat: v.Legal.Seat, Kind: engine.Check}
	}
	return engine.Action{Seat: v.Legal.Seat, Kind: engine.Call, Amount: v.Legal.CallAmount}
}

// playScript runs c.Play against a dealer that sends script and then closes its
// side of the connection if hangUp, or else stays connected and silent. The
// dealer reads what the client writes unless deaf. It returns the lines the
// client wrote, Play's summary and its error, and fails the test if Play has
// not returned after a minute (it hangs).
func playScript(t *testing.T, c Client, script string, hangUp, deaf bool) ([]string, Summary, error) {
	t.Helper()
	mine, dealer := connPair(t, deaf)
	defer dealer.Close()
	written := make(chan []string, 1)
	if deaf {
		written <- nil
	} else {
		go func() {
			var got []string
			for sc := bufio.NewScanner(dealer); sc.Scan(); {
				got = append(got, sc.Text())
			}
			written <- got
		}()
	}
	go func() {
		if _, err := io.WriteString(dealer, script); err == nil && hangUp {
			dealer.(*net.TCPConn).CloseWrite() // the client's answers still go through
		}
	}()
	type played struct {
		sum Summary
		err error
	}
	done := make(chan played, 1)
	go func() {
		sum, err := c.Play(context.Background(), mine)
		done <- played{sum, err}
	}()
	select {
	case p := <-done:
		return <-written, p.sum, p.err // Play closed its end: the dealer has read it all
	case <-time.After(time.Minute):
		t.Fatalf("Play still waiting a minute after the dealer sent %.80q", script)
		return nil, Summary{}, nil
	}
}

// connPair returns the two ends of a loopback TCP connection, or of a net.Pipe
// when deaf: a pipe has no buffer, so a write waits for the other end to read.
func connPair(t *testing.T, deaf bool) (mine, dealer net.Conn) {
	t.Helper()
	if deaf {
		return net.Pipe()
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	mine, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	if dealer, err = ln.Accept(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mine.Close() })
	return mine, dealer
}

// TestClientAgainstAbusiveDealer plays the client against dealers that send what
// no dealer may: every match ends at once with an error naming the fault. The old
// client read a line of any length (a dealer streaming bytes without a line end
// grew its memory without bound), took a connection closed mid-line for the end
// of the match, waited for ever on a silent dealer or one that does not read,
// and played states that cannot follow the one before.
func TestClientAgainstAbusiveDealer(t *testing.T) {
	g, err := Builtin("holdem.nolimit.2p.reverse_blinds")
	if err != nil {
		t.Fatal(err)
	}
	first := "MATCHSTATE:0:0::AsKs|\r\n"
	for _, tc := range []struct {
		name         string
		script       string
		hangUp, deaf bool
		want         error
	}{
		{"an endless line", "MATCHSTATE:0:0::" + strings.Repeat("A", maxLine+1), false, false, ErrLineTooLong},
		{"closed mid-line", first + "MATCHSTATE:0:0:c:AsK", true, false, ErrMidLine},
		{"silent", "", false, false, ErrIdle},
		{"silent after a state", first, false, false, ErrIdle},
		{"not reading", "", false, true, ErrIdle},
		{"a hand back", "MATCHSTATE:0:1::AsKs|\r\n" + "MATCHSTATE:1:0::|AsKs\r\n", true, false, ErrState},
		{"betting back", first + "MATCHSTATE:0:0:c:AsKs|\r\n" + first, true, false, ErrState},
		{"betting changed", first + "MATCHSTATE:0:0:r300:AsKs|\r\n" + "MATCHSTATE:0:0:r300c/:AsKs|/2c3c4c\r\n" + "MATCHSTATE:0:0:r400c/c:AsKs|/2c3c4c\r\n", true, false, ErrState},
		{"position changed", first + "MATCHSTATE:1:0:c:|AsKs\r\n", true, false, ErrState},
		{"hole cards changed", first + "MATCHSTATE:0:0:c:AsQs|\r\n", true, false, ErrState},
		{"board changed", "MATCHSTATE:0:0:cc/:AsKs|/2c3c4c\r\n" + "MATCHSTATE:0:0:cc/c:AsKs|/2c3c5c\r\n", true, false, ErrState},
		{"impossible state", first + "MATCHSTATE:0:0:cc:AsKs|\r\n", true, false, ErrState},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Client{Game: g, Bot: &deadlineBot{}, Idle: 100 * time.Millisecond}
			if _, _, err := playScript(t, c, tc.script, tc.hangUp, tc.deaf); !errors.Is(err, tc.want) {
				t.Errorf("Play: %v, want %v", err, tc.want)
			}
		})
	}
}

// TestClientDeadlineWithinDealerClocks checks that the bot is given a deadline
// within the dealer's time for one action, less the margin for the answer's way
// back: the old client gave it none but its budget, so a bot slower than the
// dealer's clocks ran past them and the ACPC dealer ended the match.
func TestClientDeadlineWithinDealerClocks(t *testing.T) {
	g, err := Builtin("holdem.nolimit.2p.reverse_blinds")
	if err != nil {
		t.Fatal(err)
	}
	b := &deadlineBot{}
	c := Client{Game: g, Bot: b, Timeout: time.Second, HandTime: 30 * time.Second, PerHand: time.Minute}
	script := "MATCHSTATE:0:0:c:AsKs|\r\n" + "MATCHSTATE:0:0:cc/:AsKs|/2c3c4c\r\n" + "MATCHSTATE:1:1::|AsKs\r\n"
	if _, _, err := playScript(t, c, script, true, false); err != nil {
		t.Fatal(err)
	}
	if len(b.asked) != 3 {
		t.Fatalf("the bot was asked %d times, want 3", len(b.asked))
	}
	for i, d := range b.deadlines {
		if d.IsZero() {
			t.Errorf("decision %d: no deadline", i)
		} else if d.Sub(b.asked[i]) > c.Timeout-bot.DeadlineMargin {
			t.Errorf("decision %d: deadline %v after it was asked, want at most %v", i, d.Sub(b.asked[i]), c.Timeout-bot.DeadlineMargin)
		}
	}
}

// TestClocks checks the time a client gives an action by the dealer's clocks:
// the least of the action's limit, what is left of the hand's and what is left
// of the time the hands begun have earned at the average.
func TestClocks(t *testing.T) {
	if _, ok := (&clocks{}).left(); ok {
		t.Error("no clocks set, yet a limit")
	}
	k := clocks{timeout: 10 * time.Second, hand: 3 * time.Second, perHand: 2 * time.Second}
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	for i, step := range []struct {
		newHand bool
		spend   time.Duration
		want    time.Duration
	}{
		{true, 0, ms(2000)},         // the average's 2s of the first hand
		{false, ms(1500), ms(500)},  // 0.5s left of it
		{false, ms(600), ms(-100)},  // spent
		{true, 0, ms(1900)},         // the second hand earns 2s more: 4s - 2.1s
		{false, ms(1000), ms(900)},  // 0.9s of the bank
		{true, 0, ms(2900)},         // 6s - 3.1s
		{true, 0, ms(3000)},         // the hand's 3s, bank 8s - 3.1s
		{false, ms(2000), ms(1000)}, // the hand's
	} {
		if step.newHand {
			k.newHand()
		}
		k.spend(step.spend)
		if got, ok := k.left(); !ok || got != step.want {
			t.Errorf("step %d: left %v %v, want %v", i, got, ok, step.want)
		}
	}
}

// stuckBot is a bot without ActContext that answers only once released (a
// check or call), counting the decisions it was asked for.
type stuckBot struct {
	release chan struct{}
	asked   atomic.Int32
}

func (b *stuckBot) Act(v *engine.View) engine.Action {
	b.asked.Add(1)
	<-b.release
	return engine.Action{Seat: v.Legal.Seat, Kind: engine.Call, Amount: v.Legal.CallAmount}
}

// TestClientAnswersForALateBot plays a bot that does not answer until the match
// is over, with the dealer's clock at 300 ms an action: the client answers for
// it, a fold facing a raise, and, the bot still busy at the next decision,
// answers again without asking it, and counts both. The old client waited for
// the bot, past the dealer's clock (the ACPC dealer then ends the match), and
// counted nothing.
func TestClientAnswersForALateBot(t *testing.T) {
	g, err := Builtin("holdem.nolimit.2p.reverse_blinds")
	if err != nil {
		t.Fatal(err)
	}
	b := &stuckBot{release: make(chan struct{})}
	defer close(b.release)
	c := Client{Game: g, Bot: b, Timeout: 300 * time.Millisecond}
	script := "MATCHSTATE:0:0:r300:AsKs|\r\n" + "MATCHSTATE:0:0:r300f:AsKs|\r\n" + "MATCHSTATE:1:1::|7c2d\r\n"
	got, sum, err := playScript(t, c, script, true, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{Version, "MATCHSTATE:0:0:r300:AsKs|:f", "MATCHSTATE:1:1::|7c2d:f"}
	if !slices.Equal(got, want) {
		t.Errorf("the client wrote %q, want %q", got, want)
	}
	if sum != (Summary{Hands: 2, Late: 2}) {
		t.Errorf("summary %+v, want 2 hands and 2 decisions answered for a late bot", sum)
	}
	if n := b.asked.Load(); n != 1 {
		t.Errorf("the bot was asked %d times, want 1 (the second decision came while it was busy)", n)
	}
}

// panicBot checks or calls, but panics at every decision on the flop.
type panicBot struct{ asked int }

func (b *panicBot) Act(v *engine.View) engine.Action {
	b.asked++
	if v.Street == engine.Flop {
		panic(fmt.Sprintf("flop decision %d", b.asked))
	}
	if v.Legal.Can(engine.Check) {
		return engine.Action{Seat: v.Legal.Seat, Kind: engine.Check}
	}
	return engine.Action{Seat: v.Legal.Seat, Kind: engine.Call, Amount: v.Legal.CallAmount}
}

// TestClientAnswersForAPanickingBot plays a bot that panics on the flop: each
// panic costs that decision a check (a fold facing a bet), the match carries on
// with the bot asked again, the panics are counted and the first one is logged
// with its stack, once. The old client let the panic end the process.
func TestClientAnswersForAPanickingBot(t *testing.T) {
	g, err := Builtin("holdem.nolimit.2p.reverse_blinds")
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	b := &panicBot{}
	c := Client{Game: g, Bot: b, Timeout: time.Minute, Log: &log}
	script := "MATCHSTATE:0:0:c:AsKs|\r\n" + // preflop: calls
		"MATCHSTATE:0:0:cc/:AsKs|/2c3c4c\r\n" + // flop: panics, checked for it
		"MATCHSTATE:0:0:cc/cr400:AsKs|/2c3c4c\r\n" + // flop, facing a bet: panics, folded for it
		"MATCHSTATE:1:1::|7c2d\r\n" // the next hand: the bot is asked again
	got, sum, err := playScript(t, c, script, true, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{Version, "MATCHSTATE:0:0:c:AsKs|:c", "MATCHSTATE:0:0:cc/:AsKs|/2c3c4c:c",
		"MATCHSTATE:0:0:cc/cr400:AsKs|/2c3c4c:f", "MATCHSTATE:1:1::|7c2d:c"}
	if !slices.Equal(got, want) {
		t.Errorf("the client wrote %q, want %q", got, want)
	}
	if sum != (Summary{Hands: 2, Panics: 2}) || b.asked != 4 {
		t.Errorf("summary %+v, bot asked %d times; want 2 hands, 2 panics, 4 questions", sum, b.asked)
	}
	text := log.String()
	if strings.Count(text, "bot panicked") != 1 || !strings.Contains(text, "flop decision 2") ||
		!strings.Contains(text, "(*panicBot).Act") {
		t.Errorf("want the first panic logged once, with its stack; logged:\n%s", text)
	}
}
