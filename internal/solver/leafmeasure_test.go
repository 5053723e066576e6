package solver

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
)

// The leaf measurement (docs/solver.md, "Depth-limited solving"): a depth-limited
// flop solve's flop strategy, frozen, measured in the whole game to the river. Run
// it with
//
//	FELT_LEAF_MEASURE=1 nice -n 10 go test -run TestLeafMeasure -v -timeout 2h ./internal/solver
//
// (FELT_LEAF_MEASURE=spot1,spot2 runs only those spots). It is skipped otherwise:
// it takes CPU-minutes.

// measureTree is the resolve bot's flop tree (internal/bot roundTree) with its
// later streets as the brief of the measurement sets them: flop bets of 33% and
// 75%, a raise of the pot, three bets and raises; turn 66%, river 75%, no raise after
// the flop; all-in as an option only when the stack is at most 3 pots.
func measureTree(spr float64) Tree {
	t := Tree{AllInThreshold: 0.9, RaiseCap: 3}
	for p := range 2 {
		t.Sizes[p][Flop] = Sizes{Bet: []float64{33, 75}, Raise: []float64{100}, AllIn: spr <= 3}
		t.Sizes[p][Turn] = Sizes{Bet: []float64{66}, AllIn: spr <= 6}
		t.Sizes[p][River] = Sizes{Bet: []float64{75}, AllIn: spr <= 6}
	}
	return t
}

// measureSpot is a flop spot of the measurement, chips in big blinds.
type measureSpot struct {
	name       string
	pot, stack float64
	board      string
	oop, ip    string
}

// The spots: a single-raised pot (button open, big blind call) at 100 big blinds on
// a dry and a wet board, and a 3-bet pot (the big blind 3-bets, the button calls).
var measureSpots = []measureSpot{
	{"srp-K72", 5.5, 97.5, "Ks7d2c", srpBB, srpBTN},
	{"srp-J98", 5.5, 97.5, "Jh9h8c", srpBB, srpBTN},
	{"3bp-A83", 20, 88, "Ad8s3h", tbpBB, tbpBTN},
}

const (
	srpBB  = "22-99,A2s-AJs,K5s-KJs,Q8s-QJs,J8s-JTs,T8s-T9s,97s-98s,86s-87s,75s-76s,65s,54s,A7o-AJo,KTo-KJo,QTo-QJo,JTo"
	srpBTN = "22+,A2s+,K6s+,Q8s+,J8s+,T8s+,97s+,86s+,75s+,65s,54s,A5o+,K9o+,QTo+,JTo"
	tbpBB  = "TT+,AQs+,AKo,A5s-A4s,KQs"
	tbpBTN = "22-JJ,AJs-AQs,KQs,KJs,QJs,JTs,T9s,98s,AQo"
)

func (m measureSpot) spot() Spot {
	return Spot{Pot: m.pot, Stack: m.stack, Board: cards.MustParseList(m.board),
		Range: [2]equity.Range{equity.MustParseRange(m.oop), equity.MustParseRange(m.ip)}, Tree: measureTree(m.stack / m.pot)}
}

// measureSample is the measurement's game: the turn one of 12 cards, the river one
// of 6 after each (a full flop costs seconds an iteration). Its seed differs from
// every leaf model's, so no model knows its cards.
var measureSample = Sample{Turns: 12, Rivers: 6, Seed: 1}

// equityLeaves is the leaf model of equity realized in full over n runouts.
func equityLeaves(n int) func(Spot) Spot {
	return func(sp Spot) Spot {
		sp.Sample, sp.LeafRunouts = Sample{}, n
		return sp
	}
}

// sampledLeaves is the leaf model that solves the continuation on a sample of turns
// and rivers of its own; without river betting, the river is checked down.
func sampledLeaves(turns, rivers int, riverBets bool) func(Spot) Spot {
	return func(sp Spot) Spot {
		sp.Sample = Sample{Turns: turns, Rivers: rivers, Seed: 2}
		if !riverBets {
			sp.Tree.Sizes[OOP][River], sp.Tree.Sizes[IP][River] = Sizes{}, Sizes{}
		}
		return sp
	}
}

// leafModel makes the depth-limited spot of a leaf model from the full spot.
type leafModel struct {
	name  string
	spot  func(Spot) Spot
	iters int
}

