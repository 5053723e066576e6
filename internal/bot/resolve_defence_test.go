package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/blueprint"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// defLine is a line to a decision of the bot facing a bet on the flop: the
// preflop actions (chips of blinds 50/100), the bot's seat, and the flop actions
// before the opponent's bet, which is frac pots (0: all-in), or, when own > 0, a
// pot raise (frac 1) or all-in (frac 0) over the bot's own bet of own pots.
type defLine struct {
	name    string
	pre     []string
	botSeat int
	flop    []string // before the bot's own bet (own > 0) or the opponent's bet
	own     float64
}

// defLines are the lines LBR plays (it limps or calls preflop) and the common
// raise-call.
var defLines = []defLine{
	{"BB, SB limps", []string{"c", "k"}, 1, []string{"k"}, 0},
	{"SB raises, BB calls", []string{"r250", "c"}, 0, nil, 0},
	{"BB calls a raise", []string{"r250", "c"}, 1, []string{"k"}, 0},
	{"SB limps, BB checks", []string{"c", "k"}, 0, nil, 0},
	{"BB bets 2/3 after a limp, raised", []string{"c", "k"}, 1, nil, 0.66},
	{"SB bets 2/3 after raise-call, raised", []string{"r250", "c"}, 0, []string{"k"}, 0.66},
	{"BB bets 2/3 after raise-call, raised", []string{"r250", "c"}, 1, nil, 0.66},
}

// randomDeal returns a board of five cards and two hands apart from it.
func randomDeal(r *rand.Rand) (hole0, hole1, board string) {
	deck := r.Perm(52)
	s := func(ix ...int) string {
		out := ""
		for _, i := range ix {
			out += cards.Card(deck[i]).String()
		}
		return out
	}
	return s(0, 1), s(2, 3), s(4, 5, 6, 7, 8)
}

// flopFold plays line l at a stack of bb big blinds on the deal, the opponent's
// bet (or raise) of frac pots (0: all-in), and returns the share of the bot's
// range (its own beliefs there) that folds and the most a range may fold against
// a bet that size (bet / (pot + bet), the opponent's chips of the bet or raise
// over the pot after it: a bluff profits above it). ok is false when the bot's range is empty there.
func flopFold(t *testing.T, b *resolveBot, bb int64, hole0, hole1, board string, l defLine, frac float64) (fold, most float64, ok bool) {
	t.Helper()
	h := dealt(t, hole0, hole1, board, engine.Config{Stacks: []int64{100 * bb, 100 * bb}, SmallBlind: 50, BigBlind: 100})
	play(t, h, l.pre...)
	play(t, h, l.flop...)
	pot := float64(h.View(0).Pot)
	stack := 100*bb - int64(pot)/2
	bet := int64(0)
	if l.own > 0 {
		bet = int64(l.own * pot)
		play(t, h, "r"+strconv.FormatInt(bet, 10))
	}
	to := stack
	if frac > 0 {
		// a pot raise over a bet: call it, then raise the pot after the call
		to = min(stack, max(100, bet+int64(frac*(pot+2*float64(bet)))))
	}
	play(t, h, "r"+strconv.FormatInt(to, 10))
	shares, ok := rangeShares(t, b, h, l.botSeat)
	fold = 0
	for i, a := range shares.acts {
		if a.Kind == engine.Fold {
			fold = shares.p[i]
		}
	}
	return fold, float64(to) / (pot + float64(bet) + float64(to)), ok
}

// actionShares is the share of a range taking each of a plan's actions.
type actionShares struct {
	acts []engine.Action
	p    []float64
}

// rangeShares returns the shares of the range of the bot in seat, as its beliefs
// have it, taking each action of its plan at the end of h; ok is false when that
// range is empty.
func rangeShares(t *testing.T, b *resolveBot, h *engine.Hand, seat int) (actionShares, bool) {
	t.Helper()
	v := h.View(seat)
	hist, okh := readHistory(&v)
	if !okh {
		t.Fatal("no history")
	}
	i := len(hist.streets) - 1
	b.cache, b.starts = map[string]*plan{}, map[string]*[2]belief{}
	bel := b.beliefsAt(context.Background(), &hist, i)
	now := *bel
	b.playRound(context.Background(), &hist, i, &now, len(hist.cur().acts))
	p := b.roundPlan(&hist, i, len(hist.cur().acts), &now)
	var dead cards.Set
	for _, c := range hist.cur().board {
		dead = dead.Add(c)
	}
	out := actionShares{acts: p.acts, p: make([]float64, len(p.acts))}
	w := 0.0
	for x, c := range comboCards {
		if cards.SetOf(c[0], c[1])&dead != 0 || p.probs[x] == nil {
			continue
		}
		w += now[hist.me][x]
		for a, q := range p.probs[x] {
			out.p[a] += now[hist.me][x] * q
		}
	}
	for a := range out.p {
		out.p[a] /= w
	}
	return out, w > 0
}

