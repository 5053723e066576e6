package bot

import (
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/engine"
)

// shoveExploitability returns how much a best-responding bettor and a
// best-responding caller would gain, together, against the strategies call and
// bet of sp's push-or-fold game, in units of the bet: 0 at an equilibrium.
func shoveExploitability(t *preflopTable, sp shoveSpot, call, bet *[numClasses]float64) float64 {
	total := 0.0
	for i := range classCombos {
		total += classCombos[i]
	}
	// The bettor's value (per pair of combos) with bet against call, and his best.
	value, best := 0.0, 0.0
	for i := range numClasses {
		vBet := 0.0
		for j := range numClasses {
			vBet += classCombos[j] * (call[j]*(2*float64(t.eq[i][j])-1) + (1-call[j])*sp.mine)
		}
		vFold := -sp.before * total
		value += classCombos[i] * (bet[i]*vBet + (1-bet[i])*vFold)
		best += classCombos[i] * max(vBet, vFold)
	}
	// The caller's best against bet: the bettor's value then.
	worst := 0.0
	for j := range numClasses {
		vCall, vFold := 0.0, 0.0
		for i := range numClasses {
			w := classCombos[i] * bet[i]
			vCall += w * (1 - 2*float64(t.eq[i][j]))
			vFold -= w * sp.mine
		}
		worst += classCombos[j] * max(vCall, vFold)
	}
	for i := range numClasses {
		worst += classCombos[i] * (1 - bet[i]) * sp.before * total
	}
	// best − value: the bettor's gain; value − (−worst): the caller's.
	return (best - value + value + worst) / (total * total)
}

// TestShoveEquilibrium: the push-or-fold equilibrium is one (its exploitability
// is under half a thousandth of the bet at 3, 10 and 100 big blinds and after an open
// shoved over), and its calls widen as the price falls.
func TestShoveEquilibrium(t *testing.T) {
	tb := preflopOnce()
	var prev float64
	for _, sp := range []shoveSpot{{0.5 / 100, 1.0 / 100}, {0.5 / 10, 1.0 / 10}, {0.5 / 3, 1.0 / 3}, {1.0 / 3, 2.5 / 3}} {
		call, bet := solveShove(tb, sp, shoveIterations)
		if x := shoveExploitability(tb, sp, call, bet); x > 5e-4 {
			t.Errorf("%+v: exploitability %.4f of the bet", sp, x)
		}
		share := 0.0
		for c := range call {
			share += call[c] * classCombos[c] / numCombos
		}
		t.Logf("%+v: calls %.2f of hands", sp, share)
		if share < prev {
			t.Errorf("%+v: calls %.2f, less than at a worse price (%.2f)", sp, share, prev)
		}
		prev = share
	}
}

// TestResolveCallsShortAllIns: facing an all-in before the flop with stacks far
// shorter than the blueprint depth's, or a bet short of all-in that the tree maps
// to its all-in, the bot calls as the real price asks. The old bot played the
// 20-big-blind depth's answer to a 20-big-blind shove at 3 big blinds (folding
// 0.73 of its range, more than any bluff needs, and king-queen half the time),
// folded nine-four to an all-in it could call for 50 chips into 600, and folded
// 0.89 of its range to an open to 10 big blinds at 100, more than a bluff
// needs (0.86).
func TestResolveCallsShortAllIns(t *testing.T) {
	for _, c := range []struct {
		name   string
		stacks [2]int64
		line   string
		seat   int
		fold   float64 // the most of its range the bot may fold
		hand   string  // a hand that must call
	}{
		{"3bb SB shoves", [2]int64{300, 300}, "r300", 1, 0.2, "KhQs"},
		{"BB all-in for 3bb over an open", [2]int64{10000, 300}, "r250 r300", 0, 0.01, "9h4s"},
		{"100bb SB opens to 10bb", [2]int64{10000, 10000}, "r1000", 1, 0.7, "KhQs"},
	} {
		h := dealt(t, "4c5c", "2c3d", "Kd7s2hTc3c", engine.Config{Stacks: c.stacks[:], SmallBlind: 50, BigBlind: 100})
		play(t, h, strings.Fields(c.line)...)
		b := newTestResolve(t, 1)
		sh, hands := probeAt(t, b, h, c.seat, c.hand)
		if sh.fold > c.fold {
			t.Errorf("%s: folds %.2f of its range, want at most %.2f", c.name, sh.fold, c.fold)
		}
		v := withHole(h.View(c.seat), c.hand)
		probs, _ := b.Strategy(&v, nil)
		for _, p := range probs {
			if p.Action.Kind == engine.Fold && p.Prob > 0.01 {
				t.Errorf("%s: %s, want a call", c.name, hands[0])
			}
		}
	}
}

