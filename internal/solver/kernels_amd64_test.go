//go:build amd64 && !purego

package solver

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// odd32 returns float32 bits for a kernel's input: mostly ordinary numbers of
// both signs, often a value the sign tests must tell apart (±0, the least and
// largest numbers below and above 0, ±Inf, NaNs of both signs).
func odd32(rng *rand.Rand) uint32 {
	special := []uint32{0, 0x80000000, 1, 0x80000001, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0xff800001, 0x7f800001}
	if rng.IntN(4) == 0 {
		return special[rng.IntN(len(special))]
	}
	return math.Float32bits(float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))))
}

// odd64 returns a float64 input: mostly ordinary, sometimes ±0, a subnormal or
// ±Inf (never NaN: where two NaNs meet, which one's bits come out depends on the
// order the compiler gives a commutative operation's operands).
func odd64(rng *rand.Rand) float64 {
	switch rng.IntN(12) {
	case 0:
		return 0
	case 1:
		return math.Copysign(0, -1)
	case 2:
		return 5e-324
	case 3:
		return math.Inf(1 - 2*rng.IntN(2))
	}
	return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
}

// sameBits reports whether a and b are the same floats bit for bit.
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// withWide runs f with the assembly kernels on or off.
func withWide(on bool, f func()) {
	was := wide
	wide = on
	defer func() { wide = was }()
	f()
}

// match2 and update2 give the same bits with their assembly (four hands at a
// time) as with their Go loops alone, on every length from 0 to 13 and on a
// river's 1,081 hands, for regrets of any bits (every sign case of positive and
// discounts.of, NaNs and infinities included) and values with zeros of both
// signs, subnormals and infinities.
func TestWideKernelsMatchGo(t *testing.T) {
	if !wide {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, nh := range append([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}, 1081, 1081, 1081) {
		H := nh + 3
		regret := make([]float32, 2*nh)
		for i := range regret {
			regret[i] = math.Float32frombits(odd32(rng))
		}
		r := make([]float64, nh)
		for i := range r {
			r[i] = odd64(rng)
		}
		var sigma, reach [2][]float64
		for i, on := range []bool{false, true} {
			sigma[i], reach[i] = make([]float64, 2*nh), make([]float64, 2*H)
			withWide(on, func() { match2(bitsOf(regret), sigma[i], r, reach[i], H) })
		}
		if !sameBits(sigma[0], sigma[1]) || !sameBits(reach[0], reach[1]) {
			t.Fatalf("match2, %d hands: assembly %v %v, Go %v %v", nh, sigma[1], reach[1], sigma[0], reach[0])
		}

		vals, self, sg := make([]float64, 2*H), make([]float64, nh), make([]float64, 2*nh)
		for _, x := range [][]float64{vals, self, sg} {
			for i := range x {
				x[i] = odd64(rng)
			}
		}
		st := make([]float32, 2*nh)
		for i := range st {
			st[i] = float32(odd64(rng))
		}
		k := discounts{pos: 0.7, neg: 0.5, g: 0.81}
		var regrets, sums [2][]float32
		var out [2][]float64
		for i, on := range []bool{false, true} {
			regrets[i], sums[i], out[i] = slices.Clone(regret), slices.Clone(st), make([]float64, nh)
			withWide(on, func() { update2(regrets[i], sums[i], vals, sg, self, out[i], H, k) })
		}
		if !sameBits(out[0], out[1]) || !same32(regrets[0], regrets[1]) || !same32(sums[0], sums[1]) {
			t.Fatalf("update2, %d hands: assembly %v %v %v, Go %v %v %v", nh, out[1], regrets[1], sums[1], out[0], regrets[0], sums[0])
		}
	}
}

// same32 reports whether a and b are the same float32s bit for bit, but for a
// NaN against a NaN: update2 adds a NaN regret to a NaN difference (an Inf value
// less an Inf value), where the bits kept are the operand's the compiler put first.
func same32(a, b []float32) bool {
	return slices.EqualFunc(a, b, func(x, y float32) bool {
		return math.Float32bits(x) == math.Float32bits(y) || x != x && y != y
	})
}

// BenchmarkMatch2Go is BenchmarkMatch2 with the Go loop alone (as without AVX2).
func BenchmarkMatch2Go(b *testing.B) { withWide(false, func() { BenchmarkMatch2(b) }) }

// BenchmarkUpdate2Go is BenchmarkUpdate2 with the Go loop alone.
func BenchmarkUpdate2Go(b *testing.B) { withWide(false, func() { BenchmarkUpdate2(b) }) }
