package solver

import "math"

// The regrets and strategy sums of every decision: float32 arrays, or with
// Options.Compress half-precision floats (IEEE 754 binary16: 11 significant bits) over
// one float32 scale per decision node and array, the largest magnitude. Floats rather
// than 16-bit integers keep the relative precision of small values: a hand's regrets
// can be a thousandth of another's at the same node and still decide its strategy
// (integers over the node's largest value stalled the river spot at 0.15%). A traversal decodes a node's values into the worker's scratch, uses
// them and, after an update, encodes them back.

// span returns the offset and the length of decision n's values.
func (s *Solver) span(n *node) (int, int) {
	off := s.off[n.dec]
	return off, int(n.nkids) * len(s.hands[n.player])
}

// regrets returns decision n's regrets: the stored slice, or decoded into buf.
func (s *Solver) regrets(n *node, buf []float32) []float32 {
	off, size := s.span(n)
	if !s.compress {
		return s.regret[off : off+size]
	}
	buf = buf[:size]
	k := s.scale[2*n.dec]
	for i, q := range s.regret16[off : off+size] {
		buf[i] = halves[q] * k
	}
	return buf
}

// sums returns decision n's strategy sums: the stored slice, or decoded into buf.
func (s *Solver) sums(n *node, buf []float32) []float32 {
	off, size := s.span(n)
	if !s.compress {
		return s.strat[off : off+size]
	}
	buf = buf[:size]
	k := s.scale[2*n.dec+1]
	for i, q := range s.strat16[off : off+size] {
		buf[i] = halves[q] * k
	}
	return buf
}

// keep stores decision n's regrets and strategy sums back when they are compressed
// (otherwise they were updated in place).
func (s *Solver) keep(n *node, regret, sums []float32) {
	if !s.compress {
		return
	}
	off, size := s.span(n)
	s.scale[2*n.dec] = encode(s.regret16[off:off+size], regret)
	s.scale[2*n.dec+1] = encode(s.strat16[off:off+size], sums)
}

// encode writes src into dst as half-precision floats over the largest magnitude in
// src, which it returns (the scale to multiply the decoded values by).
func encode(dst []uint16, src []float32) float32 {
	big := float32(0)
	for _, v := range src {
		// Plain comparisons: the built-in max handles NaN and −0, slowly.
		if v > big {
			big = v
		} else if -v > big {
			big = -v
		}
	}
	if !(big > 0) {
		clear(dst)
		return 0
	}
	inv := 1 / big
	for i, v := range src {
		dst[i] = toHalf(v * inv)
	}
	return big
}

// halves decodes every half-precision float.
var halves = func() *[1 << 16]float32 {
	var t [1 << 16]float32
	for h := range t {
		exp, mant := (h>>10)&0x1f, float64(h&0x3ff)
		var v float64
		switch exp {
		case 0:
			v = math.Ldexp(mant, -24)
		case 0x1f:
			v = math.Inf(1)
		default:
			v = math.Ldexp(1024+mant, exp-25)
		}
		if h&0x8000 != 0 {
			v = -v
		}
		t[h] = float32(v)
	}
	return &t
}()

// toHalf rounds x, at most 1 in magnitude, to the nearest half-precision float.
func toHalf(x float32) uint16 {
	f := math.Float32bits(x)
	sign := uint16(f>>16) & 0x8000
	exp := int(f>>23&0xff) - 127 + 15
	mant := f & 0x7fffff
	if exp <= 0 {
		if exp < -10 {
			return sign
		}
		mant |= 0x800000
		shift := uint(14 - exp)
		h := uint16(mant >> shift)
		if mant>>(shift-1)&1 != 0 {
			h++
		}
		return sign | h
	}
	h := uint16(exp)<<10 | uint16(mant>>13)
	if mant&0x1000 != 0 {
		h++
	}
	return sign | h
}
