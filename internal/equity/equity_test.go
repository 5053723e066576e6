package equity

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/eval"
)

func ranges(ss ...string) []Range {
	out := make([]Range, len(ss))
	for i, s := range ss {
		out[i] = MustParseRange(s)
	}
	return out
}

func TestKnownAcesVersusKings(t *testing.T) {
	for _, plain := range []bool{false, true} {
		res, err := Calculate(ranges("AhAs", "KdKc"), nil, nil, Options{Method: Exact, NoSuitReduction: plain})
		if err != nil {
			t.Fatal(err)
		}
		aa, kk := res.Players[0], res.Players[1]
		if aa.Wins != 1_388_072 || aa.Ties != 6_538 || kk.Wins != 317_694 || kk.Ties != 6_538 || res.Deals != 1_712_304 {
			t.Fatalf("plain=%v: aces win %v tie %v, kings win %v, deals %v", plain, aa.Wins, aa.Ties, kk.Wins, res.Deals)
		}
		if math.Round(aa.Win*1e4) != 8106 || math.Round(aa.Equity*1e4) != 8126 || aa.StdErr != 0 || res.Method != Exact {
			t.Fatalf("aces win %.4f equity %.4f", aa.Win, aa.Equity)
		}
		if math.Abs(aa.Equity+kk.Equity-1) > 1e-12 {
			t.Fatalf("equities sum to %v", aa.Equity+kk.Equity)
		}
		wantShowdowns := int64(1_712_304)
		if !plain {
			wantShowdowns = 20_449 // the suit reduction's classes; see exact.go
		}
		if res.Showdowns != wantShowdowns {
			t.Errorf("plain=%v: %d showdowns, want %d", plain, res.Showdowns, wantShowdowns)
		}
	}
}

// brute is a slow, independent enumeration: every compatible assignment of combos
// (weights multiplied) and every board, each hand ranked from its 7 cards.
func brute(players []Range, board, dead []cards.Card) (win, tie, share []float64, total float64) {
	n := len(players)
	win, tie, share = make([]float64, n), make([]float64, n), make([]float64, n)
	used := map[cards.Card]bool{}
	for _, c := range append(append([]cards.Card{}, board...), dead...) {
		used[c] = true
	}
	hole := make([][2]cards.Card, n)
	var deal func(i int, w float64)
	deal = func(i int, w float64) {
		if i < n {
			for _, c := range players[i].Combos() {
				if used[c.Cards[0]] || used[c.Cards[1]] {
					continue
				}
				used[c.Cards[0]], used[c.Cards[1]] = true, true
				hole[i] = c.Cards
				deal(i+1, w*c.Weight)
				used[c.Cards[0]], used[c.Cards[1]] = false, false
			}
			return
		}
		var rest []cards.Card
		for c := cards.Card(0); c < cards.NumCards; c++ {
			if !used[c] {
				rest = append(rest, c)
			}
		}
		b := make([]cards.Card, 5)
		copy(b, board)
		var boards func(from, j int)
		boards = func(from, j int) {
			if j == 5 {
				ranks := make([]eval.Rank, n)
				best := eval.Rank(0)
				for p := range n {
					ranks[p] = eval.Evaluate(hole[p][0], hole[p][1], b[0], b[1], b[2], b[3], b[4])
					best = max(best, ranks[p])
				}
				k := 0
				for _, r := range ranks {
					if r == best {
						k++
					}
				}
				for p, r := range ranks {
					if r == best {
						if k == 1 {
							win[p] += w
						} else {
							tie[p] += w
						}
						share[p] += w / float64(k)
					}
				}
				total += w
				return
			}
			for i := from; i < len(rest); i++ {
				b[j] = rest[i]
				boards(i+1, j+1)
			}
		}
		boards(0, len(board))
	}
	deal(0, 1)
	return win, tie, share, total
}

