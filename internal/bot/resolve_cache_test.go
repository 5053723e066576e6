package bot

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/solver"
)

// thirdTurnRaise deals a 200-big-blind hand (blinds 50/100) in which the big
// blind re-raises on the turn: bet, raise, raise, the third past the turn's raise
// cap in the re-solved tree, so that the bot (seat 0) has no plan there.
func thirdTurnRaise(t *testing.T) *engine.Hand {
	t.Helper()
	h := dealt(t, "AhKd", "8s8c", "3dJc2c5h9s", engine.Config{Stacks: []int64{20000, 20000}, SmallBlind: 50, BigBlind: 100})
	play(t, h, "r350", "c", "k", "k", "r700", "r2800", "r9100")
	return h
}

// withHole returns v with the viewer's hole cards replaced by hole, in its seat
// and in its hole-card event (as LBR asks about each hand of a range).
func withHole(v engine.View, hole string) engine.View {
	c := cards.MustParseList(hole)
	v.Seats = slices.Clone(v.Seats)
	v.Events = slices.Clone(v.Events)
	v.Seats[v.Viewer].Cards[0], v.Seats[v.Viewer].Cards[1] = c[0], c[1]
	for k := range v.Events {
		if e := &v.Events[k]; e.Kind == engine.EvHoleCards && int(e.Seat) == v.Viewer {
			e.Cards[0], e.Cards[1] = c[0], c[1]
		}
	}
	return v
}

// TestResolveThirdTurnRaiseIsSolved: facing a third bet or raise on the turn (past
// the turn tree's cap of two), the bot re-solves with the raise in its tree and
// plays its hands by that plan: the nut straight does not fold where the bot once
// folded every hand (quickAction: the price is above a quarter of the pot), and
// asked about other hands (LBR asks about 1,326) it answers from the same plan
// without re-solving the turn again.
func TestResolveThirdTurnRaiseIsSolved(t *testing.T) {
	b := newTestResolve(t, 1)
	v := thirdTurnRaise(t).View(0)
	hist, _ := readHistory(&v)
	foldOf := func(hole string) float64 {
		t.Helper()
		w := withHole(v, hole)
		probs, ok := b.Strategy(&w, nil)
		if !ok {
			t.Fatalf("%s: no answer", hole)
		}
		fold := 0.0
		for _, p := range probs {
			if p.Action.Kind == engine.Fold {
				fold += p.Prob
			}
		}
		return fold
	}
	if f := foldOf("6d4d"); f > 0.5 {
		t.Errorf("the nut straight folds %.2f of the time facing a third raise", f)
	}
	p := b.cache[hist.key]
	if p == nil || len(p.acts) == 0 || len(p.probs) == 0 {
		t.Fatalf("plan %+v: want a re-solved plan at the third raise", p)
	}
	kept := b.kept.s
	for _, hole := range []string{"7c6c", "AsAd", "KhTh"} {
		foldOf(hole)
		if b.kept.s != kept || b.cache[hist.key] != p {
			t.Fatalf("%s: the turn was re-solved again", hole)
		}
	}
}

// TestResolveRiverAfterThirdTurnRaise: on the river after a turn with three bets
// and raises, the bot has the beliefs the turn's re-solve gives and a river plan
// (it had neither, and checked or folded every hand there).
func TestResolveRiverAfterThirdTurnRaise(t *testing.T) {
	b := newTestResolve(t, 1)
	h := thirdTurnRaise(t)
	play(t, h, "c", "k")
	v := h.View(0)
	hist, _ := readHistory(&v)
	if _, ok := b.Strategy(&v, nil); !ok {
		t.Fatal("no answer")
	}
	if p := b.cache[hist.key]; p == nil || len(p.acts) == 0 || len(p.probs) == 0 {
		t.Fatalf("plan %+v: want a re-solved river plan", p)
	}
	river := b.starts[hist.key[:hist.cur().keyAt]]
	if river == nil || *river == [2]belief{uniform(), uniform()} {
		t.Fatal("the river's beliefs are not the turn's outcome")
	}
}

