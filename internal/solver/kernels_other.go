//go:build !amd64 || purego

package solver

// wide is false: match2 and update2 run their Go loops alone.
const wide = false

// match2Wide does nothing here: match2's Go loop takes every hand.
func match2Wide(w0, w1 []uint32, r, s0, s1, c0, c1 []float64) int { return 0 }

// update2Wide does nothing here: update2's Go loop takes every hand.
func update2Wide(r0, r1, st0, st1 []float32, v0, v1, sg0, sg1, self, out []float64, k discounts) int {
	return 0
}
