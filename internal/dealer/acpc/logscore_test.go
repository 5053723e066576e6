package acpc

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// Two logs of the ACPC dealer's format, one match dealt twice from one seed with
// the players' order swapped (as the ACPC dealer writes them, comments and the
// SCORE line included).
const (
	logFE = `# name/game/hands/seed m holdem.nolimit.2p.reverse_blinds.game 2 7
#--t_response 600000
STATE:0:cc/cc/cr519c/cr13533f:8dJd|Td4d/As9d6s/3d/6c:-519|519:felt|example
STATE:1:cc/cr898f:Jc6c|7h5d/As5cAh:-100|100:example|felt
SCORE:-419|419:felt|example
`
	logEF = `STATE:0:f:8dJd|Td4d:50|-50:example|felt
STATE:1:f:Jc6c|7h5d:50|-50:felt|example
SCORE:0|0:example|felt
`
)

// ReadLog reads the STATE lines and Duplicate pairs each hand's two deals.
func TestReadLogAndDuplicate(t *testing.T) {
	a, err := ReadLog(strings.NewReader(logFE))
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadLog(strings.NewReader(logEF))
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 2 || a[1].Holes != "Jc6c|7h5d" || a[1].Scores[1] != 100 {
		t.Fatalf("read %+v", a)
	}
	d, err := Duplicate(a, b, "felt")
	if err != nil {
		t.Fatal(err)
	}
	if len(d) != 2 || d[0] != -519-50 || d[1] != 100+50 {
		t.Fatalf("felt's duplicate results %v, want [-569 150]", d)
	}
}