// TestResolveDefendsMinRaiseWars: facing a min-raise before the flop that the
// blueprint's tree maps to its smallest raise (0.7 pots, far more), the bot
// folds no more of its range than a bluff of the real raise needs: the old bot
// folded 0.35 of it to a fourth min-raise (100 chips more into 900), where at
// most 0.22 may, and 0.34 to a third, where 0.29 may.
func TestResolveDefendsMinRaiseWars(t *testing.T) {
	for _, line := range []string{"r200 r300 r400", "r200 r300 r400 r500"} {
		h := dealt(t, "4c5c", "2c3d", "Kd7s2hTc3c", engine.Config{Stacks: []int64{10000, 10000}, SmallBlind: 50, BigBlind: 100})
		play(t, h, strings.Fields(line)...)
		sh, _ := probeAt(t, newTestResolve(t, 1), h, h.ToAct())
		if sh.fold > sh.most+defendSlack {
			t.Errorf("%s: folds %.2f of its range, want at most %.2f", line, sh.fold, sh.most)
		}
	}
}

// TestResolveRiverDefendsToPotOdds: the big blind, checked to the river on every
// street, facing a bet of three quarters of the pot, folds no more of its range
// than a bluff needs (at most 0.43): the river's re-solve (60 iterations at this
// budget) folded 0.52 of it.
func TestResolveRiverDefendsToPotOdds(t *testing.T) {
	if testing.Short() {
		t.Skip("re-solves the turn and the river")
	}
	h := dealt(t, "4c5c", "4d3d", "Kd7s2hTc3c", engine.Config{Stacks: []int64{10000, 10000}, SmallBlind: 50, BigBlind: 100})
	play(t, h, strings.Fields("r250 c k k k k k r375")...)
	sh, _ := probeAt(t, newTestResolve(t, 1), h, 1)
	if sh.fold > sh.most+defendSlack {
		t.Errorf("folds %.2f of its range, want at most %.2f", sh.fold, sh.most)
	}
}

// TestResolveFallbackDefendsToPotOdds: answering without a strategy (a deadline
// before two iterations of the turn's re-solve), the bot facing a bet calls with
// the best of its range to the minimum defence, neither more nor less: by its
// equity against the opponent's range before the bet, it called 0.65 of its range
// facing three pots (where 0.25 need; a value bettor's gain), and 0.90 facing a
// min-bet. The hands whose equity is priceCall times the price call too: facing
// the min-bet (a price of 0.14) they fold 0.04 less than the bound.
func TestResolveFallbackDefendsToPotOdds(t *testing.T) {
	for _, bet := range []string{"r100", "r1500"} {
		h := dealt(t, "4c5c", "4d3d", "Kd7s2hTc3c", engine.Config{Stacks: []int64{10000, 10000}, SmallBlind: 50, BigBlind: 100})
		play(t, h, "r250", "c", "k", "k", bet)
		v := h.View(0)
		hist, _ := readHistory(&v)
		sh, _ := fallbackShares(t, newTestResolve(t, 1), &hist, &v)
		if sh.fold < sh.most-0.05 || sh.fold > sh.most+defendSlack {
			t.Errorf("facing %s: folds %.2f of its range, want %.2f", bet, sh.fold, sh.most)
		}
	}
}

