package solver

import (
	"math"
	"unsafe"
)

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

// of returns the discount of the regret of bits u (math.Float32bits): pos above
// 0, neg otherwise, picked without a branch (above 0 as an int32 is above 0 as a
// float, NaN aside: a NaN regret stays NaN whatever it is multiplied by).
func (k discounts) of(u uint32) float32 {
	db := math.Float32bits(k.neg)
	if int32(u) > 0 {
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
	u := bitsOf(r)
	for h, x := range r {
		r[h] = x*k.of(u[h]) + float32(v[h]-out[h])
		st[h] = st[h]*k.g + float32(self[h]*sg[h])
	}
}

// update2 is expect and updateRow for both actions of a decision, hand by hand
// (four at a time in assembly where there is AVX2: update2Wide).
func update2(r, st []float32, vals, sigma, self, out []float64, H int, k discounts) {
	nh := len(out)
	r0, r1, st0, st1 := r[:nh], r[nh:2*nh], st[:nh], st[nh:2*nh]
	v0, v1, sg0, sg1 := vals[:nh], vals[H:H+nh], sigma[:nh], sigma[nh:2*nh]
	r0, r1, st0, st1, v0, v1, sg0, sg1, self = r0[:nh], r1[:nh], st0[:nh], st1[:nh], v0[:nh], v1[:nh], sg0[:nh], sg1[:nh], self[:nh]
	if n := update2Wide(r0, r1, st0, st1, v0, v1, sg0, sg1, self, out, k); n > 0 {
		r0, r1, st0, st1, v0, v1, sg0, sg1, self, out = r0[n:], r1[n:], st0[n:], st1[n:], v0[n:], v1[n:], sg0[n:], sg1[n:], self[n:], out[n:]
		nh -= n
	}
	u0, u1 := bitsOf(r0), bitsOf(r1)
	u0, u1 = u0[:nh], u1[:nh]
	r0, r1, st0, st1, v0, v1, sg0, sg1, self = r0[:nh], r1[:nh], st0[:nh], st1[:nh], v0[:nh], v1[:nh], sg0[:nh], sg1[:nh], self[:nh]
	for h := range out {
		o := 0.0
		o += sg0[h] * v0[h]
		o += sg1[h] * v1[h]
		out[h] = o
		x0, x1, sl := r0[h], r1[h], self[h]
		r0[h] = x0*k.of(u0[h]) + float32(v0[h]-o)
		r1[h] = x1*k.of(u1[h]) + float32(v1[h]-o)
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
	u0, u1, u2 := bitsOf(r0), bitsOf(r1), bitsOf(r2)
	u0, u1, u2 = u0[:nh], u1[:nh], u2[:nh]
	for h := range out {
		o := 0.0
		o += sg0[h] * v0[h]
		o += sg1[h] * v1[h]
		o += sg2[h] * v2[h]
		out[h] = o
		x0, x1, x2, sl := r0[h], r1[h], r2[h], self[h]
		r0[h] = x0*k.of(u0[h]) + float32(v0[h]-o)
		r1[h] = x1*k.of(u1[h]) + float32(v1[h]-o)
		r2[h] = x2*k.of(u2[h]) + float32(v2[h]-o)
		st0[h] = st0[h]*k.g + float32(sl*sg0[h])
		st1[h] = st1[h]*k.g + float32(sl*sg1[h])
		st2[h] = st2[h]*k.g + float32(sl*sg2[h])
	}
}

// sumRows sets out[h] to the sum over the actions, in order from 0, of vals[a][h]
// (H apart), from 0: what adding each row to a cleared out did, in one pass.
func sumRows(out, vals []float64, na, H int) {
	nh := len(out)
	switch na {
	case 2:
		v0, v1 := vals[:nh], vals[H:H+nh]
		v0, v1 = v0[:nh], v1[:nh]
		for h := range out {
			o := 0.0
			o += v0[h]
			o += v1[h]
			out[h] = o
		}
	case 3:
		v0, v1, v2 := vals[:nh], vals[H:H+nh], vals[2*H:2*H+nh]
		v0, v1, v2 = v0[:nh], v1[:nh], v2[:nh]
		for h := range out {
			o := 0.0
			o += v0[h]
			o += v1[h]
			o += v2[h]
			out[h] = o
		}
	default:
		clear(out)
		for a := range na {
			addTo(out, vals[a*H:a*H+nh])
		}
	}
}

// weigh sets dst[h] to r[h]·sg[h]: a child's reach.
func weigh(dst, r, sg []float64) {
	dst, sg = dst[:len(r)], sg[:len(r)]
	for h, x := range r {
		dst[h] = x * sg[h]
	}
}

// regretMatch sets sigma (action-major, nh apart) to the positive regrets,
// normalized per hand (uniform for a hand with none), and each action's row of
// reach (H apart) to r times that action's: the children's reach. Each hand's sum
// is taken over its actions in order from 0, and its inverse multiplied in.
func regretMatch(regret []float32, na, nh int, sigma, r, reach []float64, H int) {
	regret, sigma, r = regret[:na*nh], sigma[:na*nh], r[:nh]
	switch na {
	case 2:
		match2(bitsOf(regret), sigma, r, reach, H)
	case 3:
		match3(bitsOf(regret), sigma, r, reach, H)
	case 4:
		match4(bitsOf(regret), sigma, r, reach, H)
	default:
		normalize(regret, na, nh, sigma, true)
		for a := range na {
			weigh(reach[a*H:a*H+nh], r, sigma[a*nh:(a+1)*nh])
		}
	}
}

// bitsOf returns the float32s of w as their bits (math.Float32bits), without a
// copy: the kernels test a regret's sign and clear it in an integer register, and a
// value loaded there from memory need not be moved from a float register.
func bitsOf(w []float32) []uint32 {
	if len(w) == 0 {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(&w[0])), len(w))
}

// positive returns the float32 of bits u as a float64, but +0 for one below 0:
// as "if x < 0 { x = 0 }" does (−0 and NaN kept), without a branch. The float32s
// below 0 are the bit patterns from 0x80000001 (−the least) to 0xff800000 (−Inf).
func positive(u uint32) float64 {
	var m uint32
	if u-0x80000001 <= 0xff800000-0x80000001 {
		m = ^uint32(0)
	}
	return float64(math.Float32frombits(u &^ m))
}

// match2 is regretMatch for two actions (w: the regrets' bits; four hands at a
// time in assembly where there is AVX2: match2Wide).
func match2(w []uint32, sigma, r, reach []float64, H int) {
	nh := len(r)
	w0, w1, s0, s1 := w[:nh], w[nh:2*nh], sigma[:nh], sigma[nh:2*nh]
	c0, c1 := reach[:nh], reach[H:H+nh]
	w0, w1, s0, s1, c0, c1 = w0[:nh], w1[:nh], s0[:nh], s1[:nh], c0[:nh], c1[:nh]
	if n := match2Wide(w0, w1, r, s0, s1, c0, c1); n > 0 {
		w0, w1, r, s0, s1, c0, c1 = w0[n:], w1[n:], r[n:], s0[n:], s1[n:], c0[n:], c1[n:]
		nh -= n
		w0, w1, s0, s1, c0, c1 = w0[:nh], w1[:nh], s0[:nh], s1[:nh], c0[:nh], c1[:nh]
	}
	for h, x := range r {
		p0, p1 := positive(w0[h]), positive(w1[h])
		sum := 0.0
		sum += p0
		sum += p1
		if sum > 0 {
			inv := 1 / sum
			p0, p1 = p0*inv, p1*inv
		} else {
			p0, p1 = 1.0/2, 1.0/2
		}
		s0[h], s1[h] = p0, p1
		c0[h], c1[h] = x*p0, x*p1
	}
}

// match3 is regretMatch for three actions.
func match3(w []uint32, sigma, r, reach []float64, H int) {
	nh := len(r)
	w0, w1, w2 := w[:nh], w[nh:2*nh], w[2*nh:3*nh]
	s0, s1, s2 := sigma[:nh], sigma[nh:2*nh], sigma[2*nh:3*nh]
	c0, c1, c2 := reach[:nh], reach[H:H+nh], reach[2*H:2*H+nh]
	w0, w1, w2, s0, s1, s2 = w0[:nh], w1[:nh], w2[:nh], s0[:nh], s1[:nh], s2[:nh]
	c0, c1, c2 = c0[:nh], c1[:nh], c2[:nh]
	const u = 1.0 / 3
	for h, x := range r {
		p0, p1, p2 := positive(w0[h]), positive(w1[h]), positive(w2[h])
		sum := 0.0
		sum += p0
		sum += p1
		sum += p2
		if sum > 0 {
			inv := 1 / sum
			p0, p1, p2 = p0*inv, p1*inv, p2*inv
		} else {
			p0, p1, p2 = u, u, u
		}
		s0[h], s1[h], s2[h] = p0, p1, p2
		c0[h], c1[h], c2[h] = x*p0, x*p1, x*p2
	}
}

// match4 is regretMatch for four actions.
func match4(w []uint32, sigma, r, reach []float64, H int) {
	nh := len(r)
	w0, w1, w2, w3 := w[:nh], w[nh:2*nh], w[2*nh:3*nh], w[3*nh:4*nh]
	s0, s1, s2, s3 := sigma[:nh], sigma[nh:2*nh], sigma[2*nh:3*nh], sigma[3*nh:4*nh]
	c0, c1, c2, c3 := reach[:nh], reach[H:H+nh], reach[2*H:2*H+nh], reach[3*H:3*H+nh]
	w0, w1, w2, w3, s0, s1, s2, s3 = w0[:nh], w1[:nh], w2[:nh], w3[:nh], s0[:nh], s1[:nh], s2[:nh], s3[:nh]
	c0, c1, c2, c3 = c0[:nh], c1[:nh], c2[:nh], c3[:nh]
	for h, x := range r {
		p0, p1, p2, p3 := positive(w0[h]), positive(w1[h]), positive(w2[h]), positive(w3[h])
		sum := 0.0
		sum += p0
		sum += p1
		sum += p2
		sum += p3
		if sum > 0 {
			inv := 1 / sum
			p0, p1, p2, p3 = p0*inv, p1*inv, p2*inv, p3*inv
		} else {
			p0, p1, p2, p3 = 1.0/4, 1.0/4, 1.0/4, 1.0/4
		}
		s0[h], s1[h], s2[h], s3[h] = p0, p1, p2, p3
		c0[h], c1[h], c2[h], c3[h] = x*p0, x*p1, x*p2, x*p3
	}
}

// normalize writes each hand's distribution over actions from weights (only the
// positive ones when pos is set): weights divided by their sum, uniform if it is 0,
// the sum taken over the actions in order from 0 and its inverse multiplied in.
func normalize(weights []float32, na, nh int, sigma []float64, pos bool) {
	w := bitsOf(weights[:na*nh])
	uniform := 1 / float64(na)
	for h := range nh {
		sum := 0.0
		for i := h; i < len(w); i += nh {
			x := float64(math.Float32frombits(w[i]))
			if pos {
				x = positive(w[i])
			}
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