func checkAgainstBrute(t *testing.T, name string, players []Range, board, dead []cards.Card) {
	t.Helper()
	win, tie, share, total := brute(players, board, dead)
	for _, plain := range []bool{false, true} {
		res, err := Calculate(players, board, dead, Options{Method: Exact, NoSuitReduction: plain, Workers: 2})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if math.Abs(res.Deals-total) > 1e-9*total {
			t.Fatalf("%s (plain=%v): %v deals, brute force %v", name, plain, res.Deals, total)
		}
		for i, p := range res.Players {
			if math.Abs(p.Wins-win[i]) > 1e-9*total || math.Abs(p.Ties-tie[i]) > 1e-9*total || math.Abs(p.Equity-share[i]/total) > 1e-12 {
				t.Fatalf("%s (plain=%v): player %d wins %v ties %v equity %v; brute force %v %v %v",
					name, plain, i+1, p.Wins, p.Ties, p.Equity, win[i], tie[i], share[i]/total)
			}
		}
	}
}

func TestExactMatchesBruteForceOnChosenBoards(t *testing.T) {
	for _, tc := range []struct{ players, board, dead string }{
		{"AhKh|QsQd", "Th9h2c", ""},                     // flush draws
		{"AhKh|QsQd|7h6h", "2h5h9h", ""},                // monotone flop
		{"AhKh|QsQd", "2h5h9hJh", ""},                   // four to a flush on the turn
		{"AhKd|AcKs", "7c7d7h", "2s"},                   // split-heavy
		{"3c4d|5h6s|AhAd", "2h2d2s2c", ""},              // quads on the board
		{"AhAs|KdKc", "Kh7d2c", "3s"},                   //
		{"AhAs|KdKc", "Kh7d2c8s", ""},                   // turn
		{"AhAs|KdKc", "Kh7d2c8s9h", ""},                 // river: one showdown
		{"QQ+,AKs|JJ,AQs:0.5|ATs+,K9s", "AsKs2h", "3c"}, // ranges with removal and weights
		{"AhKh|random", "Qh5h2d9c", ""},
		{"AA|KK", "Ks8h3d", ""},
		{"AhKh|7s7c", "", "2h"}, // preflop, with a dead card
	} {
		checkAgainstBrute(t, tc.players+" on "+tc.board, ranges(strings.Split(tc.players, "|")...),
			cards.MustParseList(tc.board), cards.MustParseList(tc.dead))
	}
}

func TestExactMatchesBruteForceOnRandomDeals(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for iter := range 60 {
		perm := rng.Perm(cards.NumCards)
		next := func() cards.Card { c := cards.Card(perm[0]); perm = perm[1:]; return c }
		n := 2 + rng.IntN(3)
		boardLen := []int{3, 4, 5}[rng.IntN(3)]
		var board, dead []cards.Card
		for range boardLen {
			board = append(board, next())
		}
		for range rng.IntN(3) {
			dead = append(dead, next())
		}
		players := make([]Range, n)
		var names []string
		for i := range players {
			text := cards.Format([]cards.Card{next(), next()})
			if rng.IntN(3) == 0 { // a small weighted range, possibly overlapping others' cards
				c := cards.Card(perm[rng.IntN(10)])
				d := cards.Card(perm[10+rng.IntN(10)])
				text += ":0.5," + cards.Format([]cards.Card{c, d})
			}
			players[i] = MustParseRange(text)
			names = append(names, text)
		}
		name := strings.Join(names, " vs ") + " on " + cards.Format(board) + " dead " + cards.Format(dead)
		if _, err := Calculate(players, board, dead, Options{Method: Exact}); err != nil {
			if errors.Is(err, ErrBadInput) {
				continue // random ranges may leave a player nothing
			}
			t.Fatalf("iteration %d: %s: %v", iter, name, err)
		}
		checkAgainstBrute(t, name, players, board, dead)
		checked++
	}
	if checked < 40 {
		t.Fatalf("only %d of 60 random cases were possible", checked)
	}
}