// TestResolveCallsAllInForLess: the opponent, short, raises all-in for 20 chips
// more than the bot's bet (a call of 20 into 1,200 or more): the bot calls with
// its whole range. Its flop (the blueprint's answer to its all-in, held to the
// minimum defence) folded 0.30 of it, five-four among them; without a strategy
// (the turn's raise is not in its re-solved tree, where its own bet was matched
// to all-in), ranking its range for the minimum defence alone folded 0.35.
func TestResolveCallsAllInForLess(t *testing.T) {
	for _, c := range []struct {
		stack int64
		line  string
	}{{600, "r250 c k r330 r350"}, {800, "r250 c k k k r530 r550"}} {
		h := dealt(t, "4c5c", "4d3d", "Kd7s2hTc3c", engine.Config{Stacks: []int64{10000, c.stack}, SmallBlind: 50, BigBlind: 100})
		play(t, h, strings.Fields(c.line)...)
		sh, _ := probeAt(t, newTestResolve(t, 1), h, 0)
		if sh.fold > 0.05 {
			t.Errorf("%s: folds %.2f of its range to a call of 20 chips", c.line, sh.fold)
		}
	}
}

// TestResolveReraisesMinRaiseWars: facing the fifth raise of a min-raise war at
// 100 big blinds (6 big blinds in, 94 behind), which the blueprint's tree maps
// to its all-in node (fold or call only), the bot moves all-in with its best
// hands and folds no more than a bluff needs; king-queen, no favourite against
// the hands that would call, does not bluff 94 big blinds to win 11. The old
// bot could only call: aces called and let the raiser see a flop for 1 big blind.
func TestResolveReraisesMinRaiseWars(t *testing.T) {
	h := dealt(t, "4c5c", "2c3d", "Kd7s2hTc3c", engine.Config{Stacks: []int64{10000, 10000}, SmallBlind: 50, BigBlind: 100})
	play(t, h, "r200", "r300", "r400", "r500", "r600")
	b := newTestResolve(t, 1)
	sh, hands := probeAt(t, b, h, 1, "AsAh", "KhQs")
	if sh.fold > sh.most+defendSlack {
		t.Errorf("folds %.2f of its range, want at most %.2f", sh.fold, sh.most)
	}
	for _, c := range []struct {
		hole     string
		min, max float64 // bounds on its chance of moving all-in
	}{{"AsAh", 0.9, 1}, {"KhQs", 0, 0.01}} {
		v := withHole(h.View(1), c.hole)
		probs, _ := b.Strategy(&v, nil)
		all := 0.0
		for _, p := range probs {
			if p.Action.Kind == engine.Raise && p.Action.Amount >= v.Legal.MaxTo {
				all += p.Prob
			}
		}
		if all < c.min || all > c.max {
			t.Errorf("%s moves all-in %.2f of the time, want %.2f to %.2f (%v)", c.hole, all, c.min, c.max, hands)
		}
	}
}

// TestResolveFallbackCallsDraws: answering without a strategy on a two-tone turn
// (9h 8h 2c 5d) facing half a pot and a pot, the bot calls with its flush draws,
// six-three of hearts (a gutshot too) among them, and folds no more of its range
// than the minimum defence. Its range was ranked by equity against the
// opponent's whole range, where six-three (0.26) was in the worst tenth and
// folded to half a pot while ace-king high (0.47) called; it is ranked now
// against his stronger half, where they have 0.24 and 0.13 (plan.placeOf).
func TestResolveFallbackCallsDraws(t *testing.T) {
	for _, bet := range []string{"r250", "r500"} {
		h := dealt(t, "4c5c", "4d3d", "9h8h2c5dJd", engine.Config{Stacks: []int64{10000, 10000}, SmallBlind: 50, BigBlind: 100})
		play(t, h, "r250", "c", "k", "k", bet)
		v := h.View(0)
		hist, _ := readHistory(&v)
		sh, answers := fallbackShares(t, newTestResolve(t, 1), &hist, &v, "6h3h", "Ah4h", "QhTh")
		if sh.fold > sh.most+defendSlack {
			t.Errorf("facing %s: folds %.2f of its range, want at most %.2f", bet, sh.fold, sh.most)
		}
		for _, a := range answers {
			if strings.Contains(a, "fold") {
				t.Errorf("facing %s: %s, want a call", bet, a)
			}
		}
	}
}
