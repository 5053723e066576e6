package eval

import "testing"

// RankSevens ranks each hand as Evaluate does, whatever way it builds the hands.
func TestRankSevensMatchesEvaluate(t *testing.T) {
	hands := RandomSevens(100_000, 7)
	var want uint64
	for i, s := range hands {
		r := Evaluate(s[:]...)
		if got := RankSevens(hands[i : i+1]); got != uint64(r) {
			t.Fatalf("hand %v: RankSevens %d, Evaluate %d", s, got, r)
		}
		want += uint64(r)
	}
	if got := RankSevens(hands); got != want {
		t.Errorf("RankSevens of %d hands = %d, the sum of their ranks is %d", len(hands), got, want)
	}
}
