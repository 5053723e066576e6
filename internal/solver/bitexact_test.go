package solver

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"math"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
)

// bitsDigest writes into d every bit of s's state after its iterations: the
// regrets and strategy sums (or their 16-bit codes and scales), the gadget's, and
// the exploitability and EVs the evaluation traversals give.
func bitsDigest(d hash.Hash, s *Solver) {
	put := func(x float64) { _ = binary.Write(d, binary.LittleEndian, math.Float64bits(x)) }
	_ = binary.Write(d, binary.LittleEndian, int64(s.Iterations()))
	if s.compress {
		_ = binary.Write(d, binary.LittleEndian, s.regret16)
		_ = binary.Write(d, binary.LittleEndian, s.strat16)
		_ = binary.Write(d, binary.LittleEndian, s.scale)
	} else {
		_ = binary.Write(d, binary.LittleEndian, s.regret)
		_ = binary.Write(d, binary.LittleEndian, s.strat)
	}
	if g := s.gadget; g != nil {
		_ = binary.Write(d, binary.LittleEndian, g.regret)
		_ = binary.Write(d, binary.LittleEndian, g.sum)
	}
	put(s.Exploitability())
	ev := s.EV()
	put(ev[0])
	put(ev[1])
}

// bitsSpots are the spots TestIterationsBitExact pins, with their iterations and
// options: river, turn (one and two workers, compressed), safe (a gadget with
// bounds of every sign), raked, a sampled flop and a depth-limited one.
func bitsSpots(t testing.TB) []struct {
	name  string
	spot  Spot
	opts  Options
	iters int
} {
	safe := benchSpot("QsJh2h8d3c")
	vals := make([]float64, equity.NumCombos)
	for i := range vals {
		vals[i] = float64(i%17) - 8 + float64(i%5)*0.37
		if i%29 == 0 {
			vals[i] = math.NaN()
		}
	}
	safe.Bound = &Bound{Player: IP, Values: vals, Belief: 1}
	raked := benchSpot("QsJh2h8d")
	raked.Rake, raked.RakeCap = 5, 3
	sampled := Spot{Pot: 10, Stack: 95, Board: cards.MustParseList("QsJh2h"),
		Range: [2]equity.Range{equity.MustParseRange("AA,KK,QQ,JJ,AK,AQ,KQ,QJ,JT,T9s,98s,22"), equity.MustParseRange("TT,99,88,AJ,AT,KJ,KT,QT,J9s,87s,76s,33")},
		Tree:  benchTree(), Sample: Sample{Turns: 3, Rivers: 2, Seed: 2}}
	leaf := sampled
	leaf.Sample, leaf.LeafRunouts = Sample{}, 12
	wide := resolveSpot(t, "QsJh2h8d3c") // five actions: check, three bets, all-in
	for p := range 2 {
		wide.Tree.Sizes[p][River].AllIn = true
	}
	return []struct {
		name  string
		spot  Spot
		opts  Options
		iters int
	}{
		{"river", benchSpot("QsJh2h8d3c"), Options{Workers: 1}, 40},
		{"turn", benchSpot("QsJh2h8d"), Options{Workers: 1}, 6},
		{"turn2", benchSpot("QsJh2h8d"), Options{Workers: 2}, 6},
		{"turn16", benchSpot("QsJh2h8d"), Options{Workers: 1, Compress: true}, 6},
		{"safe", safe, Options{Workers: 1}, 40},
		{"raked", raked, Options{Workers: 1}, 4},
		{"sampled", sampled, Options{Workers: 1}, 6},
		{"leaf", leaf, Options{Workers: 1}, 10},
		{"resolveRiver", resolveSpot(t, "QsJh2h8d3c"), Options{Workers: 1}, 30},
		{"resolveTurn", resolveSpot(t, "QsJh2h8d"), Options{Workers: 1}, 3},
		{"wide", wide, Options{Workers: 1}, 20},
	}
}

// TestIterationsBitExact pins the solver's arithmetic to the bit: the digest of
// every regret, strategy sum and value after iterating the spots of bitsSpots, and
// after an iteration stopped inside (at its 5th chance node). It was taken at main
// 5496138, before the traversals were made cheaper (docs/bots.md, "Cheaper
// re-solves"): a change that reorders a sum changes it. Do not retake it to pass.
func TestIterationsBitExact(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds of solving")
	}
	d := sha256.New()
	for _, c := range bitsSpots(t) {
		s, err := New(c.spot, c.opts)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for range c.iters {
			s.Iterate()
		}
		bitsDigest(d, s)
		s.Close()
	}
	// An iteration stopped inside: cancelled at the 5th chance node it enters.
	s := mustSolver(t, benchSpot("QsJh2h8d"), 1)
	s.Iterate()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := 0
	s.onChance = func() {
		if seen++; seen == 5 {
			cancel()
		}
	}
	if s.IterateContext(ctx) {
		t.Fatal("the iteration was not stopped")
	}
	s.onChance = nil
	s.Iterate()
	bitsDigest(d, s)
	const want = "b7d92324880f6ab05cd3cc0f7f3afa9687cdb52eba3e83fb7cfc5646de248ece"
	if got := hex.EncodeToString(d.Sum(nil)); got != want {
		t.Errorf("digest %s, want %s", got, want)
	}
}
