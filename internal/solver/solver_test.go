package solver

import (
	"errors"
	"github.com/felt-poker/felt/internal/eval"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
)

// riverTree: OOP may check or bet pct% of the pot; IP checks behind or calls/folds.
func riverTree(pct float64) Tree {
	var t Tree
	t.Sizes[OOP][River].Bet = []float64{pct}
	t.AllInThreshold, t.RaiseCap = 1, 4
	return t
}

func mustSolver(t testing.TB, sp Spot, workers int) *Solver {
	t.Helper()
	s, err := New(sp, Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// polarSpot: OOP holds the nuts (KK: kings full) and air (76: deuces, king kicker)
// against IP's bluff-catcher (QQ), no card of one range blocking the other.
func polarSpot(pct float64) Spot {
	return Spot{Pot: 10, Stack: 1000, Board: cards.MustParseList("Ks8d5c2h2s"),
		Range: [2]equity.Range{equity.MustParseRange("KK,76"), equity.MustParseRange("QQ")}, Tree: riverTree(pct)}
}

func TestPolarizedRiverTextbookFrequencies(t *testing.T) {
	for _, pct := range []float64{100, 50, 200} {
		s := mustSolver(t, polarSpot(pct), 1)
		for range 2000 {
			s.Iterate()
		}
		b := pct / 100
		root, err := s.Node(nil)
		if err != nil {
			t.Fatal(err)
		}
		var bluff, value float64
		for _, h := range root.Hands {
			bet := h.Reach * h.Strategy[1]
			if h.Hand[0] == 'K' {
				value += bet
			} else {
				bluff += bet
			}
		}
		share := bluff / (bluff + value)
		if want := b / (1 + 2*b); math.Abs(share-want) > 0.005 {
			t.Errorf("bet %v%%: bluffs are %.4f of the betting range, want %.4f", pct, share, want)
		}
		call, err := s.Node([]string{root.Actions[1]})
		if err != nil {
			t.Fatal(err)
		}
		if want := 1 / (1 + b); math.Abs(call.Totals[1]-want) > 0.005 {
			t.Errorf("bet %v%%: IP calls %.4f, want %.4f", pct, call.Totals[1], want)
		}
		t.Logf("bet %v%%: bluff share %.4f, call %.4f, exploitability %.5f%%, EV %v", pct, share, call.Totals[1], s.Exploitability(), s.EV())
		if e := s.Exploitability(); e > 0.1 {
			t.Errorf("bet %v%%: exploitability %.4f%% of the pot", pct, e)
		}
	}
}

// benchTree is the bet tree of TexasSolver's benchmark on the turn and river: pot-sized
// bets (and donks), raises of half the pot, all-in.
func benchTree() Tree {
	var t Tree
	for p := range 2 {
		for _, st := range []Street{Turn, River} {
			t.Sizes[p][st] = Sizes{Bet: []float64{100}, Raise: []float64{50}, AllIn: true}
		}
	}
	t.Sizes[OOP][Turn].Donk = []float64{100}
	t.Sizes[OOP][River].Donk = []float64{100}
	t.Sizes[IP][Turn].AllIn = false
	t.AllInThreshold, t.RaiseCap = 1, 4
	return t
}

const (
	benchOOP = "AA,KK,QQ,JJ,TT,99:0.75,88:0.75,77:0.5,66:0.25,55:0.25,AK,AQs,AQo:0.75,AJs,AJo:0.5,ATs:0.75,A6s:0.25,A5s:0.75,A4s:0.75,A3s:0.5,A2s:0.5,KQs,KQo:0.5,KJs,KTs:0.75,K5s:0.25,K4s:0.25,QJs:0.75,QTs:0.75,Q9s:0.5,JTs:0.75,J9s:0.75,J8s:0.75,T9s:0.75,T8s:0.75,T7s:0.75,98s:0.75,97s:0.75,96s:0.5,87s:0.75,86s:0.5,85s:0.5,76s:0.75,75s:0.5,65s:0.75,64s:0.5,54s:0.75,53s:0.5,43s:0.5"
	benchIP  = "QQ:0.5,JJ:0.75,TT,99,88,77,66,55,44,33,22,AKo:0.25,AQs,AQo:0.75,AJs,AJo:0.75,ATs,ATo:0.75,A9s,A8s,A7s,A6s,A5s,A4s,A3s,A2s,KQ,KJ,KTs,KTo:0.5,K9s,K8s,K7s,K6s,K5s,K4s:0.5,K3s:0.5,K2s:0.5,QJ,QTs,Q9s,Q8s,Q7s,JTs,JTo:0.5,J9s,J8s,T9s,T8s,T7s,98s,97s,96s,87s,86s,76s,75s,65s,64s,54s,53s,43s"
)

// benchSpot is TexasSolver's benchmark flop (Qs Jh 2h, pot 10, stacks 95) run out to
// the given board, with its ranges and sizes.
func benchSpot(board string) Spot {
	return Spot{Pot: 10, Stack: 95, Board: cards.MustParseList(board),
		Range: [2]equity.Range{equity.MustParseRange(benchOOP), equity.MustParseRange(benchIP)}, Tree: benchTree()}
}

// solveTo iterates until the exploitability is at most target % of the pot.
func solveTo(t testing.TB, s *Solver, target float64, limit int) float64 {
	e := math.Inf(1)
	for s.Iterations() < limit {
		for range 10 {
			s.Iterate()
		}
		if e = s.Exploitability(); e <= target {
			break
		}
	}
	return e
}

func TestRiverExploitability(t *testing.T) {
	s := mustSolver(t, benchSpot("QsJh2h8d3c"), 1)
	e := solveTo(t, s, 0.1, 2000)
	t.Logf("river: %d iterations, exploitability %.4f%% of the pot", s.Iterations(), e)
	if e > 0.1 {
		t.Fatalf("exploitability %.4f%% after %d iterations, want at most 0.1%%", e, s.Iterations())
	}
}

// TestSplitPot: the board is a royal flush and everyone plays it. All-in already
// (stack 0), every hand gets exactly half the pot. With chips behind no one should
// ever fold either; the early iterations' folds fade from the average strategy, hence
// the 1e-4 chips there.
func TestSplitPot(t *testing.T) {
	for _, stack := range []float64{0, 95} {
		sp := benchSpot("AsKsQsJsTs")
		sp.Stack = stack
		sp.Range = [2]equity.Range{equity.MustParseRange("22+,A2+,K2+"), equity.MustParseRange("22+,A2+,K2+")}
		s := mustSolver(t, sp, 1)
		for range 300 {
			s.Iterate()
		}
		tol := 1e-4
		if stack == 0 {
			tol = 1e-12
		}
		ev := s.EV()
		for p := range 2 {
			if math.Abs(ev[p]) > tol {
				t.Errorf("stack %v: player %d wins %v chips beyond half the pot, want 0", stack, p, ev[p])
			}
		}
		if e := s.Exploitability(); math.Abs(e) > tol {
			t.Errorf("stack %v: exploitability %v, want 0", stack, e)
		}
		if stack == 0 {
			continue
		}
		root, err := s.Node(nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range root.Hands {
			if math.Abs(h.EV-sp.Pot/2) > tol {
				t.Fatalf("%s: EV %v, want %v", h.Hand, h.EV, sp.Pot/2)
			}
		}
	}
}

func TestBadSpots(t *testing.T) {
	good := benchSpot("QsJh2h8d3c")
	cases := map[string]func(*Spot){
		"negative pot":    func(s *Spot) { s.Pot = -10 },
		"NaN stack":       func(s *Spot) { s.Stack = math.NaN() },
		"duplicate board": func(s *Spot) { s.Board = cards.MustParseList("QsJh2h")[:3]; s.Board = append(s.Board, s.Board[0]) },
		"two-card board":  func(s *Spot) { s.Board = s.Board[:2] },
		"empty range":     func(s *Spot) { s.Range[IP] = equity.Range{} },
		"blocked range":   func(s *Spot) { s.Range[OOP] = equity.MustParseRange("QsJh") },
		"zero raise cap":  func(s *Spot) { s.Tree.RaiseCap = 0 },
		"zero threshold":  func(s *Spot) { s.Tree.AllInThreshold = 0 },
		"negative size":   func(s *Spot) { s.Tree.Sizes[IP][River].Bet = []float64{-50} },
	}
	for name, spoil := range cases {
		sp := good
		sp.Tree = benchTree()
		sp.Board = append([]cards.Card{}, good.Board...)
		spoil(&sp)
		if _, err := New(sp, Options{}); !errors.Is(err, ErrBadSpot) {
			t.Errorf("%s: err = %v, want ErrBadSpot", name, err)
		}
	}
}

func TestIterateAllocatesNothing(t *testing.T) {
	bounded := benchSpot("QsJh2h8d3c")
	bounded.Bound = &Bound{Player: IP, Values: make([]float64, equity.NumCombos), Belief: 1}
	for _, sp := range []Spot{benchSpot("QsJh2h8d3c"), bounded} {
		s := mustSolver(t, sp, 1)
		s.Iterate()
		if n := testing.AllocsPerRun(5, s.Iterate); n != 0 {
			t.Errorf("an iteration (bound %v) allocates %v times", sp.Bound != nil, n)
		}
	}
}

// TestAllInMatchesEquity: with no chips behind on the turn, the solver's EV is the
// pot times the exact range-against-range equity that internal/equity enumerates,
// which checks the river enumeration, the card removal and the showdowns at once.
func TestAllInMatchesEquity(t *testing.T) {
	sp := benchSpot("QsJh2h8d")
	sp.Stack = 0
	s := mustSolver(t, sp, 2)
	ev := s.EV()
	res, err := equity.Calculate(sp.Range[:], sp.Board, nil, equity.Options{Method: equity.Exact, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for p := range 2 {
		want := res.Players[p].Equity * sp.Pot
		if got := ev[p] + sp.Pot/2; math.Abs(got-want) > 1e-9 {
			t.Errorf("player %d ends with %.12f chips, equity says %.12f", p, got, want)
		}
	}
}

// riverShowdown returns a started solver on Qs Jh 2h 8d 3c, a random range against
// ip's, and the river board of its root.
func riverShowdown(t *testing.T, ip string) (Spot, *Solver, *board) {
	sp := benchSpot("QsJh2h8d3c")
	sp.Range = [2]equity.Range{equity.MustParseRange("random"), equity.MustParseRange(ip)}
	s := mustSolver(t, sp, 1)
	s.start()
	return sp, s, &s.boards[s.nodes[0].board]
}

// TestShowdownMatchesBruteForce compares the O(n) showdown with the sum over every
// pair of hands, for random reaches, on a river board where hands share cards.
func TestShowdownMatchesBruteForce(t *testing.T) {
	sp, s, b := riverShowdown(t, "22+,A2+,K9+,QT+,JT,T9s")
	rng := uint64(7)
	for trav := range 2 {
		opp := make([]float64, len(s.hands[1-trav]))
		for i := range opp {
			rng = rng*6364136223846793005 + 1442695040888963407
			opp[i] = float64(rng>>40) / (1 << 24)
		}
		got := make([]float64, len(s.hands[trav]))
		s.showdown(s.main, b, trav, opp, got, 3)
		board := eval.HandOf(sp.Board...)
		for h, th := range s.hands[trav] {
			want := 0.0
			rh := board.Add(th.c[0]).Add(th.c[1]).Rank()
			for o, oh := range s.hands[1-trav] {
				if cards.SetOf(th.c[0], th.c[1])&cards.SetOf(oh.c[0], oh.c[1]) != 0 {
					continue
				}
				switch ro := board.Add(oh.c[0]).Add(oh.c[1]).Rank(); {
				case rh > ro:
					want += 3 * opp[o]
				case rh < ro:
					want -= 3 * opp[o]
				}
			}
			if math.Abs(got[h]-want) > 1e-9 {
				t.Fatalf("player %d %v: showdown %v, brute force %v", trav, th.c, got[h], want)
			}
		}
	}
}

// TestShowdownSkipsNoReachBitExact: leaving out the opponent's hands without reach
// (gather) gives the showdown values bit for bit as adding every hand does, for reach
// with +0, −0, subnormal, tiny and huge entries.
func TestShowdownSkipsNoReachBitExact(t *testing.T) {
	_, s, b := riverShowdown(t, "random")
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		trav := trial % 2
		opp := make([]float64, len(s.hands[1-trav]))
		for i := range opp {
			switch rng.IntN(8) {
			case 0, 1, 2:
				opp[i] = 0
			case 3, 4:
				opp[i] = math.Copysign(0, -1)
			case 5:
				opp[i] = math.Ldexp(rng.Float64(), -rng.IntN(1080))
			default:
				opp[i] = math.Ldexp(rng.Float64(), rng.IntN(80)-40)
			}
		}
		x := rng.NormFloat64() * 100
		got := make([]float64, len(s.hands[trav]))
		s.showdown(s.main, b, trav, opp, got, x)
		// Every hand, as before gather: the same passes over a list that keeps all.
		o, tt := b.seats[1-trav], b.seats[trav]
		all := make([]live, len(o))
		for j, f := range o {
			all[j] = live{v: opp[f.h], rank: f.rank, c0: f.c0, c1: f.c1}
		}
		want := make([]float64, len(got))
		won := make([]float64, len(tt))
		var cs [cards.NumCards + 1]float64
		beaten(tt, all, won, x, &cs)
		beating(tt, all, won, want, x, &cs)
		for h := range got {
			if math.Float64bits(got[h]) != math.Float64bits(want[h]) {
				t.Fatalf("trial %d, player %d, hand %d: %v (%x) skipping, %v (%x) with every hand", trial, trav, h, got[h], math.Float64bits(got[h]), want[h], math.Float64bits(want[h]))
			}
		}
	}
}

// TestHandEquityMatchesEnumeration: the equity the node output gives each hand at the
// root is the one internal/equity enumerates for that hand against the opponent's
// weighted range, on the turn (the river dealt) and on the river.
func TestHandEquityMatchesEnumeration(t *testing.T) {
	for _, board := range []string{"QsJh2h8d", "QsJh2h8d3c"} {
		sp := benchSpot(board)
		s := mustSolver(t, sp, 1)
		root, err := s.Node(nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range []int{0, len(root.Hands) / 3, len(root.Hands) - 1} {
			h := root.Hands[i]
			res, err := equity.Calculate([]equity.Range{equity.MustParseRange(h.Hand), sp.Range[IP]}, sp.Board, nil, equity.Options{Method: equity.Exact, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			if want := res.Players[0].Equity; math.Abs(h.Equity-want) > 1e-9 {
				t.Errorf("%s %s: equity %.12f, enumeration %.12f", board, h.Hand, h.Equity, want)
			}
		}
	}
}
