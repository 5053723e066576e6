package arena

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// trace plays a match with a Tracer and returns its output.
func trace(t *testing.T, a, b, game string, hands int, seed uint64, workers int) string {
	t.Helper()
	g, err := ParseGame(game)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	tr := NewTracer(&out)
	if _, err := Match(context.Background(), MatchConfig{A: a, B: b, Game: g, Hands: hands, Seed: seed, Workers: workers, Hand: tr.Hand}); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestTraceRaiseFold checks the whole trace of a tiny match whose play is known:
// raise shoves every hand, fold folds to it. Deal 0 has the button in seat 0.
func TestTraceRaiseFold(t *testing.T) {
	got := strings.Split(strings.TrimSpace(trace(t, "raise", "fold", "nl", 4, 1, 2)), "\n")
	want := []string{
		`^hand 1  no-limit holdem  seed [0-9a-f]{64}  button raise$`,
		`^  preflop   raise        raise to 20000 +raise (\S{4}) 19950 ([0-9.]+)%  fold (\S{4}) 19900 ([0-9.]+)%$`,
		`^  preflop   fold         fold +raise (\S{4}) 0 ([0-9.]+)%  fold (\S{4}) 19900 ([0-9.]+)%$`,
		`^  result    raise \+100  fold -100$`,
		`^hand 2  no-limit holdem  seed [0-9a-f]{64}  button fold$`,
		`^  preflop   fold         fold +fold (\S{4}) 19950 ([0-9.]+)%  raise (\S{4}) 19900 ([0-9.]+)%$`,
		`^  result    fold -50  raise \+50$`,
		`^hand 3  no-limit holdem  seed [0-9a-f]{64}  button fold$`,
	}
	if len(got) != 14 {
		t.Fatalf("%d lines, want 14:\n%s", len(got), strings.Join(got, "\n"))
	}
	var cards []string
	for k, re := range want {
		m := mustMatch(t, re, got[k])
		if len(m) == 5 {
			cards = append(cards, m[1]+m[3])
			if x := atof(t, m[2]) + atof(t, m[4]); x < 99.99 || x > 100.01 {
				t.Errorf("line %d: equities sum to %v%%: %s", k+1, x, got[k])
			}
		}
	}
	// The duplicate deal: the same cards by seat in both hands of deal 0.
	if cards[0] != cards[1] || cards[1] != cards[2] {
		t.Errorf("hands 1 and 2 hold different cards by seat: %v", cards)
	}
	if again := trace(t, "raise", "fold", "nl", 4, 1, 1); strings.Join(got, "\n") != strings.TrimSpace(again) {
		t.Errorf("the trace changed from one run to the next")
	}
}

// TestTraceEquities: on every action line the equities of the players still in sum
// to 100%, in Hold'em (exact) and in stud (the stud bot's equity with every card
// shown), and the river's Hold'em equities are whole shares of the pot.
func TestTraceEquities(t *testing.T) {
	for _, game := range []string{"limit", "stud"} {
		lines := 0
		for _, line := range strings.Split(trace(t, "call", "random", game, 40, 7, 2), "\n") {
			f := strings.Fields(line)
			if len(f) == 0 || f[0] == "hand" || f[0] == "board" || f[0] == "result" {
				continue
			}
			lines++
			sum := 0.0
			for _, x := range f {
				if p, ok := strings.CutSuffix(x, "%"); ok {
					v := atof(t, p)
					sum += v
					if f[0] == "river" && v != 0 && v != 50 && v != 100 {
						t.Errorf("%s: a river equity of %v%%: %s", game, v, line)
					}
				}
			}
			if sum < 99.99 || sum > 100.01 {
				t.Errorf("%s: equities sum to %v%%: %s", game, sum, line)
			}
		}
		if lines < 40 {
			t.Errorf("%s: only %d action lines", game, lines)
		}
	}
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// mustMatch matches line against the regular expression re and returns the groups.
func mustMatch(t *testing.T, re, line string) []string {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("%q does not match %s", line, re)
	}
	return m
}
