package bot

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/blueprint"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/cfr"
	"github.com/felt-poker/felt/internal/engine"
)

// blueRootProbs returns the blueprint's strategy at 100 big blinds for the small
// blind's first action with hand x, and the root's actions.
func blueRootProbs(t *testing.T, x int) ([]float32, string) {
	t.Helper()
	bp, err := blueprint.Default()
	if err != nil {
		t.Fatal(err)
	}
	pre, err := bp.Buckets(nil)
	if err != nil {
		t.Fatal(err)
	}
	d := bp.Nearest(100)
	c := comboCards[x]
	return d.Probs(cfr.Root, int(pre[cfr.HandIndex(c[0], c[1])])), d.Game().Node(cfr.Root).Actions
}

// TestResolveBeliefsFollowBlueprint: after the small blind opens to 2.5 big blinds
// (a size of the blueprint's tree) the bot's belief about his range is the
// blueprint's chance of that open with each hand (Bayes' rule, with the floor),
// and an open to 3 big blinds, between two sizes, is mapped onto one of them the
// same way every time.
func TestResolveBeliefsFollowBlueprint(t *testing.T) {
	for _, c := range []struct {
		open    string
		letters string // the tree actions it may map to
	}{{"r5", "2"}, {"r6", "23"}} {
		hd := headsUp(t, "8s8c", "AhKc", "KdJs9h7d2c")
		play(t, hd, c.open)
		v := hd.View(1)
		h, ok := readHistory(&v)
		if !ok {
			t.Fatal("no history")
		}
		var seen []float64
		for range 2 {
			b := newTestResolve(t, 1)
			bel := [2]belief{uniform(), uniform()}
			b.playRound(context.Background(), &h, 0, &bel, 1)
			checkOpen(t, c.open, c.letters, &bel[roleSB])
			seen = append(seen, bel[roleSB][:]...)
		}
		for i := range numCombos {
			if seen[i] != seen[numCombos+i] {
				t.Fatalf("%s: two walks gave different beliefs", c.open)
			}
		}
	}
}

// checkOpen checks that sb's weights are, up to one scale, floor + (1−floor)·p
// with p the blueprint's chance of one of the tree actions in letters.
func checkOpen(t *testing.T, open, letters string, sb *belief) {
	t.Helper()
	aces := int(comboIndex[cards.MustParse("Ah")][cards.MustParse("As")])
	trash := int(comboIndex[cards.MustParse("7h")][cards.MustParse("2c")])
	matched := false
	for _, l := range letters {
		pa, acts := blueRootProbs(t, aces)
		pt, _ := blueRootProbs(t, trash)
		i := strings.IndexRune(acts, l)
		want := (oppFloor + (1-oppFloor)*float64(pt[i])) / (oppFloor + (1-oppFloor)*float64(pa[i]))
		got := sb[trash] / sb[aces]
		if math.Abs(got-want) < 1e-9 {
			matched = true
		}
	}
	if !matched {
		t.Errorf("%s: weight of 72o over AA %v fits no blueprint action of %q", open, sb[trash]/sb[aces], letters)
	}
}

// TestResolvePlaysBlueprintPreflop: the bot's strategy first in is the
// blueprint's for its hand.
func TestResolvePlaysBlueprintPreflop(t *testing.T) {
	hd := headsUp(t, "AhAs", "8s8c", "KdJs9h7d2c")
	v := hd.View(0)
	b := newTestResolve(t, 1)
	probs, ok := b.Strategy(&v, nil)
	if !ok {
		t.Fatal("no strategy")
	}
	want, acts := blueRootProbs(t, int(comboIndex[cards.MustParse("Ah")][cards.MustParse("As")]))
	i := strings.IndexRune(acts, '2') // the open to 2.5 big blinds
	for _, p := range probs {
		if p.Action.Kind == engine.Raise && p.Action.Amount == 5 && math.Abs(p.Prob-float64(want[i])) > 1e-6 {
			t.Errorf("open to 5: %v, blueprint %v", p.Prob, want[i])
		}
	}
	if b.noBlue {
		t.Fatal("the blueprint is off by default")
	}
	if nb, err := New("resolve:blueprint=false", Options{}); err != nil || !nb.(*resolveBot).noBlue {
		t.Errorf("blueprint=false: %v", err)
	}
}
