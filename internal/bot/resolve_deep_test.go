package bot

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// shoverGain returns what a small blind who moves all-in at stack big blinds with
// the classes of shoves (each its chance of shoving) and folds the rest wins, in
// big blinds for each hand he shoves, against a big blind who calls by calls
// (each class's chance): he wins the blinds when the big blind folds, the
// showdown when it calls (class against class, card removal left out).
func shoverGain(shoves, calls *[numClasses]float64, stack float64) float64 {
	eq := &preflopOnce().eq
	v, n := 0.0, 0.0
	for i := range numClasses {
		w := classCombos[i] * shoves[i]
		if w == 0 {
			continue
		}
		n += w * numCombos
		for j := range numClasses {
			c := calls[j]
			v += w * classCombos[j] * (c*stack*(2*float64(eq[i][j])-1) + (1-c)*1)
		}
	}
	return v / n
}

// shoverBest returns what a small blind who moves all-in or folds wins at stack
// big blinds, in big blinds a hand, against calls when he shoves each class that
// wins more by shoving than by folding.
func shoverBest(calls *[numClasses]float64, stack float64) float64 {
	v := 0.0
	for i := range numClasses {
		one := new([numClasses]float64)
		one[i] = 1
		v += classCombos[i] / numCombos * max(-0.5, shoverGain(one, calls, stack))
	}
	return v
}

// topClasses returns a shoving strategy that shoves the named classes always.
func topClasses(names ...string) *[numClasses]float64 {
	out := new([numClasses]float64)
	for x := range comboCards {
		n := comboClassName(x)
		if slices.Contains(names, n) {
			out[classOfCombo[x]] = 1
		}
	}
	return out
}

// comboClassName names hand x's class: AA, AKs, AKo.
func comboClassName(x int) string {
	c := comboCards[x]
	r := "23456789TJQKA"
	hi, lo := c[0].Rank(), c[1].Rank()
	if hi < lo {
		hi, lo = lo, hi
	}
	switch {
	case hi == lo:
		return string(r[hi]) + string(r[lo])
	case c[0].Suit() == c[1].Suit():
		return string(r[hi]) + string(r[lo]) + "s"
	}
	return string(r[hi]) + string(r[lo]) + "o"
}

// TestResolveDeepShoveReport prints, at 100, 200 and 400 big blinds, what a
// small blind's open-shove wins against the bot's calls and against the
// push-or-fold equilibrium's, for shovers of a few kinds: FELT_DEEP=1 go test
// ./internal/bot -run DeepShoveReport -v.
func TestResolveDeepShoveReport(t *testing.T) {
	if os.Getenv("FELT_DEEP") == "" {
		t.Skip("set FELT_DEEP=1")
	}
	all := new([numClasses]float64)
	for i := range all {
		all[i] = 1
	}
	shovers := []struct {
		name   string
		shoves *[numClasses]float64
	}{
		{"AA", topClasses("AA")},
		{"AA KK", topClasses("AA", "KK")},
		{"QQ+ AK", topClasses("AA", "KK", "QQ", "AKs", "AKo")},
		{"TT+ AQ+", topClasses("AA", "KK", "QQ", "JJ", "TT", "AKs", "AKo", "AQs", "AQo")},
		{"any two", all},
	}
	for _, s := range []int{10, 20, 32, 50, 100, 200, 400} {
		bb := botPlanIn(t, newTestResolve(t, 1), 1, int64(s)*100, fmt.Sprintf("r%d", s*100))
		var calls [numClasses]float64
		var called []string
		share := 0.0
		for i := range numClasses {
			calls[i] = answerCall(bb, i)
			share += calls[i] * classCombos[i] / numCombos
		}
		for x := range comboCards {
			if n := comboClassName(x); calls[classOfCombo[x]] > 0.5 && !slices.Contains(called, n) {
				called = append(called, n)
			}
		}
		e := shoveEquilibrium(preflopOnce(), shoveSpot{before: 0.5 / float64(s), mine: 1 / float64(s)})
		eqShare := 0.0
		for i := range numClasses {
			eqShare += e.call[i] * classCombos[i] / numCombos
		}
		t.Logf("%d bb: the bot calls %.3f (%s), the equilibrium %.3f; a best-responding shover wins %+.1f mbb/g more than against it",
			s, share, strings.Join(called, " "), eqShare, (shoverBest(&calls, float64(s))-shoverBest(e.call, float64(s)))/2*1000)
		for _, sh := range shovers {
			n := 0.0
			for i := range numClasses {
				n += sh.shoves[i] * classCombos[i]
			}
			gb, ge := shoverGain(sh.shoves, &calls, float64(s)), shoverGain(sh.shoves, e.call, float64(s))
			// mbb a hand: he is the small blind every other hand.
			t.Logf("    shover %-8s (%.3f of hands): %+8.2f bb a shove against the bot, %+8.2f against the equilibrium: %+7.1f mbb/g more",
				sh.name, n/numCombos, gb, ge, (gb-ge)*n/numCombos/2*1000)
		}
	}
}

// TestResolveCallsOpenShovesByTheEquilibrium: facing the small blind's open-shove,
// the bot calls as the push-or-fold equilibrium of the real chips does, so that
// a shover who picks the hands to shove against its calls wins no more than
// against the equilibrium. The old bot kept the blueprint's calls (0.115 of its
// hands at 100 big blinds, 0.09 at 200 and 400, ten-three suited and king-three
// suited among them, where the equilibrium calls 0.04 to 0.023): a shover of ten-ten and
// better and ace-queen and better won 3.8 big blinds a shove at 100 (0.8 against
// the equilibrium), and a best-responding one 104 to 185 mbb/g more.
func TestResolveCallsOpenShovesByTheEquilibrium(t *testing.T) {
	for _, s := range []int{20, 100, 400} {
		bb := botPlanIn(t, newTestResolve(t, 1), 1, int64(s)*100, fmt.Sprintf("r%d", s*100))
		var calls [numClasses]float64
		for i := range numClasses {
			calls[i] = answerCall(bb, i)
		}
		e := shoveEquilibrium(preflopOnce(), shoveSpot{before: 0.5 / float64(s), mine: 1 / float64(s)})
		if more := (shoverBest(&calls, float64(s)) - shoverBest(e.call, float64(s))) / 2 * 1000; more > 0.5 {
			t.Errorf("%d bb: a best-responding shover wins %.1f mbb/g more than against the equilibrium", s, more)
		}
	}
}
