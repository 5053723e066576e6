package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/dealer/acpc"
)

// felt acpc-score pairs two logs of one match with the seats swapped, or
// consecutive hands of one log, and refuses what it cannot score.
func TestACPCScoreCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fe := write("fe.log", "STATE:0:f:8dJd|Td4d:-50|50:felt|ex\nSTATE:1:cc///:Jc6c|7h5d/As5cAh/2c/3c:-100|100:ex|felt\n"+
		"STATE:2:cr300c///:2c2d|AhAs/3c4c5c/6c/7c:300|-300:felt|ex\nSTATE:3:f:KcKd|QhQs:-50|50:ex|felt\nSCORE:0|0:felt|ex\n")
	ef := write("ef.log", "STATE:0:f:8dJd|Td4d:-50|50:ex|felt\nSTATE:1:f:Jc6c|7h5d:-50|50:felt|ex\n"+
		"STATE:2:f:2c2d|AhAs:-50|50:ex|felt\nSTATE:3:f:KcKd|QhQs:-50|50:felt|ex\n")
	var out bytes.Buffer
	if err := runACPCScore([]string{fe, ef, "--player", "felt", "--json"}, &out); err != nil {
		t.Fatal(err)
	}
	var got acpcScoreOutput
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	// felt's pairs: 50-50, 100-50, 300+50, 50-50: 400 chips over 8 hands, 500 mbb/g.
	if !got.Duplicate || got.Hands != 8 || got.Chips != 400 || got.MBBPerGame != 500 {
		t.Fatalf("duplicate: %+v", got)
	}
	// felt folded hand 0 of fe.log and hands 1 and 3 of ef.log, 50 chips each; hands 1 and 2 of fe.log went to showdown.
	if e := got.Endings; e == nil || *e != (handEndings{Hands: 8, Folds: 3, FoldChips: 150, Showdowns: 2}) {
		t.Fatalf("endings: %+v", e)
	}
	flop := write("flop.log", "STATE:0:cr300c/r300f:8dJd|Td4d/As9d6s:-300|300:felt|ex\nSTATE:1:cc/r300r900f:Jc6c|7h5d/As5cAh:-300|300:ex|felt\n"+
		"STATE:2:cc///:2c2d|AhAs/3c4c5c/6c/7c:-100|100:felt|ex\nSTATE:3:r20000c///:2c2d|AhAs/3c4c5c/6c/7c:-20000|20000:ex|felt\n")
	out.Reset()
	if err := runACPCScore([]string{flop, "--player", "felt"}, &out); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "felt: of 4 hands, folded 1 (1 on the flop), giving up 300 chips; 2 showdowns") {
		t.Fatalf("flop fold: %s", s)
	}
	three := write("three.log", "STATE:0:rfc///:2c2d|AhAs|KcKd/3c4c5c/6c/7c:-50|100|-50:felt|a|b\nSTATE:1:ff:2c2d|AhAs|KcKd:100|-50|-50:felt|a|b\n"+
		"STATE:2:ff:2c2d|AhAs|KcKd:100|-50|-50:felt|a|b\nSTATE:3:ff:2c2d|AhAs|KcKd:100|-50|-50:felt|a|b\n")
	out.Reset()
	if err := runACPCScore([]string{three, "--player", "felt"}, &out); err != nil || strings.Contains(out.String(), "folded") {
		t.Fatalf("three players: %v, %s", err, out.String())
	}
	out.Reset()
	if err := runACPCScore([]string{fe, "--player", "felt"}, &out); err != nil {
		t.Fatal(err)
	}
	// One log: felt's −50+100 and 300+50 in two pairs, 400 chips over 4 hands.
	if s := out.String(); !strings.Contains(s, "4 hands (consecutive hands paired), +400 chips: +1000 mbb/g") {
		t.Fatalf("one log: %s", s)
	}
	for _, args := range [][]string{{fe, fe, "--player", "felt"}, {fe, "--player", "nobody"}, {fe, ef, fe, "--player", "felt"},
		{fe, "--player", "felt", "--game", "nosuchgame"}, {filepath.Join(dir, "missing.log"), "--player", "felt"}} {
		err := runACPCScore(args, io.Discard)
		if err == nil {
			t.Errorf("%v: no error", args)
		}
		var e *exitError
		if len(args) == 5 && !errors.As(err, &e) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
}

