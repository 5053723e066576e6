//go:build amd64 && !purego

package solver

import "golang.org/x/sys/cpu"

// The two-action kernels (match2, update2) run four hands at a time in AVX2
// assembly (kernels_amd64.s) where the processor has it: the same IEEE operations
// on the same values in the same order as the Go loops, lane by lane, so every
// bit is the same (TestWideKernelsMatchGo holds them to the Go loops on any bits,
// TestIterationsBitExact to the digests). The hands past the last multiple of
// four, and machines without AVX2, take the Go loops. A block of four hands is
// read before it is written: the rows written must not overlap those read at
// other hands (none of the solver's do).
var wide = cpu.X86.HasAVX2

// match2Wide runs match2's loop over the first multiple of four hands in
// assembly and returns how many it did (0 without AVX2).
func match2Wide(w0, w1 []uint32, r, s0, s1, c0, c1 []float64) int {
	n := len(r) &^ 3
	if !wide || n == 0 {
		return 0
	}
	_, _, _, _, _, _ = w0[n-1], w1[n-1], s0[n-1], s1[n-1], c0[n-1], c1[n-1]
	match2AVX2(&w0[0], &w1[0], &r[0], &s0[0], &s1[0], &c0[0], &c1[0], n)
	return n
}

// update2Wide runs update2's loop over the first multiple of four hands in
// assembly and returns how many it did (0 without AVX2).
func update2Wide(r0, r1, st0, st1 []float32, v0, v1, sg0, sg1, self, out []float64, k discounts) int {
	n := len(out) &^ 3
	if !wide || n == 0 {
		return 0
	}
	_, _, _, _, _, _, _, _, _ = r0[n-1], r1[n-1], st0[n-1], st1[n-1], v0[n-1], v1[n-1], sg0[n-1], sg1[n-1], self[n-1]
	update2AVX2(&r0[0], &r1[0], &st0[0], &st1[0], &v0[0], &v1[0], &sg0[0], &sg1[0], &self[0], &out[0], n, k.pos, k.neg, k.g)
	return n
}

// match2AVX2 is match2's loop over n hands, n a multiple of 4.
//
//go:noescape
func match2AVX2(w0, w1 *uint32, r, s0, s1, c0, c1 *float64, n int)

// update2AVX2 is update2's loop over n hands, n a multiple of 4, with the
// discounts pos, neg and gsum (discounts.g).
//
//go:noescape
func update2AVX2(r0, r1, st0, st1 *float32, v0, v1, sg0, sg1, self, out *float64, n int, pos, neg, gsum float32)