// TestAdvanceStopsWhereTheTreeEnds: a round's line past its re-solved tree (a
// tree made for fewer raises) moves the beliefs along the actions the tree holds
// and leaves them there, and the plan at its end answers by equity against the
// opponent's range there (plan.outside).
func TestAdvanceStopsWhereTheTreeEnds(t *testing.T) {
	v := thirdTurnRaise(t).View(0)
	hist, _ := readHistory(&v)
	st := hist.cur()
	short := *st
	short.acts = st.acts[:2]
	b := newTestResolve(t, 1)
	b.starts = map[string]*[2]belief{}
	bel := b.beliefsAt(context.Background(), &hist, len(hist.streets)-1)
	s, err := newRoundSolver(context.Background(), st, bel, roundTree(&short, hist.me), nil, b.leaves)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	iterate(context.Background(), s.IterateContext, 4)
	all, two := *bel, *bel
	if n := advance(s, st, &all, hist.me); n != 2 {
		t.Fatalf("advance walked %d actions, want the tree's 2", n)
	}
	if n := advance(s, &short, &two, hist.me); n != 2 || all != two {
		t.Fatalf("advance along the tree's line: %d actions, same beliefs %v", n, all == two)
	}
	if all == *bel {
		t.Fatal("the beliefs did not move")
	}
}

// blip is a context that reports itself cancelled on its n-th look only: a
// re-solve stopped short by a deadline that its caller no longer sees as done.
type blip struct {
	context.Context
	n int
}

func (c *blip) Err() error {
	if c.n--; c.n == 0 {
		return context.Canceled
	}
	return nil
}

// TestResolveShortSolveIsTriedAgain: a plan whose re-solve a deadline stopped
// before its iterations is not kept (a full re-solve could answer otherwise), so
// the next question at the same history re-solves; a full one is kept.
func TestResolveShortSolveIsTriedAgain(t *testing.T) {
	b := newTestResolve(t, 1)
	v := thirdTurnRaise(t).View(0)
	hist, _ := readHistory(&v)
	if _, ok := b.StrategyContext(&blip{context.Background(), 3}, &v, nil); !ok {
		t.Fatal("no answer")
	}
	short := b.kept.s
	if short == nil || short.Iterations() >= minTurnIterations || b.cache[hist.key] != nil {
		t.Fatalf("re-solve %v: want one stopped short, its plan not kept", short)
	}
	if _, ok := b.Strategy(&v, nil); !ok || b.kept.s == short || b.cache[hist.key] == nil {
		t.Fatalf("answered %v, re-solved %v: want a new re-solve, kept", ok, b.kept.s != short)
	}
}

// lbrLikeQuestions are histories of one hand (after "r350 c k k", the big blind
// to act on the turn) and the hands the bot is asked about at each, in the order
// LBR asks: the bets it considers, the bot's answers to them, lines the turn's
// re-solved tree does not hold (a third raise), asked again after other re-solves,
// a bet that differs from another only in its size, and the river after lines
// the bot's kept solve does and does not cover.
var lbrLikeQuestions = []struct {
	line  string
	holes []string
}{
	{"r700", []string{"AhKd", "QsQh", "7c6c"}},
	{"r19650", []string{"AhKd", "QsQh"}},
	{"r700 r2800 r9100", []string{"AhKd", "QsQh"}},
	{"r700 r2800 r19650", []string{"AhKd", "7c6c"}},
	{"r700 r2800 r9100", []string{"AhKd", "7c6c"}},
	{"r710", []string{"AhKd", "QsQh", "7c6c"}},
	{"r700 c r1400", []string{"AhKd", "QsQh", "7c6c"}},
	{"r700 c r18950", []string{"AhKd", "QsQh"}},
	{"r700 c r1410", []string{"AhKd", "QsQh"}},
	{"r700 c k", []string{"AhKd", "QsQh", "7c6c"}},
	{"r700 r2800 r9100 c k", []string{"AhKd", "QsQh"}},
	{"r700 c k", []string{"7c6c"}},
}

// answersDigest asks b, in order, lbrLikeQuestions and returns the hash of its
// answers (every action and probability, bit for bit) and the answers at "r700"
// and "r710" for AhKd. With noReuse, b's kept re-solves are dropped before each
// question (b re-solves what it would have taken from them).
func answersDigest(t *testing.T, b *resolveBot, noReuse bool) (string, [2][]ActionProb) {
	t.Helper()
	d := fnv.New64a()
	var sizes [2][]ActionProb
	for _, q := range lbrLikeQuestions {
		h := dealt(t, "AhKd", "8s8c", "3dJc2c5h9s", engine.Config{Stacks: []int64{20000, 20000}, SmallBlind: 50, BigBlind: 100})
		play(t, h, append([]string{"r350", "c", "k", "k"}, strings.Fields(q.line)...)...)
		if h.ToAct() != 0 {
			t.Fatalf("%s: seat %d to act, not the bot's", q.line, h.ToAct())
		}
		for _, hole := range q.holes {
			v := withHole(h.View(0), hole)
			if noReuse {
				b.solves = solveStore{}
			}
			probs, ok := b.Strategy(&v, nil)
			if !ok {
				t.Fatalf("%s, %s: no strategy", q.line, hole)
			}
			fmt.Fprintf(d, "%s %s:", q.line, hole)
			for _, p := range probs {
				fmt.Fprintf(d, " %v/%d/%x", p.Action.Kind, p.Action.Amount, math.Float64bits(p.Prob))
			}
			switch {
			case hole != "AhKd":
			case q.line == "r700":
				sizes[0] = probs
			case q.line == "r710":
				sizes[1] = probs
			}
		}
	}
	return fmt.Sprintf("%016x", d.Sum64()), sizes
}

