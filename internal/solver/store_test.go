package solver

import (
	"math"
	"testing"
)

// TestCompressedConverges: with regrets and strategy sums in 16 bits the river and
// turn spots still reach 0.1% of the pot, and the turn's arrays take half the memory.
func TestCompressedConverges(t *testing.T) {
	for _, board := range []string{"QsJh2h8d3c", "QsJh2h8h"} {
		if len(board) == 8 && testing.Short() {
			continue
		}
		plain := mustSolver(t, benchSpot(board), 2)
		s, err := New(benchSpot(board), Options{Workers: 2, Compress: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		// The arrays shrink by 4 bytes per value; a river spot's arrays are smaller
		// than the workers' scratch, which grows a little.
		if len(board) == 8 && (s.Memory() >= plain.Memory() || s.Memory()-plain.Memory() > -int64(s.strategySize)*3) {
			t.Errorf("%s: memory %d compressed, %d not", board, s.Memory(), plain.Memory())
		}
		e := solveTo(t, s, 0.1, 1000)
		ep := solveTo(t, plain, 0.1, 1000)
		t.Logf("%s: compressed %d iterations to %.4f%%, %d bytes; plain %d iterations to %.4f%%, %d bytes", board, s.Iterations(), e, s.Memory(), plain.Iterations(), ep, plain.Memory())
		if e > 0.1 {
			t.Errorf("%s: exploitability %.4f%% after %d iterations compressed", board, e, s.Iterations())
		}
	}
}

// TestHalfFloats: every half float that is at most 1 in magnitude survives the trip
// through float32, and rounding picks the nearer neighbour.
func TestHalfFloats(t *testing.T) {
	for h := range 1 << 16 {
		v := halves[h]
		if v > 1 || v < -1 || v != v {
			continue
		}
		if got := toHalf(v); got != uint16(h) && !(v == 0 && got&0x7fff == 0) {
			t.Fatalf("half %#04x = %v comes back as %#04x", h, v, got)
		}
	}
	for _, x := range []float32{0.3, -0.7, 1e-6, -3e-8, 0.99999, 1, -1, 6.1e-5} {
		best := float32(math.Inf(1))
		for _, v := range halves {
			best = min(best, float32(math.Abs(float64(v-x))))
		}
		if got := halves[toHalf(x)]; float32(math.Abs(float64(got-x))) != best {
			t.Errorf("%v rounds to %v, %v away; the nearest half is %v away", x, got, got-x, best)
		}
	}
}
