package casino

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/bot"
)

// gradeWith grades the client that play runs on its end of a loopback connection.
func gradeWith(t *testing.T, play func(conn net.Conn)) Report {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		play(conn)
	}()
	conn, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	rep := Grade(context.Background(), conn, testTimeout)
	<-done
	return rep
}

func lineOf(r Report, name string) Line {
	for _, l := range r.Lines {
		if strings.HasPrefix(l.Name, name) {
			return l
		}
	}
	return Line{Name: "missing " + name}
}

func playBot(b bot.Bot) func(net.Conn) {
	return func(conn net.Conn) {
		c := Client{ID: "octocat", Avatar: "Cat", Bot: b}
		c.Play(context.Background(), conn)
	}
}

func TestGradeReference(t *testing.T) {
	r := gradeWith(t, playBot(Reference{}))
	for _, l := range r.Lines {
		if !l.Pass {
			t.Errorf("FAIL %s: %s", l.Name, l.Detail)
		}
	}
	if !r.ProtocolOK() || r.ID != "octocat" || r.Avatar != "Cat" {
		t.Errorf("%+v", r)
	}
}

// fake answers like a client, with the reply to each question chosen by answer
// (given the question's number from 1); it closes after done unless keepOpen.
func fake(login func(n int) string, answer func(q string, n int) string, keepOpen bool) func(net.Conn) {
	return func(conn net.Conn) {
		logins, questions := 0, 0
		for {
			msg, err := ReadUTF(conn)
			if err != nil {
				return
			}
			m, _ := ParseMessage(msg)
			switch m.Kind {
			case MsgLogin:
				logins++
				WriteUTF(conn, login(logins))
			case MsgBet1, MsgBet2:
				questions++
				WriteUTF(conn, answer(msg, questions))
			case MsgDone:
				if keepOpen {
					ReadUTF(conn) // until the grader gives up and closes
				}
				return
			}
		}
	}
}

func sameLogin(int) string { return "octocat:Cat" }

// reference answers as the reference strategy does.
func reference(q string, _ int) string {
	m, _ := ParseMessage(q)
	v, _ := ViewOf(m)
	return ChipsReply(v.Legal, Reference{}.Act(&v))
}

func TestGradeBrokenBots(t *testing.T) {
	tests := []struct {
		name  string
		play  func(net.Conn)
		fails []string // the rubric lines that must fail; the protocol lines not named must pass
	}{
		{"changes its login", fake(func(n int) string {
			if n == 2 {
				return "octocat:Dog"
			}
			return "octocat:Cat"
		}, reference, false), []string{RubricLogin}},
		{"bets too much", fake(sameLogin, func(q string, _ int) string {
			m, _ := ParseMessage(q)
			v, _ := ViewOf(m)
			return Bet(v.Legal.CurrentBet + MaxRaise + 1)
		}, false), []string{RubricLegal, RubricHigh}},
		{"garbles", fake(sameLogin, func(q string, n int) string {
			if n == 4 {
				return "raise 3"
			}
			return reference(q, n)
		}, false), []string{RubricLegal}},
		{"too slow once", fake(sameLogin, func(q string, n int) string {
			if n == 3 {
				time.Sleep(testTimeout + 30*time.Millisecond) // late on purpose
			}
			return reference(q, n)
		}, false), []string{RubricOnTime}},
		{"stays connected", fake(sameLogin, reference, true), []string{RubricClose}},
		{"calling station", playBot(mustBot(t, "call")), []string{RubricHigh, RubricNoCall, RubricUpCards}},
		{"always folds", playBot(mustBot(t, "fold")), []string{RubricHigh, RubricUpCards}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := gradeWith(t, tc.play)
			for _, l := range r.Lines {
				wantFail := false
				for _, f := range tc.fails {
					wantFail = wantFail || strings.HasPrefix(l.Name, f)
				}
				if l.Pass == wantFail && (l.Protocol || wantFail) {
					t.Errorf("%s: pass=%v (%s)", l.Name, l.Pass, l.Detail)
				}
			}
		})
	}
}

func TestGradeSilentBot(t *testing.T) {
	r := gradeWith(t, func(conn net.Conn) {
		ReadUTF(conn)
		ReadUTF(conn) // never answers; returns when the grader closes
	})
	if r.ProtocolOK() || lineOf(r, RubricLogin).Pass || lineOf(r, RubricOnTime).Pass {
		t.Errorf("%+v", r)
	}
}

func mustBot(t *testing.T, name string) bot.Bot {
	b, err := bot.New(name, bot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSituationsAreConsistent checks each scripted question parses, lists the
// player's own up cards and names no card twice.
func TestSituationsAreConsistent(t *testing.T) {
	for i, s := range situations() {
		m, err := ParseMessage(s.msg)
		if err != nil {
			t.Fatalf("situation %d: %v", i+1, err)
		}
		if _, err := ViewOf(m); err != nil {
			t.Errorf("situation %d: %v", i+1, err)
		}
		fields := strings.Split(s.msg, ":")
		seen := map[string]bool{}
		upAt := 0
		for k, f := range fields {
			if f == "up" {
				upAt = k
			}
		}
		for _, f := range append(fields[4:upAt], fields[upAt+1:]...) {
			seen[f] = true
		}
		if want := len(fields) - 4 - 1 - (upAt - 4 - 1); len(seen) != want {
			t.Errorf("situation %d %q: a card appears twice (%d distinct, want %d)", i+1, s.msg, len(seen), want)
		}
	}
}
