package blueprint

import (
	"math"
	"os"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/cfr"
)

// The committed strategy stays under MaxPackBytes.
func TestPackSize(t *testing.T) {
	st, err := os.Stat("hulhe.pack")
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > MaxPackBytes || int64(len(hulhePack)) != st.Size() {
		t.Errorf("hulhe.pack is %d bytes (embedded %d), the limit %d", st.Size(), len(hulhePack), MaxPackBytes)
	}
}

// The built-in strategy loads: a trained heads-up limit Hold'em strategy with an
// information set for every (node, bucket) of its tree, each normalised.
func TestHulheLoads(t *testing.T) {
	s, err := Hulhe()
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := Hulhe(); again != s {
		t.Error("the strategy is read again")
	}
	g := s.Profile.Game()
	want, err := cfr.NewHoldemGame(s.Abstraction.Sizes())
	if err != nil {
		t.Fatal(err)
	}
	if g.Infosets() != want.Infosets() || s.Header.Infosets != want.Infosets() || s.Header.Iterations < 1_000_000 {
		t.Errorf("%d information sets (tree %d), header %d after %d iterations",
			g.Infosets(), want.Infosets(), s.Header.Infosets, s.Header.Iterations)
	}
	if s.Header.Fingerprint != s.Abstraction.Fingerprint() {
		t.Errorf("fingerprint %s, abstraction %s", s.Header.Fingerprint, s.Abstraction.Fingerprint())
	}
	for i := range g.Infosets() {
		sum := 0.0
		for _, x := range s.Profile.Probs(i) {
			if x < 0 || x > 1 {
				t.Fatalf("information set %d: %v", i, s.Profile.Probs(i))
			}
			sum += x
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("information set %d sums to %v", i, sum)
		}
	}
	// Trained, not uniform: aces raise, first in and facing a raise.
	aces := s.Abstraction.Bucket([2]cards.Card{cards.MustParse("As"), cards.MustParse("Ah")}, nil)
	for _, hist := range []string{"", "r"} {
		acts, probs, ok := s.Profile.Lookup(hist, aces)
		if !ok || acts != "fcr" || probs[2] < 0.5 {
			t.Errorf("aces after %q: %q %v", hist, acts, probs)
		}
	}
}
