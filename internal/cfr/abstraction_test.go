package cfr

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

// randomCards returns n distinct random cards.
func randomCards(r *rand.Rand, n int) []cards.Card {
	out := make([]cards.Card, n)
	for i, c := range r.Perm(cards.NumCards)[:n] {
		out[i] = cards.Card(c)
	}
	return out
}

// TestBoardStrengths checks the sort-and-sweep strengths of every hand on a board
// against direct counting, and a few known values.
func TestBoardStrengths(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	s := newBoardScratch()
	for range 20 {
		cs := randomCards(r, 5)
		board := [5]cards.Card(cs)
		s.boardStrengths(&board)
		dead := cardMask(cs...)
		for c2 := cards.Card(1); c2 < cards.NumCards; c2++ {
			for c1 := cards.Card(0); c1 < c2; c1++ {
				if dead&cardMask(c1, c2) != 0 || r.IntN(20) != 0 {
					continue
				}
				if got, want := int(s.hs[pairIndex(c1, c2)]), strengthOf([2]cards.Card{c1, c2}, &board); got != want {
					t.Fatalf("board %v, hand %v%v: strength %d, direct %d", cs, c1, c2, got, want)
				}
			}
		}
	}
	// The nuts win against all 990 hands; on a royal flush board everyone ties.
	royal := [5]cards.Card(cards.MustParseList("AsKsQsJsTs"))
	if got := strengthOf([2]cards.Card(cards.MustParseList("2c3d")), &royal); got != opponentHands {
		t.Errorf("royal board: strength %d, want %d (all ties)", got, opponentHands)
	}
	board := [5]cards.Card(cards.MustParseList("AsKsQs2d7h"))
	if got := strengthOf([2]cards.Card(cards.MustParseList("JsTs")), &board); got != StrengthScale {
		t.Errorf("the nuts: strength %d, want %d", got, StrengthScale)
	}
}

// TestBoardHistograms checks the all-hands flop and turn histograms against the
// one-hand functions the bots use.
func TestBoardHistograms(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	s := newBoardScratch()
	const bins = 10
	hist := make([]uint16, numPairs*bins)
	for _, n := range []int{3, 4} {
		cs := randomCards(r, n+6)
		board := cs[:n]
		s.boardHistograms(board, bins, hist)
		for k := 0; k < 6; k += 2 {
			hole := [2]cards.Card{cs[n+k], cs[n+k+1]}
			want := make([]int, bins)
			if n == 3 {
				flopHistogram(hole, [3]cards.Card(board), want)
			} else {
				turnHistogram(hole, [4]cards.Card(board), want)
			}
			p := pairIndex(hole[0], hole[1])
			got := make([]int, bins)
			total := 0
			for i, x := range hist[p*bins : (p+1)*bins] {
				got[i] = int(x)
				total += int(x)
			}
			if !slices.Equal(got, want) {
				t.Errorf("board %v hole %v: histogram %v, direct %v", board, hole, got, want)
			}
			if wantTotal := map[int]int{3: 1081, 4: 46}[n]; total != wantTotal {
				t.Errorf("board %v: %d runouts, want %d", board, total, wantTotal)
			}
		}
	}
}

// TestKMeans finds three well separated clusters of cumulative histograms.
func TestKMeans(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const dim = 4
	centres := [][]float64{{0.9, 1, 1, 1}, {0, 0.1, 0.9, 1}, {0, 0, 0, 1}}
	var pts []float64
	for i := range 300 {
		c := centres[i%3]
		for _, v := range c {
			pts = append(pts, v+r.Float64()*0.02)
		}
	}
	cents := kmeans(pts, dim, 3, r)
	for _, c := range centres {
		k := nearest(cents, c)
		if d := emd(cents[k*dim:(k+1)*dim], c); d > 0.05 {
			t.Errorf("centre %v: nearest centroid %v at %g", c, cents[k*dim:(k+1)*dim], d)
		}
	}
	if emd([]float64{0, 1}, []float64{1, 1}) != 1 {
		t.Error("emd of two one-bin shifts")
	}
}