func TestExactPreflopThreePlayers(t *testing.T) {
	players := ranges("AhKh", "QsQd", "7c6c")
	red, err := Calculate(players, nil, nil, Options{Method: Exact})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Calculate(players, nil, nil, Options{Method: Exact, NoSuitReduction: true})
	if err != nil {
		t.Fatal(err)
	}
	if red.Deals != 1_370_754 || plain.Deals != red.Deals { // C(46, 5)
		t.Fatalf("deals %v and %v", red.Deals, plain.Deals)
	}
	for i := range red.Players {
		if red.Players[i].Wins != plain.Players[i].Wins || red.Players[i].Ties != plain.Players[i].Ties {
			t.Fatalf("player %d: reduced %+v, plain %+v", i+1, red.Players[i], plain.Players[i])
		}
	}
	if red.Showdowns*5 > plain.Showdowns {
		t.Errorf("reduction evaluated %d of %d showdowns", red.Showdowns, plain.Showdowns)
	}
}

// Preflop, where the suit reduction merges the most boards, it agrees exactly with
// the board-by-board walk on random deals of 2 to 4 players, some with a dead card.
func TestExactPreflopReductionOnRandomDeals(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := range 12 {
		perm := rng.Perm(cards.NumCards)
		n := 2 + iter%3
		players := make([]Range, n)
		for i := range players {
			players[i] = MustParseRange(cards.Format([]cards.Card{cards.Card(perm[2*i]), cards.Card(perm[2*i+1])}))
		}
		var dead []cards.Card
		if iter%2 == 1 {
			dead = []cards.Card{cards.Card(perm[2*n])}
		}
		red, err := Calculate(players, nil, dead, Options{Method: Exact})
		if err != nil {
			t.Fatal(err)
		}
		plain, err := Calculate(players, nil, dead, Options{Method: Exact, NoSuitReduction: true})
		if err != nil {
			t.Fatal(err)
		}
		for i := range red.Players {
			if red.Players[i].Wins != plain.Players[i].Wins || red.Players[i].Ties != plain.Players[i].Ties {
				t.Fatalf("deal %d, player %d (%s): reduced %+v, plain %+v", iter, i+1, red.Players[i].Range, red.Players[i], plain.Players[i])
			}
		}
	}
}