// defenceReport prints, for each depth and line, the mean share of the bot's
// range that folds on n random flops facing a bet of half a pot, a pot and
// all-in, and one of a random size between the tree's (the mapping's), beside the
// most the pot odds allow.
func defenceReport(t *testing.T, n int) {
	r := rand.New(rand.NewPCG(14, 1))
	deals := make([][3]string, n)
	for i := range deals {
		deals[i][0], deals[i][1], deals[i][2] = randomDeal(r)
	}
	depths := []int64{20, 50, 100, 200}
	if s := os.Getenv("FELT_DEFENCE_DEPTHS"); s != "" {
		depths = nil
		for _, f := range strings.Split(s, ",") {
			n, _ := strconv.ParseInt(f, 10, 64)
			depths = append(depths, n)
		}
	}
	for _, bb := range depths {
		for _, l := range defLines {
			fracs := []float64{0.5, 1, 0, -1}
			if l.own > 0 {
				fracs = []float64{1, 0}
			}
			line := fmt.Sprintf("%3d bb  %-38s", bb, l.name)
			for _, frac := range fracs {
				var sf, sm float64
				k := 0
				for _, d := range deals {
					x := frac
					if x < 0 {
						x = 0.4 + 0.5*r.Float64() // between the tree's 1/3, 2/3 and 1
					}
					b := newTestResolve(t, 1)
					f, m, ok := flopFold(t, b, bb, d[0], d[1], d[2], l, x)
					if ok {
						sf, sm, k = sf+f, sm+m, k+1
					}
				}
				name := map[float64]string{0.5: "½ pot", 1: "pot", 0: "all-in", -1: "random"}[frac]
				line += fmt.Sprintf("  %s %.2f (≤%.2f)", name, sf/float64(k), sm/float64(k))
			}
			t.Log(line)
		}
	}
}

// TestBlueprintFlopDefenceReport prints the report over FELT_DEFENCE_FLOPS random
// flops (skipped without it): go test ./internal/bot -run DefenceReport -v.
// FELT_DEFENCE_DEPTHS lists the depths (default 20,50,100,200), FELT_BLUEPRINT
// reads another blueprint file, FELT_DEFENCE_RAW=1 leaves defend off (the
// blueprint's own folds).
func TestBlueprintFlopDefenceReport(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FELT_DEFENCE_FLOPS"))
	if n <= 0 {
		t.Skip("set FELT_DEFENCE_FLOPS to the number of random flops")
	}
	if os.Getenv("FELT_DEFENCE_RAW") != "" {
		defendOn = false
		defer func() { defendOn = true }()
	}
	if path := os.Getenv("FELT_BLUEPRINT"); path != "" {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		bp, err := blueprint.Read(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		old := blueprintOf
		blueprintOf = func() (*blueprint.Blueprint, error) { return bp, nil }
		defer func() { blueprintOf = old }()
	}
	defenceReport(t, n)
}

// TestResolveFlopDefendsToPotOdds: on a fixed set of flops at 100 big blinds,
// the share of the bot's range that folds on the flop facing a pot bet (after it
// called a raise) and half a pot (after a limp) is within the minimum defence
// (bet over the pot after it): the blueprint alone folded 0.54 of it facing half
// a pot after a limp on these flops, where at most 0.33 may.
func TestResolveFlopDefendsToPotOdds(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 11))
	for _, c := range []struct {
		l    defLine
		frac float64
	}{{defLines[2], 1}, {defLines[0], 0.5}} {
		var sf, sm float64
		const n = 6
		for range n {
			h0, h1, bd := randomDeal(r)
			f, m, ok := flopFold(t, newTestResolve(t, 1), 100, h0, h1, bd, c.l, c.frac)
			if !ok {
				t.Fatalf("%s on %s: an empty range", c.l.name, bd)
			}
			sf, sm = sf+f/n, sm+m/n
		}
		if sf > sm+defendSlack+0.01 {
			t.Errorf("%s, facing %.1f pots: folds %.2f of its range, more than %.2f", c.l.name, c.frac, sf, sm)
		}
	}
}