// cpuTime is the process's CPU time so far (user and system).
func cpuTime(t *testing.T) time.Duration {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b)[strings.LastIndexByte(string(b), ')')+2:])
	var u, s int64
	fmt.Sscan(f[11], &u)
	fmt.Sscan(f[12], &s)
	return time.Duration(u+s) * 10 * time.Millisecond
}

// solveFull iterates s until its exploitability is at most target % of the pot or
// limit iterations, returning the exploitability.
func solveFull(s *Solver, target float64, limit int) float64 {
	e := 100.0
	for s.Iterations() < limit {
		for range 20 {
			s.Iterate()
		}
		if e = s.Exploitability(); e <= target {
			break
		}
	}
	return e
}

// lockedLoss solves the full spot with player p's flop locked to dl's and returns
// p's loss against the reference value ref (chips per hand pair) and the locked
// game's exploitability (% of the pot).
func lockedLoss(t *testing.T, full Spot, dl *Solver, p int, ref float64, target float64, limit int) (float64, float64) {
	s, err := New(full, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.LockFirstStreet(dl, p); err != nil {
		t.Fatal(err)
	}
	e := solveFull(s, target, limit)
	return ref - s.EV()[p], e
}

func TestLeafMeasure(t *testing.T) {
	which := os.Getenv("FELT_LEAF_MEASURE")
	if which == "" {
		t.Skip("set FELT_LEAF_MEASURE=1 (or a list of spots) to run the leaf measurement")
	}
	models := []leafModel{
		{"equity-36", equityLeaves(36), 60},
		{"equity-36/300it", equityLeaves(36), 300},
		{"equity-200", equityLeaves(200), 60},
		{"sampled-4x3", sampledLeaves(4, 3, true), 60},
		{"sampled-8x3", sampledLeaves(8, 3, true), 60},
		{"turn-8x4", sampledLeaves(8, 4, false), 60},
		{"turn-12x4", sampledLeaves(12, 4, false), 60},
		{"turn-12x3", sampledLeaves(12, 3, false), 60},
		{"turn-16x2", sampledLeaves(16, 2, false), 60},
		{"turn-4x4", sampledLeaves(4, 4, false), 60},
		{"turn-6x3", sampledLeaves(6, 3, false), 60},
		{"turn-8x4/30it", sampledLeaves(8, 4, false), 30},
		// The floor: the whole game solved on another sample of 12 turns and 6
		// rivers, which loses what not knowing the measurement's cards costs.
		{"other-12x6", sampledLeaves(12, 6, true), 200},
	}
	if only := os.Getenv("FELT_LEAF_MODELS"); only != "" {
		models = slices.DeleteFunc(models, func(m leafModel) bool { return !slices.Contains(strings.Split(only, ","), m.name) })
	}
	const target, limit = 0.3, 400
	for _, m := range measureSpots {
		if which != "1" && !strings.Contains(which, m.name) {
			continue
		}
		full := m.spot()
		full.Sample = measureSample
		c0 := cpuTime(t)
		ref, err := New(full, Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		e := solveFull(ref, target, limit)
		v := ref.EV()
		h := ref.Hands()
		t.Logf("%s: %d+%d hands, reference %d iterations, exploitability %.3f%% pot, EV %.4f %.4f bb, %v CPU",
			m.name, h[0], h[1], ref.Iterations(), e, v[0], v[1], cpuTime(t)-c0)
		check := leafModel{"reference's flop", nil, 0}
		for _, lm := range append([]leafModel{check}, models...) {
			c0 := cpuTime(t)
			dl := ref
			if lm.spot != nil {
				dl, err = New(lm.spot(full), Options{Workers: 1})
				if err != nil {
					t.Fatal(err)
				}
				for range lm.iters {
					dl.Iterate()
				}
			}
			c1 := cpuTime(t)
			var loss, ex [2]float64
			for p := range 2 {
				loss[p], ex[p] = lockedLoss(t, full, dl, p, v[p], target, limit)
			}
			mean := (loss[0] + loss[1]) / 2
			t.Logf("%s %-18s loss OOP %+.4f IP %+.4f bb, mean %.2f%% pot = %.0f mbb/hand (locked games' exploitability %.2f%% %.2f%%), solve %v CPU, measure %v",
				m.name, lm.name, loss[0], loss[1], mean/m.pot*100, mean*1000, ex[0], ex[1], c1-c0, cpuTime(t)-c1)
			if dl != ref {
				dl.Close()
			}
		}
		ref.Close()
	}
}
