package blueprint

import "math"

// MapSize maps a bet of x pots onto a tree whose sizes (pots, ascending) are
// sizes, by the pseudo-harmonic mapping of Ganzfried and Sandholm (2013): between
// the neighbouring sizes A ≤ x ≤ B it picks A with probability
//
//	f(x) = (B − x)(1 + A) / ((B − A)(1 + x))
//
// and B otherwise, u (uniform in [0, 1)) deciding. A bet within 3% of a size is
// that size; below the smallest it is the smallest, above the largest the
// largest. It returns the index into sizes, or −1 when sizes is empty.
func MapSize(x float64, sizes []float64, u float64) int {
	if len(sizes) == 0 {
		return -1
	}
	for i, s := range sizes {
		if math.Abs(x-s) <= 0.03*s {
			return i
		}
	}
	if x <= sizes[0] {
		return 0
	}
	for i := 1; i < len(sizes); i++ {
		a, b := sizes[i-1], sizes[i]
		if x < b {
			if u < (b-x)*(1+a)/((b-a)*(1+x)) {
				return i - 1
			}
			return i
		}
	}
	return len(sizes) - 1
}