// TestAbstractionSmall builds a small abstraction without tables, checks its
// buckets, and that its spec (JSON) and its file give the same buckets.
func TestAbstractionSmall(t *testing.T) {
	cfg := AbstractionConfig{Flop: 4, Turn: 3, River: 5, Bins: 8, Samples: 400, Seed: 1}
	stages := map[string]bool{}
	a, err := BuildAbstraction(cfg, BuildOptions{Progress: func(stage string, done, total int) { stages[stage] = true }})
	if err != nil {
		t.Fatal(err)
	}
	if !stages["flop samples"] || !stages["turn k-means"] {
		t.Errorf("progress stages %v", stages)
	}
	if a.Sizes() != [4]int{169, 4, 3, 5} {
		t.Errorf("sizes %v", a.Sizes())
	}
	js, err := json.Marshal(a.Spec())
	if err != nil {
		t.Fatal(err)
	}
	var spec AbstractionSpec
	if err := json.Unmarshal(js, &spec); err != nil {
		t.Fatal(err)
	}
	b, err := spec.Abstraction()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := a.Write(&buf); err != nil {
		t.Fatal(err)
	}
	c, err := ReadAbstraction(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if a.Fingerprint() != b.Fingerprint() || a.Fingerprint() != c.Fingerprint() {
		t.Error("fingerprints differ after a round trip")
	}
	r := rand.New(rand.NewPCG(9, 10))
	seen := [4]map[int]bool{{}, {}, {}, {}}
	for range 12 {
		cs := randomCards(r, 9)
		holes := [2][2]cards.Card{{cs[0], cs[1]}, {cs[2], cs[3]}}
		board := [5]cards.Card(cs[4:])
		deal := a.DealBuckets(&holes, &board)
		for p, hole := range holes {
			for rd, n := range []int{0, 3, 4, 5} {
				x := a.Bucket(hole, board[:n])
				if x < 0 || x >= a.Sizes()[rd] {
					t.Fatalf("round %d: bucket %d of %d", rd, x, a.Sizes()[rd])
				}
				if y := b.Bucket(hole, board[:n]); y != x {
					t.Fatalf("round %d: bucket %d, from the spec %d", rd, x, y)
				}
				if int(deal[p][rd]) != x {
					t.Fatalf("round %d: deal bucket %d, bucket %d", rd, deal[p][rd], x)
				}
				seen[rd][x] = true
			}
		}
	}
	if len(seen[3]) < 3 || len(seen[0]) < 10 {
		t.Errorf("buckets used: %v", seen)
	}
	if got := a.BucketName(0, a.Bucket([2]cards.Card(cards.MustParseList("AhKh")), nil)); got != "AKs" {
		t.Errorf("AhKh is %q, want AKs", got)
	}
	if got := a.BucketName(0, a.Bucket([2]cards.Card(cards.MustParseList("2c7d")), nil)); got != "72o" {
		t.Errorf("2c7d is %q, want 72o", got)
	}
	// River buckets rise with strength.
	strong := a.riverBucket(StrengthScale)
	if strong != cfg.River-1 || a.riverBucket(0) != 0 {
		t.Errorf("river buckets of the weakest and strongest hands: %d, %d", a.riverBucket(0), strong)
	}
	if _, err := (&AbstractionSpec{Config: cfg}).Abstraction(); err == nil {
		t.Error("a spec without centroids was accepted")
	}
}

// TestAbstractionTables builds flop and turn tables (a minute or two; only with
// FELT_CFR_SLOW=1) and checks them against buckets computed on the fly.
func TestAbstractionTables(t *testing.T) {
	if os.Getenv("FELT_CFR_SLOW") == "" {
		t.Skip("set FELT_CFR_SLOW=1 to build the tables")
	}
	cfg := AbstractionConfig{Flop: 8, Turn: 8, River: 8, Bins: 10, Samples: 2000, Seed: 2}
	a, err := BuildAbstraction(cfg, BuildOptions{Tables: true})
	if err != nil {
		t.Fatal(err)
	}
	spec := a.Spec()
	b, _ := spec.Abstraction()
	r := rand.New(rand.NewPCG(11, 12))
	for range 200 {
		cs := randomCards(r, 6)
		hole := [2]cards.Card(cs)
		for _, n := range []int{3, 4} {
			if x, y := a.Bucket(hole, cs[2:2+n]), b.Bucket(hole, cs[2:2+n]); x != y {
				t.Fatalf("%v on %v: table bucket %d, on the fly %d", hole, cs[2:2+n], x, y)
			}
		}
	}
}

// BoardBuckets gives every hand the bucket Bucket gives it, in every round.
func TestBoardBucketsMatchBucket(t *testing.T) {
	a, err := BuildAbstraction(AbstractionConfig{Flop: 5, Turn: 4, River: 3, Samples: 400, Seed: 3}, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	board := []cards.Card{cards.MustParse("Ah"), cards.MustParse("7c"), cards.MustParse("2d"), cards.MustParse("Ks"), cards.MustParse("7h")}
	for _, n := range []int{0, 3, 4, 5} {
		got, err := a.BoardBuckets(board[:n])
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range [][2]cards.Card{{cards.MustParse("Qh"), cards.MustParse("Jh")}, {cards.MustParse("7d"), cards.MustParse("3s")}, {cards.MustParse("2c"), cards.MustParse("2s")}} {
			if want := a.Bucket(h, board[:n]); int(got[HandIndex(h[0], h[1])]) != want {
				t.Errorf("%v on %v: %d, Bucket says %d", h, board[:n], got[HandIndex(h[0], h[1])], want)
			}
		}
	}
	if _, err := a.BoardBuckets(board[:2]); err == nil {
		t.Error("two board cards: no error")
	}
}