// felt acpc-score refuses a crafted log whose scores are no numbers of
// chips, or whose pairs' squares overflow: before, NaN scores and scores of
// ±1e300 were scored as 0 chips, and pairs of 6e10 chips wrapped round.
func TestACPCScoreRefusesCraftedScores(t *testing.T) {
	dir := t.TempDir()
	for name, score := range map[string]string{"nan": "NaN|NaN", "huge": "1e300|-1e300", "large": "30000000000|-30000000000"} {
		p := filepath.Join(dir, name+".log")
		var log strings.Builder
		for i := range 4 {
			fmt.Fprintf(&log, "STATE:%d:f:8dJd|Td4d:%s:felt|ex\n", i, score)
		}
		if err := os.WriteFile(p, []byte(log.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		err := runACPCScore([]string{p, "--player", "felt"}, &out)
		if err == nil || !strings.Contains(err.Error(), "score") {
			t.Errorf("%s scores: %v, %q; want an error about the scores", name, err, out.String())
		}
	}
}

// handsReader is an ACPC log of hands hands made as it is read, the players'
// seats swapped when swapped (the other log of a duplicate match). At its end
// it collects the garbage and records in *heap the live heap, if more than
// what it holds: what the reader of the log keeps of its hands.
type handsReader struct {
	hands, next int
	swapped     bool
	heap        *uint64
	buf         []byte
}

func (r *handsReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.next == r.hands {
			var m runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m)
			*r.heap = max(*r.heap, m.HeapAlloc)
			return 0, io.EOF
		}
		i := r.next
		r.next++
		names, scores := "felt|ex", fmt.Sprintf("%d|%d", -50*(i%5), 50*(i%5))
		if r.swapped {
			names = "ex|felt"
		}
		r.buf = fmt.Appendf(r.buf, "STATE:%d:cr300c///:%s%s|Td4d/As5cAh/2c/3c:%s:%s\n", i, "23456789TJQKA"[i%13:i%13+1], "d8d", scores, names)
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// TestACPCScoreMemoryDoesNotGrowWithHands: scoring two logs (duplicate) or
// one, the heap live at the end of the logs is about the same for 200,000
// hands as for 20,000: the hands are read and scored one at a time. Before,
// both logs were read whole first: about 170 bytes a hand, 60 MB more for the
// longer logs.
func TestACPCScoreMemoryDoesNotGrowWithHands(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 440,000 hands")
	}
	const small, large = 20_000, 200_000
	const maxGrowth = 8 << 20 // the old code grew by about 60 MB
	for _, logs := range []int{2, 1} {
		heap := func(hands int) uint64 {
			var heap uint64
			in := make([]namedLog, logs)
			for i := range in {
				in[i] = namedLog{fmt.Sprintf("log%d", i), &handsReader{hands: hands, swapped: i == 1, heap: &heap}}
			}
			tally, err := scoreLogs(in, "felt")
			if err != nil || tally.hands != logs*hands || !tally.twoPlayers || tally.endings.Hands != logs*hands {
				t.Fatalf("%d logs of %d hands: %+v, %v", logs, hands, tally, err)
			}
			return heap
		}
		h0, h1 := heap(small), heap(large)
		t.Logf("logs=%d: live heap at their end %d KB for %d hands, %d KB for %d", logs, h0>>10, small, h1>>10, large)
		if h1 > h0+maxGrowth {
			t.Errorf("logs=%d: the live heap grew by %d KB from %d hands to %d", logs, (h1-h0)>>10, small, large)
		}
	}
}

// TestACPCScoreErrorsAsBefore: reading the logs a hand at a time, acpc-score
// reports the error it reported reading them whole first: a malformed line
// (of the first log, then the second) before logs of unequal lengths, and
// those before a hand that cannot be paired, whatever comes first in the logs.
func TestACPCScoreErrorsAsBefore(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lines ...string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	h0, h1, h2 := "STATE:0:f:8dJd|Td4d:-50|50:felt|ex", "STATE:1:f:Jc6c|7h5d:-50|50:ex|felt", "STATE:2:f:2c2d|AhAs:-50|50:felt|ex"
	g0, g1, g2 := "STATE:0:f:8dJd|Td4d:-50|50:ex|felt", "STATE:1:f:Jc6c|7h5d:-50|50:felt|ex", "STATE:2:f:2c2d|AhAs:-50|50:ex|felt"
	fe, feBad := write("fe.log", h0, h1, h2), write("fe-bad.log", h0, h1, "STATE:x")
	other := strings.Replace(g0, "8dJd", "8dJc", 1) // hand 0 dealt other cards
	for _, tc := range []struct {
		logs []string
		want string
	}{
		{[]string{feBad, write("ef-bad.log", "STATE:y", g1, g2)}, "fe-bad.log: acpc log, line 3:"},
		{[]string{fe, write("ef-other-bad.log", other, g1, "STATE:y")}, "ef-other-bad.log: acpc log, line 3:"},
		{[]string{fe, write("ef-other-short.log", other, g1)}, "3 hands and 2: not one match"},
		{[]string{write("fe-short.log", h0), write("ef-long.log", other, g1, g2)}, "1 hands and 3: not one match"},
		{[]string{fe, write("ef-other.log", other, g1, g2)}, "hand 0 (8dJd|Td4d) and hand 0 (8dJc|Td4d) were not dealt the same cards"},
		{[]string{write("fe-nobody-bad.log", strings.Replace(h0, "felt", "x", 1), h1, "STATE:z")}, "fe-nobody-bad.log: acpc log, line 3:"},
	} {
		err := runACPCScore(append(tc.logs, "--player", "felt"), io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.logs, err, tc.want)
		}
	}
}

// TestACPCScoreFoldChipsDoNotWrap: the chips a player gave up folding are
// summed over every hand of a streamed log, which no longer runs out of memory
// before 2^28 hands of 2^35 chips folded (each won back in the hand after: the
// pairs' sums stay 0). Past an int64, acpc-score fails instead of printing a
// count wrapped round to a negative number, as it did.
func TestACPCScoreFoldChipsDoNotWrap(t *testing.T) {
	fold, err := acpc.ReadLog(strings.NewReader("STATE:7:f:8dJd|Td4d:-34359738368|34359738368:felt|ex\n"))
	if err != nil {
		t.Fatal(err)
	}
	tally := logTally{twoPlayers: true, endings: handEndings{FoldChips: math.MaxInt64 - acpc.MaxLogScore + 1}}
	tally.endHand(fold[0], "felt")
	if tally.endings.FoldChips < 0 && tally.foldErr == nil {
		t.Fatalf("the chips folded wrapped round to %d, no error", tally.endings.FoldChips)
	}
	if tally.foldErr == nil || !strings.Contains(tally.foldErr.Error(), "up to hand 7") {
		t.Errorf("foldErr = %v, want the hand named", tally.foldErr)
	}
}