// lbrLikeDigest is answersDigest of a new bot (newTestResolve(t, 1)). It was first
// computed at main 397fa56 (ec6f9bb6e230afbb), before the bot remembered its
// failures and kept its re-solves for reuse, and taken again when a third raise
// on the turn came into the re-solved tree (the bot had answered it, and the
// river after it, without a plan), and again (8f26c5b310165ecf before) when
// defend came to hold the river's plans and call with every hand whose equity is
// twice the price (priceCall): queens facing the river bets of 1,400 and 1,410
// fold 0.07% less; every other answer is as before.
const lbrLikeDigest = "b4420692ced251cc"

// TestResolveAnswersAsBefore: asked LBR's kind of questions, the bot answers bit
// for bit as it does when it re-solves every time instead of reusing its kept
// re-solves, and as when the digest was taken; its answer to a bet is not the one
// to a bet 10 chips smaller (no plan or re-solve is taken for another history's).
func TestResolveAnswersAsBefore(t *testing.T) {
	if testing.Short() {
		t.Skip("re-solves the turn a dozen times")
	}
	got, sizes := answersDigest(t, newTestResolve(t, 1), false)
	if got != lbrLikeDigest {
		t.Errorf("answers' digest %s, want %s", got, lbrLikeDigest)
	}
	if fresh, _ := answersDigest(t, newTestResolve(t, 1), true); fresh != got {
		t.Errorf("answers' digest %s re-solving every time, %s reusing re-solves", fresh, got)
	}
	if sizes[0] == nil || fmt.Sprint(sizes[0]) == fmt.Sprint(sizes[1]) {
		t.Errorf("AhKd facing 700: %v, facing 710: %v; want two answers", sizes[0], sizes[1])
	}
}

// TestSolveStoreBounds: the store keeps at most maxStored re-solves and
// maxStoredBytes of them (the oldest go first, one too large is not kept), finds
// one only with the same key, bound and beliefs, and keeps only those of rounds
// on the way to the history asked about.
func TestSolveStoreBounds(t *testing.T) {
	var st solveStore
	bel := [2]belief{uniform(), uniform()}
	bound := &solver.Bound{}
	entry := func(start, key string, mb int64) storedSolve {
		return storedSolve{start: start, key: key, bel: bel, bound: bound, s: new(solver.Solver), bytes: mb << 20}
	}
	for i := range maxStored + 2 {
		st.add(entry("a", strconv.Itoa(i), 10))
	}
	if len(st.list) != maxStored || st.list[0].key != "2" || st.bytes != maxStored*10<<20 {
		t.Fatalf("%d kept (%d bytes), the oldest %q; want %d, from \"2\"", len(st.list), st.bytes, st.list[0].key, maxStored)
	}
	st.add(entry("a", "big", maxStoredBytes>>20+1))
	if st.find("big", &bel, bound) != nil || len(st.list) != maxStored {
		t.Error("a re-solve larger than maxStoredBytes was kept, or others dropped for it")
	}
	st.add(entry("a", "half", maxStoredBytes>>21))
	st.add(entry("b", "half2", maxStoredBytes>>21))
	if st.bytes > maxStoredBytes || len(st.list) != 2 {
		t.Errorf("%d kept in %d bytes; want the two halves alone", len(st.list), st.bytes)
	}
	other := bel
	other[1][7] = 0.5
	switch {
	case st.find("half", &bel, bound) == nil:
		t.Error("the same re-solve not found")
	case st.find("half", &other, bound) != nil:
		t.Error("found from other beliefs")
	case st.find("half", &bel, &solver.Bound{}) != nil:
		t.Error("found with another bound")
	case st.find("half3", &bel, bound) != nil:
		t.Error("found for another key")
	}
	st.keepHand("b more")
	if len(st.list) != 1 || st.list[0].key != "half2" || st.bytes != maxStoredBytes/2 {
		t.Errorf("keepHand kept %d (%d bytes)", len(st.list), st.bytes)
	}
}
