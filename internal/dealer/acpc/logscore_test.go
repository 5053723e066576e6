package acpc

import (
	"errors"
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
