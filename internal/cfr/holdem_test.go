package cfr

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/eval"
)

// categoryBucketer is a cheap abstraction for tests: the 169 starting hands, then
// the category of the best hand made so far (high card .. straight flush), capped
// at the round's bucket count.
type categoryBucketer struct {
	pre   *HandIndexer
	sizes [4]int
}

func newCategoryBucketer(sizes [4]int) *categoryBucketer {
	pre, _ := NewHandIndexer(2)
	return &categoryBucketer{pre: pre, sizes: sizes}
}

func (c *categoryBucketer) Sizes() [4]int { return c.sizes }

func (c *categoryBucketer) DealBuckets(holes *[2][2]cards.Card, board *[5]cards.Card) (b [2][4]uint8) {
	for p, h := range holes {
		b[p][0] = uint8(c.pre.Index(h[:]))
		hand := eval.Empty.Add(h[0]).Add(h[1])
		for i, bc := range board {
			hand = hand.Add(bc)
			if r := map[int]int{2: 1, 3: 2, 4: 3}[i]; r > 0 {
				b[p][r] = uint8(min(int(hand.Rank().Category())-1, c.sizes[r]-1))
			}
		}
	}
	return b
}

// TestHoldemTree checks the betting rules: reverse blinds, the big blind's option,
// four bets a round with the big blind the first, and the stakes.
func TestHoldemTree(t *testing.T) {
	g, err := NewHoldemGame([4]int{1, 1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		hist   string
		player int
		acts   string
	}{
		{"", 0, "fcr"},       // the button, small blind, acts first
		{"c", 1, "cr"},       // the big blind's option after a limp
		{"r", 1, "fcr"},      // two bets
		{"rr", 0, "fcr"},     // three
		{"rrr", 1, "fc"},     // four: capped
		{"cc/", 1, "cr"},     // the big blind acts first after the flop
		{"cc/c", 0, "cr"},    //
		{"cc/rrr", 0, "fcr"}, // three bets on the flop
		{"cc/rrrr", 1, "fc"}, // four
		{"rc/cc/cc/r", 0, "fcr"},
	} {
		n, ok := g.walk(c.hist)
		if !ok {
			t.Fatalf("%q: not a decision node", c.hist)
		}
		if nd := g.nodes[n]; int(nd.player) != c.player || nd.acts != c.acts {
			t.Errorf("%q: player %d acts %q, want %d %q", c.hist, nd.player, nd.acts, c.player, c.acts)
		}
	}
	for _, c := range []struct {
		hist  string
		fold  int
		stake int
	}{
		{"f", 0, 1},
		{"cr/f", 0, 2}, // a limp, a raise, a fold
		{"rc/cc/cc/cc", -1, 4},
		{"cc/cc/cc/cc", -1, 2},
		{"rrrc/rrrrc/rrrrc/rrrrc", -1, 48},
		{"rrrc/rrrf", 0, 8 + 4},
	} {
		n, ok := g.walk(c.hist)
		if ok {
			t.Fatalf("%q: a decision node", c.hist)
		}
		if nd := g.nodes[n]; nd.player >= 0 || int(nd.fold) != c.fold || int(nd.stake) != c.stake {
			t.Errorf("%q: fold %d stake %d, want %d %d", c.hist, nd.fold, nd.stake, c.fold, c.stake)
		}
	}
	t.Logf("%d nodes, %d decision nodes", len(g.nodes), g.DecisionNodes())
}

func TestHoldemSolverResumes(t *testing.T) {
	bk := newCategoryBucketer([4]int{169, 9, 9, 9})
	for _, o := range []HoldemOptions{
		{Seed: 5, PruneAfter: 1000, PruneThreshold: -5},
		{Seed: 5, PruneAfter: 1000, PruneThreshold: -5, Averaging: LinearAveraging},
		{Seed: 5, PruneAfter: 1000, PruneThreshold: -5, Averaging: LinearCFR},
	} {
		a, err := NewHoldemSolver(bk, o)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := NewHoldemSolver(bk, o)
		for a.Iterations() < 3000 {
			a.Iterate(a.BatchSize())
		}
		var buf bytes.Buffer
		for b.Iterations() < 1500 {
			b.Iterate(b.BatchSize())
		}
		if err := b.WriteCheckpoint(&buf, "fp", time.Second); err != nil {
			t.Fatal(err)
		}
		if _, _, err := ReadHoldemCheckpoint(bytes.NewReader(buf.Bytes()), bk, "other"); err == nil {
			t.Error("a checkpoint of another abstraction was accepted")
		}
		c, el, err := ReadHoldemCheckpoint(&buf, bk, "fp")
		if err != nil || el != time.Second {
			t.Fatal(err, el)
		}
		if c.Options() != a.Options() {
			t.Errorf("options %+v, read back %+v", a.Options(), c.Options())
		}
		for c.Iterations() < 3000 {
			c.Iterate(c.BatchSize())
		}
		if !slices.Equal(a.regret, c.regret) || !slices.Equal(a.sum, c.sum) {
			t.Errorf("%+v: a resumed run differs from a straight one", o)
		}
	}
	// A checkpoint written before linear averaging (no Averaging) goes on uniformly.
	var buf bytes.Buffer
	old := checkpoint{Game: holdemCheckpointGame, Algo: MCCFR.String(), Slots: 0, Threads: 1, Abstraction: "fp",
		Buckets: bk.Sizes(), PruneAfter: 1000, PruneThreshold: -5, RNGs: [][]byte{nil}}
	s, _ := NewHoldemSolver(bk, HoldemOptions{Threads: 1, Averaging: LinearAveraging})
	old.Slots, old.Regret, old.Sum = s.g.slots, s.regret, s.sum
	old.RNGs[0], _ = s.workers[0].src.MarshalBinary()
	if err := writeCheckpointRecord(&buf, &old); err != nil {
		t.Fatal(err)
	}
	if c, _, err := ReadHoldemCheckpoint(&buf, bk, "fp"); err != nil || c.Options().Averaging != UniformAveraging {
		t.Errorf("old checkpoint: %v, %+v", err, c)
	}
	for _, o := range []HoldemOptions{{Averaging: 7}, {Averaging: -1}} {
		if _, err := NewHoldemSolver(bk, o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	for _, a := range []Averaging{UniformAveraging, LinearAveraging, LinearCFR} {
		if b, err := ParseAveraging(a.String()); err != nil || b != a {
			t.Errorf("%v: parsed %v, %v", a, b, err)
		}
	}
	if _, err := ParseAveraging("optimistic"); err == nil {
		t.Error("unknown averaging parsed")
	}
}

// Linear averaging changes the average strategy's sums only: the regrets are those of
// uniform averaging, and each batch adds what uniform averaging adds times the mean
// of the batch's iteration numbers. LinearCFR's regrets differ.
func TestHoldemLinearAveraging(t *testing.T) {
	bk := newCategoryBucketer([4]int{169, 4, 4, 4})
	u, _ := NewHoldemSolver(bk, HoldemOptions{Seed: 2, PruneAfter: 2000})
	l, _ := NewHoldemSolver(bk, HoldemOptions{Seed: 2, PruneAfter: 2000, Averaging: LinearAveraging})
	c, _ := NewHoldemSolver(bk, HoldemOptions{Seed: 2, PruneAfter: 2000, Averaging: LinearCFR})
	checked := 0
	for u.Iterations() < 4000 {
		t0, n := u.Iterations(), u.BatchSize()
		us, ls := slices.Clone(u.sum), slices.Clone(l.sum)
		u.Iterate(n)
		l.Iterate(n)
		c.Iterate(n)
		if !slices.Equal(u.regret, l.regret) {
			t.Fatalf("iteration %d: linear averaging changed the regrets", u.Iterations())
		}
		w := float64(2*t0+n+1) / 2
		for i := range u.sum {
			du, dl := u.sum[i]-us[i], l.sum[i]-ls[i]
			if math.Abs(dl-du*w) > 1e-9*math.Max(1, math.Abs(dl)) {
				t.Fatalf("iterations %d–%d, slot %d: linear adds %v, uniform %v (weight %v)", t0+1, t0+n, i, dl, du, w)
			}
			if du != 0 {
				checked++
			}
		}
	}
	if checked == 0 {
		t.Error("no sums changed")
	}
	if slices.Equal(u.regret, c.regret) {
		t.Error("LinearCFR has the regrets of uniform averaging")
	}
}

// TestHoldemSolverLearns checks that training lowers the sampled best response's
// winnings far below the uniform strategy's.
func TestHoldemSolverLearns(t *testing.T) {
	bk := newCategoryBucketer([4]int{169, 4, 4, 4})
	s, _ := NewHoldemSolver(bk, HoldemOptions{Seed: 1, PruneAfter: 20000})
	uniform := s.Average().EstimateBestResponse(bk, 4000, 1, 2)
	n := 20000
	for s.Iterations() < n {
		s.Iterate(min(s.BatchSize(), n-s.Iterations()))
	}
	trained := s.Average().EstimateBestResponse(bk, 4000, 1, 2)
	t.Logf("uniform: %+v; after %d iterations: %+v", uniform, n, trained)
	if uniform.MBB < 1000 || trained.MBB > uniform.MBB/2 {
		t.Errorf("best response wins %.0f mbb/g against the uniform strategy and %.0f after training", uniform.MBB, trained.MBB)
	}
	// The strategy file round trip, with a small abstraction of the same sizes.
	cfg := AbstractionConfig{Flop: 4, Turn: 4, River: 4, Bins: 4, Samples: 200}
	abs, err := BuildAbstraction(cfg, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := s.Average().StrategyFile(abs)
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	g, err := ReadStrategyFile(&buf)
	if err != nil {
		t.Fatal(err)
	}
	p, a2, err := g.HoldemProfile()
	if err != nil {
		t.Fatal(err)
	}
	if a2.Fingerprint() != abs.Fingerprint() {
		t.Error("abstraction changed in the file")
	}
	avg := s.Average()
	for i := 0; i < avg.g.infosets; i += 97 {
		if !slices.Equal(avg.Probs(i), p.Probs(i)) {
			t.Fatalf("information set %d: %v, read back %v", i, avg.Probs(i), p.Probs(i))
		}
	}
	acts, probs, ok := p.Lookup("rc/", 2)
	if !ok || acts != "cr" || len(probs) != 2 {
		t.Errorf("lookup rc/: %q %v %v", acts, probs, ok)
	}
	if _, _, ok := p.Lookup("f", 0); ok {
		t.Error("lookup after a fold found a decision")
	}
	f.Infosets = f.Infosets[1:]
	js, _ := json.Marshal(f)
	g2, _ := ReadStrategyFile(bytes.NewReader(js))
	if _, _, err := g2.HoldemProfile(); err == nil {
		t.Error("a file missing an information set was accepted")
	}
}