// Workers sharing one board walk (fewer jobs than workers) count every board once:
// any number of workers gives the same wins, ties and showdowns.
func TestExactSharedBoardWalk(t *testing.T) {
	for _, players := range [][]Range{ranges("AhAs", "KdKc"), ranges("AhKh", "QsQd", "7c6c")} {
		one, err := Calculate(players, nil, nil, Options{Method: Exact, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{2, 3, 5} {
			res, err := Calculate(players, nil, nil, Options{Method: Exact, Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			if res.Showdowns != one.Showdowns || res.Deals != one.Deals {
				t.Fatalf("%d workers: %d showdowns, %v deals; one worker %d, %v", w, res.Showdowns, res.Deals, one.Showdowns, one.Deals)
			}
			for i := range res.Players {
				if res.Players[i].Wins != one.Players[i].Wins || res.Players[i].Ties != one.Players[i].Ties {
					t.Fatalf("%d workers, player %d: %+v, one worker %+v", w, i+1, res.Players[i], one.Players[i])
				}
			}
		}
	}
}

func TestCardRemoval(t *testing.T) {
	// AA against a hand holding the ace of spades is AA without the three combos holding it.
	a, err := Calculate(ranges("AA", "AsKs"), nil, nil, Options{Method: Exact})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Calculate(ranges("AhAd,AhAc,AdAc", "AsKs"), nil, nil, Options{Method: Exact})
	if err != nil {
		t.Fatal(err)
	}
	if a.Players[0].Wins != b.Players[0].Wins || a.Players[1].Wins != b.Players[1].Wins || a.Deals != b.Deals {
		t.Fatalf("AA vs AsKs %+v, explicit combos %+v", a.Players, b.Players)
	}
	// The board and dead cards remove combos too; weights of what is left still count.
	c, err := Calculate(ranges("AA:0.5,KK", "QQ"), cards.MustParseList("Ah2c3d"), cards.MustParseList("Kd"), Options{Method: Exact})
	if err != nil {
		t.Fatal(err)
	}
	// AA keeps 3 combos (weight 0.5), KK keeps 3, QQ keeps 6; C(44,2) boards each.
	if want := (3*0.5 + 3) * 6 * 946; math.Abs(c.Deals-want) > 1e-6 {
		t.Fatalf("deals %v, want %v", c.Deals, want)
	}
}

func TestBadInput(t *testing.T) {
	mp := cards.MustParseList
	for _, tc := range []struct {
		name        string
		players     []Range
		board, dead []cards.Card
		want        string
	}{
		{"one player", ranges("AhAs"), nil, nil, "2 to 10"},
		{"eleven players", ranges("AA", "KK", "QQ", "JJ", "TT", "99", "88", "77", "66", "55", "44"), nil, nil, "2 to 10"},
		{"two-card board", ranges("AhAs", "KdKc"), mp("2c3c"), nil, "board of 2"},
		{"six-card board", ranges("AhAs", "KdKc"), mp("2c3c4c5c6c7c"), nil, "board of 6"},
		{"hand on board", ranges("AhAs", "KdKc"), mp("Ah2c3c"), nil, "Ah"},
		{"hand and dead", ranges("AhAs", "KdKc"), nil, mp("Kd"), "Kd"},
		{"board and dead", ranges("AhAs", "KdKc"), mp("2c3c4c"), mp("2c"), "2c"},
		{"two hands", ranges("AhAs", "AhKd"), nil, nil, "Ah"},
		{"nothing left", ranges("AA", "KK"), mp("AhAsAd"), nil, "player 1"},
		{"nothing left by fixed hand", ranges("AhAs", "AA"), mp("Ad2c3c"), nil, "player 2"},
		{"ranges cannot fit", ranges("AA", "AA", "AA"), nil, nil, "cannot all be dealt"},
		{"empty range", []Range{MustParseRange("AA"), {}}, nil, nil, "player 2"},
		{"board twice", ranges("AhAs", "KdKc"), []cards.Card{0, 0, 1}, nil, "twice"},
	} {
		_, err := Calculate(tc.players, tc.board, tc.dead, Options{})
		if err == nil || !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want ErrBadInput naming %q", tc.name, err, tc.want)
		}
	}
}

func TestMonteCarloAgreesWithExact(t *testing.T) {
	for i, tc := range []struct {
		players []Range
		board   string
	}{
		{ranges("AhAs", "KdKc"), ""},
		{ranges("QQ+,AKs", "JJ,AQs:0.5", "random"), "AsKs2h"},
		{ranges("AhKh", "QsQd", "7h6h"), "2h5h9h"},
		{ranges("22+", "AK", "KQs"), "Td7c2s9h"},
		{ranges("AhKh", "random", "random"), "Qh5h2d9c7s"}, // two players dealt from the deck
	} {
		board := cards.MustParseList(tc.board)
		ex, err := Calculate(tc.players, board, nil, Options{Method: Exact})
		if err != nil {
			t.Fatal(err)
		}
		mc, err := Calculate(tc.players, board, nil, Options{Method: MonteCarlo, Samples: 200_000, Seed: cards.SeedFromUint64(uint64(i)), Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if mc.Showdowns != 200_000 || mc.Deals != 200_000 || mc.Method != MonteCarlo {
			t.Fatalf("case %d: %d showdowns, %v deals, method %v", i, mc.Showdowns, mc.Deals, mc.Method)
		}
		for p := range ex.Players {
			e, m := ex.Players[p], mc.Players[p]
			if m.StdErr <= 0 || m.StdErr > 0.002 {
				t.Errorf("case %d player %d: std error %v", i, p+1, m.StdErr)
			}
			if math.Abs(e.Equity-m.Equity) > 4*m.StdErr {
				t.Errorf("case %d player %d: exact %.5f, Monte Carlo %.5f ± %.5f", i, p+1, e.Equity, m.Equity, m.StdErr)
			}
		}
	}
}

// Only a range of every pair of the cards left, equally weighted, is dealt straight
// from the deck in Monte Carlo.
func TestDealsFromDeck(t *testing.T) {
	for _, tc := range []struct {
		players, board string
		want           []bool
	}{
		{"random|random", "", []bool{true, true}},
		{"random|AhKh", "Qs5h2d", []bool{true, false}},
		{"random|AhKh|QQ", "", []bool{true, false, false}},
		{"random:0.5|KK", "", []bool{true, false}},
		{"random,AA:0.5|KK", "", []bool{false, false}},
		{"22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32|33", "", []bool{true, false}},
		{"22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+|33", "", []bool{false, false}},
	} {
		p, err := newProblem(ranges(strings.Split(tc.players, "|")...), cards.MustParseList(tc.board), nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range tc.want {
			if got := p.dealsFromDeck(i); got != want {
				t.Errorf("%s on %q, player %d: dealt from the deck %v, want %v", tc.players, tc.board, i+1, got, want)
			}
		}
	}
}

func TestMonteCarloDeterministic(t *testing.T) {
	players := ranges("random", "random", "random", "random", "random", "random")
	opts := Options{Method: MonteCarlo, Samples: 50_001, Seed: cards.SeedFromUint64(42), Workers: 3}
	a, err := Calculate(players, nil, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Calculate(players, nil, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	if a.Showdowns != 50_001 {
		t.Fatalf("%d showdowns", a.Showdowns)
	}
	for i := range a.Players {
		if a.Players[i] != b.Players[i] {
			t.Fatalf("player %d: %+v then %+v", i+1, a.Players[i], b.Players[i])
		}
	}
	opts.Seed = cards.SeedFromUint64(43)
	c, _ := Calculate(players, nil, nil, opts)
	if c.Players[0] == a.Players[0] {
		t.Fatal("another seed gave the same result")
	}
	sum := 0.0
	for _, p := range a.Players {
		sum += p.Equity
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Fatalf("equities sum to %v", sum)
	}
}

func TestMonteCarloStops(t *testing.T) {
	players := ranges("AA", "random")
	res, err := Calculate(players, nil, nil, Options{Method: MonteCarlo, TargetStdErr: 0.005, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if se := res.Players[0].StdErr; se > 0.005 || res.Showdowns > 200_000 {
		t.Fatalf("std error %v after %d showdowns", se, res.Showdowns)
	}
	var calls int
	res, err = Calculate(players, nil, nil, Options{Method: MonteCarlo, TimeLimit: 1, Progress: func(done, total int64) { calls++ }})
	if err != nil || res.Showdowns == 0 || calls != 1 {
		t.Fatalf("time limit: %v, %d showdowns, %d progress calls", err, res.Showdowns, calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := CalculateContext(ctx, players, nil, nil, Options{Method: MonteCarlo}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	if _, err := CalculateContext(ctx, ranges("AA", "KK"), nil, nil, Options{Method: Exact}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled exact: %v", err)
	}
}

func TestAutoPicksMethod(t *testing.T) {
	res, err := Calculate(ranges("AhAs", "KdKc"), nil, nil, Options{})
	if err != nil || res.Method != Exact {
		t.Fatalf("heads-up hands: %v %v", res.Method, err)
	}
	res, err = Calculate(ranges("random", "random", "random"), nil, nil, Options{Samples: 10_000})
	if err != nil || res.Method != MonteCarlo || res.Showdowns != 10_000 {
		t.Fatalf("random hands: %v %d %v", res.Method, res.Showdowns, err)
	}
	res, err = Calculate(ranges("QQ+", "AK", "random"), cards.MustParseList("2c7d9h"), nil, Options{ExactLimit: 1})
	if err != nil || res.Method != MonteCarlo {
		t.Fatalf("tiny limit: %v %v", res.Method, err)
	}
}

// Range against range, the assignments of hole cards that a suit permutation maps onto
// each other are walked once: AA vs KK pre-flop (36 assignments, 3 suit classes) gives
// exactly the sums of the 36 single-combo calculations, from a fraction of their
// showdowns.
func TestExactRangesWalkEachSuitClassOnce(t *testing.T) {
	aces, kings := MustParseRange("AA"), MustParseRange("KK")
	res, err := Calculate([]Range{aces, kings}, nil, nil, Options{Method: Exact, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var wins, ties [2]float64
	var showdowns int64
	for _, a := range aces.Combos() {
		for _, k := range kings.Combos() {
			one, err := Calculate(ranges(a.String(), k.String()), nil, nil, Options{Method: Exact, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			showdowns += one.Showdowns
			for i, p := range one.Players {
				wins[i] += p.Wins
				ties[i] += p.Ties
			}
		}
	}
	for i, p := range res.Players {
		if p.Wins != wins[i] || p.Ties != ties[i] {
			t.Errorf("player %d: wins %v ties %v; the 36 assignments one by one: %v %v", i+1, p.Wins, p.Ties, wins[i], ties[i])
		}
	}
	if res.Showdowns*5 > showdowns {
		t.Errorf("AA vs KK took %d showdowns, the assignments one by one %d: suit classes not shared", res.Showdowns, showdowns)
	}
}

// Weighted ranges of several combos on a flop and on a suited flop, with a dead card:
// the cached suit classes agree with brute force.
func TestExactRangesAgainstBruteForce(t *testing.T) {
	for _, tc := range []struct{ a, b, board, dead string }{
		{"AA,KK:0.5", "QQ,AKs,T9s:0.25", "2c7d8h", ""},
		{"AA,AKs", "KK,QJs:0.5", "2h7h8h", "3c"},
		{"JJ+", "random", "9s8s2d", "Td"},
	} {
		board, dead := cards.MustParseList(tc.board), cards.MustParseList(tc.dead)
		checkAgainstBrute(t, tc.a+" vs "+tc.b+" on "+tc.board, ranges(tc.a, tc.b), board, dead)
	}
}

// The workers share the suit classes of assignments: range against range, any number of
// workers walks each class once, so gives the showdowns of one worker, and the same
// wins and ties. With fewer jobs than workers (KK's 6 combos, 8 workers) each worker
// walks only its share of every board walk, so its counts are its own: shared, they
// would count a class's boards once for all workers.
func TestExactRangesSameForAnyWorkers(t *testing.T) {
	for _, tc := range []struct {
		players []Range
		board   string
		workers []int
	}{
		{ranges("QQ+,AKs", "JJ,TT,AQs"), "", []int{2, 3}},
		{ranges("AA,KK:0.5", "QQ,AKs,T9s:0.25"), "2c7d8h", []int{2, 5}},
		{ranges("KK", "AhAs"), "", []int{8}},
	} {
		board := cards.MustParseList(tc.board)
		one, err := Calculate(tc.players, board, nil, Options{Method: Exact, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.workers {
			res, err := Calculate(tc.players, board, nil, Options{Method: Exact, Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			if res.Showdowns != one.Showdowns || res.Deals != one.Deals {
				t.Errorf("%v on %q, %d workers: %d showdowns, %v deals; one worker %d, %v", tc.players, tc.board, w, res.Showdowns, res.Deals, one.Showdowns, one.Deals)
			}
			for i := range res.Players {
				if res.Players[i].Wins != one.Players[i].Wins || res.Players[i].Ties != one.Players[i].Ties {
					t.Errorf("%v on %q, %d workers, player %d: %+v, one worker %+v", tc.players, tc.board, w, i+1, res.Players[i], one.Players[i])
				}
			}
		}
	}
}
