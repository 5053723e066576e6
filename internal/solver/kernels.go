package solver

import "math"

// The traversals' innermost loops: regret matching, the average strategy and the
// regret update, run at every decision for every hand. Each computes exactly what
// the plain loops of docs/solver.md's DCFR did, bit for bit (the same operations on
// the same values in the same order: TestIterationsBitExact), with fewer passes over
// memory and no branch on a regret's sign, which regrets of random signs mispredict
// (docs/bots.md, "Cheaper re-solves").

// update sets out to the traverser's values at decision n, the actions' values vals
// weighed by sigma (expect), adds the instantaneous regrets to the discounted ones
// (positive regrets times t^1.5/(t^1.5+1), negative ones halved) and the
// reach-weighted strategy to the strategy sums, discounted by (t/(t+1))^2. With two
// or three actions, all of it is done in one pass over the hands.
func (s *Solver) update(w *worker, n *node, regret []float32, vals, sigma, self, out []float64) {
	na, nh, H := int(n.nkids), len(self), s.maxH
	t := float64(s.iter)
	ta := math.Pow(t, 1.5)
	k := discounts{pos: float32(ta / (ta + 1)), neg: 0.5, g: float32(t / (t + 1) * t / (t + 1))}
	strat := s.sums(n, w.s32)
	switch na {
	case 2:
		update2(regret, strat, vals, sigma, self, out, H, k)
	case 3:
		update3(regret, strat, vals, sigma, self, out, H, k)
	default:
		expect(out, sigma, vals, na, H)
		for a := range na {
			updateRow(regret[a*nh:(a+1)*nh], strat[a*nh:(a+1)*nh], vals[a*H:a*H+nh], sigma[a*nh:(a+1)*nh], self, out, k)
		}
	}
	s.keep(n, regret, strat)
}

// discounts are an iteration's DCFR factors: of positive regrets, of the others,
// of the strategy sums.
type discounts struct{ pos, neg, g float32 }

// of returns the discount of regret x: pos above 0, neg otherwise, picked from x's
// bits without a branch (above 0 as an int32 is above 0 as a float, NaN aside: a NaN
// regret stays NaN whatever it is multiplied by).
func (k discounts) of(x float32) float32 {
	db := math.Float32bits(k.neg)
	if int32(math.Float32bits(x)) > 0 {
		db = math.Float32bits(k.pos)
	}
	return math.Float32frombits(db)
}

// expect sets out[h] to the sum over the actions, in order from 0, of
// sigma[a][h]·vals[a][h] (sigma nh apart, vals H apart), from 0.
func expect(out, sigma, vals []float64, na, H int) {
	nh := len(out)
	clear(out)
	for a := range na {
		sg, v := sigma[a*nh:(a+1)*nh], vals[a*H:a*H+nh]
		sg, v = sg[:len(out)], v[:len(out)]
		for h := range out {
			out[h] += sg[h] * v[h]
		}
	}
}

// updateRow updates one action's regrets r and strategy sums st given its values v,
// its strategy sg and the decision's values out: r·d + (v − out) and st·g + self·sg.
func updateRow(r, st []float32, v, sg, self, out []float64, k discounts) {
	n := len(r)
	st, v, sg, self, out = st[:n], v[:n], sg[:n], self[:n], out[:n]
	for h, x := range r {
		r[h] = x*k.of(x) + float32(v[h]-out[h])
		st[h] = st[h]*k.g + float32(self[h]*sg[h])
	}
}

// update2 is expect and updateRow for both actions of a decision, hand by hand.
func update2(r, st []float32, vals, sigma, self, out []float64, H int, k discounts) {
	nh := len(out)
	r0, r1, st0, st1 := r[:nh], r[nh:2*nh], st[:nh], st[nh:2*nh]
	v0, v1, sg0, sg1 := vals[:nh], vals[H:H+nh], sigma[:nh], sigma[nh:2*nh]
	r0, r1, st0, st1, v0, v1, sg0, sg1, self = r0[:nh], r1[:nh], st0[:nh], st1[:nh], v0[:nh], v1[:nh], sg0[:nh], sg1[:nh], self[:nh]
	for h := range out {
		o := 0.0
		o += sg0[h] * v0[h]
		o += sg1[h] * v1[h]
		out[h] = o
		x0, x1, sl := r0[h], r1[h], self[h]
		r0[h] = x0*k.of(x0) + float32(v0[h]-o)
		r1[h] = x1*k.of(x1) + float32(v1[h]-o)
		st0[h] = st0[h]*k.g + float32(sl*sg0[h])
		st1[h] = st1[h]*k.g + float32(sl*sg1[h])
	}
}

// update3 is update2 for three actions.
func update3(r, st []float32, vals, sigma, self, out []float64, H int, k discounts) {
	nh := len(out)
	r0, r1, r2 := r[:nh], r[nh:2*nh], r[2*nh:3*nh]
	st0, st1, st2 := st[:nh], st[nh:2*nh], st[2*nh:3*nh]
	v0, v1, v2 := vals[:nh], vals[H:H+nh], vals[2*H:2*H+nh]
	sg0, sg1, sg2 := sigma[:nh], sigma[nh:2*nh], sigma[2*nh:3*nh]
	r0, r1, r2, st0, st1, st2 = r0[:nh], r1[:nh], r2[:nh], st0[:nh], st1[:nh], st2[:nh]
	v0, v1, v2, sg0, sg1, sg2, self = v0[:nh], v1[:nh], v2[:nh], sg0[:nh], sg1[:nh], sg2[:nh], self[:nh]
	for h := range out {
		o := 0.0
		o += sg0[h] * v0[h]
		o += sg1[h] * v1[h]
		o += sg2[h] * v2[h]
		out[h] = o
		x0, x1, x2, sl := r0[h], r1[h], r2[h], self[h]
		r0[h] = x0*k.of(x0) + float32(v0[h]-o)
		r1[h] = x1*k.of(x1) + float32(v1[h]-o)
		r2[h] = x2*k.of(x2) + float32(v2[h]-o)
		st0[h] = st0[h]*k.g + float32(sl*sg0[h])
		st1[h] = st1[h]*k.g + float32(sl*sg1[h])
		st2[h] = st2[h]*k.g + float32(sl*sg2[h])
	}
}

// weigh sets dst[h] to r[h]·sg[h]: a child's reach.
func weigh(dst, r, sg []float64) {
	dst, sg = dst[:len(r)], sg[:len(r)]
	for h, x := range r {
		dst[h] = x * sg[h]
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
