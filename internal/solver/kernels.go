package solver

import "math"

// The traversals' innermost loops: regret matching, the average strategy and the
// regret update, run at every decision for every hand. Each computes exactly what
// the plain loops of docs/solver.md's DCFR did, bit for bit (the same operations on
// the same values in the same order: TestIterationsBitExact), with fewer passes over
// memory and no branch on a regret's sign, which regrets of random signs mispredict
// (docs/bots.md, "Cheaper re-solves").

// update adds the instantaneous regrets to the discounted ones (positive regrets times
// t^1.5/(t^1.5+1), negative ones halved) and the reach-weighted strategy to the
// strategy sums, discounted by (t/(t+1))^2.
func (s *Solver) update(w *worker, n *node, regret []float32, vals, sigma, self, out []float64) {
	na, nh, H := int(n.nkids), len(self), s.maxH
	t := float64(s.iter)
	ta := math.Pow(t, 1.5)
	pos, neg := float32(ta/(ta+1)), float32(0.5)
	g := float32(t / (t + 1) * t / (t + 1))
	strat := s.sums(n, w.s32)
	for a := range na {
		updateRow(regret[a*nh:(a+1)*nh], strat[a*nh:(a+1)*nh], vals[a*H:a*H+nh], sigma[a*nh:(a+1)*nh], self, out, pos, neg, g)
	}
	s.keep(n, regret, strat)
}

// updateRow updates one action's regrets r and strategy sums st: r·d + (v − out),
// d = pos where r > 0 and neg elsewhere, and st·g + self·sg. The discount is picked
// from r's bits: above 0 as an int32 is above 0 as a float, NaN aside (a NaN regret
// stays NaN whatever it is multiplied by).
func updateRow(r, st []float32, v, sg, self, out []float64, pos, neg, g float32) {
	n := len(r)
	st, v, sg, self, out = st[:n], v[:n], sg[:n], self[:n], out[:n]
	pb, nb := math.Float32bits(pos), math.Float32bits(neg)
	for h, x := range r {
		db := nb
		if int32(math.Float32bits(x)) > 0 {
			db = pb
		}
		r[h] = x*math.Float32frombits(db) + float32(v[h]-out[h])
		st[h] = st[h]*g + float32(self[h]*sg[h])
	}
}

// regretMatch sets sigma (action-major) to the positive regrets, normalized per hand;
// uniform for a hand with none. sum is scratch of at least nh.
func regretMatch(regret []float32, na, nh int, sigma, sum []float64) {
	normalize(regret, na, nh, sigma, sum, true)
}

// normalize writes each hand's distribution over actions from weights (only the
// positive ones when pos is set): weights divided by their sum, uniform if it is 0.
// Each hand's sum is taken over its actions in order from 0, and its inverse
// multiplied in. sum is no longer needed (kept for the callers' sake).
func normalize(weights []float32, na, nh int, sigma, _ []float64, pos bool) {
	var clamp uint32
	if pos {
		clamp = ^uint32(0)
	}
	weights, sigma = weights[:na*nh], sigma[:na*nh]
	switch na {
	case 2:
		normalize2(weights, nh, sigma, clamp)
	case 3:
		normalize3(weights, nh, sigma, clamp)
	case 4:
		normalize4(weights, nh, sigma, clamp)
	default:
		normalizeN(weights, na, nh, sigma, clamp)
	}
}

// positive returns float64(v), but +0 for v below 0 when clamp is ^0: as
// "if x < 0 { x = 0 }" does (−0 and NaN kept), without a branch. The float32s
// below 0 are the bit patterns from 0x80000001 (−the least) to 0xff800000 (−Inf).
func positive(v float32, clamp uint32) float64 {
	u := math.Float32bits(v)
	var m uint32
	if u-0x80000001 <= 0xff800000-0x80000001 {
		m = clamp
	}
	return float64(math.Float32frombits(u &^ m))
}

func normalize2(w []float32, nh int, sigma []float64, clamp uint32) {
	w0, w1 := w[:nh], w[nh:2*nh]
	s0, s1 := sigma[:nh], sigma[nh:2*nh]
	w1, s0, s1 = w1[:len(w0)], s0[:len(w0)], s1[:len(w0)]
	for h := range w0 {
		x0, x1 := positive(w0[h], clamp), positive(w1[h], clamp)
		sum := 0.0
		sum += x0
		sum += x1
		if sum > 0 {
			inv := 1 / sum
			s0[h], s1[h] = x0*inv, x1*inv
		} else {
			s0[h], s1[h] = 1.0/2, 1.0/2
		}
	}
}

func normalize3(w []float32, nh int, sigma []float64, clamp uint32) {
	w0, w1, w2 := w[:nh], w[nh:2*nh], w[2*nh:3*nh]
	s0, s1, s2 := sigma[:nh], sigma[nh:2*nh], sigma[2*nh:3*nh]
	w1, w2, s0, s1, s2 = w1[:len(w0)], w2[:len(w0)], s0[:len(w0)], s1[:len(w0)], s2[:len(w0)]
	const u = 1.0 / 3
	for h := range w0 {
		x0, x1, x2 := positive(w0[h], clamp), positive(w1[h], clamp), positive(w2[h], clamp)
		sum := 0.0
		sum += x0
		sum += x1
		sum += x2
		if sum > 0 {
			inv := 1 / sum
			s0[h], s1[h], s2[h] = x0*inv, x1*inv, x2*inv
		} else {
			s0[h], s1[h], s2[h] = u, u, u
		}
	}
}

func normalize4(w []float32, nh int, sigma []float64, clamp uint32) {
	w0, w1, w2, w3 := w[:nh], w[nh:2*nh], w[2*nh:3*nh], w[3*nh:4*nh]
	s0, s1, s2, s3 := sigma[:nh], sigma[nh:2*nh], sigma[2*nh:3*nh], sigma[3*nh:4*nh]
	w1, w2, w3 = w1[:len(w0)], w2[:len(w0)], w3[:len(w0)]
	s0, s1, s2, s3 = s0[:len(w0)], s1[:len(w0)], s2[:len(w0)], s3[:len(w0)]
	const u = 1.0 / 4
	for h := range w0 {
		x0, x1, x2, x3 := positive(w0[h], clamp), positive(w1[h], clamp), positive(w2[h], clamp), positive(w3[h], clamp)
		sum := 0.0
		sum += x0
		sum += x1
		sum += x2
		sum += x3
		if sum > 0 {
			inv := 1 / sum
			s0[h], s1[h], s2[h], s3[h] = x0*inv, x1*inv, x2*inv, x3*inv
		} else {
			s0[h], s1[h], s2[h], s3[h] = u, u, u, u
		}
	}
}

func normalizeN(w []float32, na, nh int, sigma []float64, clamp uint32) {
	uniform := 1 / float64(na)
	for h := range nh {
		sum := 0.0
		for i := h; i < len(w); i += nh {
			x := positive(w[i], clamp)
			sigma[i] = x
			sum += x
		}
		if sum > 0 {
			inv := 1 / sum
			for i := h; i < len(w); i += nh {
				sigma[i] *= inv
			}
		} else {
			for i := h; i < len(w); i += nh {
				sigma[i] = uniform
			}
		}
	}
}
