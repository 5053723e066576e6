package bot

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// probeShares is what the bot's range does at one decision: the share of its
// weight (its own beliefs there) that folds, checks or calls, bets or raises short
// of all-in, and moves all-in; most is the most it may fold before a bluff of the
// opponent's last bet or raise (its chips over the pot after it) profits.
type probeShares struct {
	fold, call, raise, allIn, most float64
}

// probeAt asks b about every hand of its range at the end of h (the bot in seat)
// and returns the range's shares and the strategies of the hands listed.
func probeAt(t *testing.T, b *resolveBot, h *engine.Hand, seat int, hands ...string) (probeShares, []string) {
	t.Helper()
	v := h.View(seat)
	if h.ToAct() != seat {
		t.Fatalf("seat %d to act, not the bot's %d", h.ToAct(), seat)
	}
	hist, ok := readHistory(&v)
	if !ok {
		t.Fatal("no history")
	}
	st := hist.cur()
	if fallback && b.resolves(st.street) {
		return fallbackShares(t, b, &hist, &v, hands...)
	}
	if _, ok := b.Strategy(&v, nil); !ok {
		t.Fatal("no strategy")
	}
	now := ownRangeNow(b, &hist)
	var dead cards.Set
	for _, c := range st.board {
		dead = dead.Add(c)
	}
	var sh probeShares
	total := 0.0
	for x, c := range comboCards {
		w := now[x]
		if w <= 0 || cards.SetOf(c[0], c[1])&dead != 0 {
			continue
		}
		wv := withHole(v, comboName(x))
		probs, _ := b.Strategy(&wv, nil)
		total += w
		for _, p := range probs {
			switch {
			case p.Action.Kind == engine.Fold:
				sh.fold += w * p.Prob
			case p.Action.Kind == engine.Check || p.Action.Kind == engine.Call:
				sh.call += w * p.Prob
			case p.Action.Amount >= v.Legal.MaxTo:
				sh.allIn += w * p.Prob
			default:
				sh.raise += w * p.Prob
			}
		}
	}
	if total > 0 {
		sh.fold, sh.call, sh.raise, sh.allIn = sh.fold/total, sh.call/total, sh.raise/total, sh.allIn/total
	}
	if n := len(st.acts); n > 0 && v.Legal.CallAmount > 0 {
		bet, _ := st.betsBefore(n)
		prev, _ := st.betsBefore(n - 1)
		opp := st.acts[n-1].role
		sh.most = float64(bet[opp]-prev[opp]) / float64(v.Pot)
	}
	var out []string
	for _, hole := range hands {
		wv := withHole(v, hole)
		probs, _ := b.Strategy(&wv, nil)
		var s []string
		for _, p := range probs {
			a := map[engine.ActionKind]string{engine.Fold: "f", engine.Check: "k", engine.Call: "c", engine.Bet: "b", engine.Raise: "r"}[p.Action.Kind]
			if p.Action.Kind == engine.Bet || p.Action.Kind == engine.Raise {
				a += fmt.Sprint(p.Action.Amount)
			}
			s = append(s, fmt.Sprintf("%s:%.2f", a, p.Prob))
		}
		out = append(out, hole+" "+strings.Join(s, " "))
	}
	return sh, out
}

// fallback makes probeAt answer a re-solved round as the bot does when its
// deadline comes before two iterations (equityPlan; FELT_PROBE_FALLBACK=1).
var fallback = os.Getenv("FELT_PROBE_FALLBACK") != ""

