package acpc

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// promptTimeout is the per-action timeout of the misbehaving-client matches: the
// dealer's default, which a client answering at once over loopback meets even
// when the machine is so loaded (a load of 40 on two cores) that its goroutine
// waits a tenth of a second or more for a core. A well-behaved player is never
// late against it, so the tests can tell it from a bad one.
const promptTimeout = time.Second

// testTimeout is the per-action timeout of the time-limit tests, where only the
// staller's time is checked: short, so that stalling costs little.
const testTimeout = 40 * time.Millisecond

// answerFunc is how a scripted client answers the n-th state (from 1) in which it
// is to act: reply is the action ("c", "r", "f", "r<N>"), the whole line when it
// starts with '!', or nothing when empty; hangUp closes the connection instead.
type answerFunc func(n int, line string, h *engine.Hand) (reply string, hangUp bool)

// scripted connects to addr, announces version and answers as f says until the
// dealer closes the connection. It returns the lines it got.
func scripted(t *testing.T, addr, version string, g *GameDef, f answerFunc) <-chan []string {
	t.Helper()
	out := make(chan []string, 1)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Error(err)
		out <- nil
		return out
	}
	go func() {
		defer conn.Close()
		var got []string
		defer func() { out <- got }()
		if _, err := io.WriteString(conn, version+"\r\n"); err != nil {
			return
		}
		cfg, _ := g.Config()
		limit := cfg.Structure == engine.FixedLimit
		r := bufio.NewReader(conn)
		n := 0
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\r\n")
			got = append(got, line)
			if f == nil || comment(line) {
				continue
			}
			s, err := ParseState(line)
			if err != nil {
				t.Errorf("dealer sent %q: %v", line, err)
				return
			}
			h, err := s.Replay(cfg, limit)
			if err != nil {
				t.Errorf("dealer sent %q: %v", line, err)
				return
			}
			if h.Over() || h.ToAct() != s.Position {
				continue
			}
			n++
			reply, hangUp := f(n, line, h)
			if hangUp {
				return
			}
			switch {
			case reply == "":
				continue
			case reply[0] == '!':
				reply = reply[1:]
			default:
				reply = line + ":" + reply
			}
			if _, err := io.WriteString(conn, reply+"\r\n"); err != nil {
				return
			}
		}
	}()
	return out
}

// raiser bets or raises whenever it may and calls otherwise (limit games).
func raiser(_ int, _ string, h *engine.Hand) (string, bool) {
	l := h.Legal()
	if l.Can(engine.Bet) || l.Can(engine.Raise) {
		return ActionString(h, true, engine.Action{Seat: l.Seat, Kind: engine.Raise, Amount: l.MinTo}), false
	}
	return "c", false
}

// feltBot answers with felt's random bot, as felt's client would.
func feltBot(limit bool) answerFunc {
	b, _ := bot.New("random", bot.Options{})
	var mu sync.Mutex
	return func(_ int, _ string, h *engine.Hand) (string, bool) {
		mu.Lock()
		defer mu.Unlock()
		v := h.View(h.ToAct())
		return ActionString(h, limit, b.Act(&v)), false
	}
}