// Folded names the position that folded and the round, -1 for a showdown, and
// does not guess in a hand of three players or a fold that no one lost.
func TestFolded(t *testing.T) {
	a, _ := ReadLog(strings.NewReader(logFE + logEF))
	type ending struct{ pos, round int }
	want := []ending{{0, 3}, {0, 1}, {1, 0}, {1, 0}}
	for i, w := range want {
		pos, round, ok := a[i].Folded()
		if !ok || pos != w.pos || round != w.round {
			t.Errorf("hand %d (%s, %v): folded %d in round %d (ok %v), want %d in %d", i, a[i].Betting, a[i].Scores, pos, round, ok, w.pos, w.round)
		}
	}
	for line, w := range map[string]bool{
		"STATE:2:r20000c///:2c2d|AhAs/3c4c5c/6c/7c:20000|-20000:a|b":   true,  // an all-in showdown
		"STATE:3:cc///:2c2d|2h2s/3c4c5c/6c/7c:0|0:a|b":                 true,  // a split pot
		"STATE:4:f:2c2d|AhAs|KcKd:0|0:a|b":                             false, // a fold no one lost
		"STATE:5:rfc///:2c2d|AhAs|KcKd/3c4c5c/6c/7c:-50|100|-50:a|b|c": false, // three players
	} {
		h, err := ReadLog(strings.NewReader(line + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		pos, _, ok := h[0].Folded()
		if ok != w || (ok && pos != -1) {
			t.Errorf("%s: folded %d, ok %v; want ok %v and a showdown", line, pos, ok, w)
		}
	}
}

// Logs that are not one match dealt twice with the seats swapped are refused,
// as are malformed STATE lines.
func TestDuplicateRefusesOtherLogs(t *testing.T) {
	a, _ := ReadLog(strings.NewReader(logFE))
	b, _ := ReadLog(strings.NewReader(logEF))
	if _, err := Duplicate(a, a, "felt"); err == nil {
		t.Error("a log paired with itself (the same positions): no error")
	}
	if _, err := Duplicate(a, b[:1], "felt"); err == nil {
		t.Error("logs of 2 and 1 hands: no error")
	}
	other, _ := ReadLog(strings.NewReader(strings.Replace(logEF, "8dJd", "8dJc", 1)))
	if _, err := Duplicate(a, other, "felt"); err == nil {
		t.Error("different cards: no error")
	}
	if _, err := Duplicate(a, b, "nobody"); err == nil {
		t.Error("a player in neither: no error")
	}
	for _, line := range []string{
		"STATE:0:f:8dJd|Td4d:50|-50",
		"STATE:x:f:8dJd|Td4d:50|-50:a|b",
		"STATE:0:f:8dJd|Td4d:50|-40:a|b",
		"STATE:0:f:8dJd|Td4d:50|-5o:a|b",
		"STATE:0:f:8dJd|Td4d:50:a|b",
	} {
		if _, err := ReadLog(strings.NewReader(line + "\n")); !errors.Is(err, ErrState) {
			t.Errorf("%q: %v, want ErrState", line, err)
		}
	}
}

// hostileLogLines are STATE lines a crafted log may hold: scores that are
// not numbers of chips (NaN, infinities, past any stack, which summed to 0
// or to NaN passed the check that the scores sum to 0, and then summed to
// nonsense or wrapped round in felt acpc-score), and more players than the
// ACPC dealer seats (a line of a megabyte of '|' was read as half a million
// players: about eleven times the log's size in memory).
var hostileLogLines = []string{
	"STATE:0:f:8dJd|Td4d:NaN|NaN:a|b",
	"STATE:0:f:8dJd|Td4d:nan|0:a|b",
	"STATE:0:f:8dJd|Td4d:Inf|-Inf:a|b",
	"STATE:0:f:8dJd|Td4d:+Infinity|-1:a|b",
	"STATE:0:f:8dJd|Td4d:1e300|-1e300:a|b",
	"STATE:0:f:8dJd|Td4d:34359738369|-34359738369:a|b",
	"STATE:0:f:x:" + strings.Repeat("0|", 10) + "0:" + strings.Repeat("a|", 10) + "a",
	"STATE:0:f:x:" + strings.Repeat("0|", 100_000) + "0:" + strings.Repeat("|", 100_000),
}

// A crafted STATE line is refused with a clear error (ErrState, its line
// number, the line cut short), not read as a hand.
func TestReadLogRefusesCraftedLines(t *testing.T) {
	for _, line := range hostileLogLines {
		log := "STATE:0:f:8dJd|Td4d:50|-50:a|b\n" + line + "\n"
		hands, err := ReadLog(strings.NewReader(log))
		if !errors.Is(err, ErrState) || !strings.Contains(err.Error(), "line 2") || len(err.Error()) > 400 {
			t.Errorf("%.60q: %d hands, %.500v; want ErrState naming line 2, in a short message", line, len(hands), err)
		}
	}
	// The largest score a hand can have is read.
	ok := "STATE:0:f:x:34359738368|-34359738368:a|b\nSTATE:1:f:x:" + strings.Repeat("1|", 9) + "-9:" + strings.Repeat("a|", 9) + "b\n"
	if hands, err := ReadLog(strings.NewReader(ok)); err != nil || len(hands) != 2 || len(hands[1].Names) != 10 {
		t.Errorf("the largest score and ten players: %d hands, %v", len(hands), err)
	}
}

// FuzzReadLog feeds ReadLog any log: no panic, an error wraps ErrState or
// is the scanner's, and every hand read has 2 to 10 players with as many
// scores, each a number of chips within MaxLogScore, summing to 0.
func FuzzReadLog(f *testing.F) {
	f.Add(logFE)
	f.Add(logEF)
	for _, line := range hostileLogLines[:6] {
		f.Add(line + "\n")
	}
	f.Add("STATE:5:rfc///:2c2d|AhAs|KcKd/3c4c5c/6c/7c:-50|100|-50:a|b|c\n# comment\nSCORE:0|0:a|b\n")
	f.Fuzz(func(t *testing.T, log string) {
		hands, err := ReadLog(strings.NewReader(log))
		if err != nil {
			if !errors.Is(err, ErrState) && !strings.Contains(err.Error(), "bufio") {
				t.Fatalf("error %v: not ErrState", err)
			}
			return
		}
		for _, h := range hands {
			if len(h.Scores) != len(h.Names) || len(h.Scores) < 2 || len(h.Scores) > maxLogPlayers {
				t.Fatalf("hand %+v: %d scores, %d names", h, len(h.Scores), len(h.Names))
			}
			var sum float64
			for _, x := range h.Scores {
				if math.IsNaN(x) || math.Abs(x) > MaxLogScore {
					t.Fatalf("hand %+v: score %v", h, x)
				}
				sum += x
			}
			if math.Abs(sum) > 1e-6 {
				t.Fatalf("hand %+v: scores sum to %v", h, sum)
			}
			if _, _, ok := h.Folded(); ok && len(h.Scores) != 2 {
				t.Fatalf("hand %+v: a fold told among %d players", h, len(h.Scores))
			}
		}
	})
}