// fallbackShares is probeAt's answer by equityPlan, the bot's range weighed at
// the round's start (such a round teaches the beliefs nothing).
func fallbackShares(t *testing.T, b *resolveBot, hist *pubHistory, v *engine.View, hands ...string) (probeShares, []string) {
	t.Helper()
	st := hist.cur()
	b.cache, b.starts = map[string]*plan{}, map[string]*[2]belief{}
	bel := b.beliefsAt(context.Background(), hist, len(hist.streets)-1)
	p := equityPlan(st, bel, hist.me)
	var dead cards.Set
	for _, c := range st.board {
		dead = dead.Add(c)
	}
	var sh probeShares
	total := 0.0
	for x, c := range comboCards {
		w := bel[hist.me][x]
		if w <= 0 || cards.SetOf(c[0], c[1])&dead != 0 {
			continue
		}
		wv := withHole(*v, comboName(x))
		a := p.outside(&wv)
		total += w
		switch {
		case a.Kind == engine.Fold:
			sh.fold += w
		case a.Kind == engine.Check || a.Kind == engine.Call:
			sh.call += w
		case a.Amount >= v.Legal.MaxTo:
			sh.allIn += w
		default:
			sh.raise += w
		}
	}
	sh.fold, sh.call, sh.raise, sh.allIn = sh.fold/total, sh.call/total, sh.raise/total, sh.allIn/total
	n := len(st.acts)
	bet, _ := st.betsBefore(n)
	prev, _ := st.betsBefore(n - 1)
	opp := st.acts[n-1].role
	sh.most = float64(bet[opp]-prev[opp]) / float64(v.Pot)
	var out []string
	for _, hole := range hands {
		wv := withHole(*v, hole)
		out = append(out, fmt.Sprintf("%s %v", hole, p.outside(&wv)))
	}
	return sh, out
}

// ownRangeNow returns the bot's belief about its own range at the end of hist,
// after b answered there (a re-solved round's kept re-solve moves it).
func ownRangeNow(b *resolveBot, hist *pubHistory) belief {
	i := len(hist.streets) - 1
	st := hist.cur()
	now := *b.beliefsAt(context.Background(), hist, i)
	switch {
	case !b.resolves(st.street):
		b.playRound(context.Background(), hist, i, &now, len(st.acts))
	case b.kept.s != nil && b.kept.s.Iterations() >= minPlanIterations:
		advance(b.kept.s, st, &now, hist.me)
	}
	return now[hist.me]
}

// probe is one line of the probe report: a deal (the bot's cards are replaced by
// each hand asked about), its stacks (blinds 50/100), the actions, and the bot's seat.
type probe struct {
	name         string
	stacks       [2]int64
	hole1, board string // the other seat's cards and the board
	line         string
	seat         int
	hands        []string
}