// match is a dealer on two loopback ports; run plays it.
type match struct {
	m     Match
	lns   [2]net.Listener
	log   bytes.Buffer // the ACPC log
	diag  syncBuffer   // the diagnostics
	addrs [2]string
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newMatch(t *testing.T, game string, deals int) *match {
	t.Helper()
	g, err := Builtin(game)
	if err != nil {
		t.Fatal(err)
	}
	x := &match{}
	for i := range x.lns {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		x.lns[i] = ln
		x.addrs[i] = ln.Addr().String()
	}
	seed := cards.SeedFromUint64(11)
	x.m = Match{Game: g, Deals: deals, Seed: &seed, Timeout: promptTimeout, Names: [2]string{"bad", "good"},
		Log: &x.log, Logger: slog.New(slog.NewTextHandler(&x.diag, nil))}
	return x
}

// run plays the match and checks what every match must show: all hands played,
// scores summing to zero, and a log whose STATE lines add up to its SCORE line.
func (x *match) run(t *testing.T) Score {
	t.Helper()
	done := make(chan struct{})
	var score Score
	var err error
	go func() {
		defer close(done)
		score, err = x.m.Run(context.Background(), x.lns)
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("match never ended")
	}
	if err != nil {
		t.Fatalf("%v\n%s", err, x.diag.String())
	}
	if score.Hands != 2*x.m.Deals || score.Total[0]+score.Total[1] != 0 {
		t.Fatalf("score %+v, want %d hands summing to zero", score, 2*x.m.Deals)
	}
	lines := strings.Split(strings.TrimSpace(x.log.String()), "\n")
	if len(lines) != score.Hands+1 {
		t.Fatalf("log has %d lines for %d hands", len(lines), score.Hands)
	}
	var sum [2]int64
	for i, l := range lines[:score.Hands] {
		f := strings.Split(l, ":")
		if len(f) != 6 || f[0] != "STATE" || f[1] != strconv.Itoa(i) {
			t.Fatalf("log line %q", l)
		}
		nets, names := strings.Split(f[4], "|"), strings.Split(f[5], "|")
		for pos := range 2 {
			n, _ := strconv.ParseInt(nets[pos], 10, 64)
			sum[map[string]int{"bad": 0, "good": 1}[names[pos]]] += n
		}
	}
	if want := fmt.Sprintf("SCORE:%d|%d:bad|good", score.Total[0], score.Total[1]); lines[score.Hands] != want || sum != score.Total {
		t.Fatalf("log ends %q with hands summing to %v; want %q", lines[score.Hands], sum, want)
	}
	return score
}

// TestMisbehavingClients plays short matches in which player 0 stalls, sends
// garbage, sends illegal actions, hangs up mid-hand or announces the wrong
// version, against a well-behaved player 1: every match is played to its end with
// the scores summing to zero and logged, and the bad player's actions are
// replaced and reported.
func TestMisbehavingClients(t *testing.T) {
	const limitGame, noLimit = "holdem.limit.2p.reverse_blinds", "holdem.nolimit.2p.reverse_blinds"
	cases := []struct {
		name, game string
		bad        answerFunc
		check      func(t *testing.T, s Score, diag string, got []string)
	}{
		{"stall", limitGame, func(int, string, *engine.Hand) (string, bool) { return "", false },
			func(t *testing.T, s Score, diag string, _ []string) {
				if s.Late[0] == 0 || s.Late[0] != s.Replaced[0] || s.Replaced[1] != 0 || s.Used[0] < time.Duration(s.Late[0])*promptTimeout {
					t.Errorf("stalling player: %+v", s)
				}
			}},
		{"garbage", noLimit, func(n int, _ string, _ *engine.Hand) (string, bool) {
			if n == 6 {
				return "!" + strings.Repeat("y", maxLine+1), false // ends the connection
			}
			return [...]string{"!hello", "!\x00\xff\xfe", "!MATCHSTATE", "!" + strings.Repeat("x", 5000)}[n%4], false
		}, func(t *testing.T, s Score, diag string, _ []string) {
			if s.Replaced[0] < 6 || s.Late[0] != 0 || !strings.Contains(diag, "bad match state") || !strings.Contains(diag, "token too long") {
				t.Errorf("garbage: %+v", s)
			}
		}},
		{"illegal", noLimit, func(n int, _ string, h *engine.Hand) (string, bool) {
			// a raise below the minimum, a raise without a size, a fold out of turn in
			// the wrong hand's state: all refused
			return [...]string{"r1", "r", "x", "r999999999"}[n%4], false
		}, func(t *testing.T, s Score, diag string, _ []string) {
			if s.Replaced[0] == 0 || s.Late[0] != 0 || !strings.Contains(diag, "illegal action") {
				t.Errorf("illegal actions: %+v", s)
			}
		}},
		{"hang up", limitGame, func(n int, line string, h *engine.Hand) (string, bool) {
			if n == 3 {
				return "", true // mid-hand: the third decision is not answered
			}
			return "c", false
		}, func(t *testing.T, s Score, diag string, got []string) {
			if s.Replaced[0] == 0 || s.Late[0] != 0 || !strings.Contains(diag, errGone.Error()) {
				t.Errorf("hang up: %+v", s)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			deals := 4
			if c.name == "stall" {
				deals = 1 // every decision costs a timeout
			}
			x := newMatch(t, c.game, deals)
			bad := scripted(t, x.addrs[0], Version, x.m.Game, c.bad)
			good := scripted(t, x.addrs[1], Version, x.m.Game, feltBot(x.m.Game.Limit))
			s := x.run(t)
			got := <-bad
			<-good
			c.check(t, s, x.diag.String(), got)
		})
	}

	t.Run("wrong version", func(t *testing.T) {
		x := newMatch(t, limitGame, 3)
		x.m.VersionWait = time.Minute // a wrong line is refused at once, not at the deadline
		// The dealer closes a connection with the wrong version and one that hangs
		// up before its version, and the ports take new ones.
		clients := make(chan [2]<-chan []string, 1)
		go func() {
			wrong := scripted(t, x.addrs[0], "VERSION:1.0.0", x.m.Game, raiser)
			if got := <-wrong; len(got) != 1 || !strings.Contains(got[0], "want") {
				t.Errorf("wrong version got %q", got)
			}
			if c, err := net.Dial("tcp", x.addrs[1]); err == nil {
				io.WriteString(c, "# a comment, then a hang-up\r\n")
				c.Close()
			}
			clients <- [2]<-chan []string{
				scripted(t, x.addrs[0], "VERSION:2.0.3", x.m.Game, raiser),
				scripted(t, x.addrs[1], Version, x.m.Game, feltBot(true)),
			}
		}()
		s := x.run(t)
		for _, c := range <-clients {
			<-c
		}
		if s.Replaced != [2]int{} {
			t.Errorf("%+v\n%s", s, x.diag.String())
		}
		if n := strings.Count(x.diag.String(), "connection refused"); n != 2 {
			t.Errorf("%d refusals logged, want 2:\n%s", n, x.diag.String())
		}
	})
}

// TestTimeLimits checks the per-hand time and the match's time bank with a
// player that never answers facing one that always raises, so that the staller
// has several decisions in every hand.
func TestTimeLimits(t *testing.T) {
	stall := func(int, string, *engine.Hand) (string, bool) { return "", false }
	t.Run("hand", func(t *testing.T) {
		x := newMatch(t, "holdem.limit.2p.reverse_blinds", 3)
		x.m.Timeout = testTimeout
		x.m.HandTime = testTimeout + testTimeout/2
		bad := scripted(t, x.addrs[0], Version, x.m.Game, stall)
		good := scripted(t, x.addrs[1], Version, x.m.Game, raiser)
		s := x.run(t)
		<-bad
		<-good
		// Each hand: one full timeout, then the half left of the hand's time, then
		// every later action at once. Without the limit it would be one a decision.
		if s.Late[0] < s.Hands || s.Late[0] > 2*s.Hands || s.Replaced[0] <= s.Late[0] {
			t.Errorf("late %d, replaced %d in %d hands; want late in [hands, 2*hands] and more replaced", s.Late[0], s.Replaced[0], s.Hands)
		}
	})
	t.Run("match", func(t *testing.T) {
		x := newMatch(t, "holdem.limit.2p.reverse_blinds", 4)
		x.m.Timeout = testTimeout
		x.m.MatchTime = 3*testTimeout + testTimeout/2
		bad := scripted(t, x.addrs[0], Version, x.m.Game, stall)
		good := scripted(t, x.addrs[1], Version, x.m.Game, raiser)
		s := x.run(t)
		<-bad
		<-good
		// Three full timeouts and the half left, then nothing but instant replacements.
		if s.Late[0] < 1 || s.Late[0] > 4 || s.Used[0] < x.m.MatchTime || s.Replaced[0] < 3*s.Hands {
			t.Errorf("%+v; want at most 4 late and the bank of %v spent", s, x.m.MatchTime)
		}
		if !strings.Contains(x.diag.String(), "time bank empty") {
			t.Errorf("bank running out not logged:\n%s", x.diag.String())
		}
	})
}

// checkACPCBetting replays betting (a state's or a log line's) on a fresh hand of
// cfg and fails on what ACPC's own reader (game.c, readBetting with
// isValidAction) refuses, above all a fold when the seat to act has nothing to
// call. It checks the rule itself rather than through Action, so that it holds
// whatever Action accepts.
func checkACPCBetting(t *testing.T, cfg engine.Config, limit bool, line, betting string) {
	t.Helper()
	h, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(betting); {
		j := i + 1
		if betting[i] == '/' {
			i = j
			continue
		}
		for j < len(betting) && betting[j] >= '0' && betting[j] <= '9' {
			j++
		}
		act := betting[i:j]
		l := h.Legal()
		if act == "f" && l.Seat != engine.NoSeat && l.CurrentBet == l.Committed {
			t.Errorf("%q: fold at %d with nothing to call, which ACPC cannot parse", line, i)
			return
		}
		var a engine.Action
		if act == "f" {
			a = engine.Action{Seat: l.Seat, Kind: engine.Fold}
		} else if a, err = Action(h, limit, act); err != nil {
			t.Errorf("%q at %d: %v", line, i, err)
			return
		}
		if err := h.Apply(a); err != nil {
			t.Errorf("%q at %d: %v", line, i, err)
			return
		}
		i = j
	}
}

// TestNoFoldWithNothingToCall plays matches in which player 0 hangs up at its
// first decision, or answers "f" whenever it could check, against a player that
// always checks or calls (so that player 0 often has nothing to call). A fold with
// nothing to call is illegal in ACPC, so it must never appear: the hung-up
// player checks where it cannot fold, the idle fold is replaced by a check (and
// counted as replaced), and every state sent and every log line follows ACPC's
// rule.
func TestNoFoldWithNothingToCall(t *testing.T) {
	caller := func(int, string, *engine.Hand) (string, bool) { return "c", false }
	cases := []struct {
		name string
		bad  answerFunc
	}{
		{"hang up", func(int, string, *engine.Hand) (string, bool) { return "", true }},
		{"idle fold", func(_ int, _ string, h *engine.Hand) (string, bool) {
			if h.Legal().Can(engine.Check) {
				return "f", false
			}
			return "c", false
		}},
	}
	for _, game := range []string{"holdem.limit.2p.reverse_blinds", "holdem.nolimit.2p.reverse_blinds"} {
		for _, c := range cases {
			t.Run(c.name+"/"+game, func(t *testing.T) {
				x := newMatch(t, game, 4)
				cfg, _ := x.m.Game.Config()
				bad := scripted(t, x.addrs[0], Version, x.m.Game, c.bad)
				good := scripted(t, x.addrs[1], Version, x.m.Game, caller)
				s := x.run(t)
				<-bad
				got := <-good
				if len(got) == 0 {
					t.Fatal("the healthy player got no state")
				}
				for _, line := range got {
					f := strings.Split(line, ":")
					if len(f) != 5 {
						t.Fatalf("state %q", line)
					}
					checkACPCBetting(t, cfg, x.m.Game.Limit, line, f[3])
				}
				logged := strings.Split(strings.TrimSpace(x.log.String()), "\n")
				for _, line := range logged[:len(logged)-1] {
					checkACPCBetting(t, cfg, x.m.Game.Limit, line, strings.Split(line, ":")[2])
				}
				if s.Replaced[0] == 0 || s.Replaced[1] != 0 {
					t.Errorf("%+v: want player 0's actions replaced, player 1's not", s)
				}
			})
		}
	}
}
