package blueprint

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/cfr"
)

// The built-in blueprint loads, and at every depth a stack from 20 to 350 big
// blinds maps to, every information set random play reaches in the kept rounds
// has a strategy over the node's actions that sums to 1.
func TestDefaultNormalisedWhereRandomPlayGoes(t *testing.T) {
	bp, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if len(bp.Depths()) < 2 {
		t.Fatalf("%d depths", len(bp.Depths()))
	}
	r := rand.New(rand.NewPCG(1, 2))
	seen := 0
	for bb := 20.0; bb <= 350; bb *= 1.15 {
		d := bp.Nearest(bb)
		g := d.Game()
		for range 200 {
			n := cfr.Root
			for {
				nd := g.Node(n)
				if nd.Player < 0 || nd.Round >= keptRounds {
					break
				}
				b := r.IntN(g.Buckets()[nd.Round])
				probs := d.Probs(n, b)
				if len(probs) != len(nd.Actions) {
					t.Fatalf("%d bb, %q bucket %d: %d probabilities for %q", d.BB, nd.History, b, len(probs), nd.Actions)
				}
				sum := 0.0
				for _, p := range probs {
					if p < 0 || math.IsNaN(float64(p)) {
						t.Fatalf("%d bb, %q: %v", d.BB, nd.History, probs)
					}
					sum += float64(p)
				}
				if math.Abs(sum-1) > 1e-5 {
					t.Fatalf("%d bb, %q bucket %d: probabilities sum to %v", d.BB, nd.History, b, sum)
				}
				seen++
				n = nd.Kids[r.IntN(len(nd.Kids))]
			}
		}
	}
	if seen < 1000 {
		t.Errorf("only %d information sets seen", seen)
	}
}

// Depths are picked by ratio, and the blueprint plays sensibly where the answer is
// known: the small blind raises aces first in at every depth.
func TestDefaultNearestAndAces(t *testing.T) {
	bp, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		bb   float64
		want int
	}{{1, 20}, {20, 20}, {31, 20}, {33, 50}, {70, 50}, {71, 100}, {140, 100}, {142, 200}, {1000, 200}} {
		if d := bp.Nearest(c.bb); d.BB != c.want {
			t.Errorf("%v bb: depth %d, want %d", c.bb, d.BB, c.want)
		}
	}
	pre, err := bp.Buckets(nil)
	if err != nil {
		t.Fatal(err)
	}
	aces := pre[cfr.HandIndex(cards.MustParse("Ah"), cards.MustParse("As"))]
	for _, d := range bp.Depths() {
		acts := d.Game().Node(cfr.Root).Actions
		probs := d.Probs(cfr.Root, int(aces))
		if fold := probs[0]; acts[0] != 'f' || fold > 0.01 {
			t.Errorf("%d bb: aces fold %v of the time (%q %v)", d.BB, fold, acts, probs)
		}
	}
}

// The pseudo-harmonic mapping: exact sizes map to themselves, a size between two
// goes to the nearer more often, as the formula says.
func TestMapSize(t *testing.T) {
	sizes := []float64{0.5, 1, 3}
	for _, c := range []struct {
		x    float64
		u    float64
		want int
	}{{0.5, 0.99, 0}, {1.02, 0.99, 1}, {0.1, 0.5, 0}, {9, 0.5, 2}, {0.75, 0.42, 0}, {0.75, 0.43, 1}, {2, 0.1, 1}} {
		if got := MapSize(c.x, sizes, c.u); got != c.want {
			t.Errorf("MapSize(%v, u=%v) = %d, want %d", c.x, c.u, got, c.want)
		}
	}
	// f(0.75) between 0.5 and 1 is 0.25·1.5/(0.5·1.75) = 3/7.
	n, a := 70000, 0
	r := rand.New(rand.NewPCG(3, 4))
	for range n {
		if MapSize(0.75, sizes, r.Float64()) == 0 {
			a++
		}
	}
	if got := float64(a) / float64(n); math.Abs(got-3.0/7) > 0.01 {
		t.Errorf("0.75 maps to 0.5 with chance %v, want 3/7", got)
	}
	if MapSize(1, nil, 0) != -1 {
		t.Error("no sizes: not −1")
	}
}

// Training a tiny abstraction gives the same file for the same seed, which reads
// back the same (to a 255th), and bad files are refused with ErrBadFile.
func TestTrainWriteRead(t *testing.T) {
	a, err := cfr.BuildAbstraction(cfr.AbstractionConfig{Preflop: 3, Flop: 1, Turn: 1, River: 3, Samples: 300, Seed: 1}, cfr.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var progress bytes.Buffer
	bp, err := Train(context.Background(), a, TrainOptions{Depths: []int{20, 40}, Iterations: []int{3000}, Seed: 5, Progress: &progress, ProgressEvery: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(progress.Bytes(), []byte("a second")) || !bytes.Contains(progress.Bytes(), []byte("left")) {
		t.Errorf("progress: %q", progress.String())
	}
	var buf bytes.Buffer
	if err := bp.Write(&buf); err != nil {
		t.Fatal(err)
	}
	raw := buf.Bytes()
	again, err := Train(context.Background(), a, TrainOptions{Depths: []int{20, 40}, Iterations: []int{3000}, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	var buf2 bytes.Buffer
	if err := again.Write(&buf2); err != nil || !bytes.Equal(raw, buf2.Bytes()) {
		t.Errorf("the same seed gave another file (%v)", err)
	}
	back, err := Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range bp.Depths() {
		e := back.Depths()[i]
		if d.BB != e.BB || len(d.probs) != len(e.probs) {
			t.Fatalf("depth %d read back as %d", d.BB, e.BB)
		}
		for j := range d.probs {
			if math.Abs(float64(d.probs[j]-e.probs[j])) > 0.01 {
				t.Fatalf("depth %d entry %d: %v read back as %v", d.BB, j, d.probs[j], e.probs[j])
			}
		}
	}
	for _, bad := range [][]byte{nil, []byte("not gzip"), raw[:len(raw)/2]} {
		if _, err := Read(bytes.NewReader(bad)); !errors.Is(err, ErrBadFile) {
			t.Errorf("%d bytes: error %v", len(bad), err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Train(ctx, a, TrainOptions{Depths: []int{20}, Iterations: []int{1000}}); err == nil {
		t.Error("cancelled training: no error")
	}
	if _, err := Train(context.Background(), a, TrainOptions{Depths: []int{20, 50}, Iterations: []int{1, 2, 3}}); err == nil {
		t.Error("three counts for two depths: no error")
	}
}