// probes are the odd lines of docs/bots.md, "Probing resolve's odd lines".
var probes = []probe{
	{"100bb BB faces a min-raise", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r200", 1, []string{"AsAh", "7h2d", "KhQs"}},
	{"100bb SB limps, BB min-raises", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "c r200", 0, []string{"AsAh", "7h2d", "KhQs"}},
	{"100bb min-raise war, 2nd raise", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r200 r300", 0, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"100bb min-raise war, 3rd raise", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r200 r300 r400", 1, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"100bb min-raise war, 4th raise", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r200 r300 r400 r500", 0, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"20bb min-raise war, 3rd raise", [2]int64{2000, 2000}, "2c3d", "Kd7s2hTc3c", "r200 r300 r400", 1, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"100bb min-raise war, 5th raise", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r200 r300 r400 r500 r600", 1, []string{"AsAh", "7h2d", "KhQs", "QsQh"}},
	{"100bb min-raise war, 6th raise", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r200 r300 r400 r500 r600 r700", 0, []string{"AsAh", "7h2d", "KhQs", "QsQh"}},
	{"100bb 4-bet to 22bb", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r250 r800 r2200", 1, []string{"AsAh", "7h2d", "KhQs", "QsQh"}},
	{"100bb 5-bet to 50bb", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r250 r800 r2200 r5000", 0, []string{"AsAh", "7h2d", "KhQs", "QsQh"}},
	{"3bb SB shoves", [2]int64{300, 300}, "2c3d", "Kd7s2hTc3c", "r300", 1, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"5bb SB shoves", [2]int64{500, 500}, "2c3d", "Kd7s2hTc3c", "r500", 1, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"10bb SB shoves", [2]int64{1000, 1000}, "2c3d", "Kd7s2hTc3c", "r1000", 1, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"20bb SB shoves", [2]int64{2000, 2000}, "2c3d", "Kd7s2hTc3c", "r2000", 1, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"100bb SB shoves", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r10000", 1, []string{"AsAh", "KsKh", "AhKs", "7h2d"}},
	{"200bb SB shoves", [2]int64{20000, 20000}, "2c3d", "Kd7s2hTc3c", "r20000", 1, []string{"AsAh", "KsKh", "AhKs", "7h2d"}},
	{"400bb SB shoves", [2]int64{40000, 40000}, "2c3d", "Kd7s2hTc3c", "r40000", 1, []string{"AsAh", "KsKh", "AhKs", "7h2d"}},
	{"SB 100bb vs BB 3bb, BB shoves over open", [2]int64{10000, 300}, "2c3d", "Kd7s2hTc3c", "r250 r300", 0, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"SB 2.5bb, shoves 250 (a raise short of min)", [2]int64{250, 10000}, "2c3d", "Kd7s2hTc3c", "r250", 1, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"100bb SB opens to 10bb", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r1000", 1, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"100bb SB opens to 20bb", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r2000", 1, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"100bb SB opens to 40bb", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r4000", 1, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"100bb BB 3-bets to 30bb", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r250 r3000", 0, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"200bb SB opens to 50bb", [2]int64{20000, 20000}, "2c3d", "Kd7s2hTc3c", "r5000", 1, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"10bb BB faces a min-raise", [2]int64{1000, 1000}, "2c3d", "Kd7s2hTc3c", "r200", 1, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"10bb SB opens, BB shoves", [2]int64{1000, 1000}, "2c3d", "Kd7s2hTc3c", "r200 r1000", 0, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"BB 200bb vs SB 10bb, SB limps", [2]int64{1000, 20000}, "2c3d", "Kd7s2hTc3c", "c", 1, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"8bb SB first in", [2]int64{800, 800}, "2c3d", "Kd7s2hTc3c", "", 0, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"15bb SB first in", [2]int64{1500, 1500}, "2c3d", "Kd7s2hTc3c", "", 0, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"20bb SB first in", [2]int64{2000, 2000}, "2c3d", "Kd7s2hTc3c", "", 0, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"SB 200bb vs BB 4bb, first in", [2]int64{20000, 400}, "2c3d", "Kd7s2hTc3c", "", 0, []string{"AsAh", "7h2d", "KhQs", "9h4s"}},
	{"100bb raise-call, flop min-bet (donk)", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r250 c r100", 0, []string{"KhKs", "QhJh", "5h4d"}},
	{"100bb raise-call, flop 5x overbet", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r250 c k r2500", 1, []string{"KhKs", "QhJh", "5h4d"}},
	{"100bb raise-call, flop 20x overbet", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r250 c k r9750", 1, []string{"KhKs", "QhJh", "5h4d"}},
	{"100bb flop check-raise min over 2/3", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r250 c k r330 r660", 0, []string{"KhKs", "QhJh", "5h4d"}},
	{"100bb flop raise war, 4th raise", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r250 c r100 r200 r300 r400", 1, []string{"KhKs", "QhJh", "5h4d"}},
	{"100bb turn min-bet", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r250 c k k r100", 0, []string{"KhKs", "QhJh", "5h4d"}},
	{"100bb turn 10x overbet", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r250 c k k r5000", 0, []string{"KhKs", "QhJh", "5h4d"}},
	{"100bb river min-bet", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r250 c k k k k r100", 0, []string{"KhKs", "QhJh", "5h4d"}},
	{"100bb river shove (19x)", [2]int64{10000, 10000}, "2c3d", "Kd7s2hTc3c", "r250 c k k k k r9750", 0, []string{"KhKs", "QhJh", "5h4d", "AhJh"}},
	{"100bb river dry, min-bet", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r250 c k k k k r100", 0, []string{"AsAh", "KhJc"}},
	{"100bb river dry, half pot", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r250 c k k k k r250", 0, []string{"AsAh", "KhJc"}},
	{"100bb river dry, 3x pot", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r250 c k k k k r1500", 0, []string{"AsAh", "KhJc"}},
	{"100bb river dry, shove 19x", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r250 c k k k k r9750", 0, []string{"AsAh", "KhJc"}},
	{"100bb river wet, min-bet", [2]int64{10000, 10000}, "4d3d", "9h8h2c5hJd", "r250 c k k k k r100", 0, []string{"AsAh", "KhJc"}},
	{"100bb river wet, half pot", [2]int64{10000, 10000}, "4d3d", "9h8h2c5hJd", "r250 c k k k k r250", 0, []string{"AsAh", "KhJc"}},
	{"100bb river wet, 3x pot", [2]int64{10000, 10000}, "4d3d", "9h8h2c5hJd", "r250 c k k k k r1500", 0, []string{"AsAh", "KhJc"}},
	{"100bb river wet, shove 19x", [2]int64{10000, 10000}, "4d3d", "9h8h2c5hJd", "r250 c k k k k r9750", 0, []string{"AsAh", "KhJc"}},
	{"100bb river paired, min-bet", [2]int64{10000, 10000}, "4d3d", "QsQd6c6h2s", "r250 c k k k k r100", 0, []string{"AsAh", "KhJc"}},
	{"100bb river paired, half pot", [2]int64{10000, 10000}, "4d3d", "QsQd6c6h2s", "r250 c k k k k r250", 0, []string{"AsAh", "KhJc"}},
	{"100bb river paired, 3x pot", [2]int64{10000, 10000}, "4d3d", "QsQd6c6h2s", "r250 c k k k k r1500", 0, []string{"AsAh", "KhJc"}},
	{"100bb river paired, shove 19x", [2]int64{10000, 10000}, "4d3d", "QsQd6c6h2s", "r250 c k k k k r9750", 0, []string{"AsAh", "KhJc"}},
	{"100bb min-raise war called, flop pot bet", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r200 r300 r400 r500 r600 c k r1200", 1, []string{"AsAh", "KhJc", "9h8h"}},
	{"100bb min-raise war called, turn pot bet", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r200 r300 r400 r500 r600 c k k k r1200", 1, []string{"AsAh", "KhJc", "9h8h"}},
	{"100bb 4-bet called, turn pot bet", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r250 r800 r2200 c k k k r4400", 1, []string{"AsAh", "KhJc", "QsQh"}},
	{"100bb limp-reraise over BB's raise", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "c r400 r1200", 1, []string{"AsAh", "KhJc", "7h2d"}},
	{"100bb raise-call, flop half-pot donk", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r250 c r250", 0, []string{"KhKs", "QhJh", "5h4c"}},
	{"100bb raise-call, flop 2x pot donk", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r250 c r1000", 0, []string{"KhKs", "QhJh", "5h4c"}},
	{"100bb flop check-raise to 6x over 2/3", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r250 c k r330 r3000", 0, []string{"KhKs", "QhJh", "5h4c"}},
	{"20bb raise-call, flop shove", [2]int64{2000, 2000}, "4d3d", "Kd7s2hTc3c", "r200 c k r1800", 1, []string{"KhKs", "QhJh", "5h4c"}},
	{"100bb turn dry, min-bet", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r250 c k k r100", 0, []string{"AsAh", "KhJc"}},
	{"100bb turn dry, half pot", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r250 c k k r250", 0, []string{"AsAh", "KhJc"}},
	{"100bb turn dry, pot", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r250 c k k r500", 0, []string{"AsAh", "KhJc"}},
	{"100bb turn dry, 3x pot", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r250 c k k r1500", 0, []string{"AsAh", "KhJc"}},
	{"100bb turn wet, min-bet", [2]int64{10000, 10000}, "4d3d", "9h8h2c5hJd", "r250 c k k r100", 0, []string{"AsAh", "KhJc"}},
	{"100bb turn wet, half pot", [2]int64{10000, 10000}, "4d3d", "9h8h2c5hJd", "r250 c k k r250", 0, []string{"AsAh", "KhJc"}},
	{"100bb turn wet, pot", [2]int64{10000, 10000}, "4d3d", "9h8h2c5hJd", "r250 c k k r500", 0, []string{"AsAh", "KhJc"}},
	{"100bb turn wet, 3x pot", [2]int64{10000, 10000}, "4d3d", "9h8h2c5hJd", "r250 c k k r1500", 0, []string{"AsAh", "KhJc"}},
	{"100bb turn two-tone, half pot", [2]int64{10000, 10000}, "4d3d", "9h8h2c5dJd", "r250 c k k r250", 0, []string{"AsAh", "KhJc", "QhTh", "Ah4h", "6h3h"}},
	{"100bb turn two-tone, pot", [2]int64{10000, 10000}, "4d3d", "9h8h2c5dJd", "r250 c k k r500", 0, []string{"AsAh", "KhJc", "QhTh", "Ah4h", "6h3h"}},
	{"100bb turn check-raise min over 2/3", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r250 c k k k r330 r660", 0, []string{"AsAh", "KhJc", "QhJh"}},
	{"100bb turn check-raise shove over 2/3", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r250 c k k k r330 r9750", 0, []string{"AsAh", "KhJc", "QhJh"}},
	{"100bb river check-raise min over 3/4", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r250 c k k k k k r375 r750", 0, []string{"AsAh", "KhJc", "QhJh"}},
	{"100bb river check-raise shove over 3/4", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r250 c k k k k k r375 r9750", 0, []string{"AsAh", "KhJc", "QhJh"}},
	{"100bb BB river, bet into after check", [2]int64{10000, 10000}, "4d3d", "Kd7s2hTc3c", "r250 c k k k k k r375", 1, []string{"AsAh", "KhJc", "QhJh"}},
	{"BB has 6bb, flop all-in for 20 chips more over a bet", [2]int64{10000, 600}, "4d3d", "Kd7s2hTc3c", "r250 c k r330 r350", 0, []string{"AsAh", "KhJc", "QhJh", "5h4c"}},
	{"BB has 6bb, flop check-raise all-in over a min-bet", [2]int64{10000, 600}, "4d3d", "Kd7s2hTc3c", "r250 c k r100 r350", 0, []string{"AsAh", "KhJc", "QhJh", "5h4c"}},
	{"BB has 8bb, turn all-in for 20 chips more over a bet", [2]int64{10000, 800}, "4d3d", "Kd7s2hTc3c", "r250 c k k k r530 r550", 0, []string{"AsAh", "KhJc", "QhJh", "5h4c"}},
	{"BB has 8bb, river all-in for 20 chips more over a bet", [2]int64{10000, 800}, "4d3d", "Kd7s2hTc3c", "r250 c k k k k k r530 r550", 0, []string{"AsAh", "KhJc", "QhJh", "5h4c"}},
}

// TestResolveProbeReport prints, for each line of probes, what the bot's range does
// (skipped unless FELT_PROBE is set; FELT_PROBE=a|b runs the lines whose name
// holds a or b; FELT_PROBE_BOT names another bot than resolve:budget=50ms): go test
// ./internal/bot -run ProbeReport -v.
func TestResolveProbeReport(t *testing.T) {
	only := os.Getenv("FELT_PROBE")
	if only == "" {
		t.Skip("set FELT_PROBE=1 (or part of a line's name)")
	}
	for _, p := range probes {
		if only != "1" && !slices.ContainsFunc(strings.Split(only, "|"), func(s string) bool { return strings.Contains(p.name, s) }) {
			continue
		}
		hole0 := "4c5c"
		h := dealt(t, hole0, p.hole1, p.board, engine.Config{Stacks: p.stacks[:], SmallBlind: 50, BigBlind: 100})
		play(t, h, strings.Fields(p.line)...)
		b := newTestResolve(t, 1)
		if name := os.Getenv("FELT_PROBE_BOT"); name != "" {
			x, err := New(name, Options{Rand: b.r})
			if err != nil {
				t.Fatal(err)
			}
			b = x.(*resolveBot)
		}
		sh, hands := probeAt(t, b, h, p.seat, p.hands...)
		t.Logf("%-44s fold %.2f (≤%.2f) call %.2f raise %.2f all-in %.2f\n    %s", p.name, sh.fold, sh.most, sh.call, sh.raise, sh.allIn, strings.Join(hands, "\n    "))
	}
}
