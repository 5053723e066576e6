package solver

import (
	"context"
	"time"

	"github.com/felt-poker/felt/internal/cards"
)

// mode is what a traversal computes.
type mode uint8

const (
	modeCFR mode = iota // update the traverser's regrets and strategy sums
	modeBR              // the traverser's best response to the average strategy
	modeEV              // the traverser's values when both play the average strategy
)

// worker is one goroutine's scratch: per tree depth, buffers for every action's
// reach, values and strategy, so that iterations allocate nothing.
type worker struct {
	reach, vals, sigma [][]float64                 // [depth][action*maxH + hand]
	sum                []float64                   // per hand
	won                []float64                   // showdown: per hand, in strength order
	live               []live                      // showdown: the opponent's hands with reach
	r32                [][]float32                 // compressed store: per depth, a decision's decoded regrets
	s32                []float32                   // compressed store: a decision's decoded strategy sums
	tick               uint32                      // polled's count of calls
	cs                 [cards.NumCards + 1]float64 // per-card sums, and a slot for showdown
	cs2                [cards.NumCards + 1]float64
}

func (s *Solver) scratchBytes() int64 {
	m := int64(s.maxDepth+1)*int64(3*s.maxA*s.maxH)*8 + int64(s.maxA*s.maxH)*4
	if s.compress {
		m += int64(s.maxDepth+1) * int64(s.maxA*s.maxH) * 4
	}
	return m
}

func (s *Solver) newWorker() *worker {
	w := &worker{sum: make([]float64, s.maxH), won: make([]float64, s.maxH), live: make([]live, s.maxH), s32: make([]float32, s.maxA*s.maxH)}
	for range s.maxDepth + 1 {
		w.reach = append(w.reach, make([]float64, s.maxA*s.maxH))
		w.vals = append(w.vals, make([]float64, s.maxA*s.maxH))
		w.sigma = append(w.sigma, make([]float64, s.maxA*s.maxH))
		if s.compress {
			w.r32 = append(w.r32, make([]float32, s.maxA*s.maxH))
		}
	}
	return w
}

// job is one chance outcome for a pool worker: child i of chance node n.
type job struct {
	n         *node
	i, depth  int
	trav      int
	mode      mode
	self, opp []float64
}

// start allocates the arrays and the workers the first time it is called.
func (s *Solver) start() {
	if s.main == nil {
		if s.compress {
			s.regret16 = make([]uint16, s.strategySize)
			s.strat16 = make([]uint16, s.strategySize)
			s.scale = make([]float32, 2*len(s.off))
		} else {
			s.regret = make([]float32, s.strategySize)
			s.strat = make([]float32, s.strategySize)
		}
		s.main = s.newWorker()
	}
	if s.pool == nil && s.workers > 1 {
		p := &pool{jobs: make(chan job), out: make([]float64, cards.NumCards*s.maxH)}
		for range s.workers {
			w := s.newWorker()
			go func() {
				for j := range p.jobs {
					s.outcome(w, j, p.out[j.i*s.maxH:(j.i+1)*s.maxH])
					p.wg.Done()
				}
			}()
		}
		s.pool = p
	}
}

// Iterate runs one iteration of Discounted CFR: a traversal for each player. With a
// Bound, the bounded player enters the tree with the gadget's reach (gadget.go).
func (s *Solver) Iterate() { s.iterate() }

// IterateContext runs one iteration as Iterate does, but stops inside it soon after
// ctx is done or its deadline has passed (at the next node the traversal enters;
// the deadline is read from the clock every clockEvery nodes, stopped says why) and reports whether the
// iteration was completed. When ctx is done or past its deadline on entry it does
// nothing. An
// interrupted iteration keeps the updates of the decision nodes it finished (every
// node whose subtree it traversed in full, each updated exactly as the whole
// iteration would have); the nodes above the point where it stopped and the
// gadget's regrets are left as they were, and Iterations does not count it (its
// number in DCFR's discounts is spent: the next iteration takes the next one).
// Every decision's average strategy stays a strategy (docs/solver.md, "Stopping
// inside an iteration").
func (s *Solver) IterateContext(ctx context.Context) bool {
	if s.watch(ctx) != nil {
		return false
	}
	defer s.unwatch()
	if !s.iterate() {
		s.cut++
		return false
	}
	return true
}

// iterate runs one iteration, stopping early when s.done is closed; it reports
// whether the iteration was completed.
func (s *Solver) iterate() bool {
	s.start()
	s.iter++
	for trav := range 2 {
		self, opp, out := s.weights[trav], s.weights[1-trav], s.rootOut(trav)
		g := s.gadget
		if g != nil && g.player == trav {
			self = g.enter(self)
		} else if g != nil {
			opp = g.enter(opp)
		}
		s.visit(s.main, 0, 1, modeCFR, trav, self, opp, out, true)
		if s.stopped() {
			return false
		}
		if g != nil && g.player == trav {
			g.update(out, s.iter)
		}
	}
	return true
}

// stopped reports whether the traversal under way was told to stop (the watched
// context is done or its deadline has passed). It is monotonic: once true, true
// until the traversal returns (halt latches the deadline), so a node that finds it
// false after visiting its children knows they all finished.
//
// The deadline is read from the clock, not only from ctx.Done(): the runtime
// closes Done from a timer, and a timer is run late when no P is free to run it
// (the traversal holds one, the garbage collector's worker the other, and on a
// loaded machine the threads wait to be scheduled): past its deadline by 15 ms
// on an idle machine, by hundreds under load, the traversal went on meanwhile.
func (s *Solver) stopped() bool {
	if s.halt.Load() {
		return true
	}
	if s.timed && !time.Now().Before(s.deadline) {
		s.halt.Store(true)
		return true
	}
	return s.cancelled()
}

// clockEvery is how many nodes a traversal's worker enters between two reads of
// the clock (polled): a read cost 1 to 2% of a re-solve's CPU at every node, and
// 16 nodes take microseconds.
const clockEvery = 16

// polled is stopped for a traversal on worker w, which reads the clock at one call
// in clockEvery (Done at every call). Once a worker has found the deadline
// passed, halt makes every later call, on any worker, report it: a traversal cut
// short anywhere is seen as cut by every node above.
func (s *Solver) polled(w *worker) bool {
	if s.halt.Load() {
		return true
	}
	if s.timed {
		if w.tick++; w.tick%clockEvery == 0 && !time.Now().Before(s.deadline) {
			s.halt.Store(true)
			return true
		}
	}
	return s.cancelled()
}

// cancelled reports whether the watched context's Done is closed.
func (s *Solver) cancelled() bool {
	if s.done == nil {
		return false
	}
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// watch makes stopped report ctx's end (until unwatch), or returns ctx's error
// (ctxErr) when it has ended already.
func (s *Solver) watch(ctx context.Context) error {
	s.halt.Store(false)
	s.done = ctx.Done()
	s.deadline, s.timed = ctx.Deadline()
	if s.stopped() {
		s.unwatch()
		return ctxErr(ctx)
	}
	return nil
}

// unwatch ends watch.
func (s *Solver) unwatch() {
	s.done, s.timed = nil, false
	s.halt.Store(false)
}

// ctxErr returns the error of ctx, which has ended (stopped said so): its own, or
// context.DeadlineExceeded when its deadline has passed before its timer has told it.
func ctxErr(ctx context.Context) error {
	if err := ended(ctx); err != nil {
		return err
	}
	return context.DeadlineExceeded
}

// ended returns ctx's error, context.DeadlineExceeded once its deadline has passed
// before its timer has told it, or nil while it runs.
func ended(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	return nil
}

// rootOut is a buffer for the root's values, outside the depth scratch.
func (s *Solver) rootOut(p int) []float64 {
	return s.main.reach[s.maxDepth][:len(s.hands[p])]
}

// visit computes node ni's values for the traverser's hands into out. par is true on
// the main goroutine: its first chance node is spread over the pool.
func (s *Solver) visit(w *worker, ni int32, depth int, m mode, trav int, self, opp, out []float64, par bool) {
	if s.polled(w) {
		return // out is left as it is: the caller stops too
	}
	n := &s.nodes[ni]
	switch n.kind {
	case foldNode:
		s.compatible(trav, opp, out, &w.cs)
		x := n.payoff
		if int(n.player) == trav {
			x = -x
		} else {
			x -= s.spot.rake(2 * n.payoff)
		}
		for h := range out {
			out[h] *= x
		}
	case showdownNode:
		s.rakedShowdown(w, n, trav, opp, out)
	case leafNode:
		s.leaf(w, n, trav, opp, out)
	case chanceNode:
		s.chance(w, n, depth, m, trav, self, opp, out, par)
	default:
		if m == modeCFR {
			s.cfrAction(w, n, depth, trav, self, opp, out, par)
		} else {
			s.evalAction(w, n, depth, m, trav, opp, out, par)
		}
	}
}

// rakedShowdown sets out to the traverser's showdown values at n: x = each player's
// chips in, rake r, a win is worth x − r, a loss −x, a tie −r/2; that is (x − r/2) times
// (wins − losses) − r/2 times every hand it can meet.
func (s *Solver) rakedShowdown(w *worker, n *node, trav int, opp, out []float64) {
	r := s.spot.rake(2 * n.payoff)
	s.showdown(w, &s.boards[n.board], trav, opp, out, n.payoff-r/2)
	if r == 0 {
		return
	}
	compat := w.sum[:len(out)]
	s.compatible(trav, opp, compat, &w.cs)
	for h, c := range compat {
		out[h] -= r / 2 * c
	}
}

// showdown sets out[h] to x times the opponent reach h beats minus the reach it loses
// to: two passes over both players' hands in strength order (beaten, beating), with
// per-card sums so that hands sharing a card with h are left out. The opponent's
// hands without reach are left out first (gather): in CFR most of a showdown's
// opponent hands have a reach of exactly 0, and adding a zero to a sum begun at +0
// changes nothing (such a sum is never −0), so the passes add the same values in the
// same order.
func (s *Solver) showdown(w *worker, b *board, trav int, opp, out []float64, x float64) {
	clear(out)
	t := b.seats[trav]
	o := gather(b.seats[1-trav], opp, w.live)
	won := w.won[:len(t)]
	beaten(t, o, won, x, &w.cs)
	beating(t, o, won, out, x, &w.cs)
}

// live is an opponent's hand at a showdown with its reach, in the order of its seat.
type live struct {
	v      float64
	rank   uint16
	c0, c1 uint8
}

// gather returns, in buf, the hands of o whose reach in opp is not zero, in order,
// without a branch at each hand: every hand is written and the count moves past
// those with reach.
func gather(o []seat, opp []float64, buf []live) []live {
	buf = buf[:len(o)] // k is at most the hand's position: every write is in o's length
	k := 0
	for _, f := range o {
		v := opp[f.h]
		buf[k] = live{v: v, rank: f.rank, c0: f.c0, c1: f.c1}
		if v != 0 {
			k++
		}
	}
	return buf[:k]
}

// beaten sets won[i] to x times the reach of the hands of o (in strength order, as
// t) weaker than t[i] that share no card with it.
//
// Hands of one strength come in runs sharing their first card (AsKs, AsKh, AsKd,
// AsKc): that card's sum is kept in a register along a run (acc, for card cur;
// written back before it is read and when the run ends), so that each addition
// does not wait for the one before it to be stored and loaded again. The sums are
// the same additions in the same order.
func beaten(t []seat, o []live, won []float64, x float64, cs *[cards.NumCards + 1]float64) {
	clear(cs[:]) // its last slot, past the cards, is cur's before the first run
	cur, acc := uint8(cards.NumCards), 0.0
	total, j := 0.0, 0
	won = won[:len(t)]
	for i, e := range t {
		for ; j < len(o) && o[j].rank < e.rank; j++ {
			f := o[j]
			v := f.v
			total += v
			if f.c0 != cur {
				cs[cur], cur, acc = acc, f.c0, cs[f.c0]
			}
			acc += v
			cs[f.c1] += v
		}
		cs[cur] = acc
		won[i] = x * (total - cs[e.c0] - cs[e.c1])
	}
}

// beating sets out[h] for each hand of t to won's value less x times the reach of
// the hands of o stronger than it that share no card with it, as beaten sums them
// from the strongest down.
func beating(t []seat, o []live, won, out []float64, x float64, cs *[cards.NumCards + 1]float64) {
	clear(cs[:])
	cur, acc := uint8(cards.NumCards), 0.0
	total, j := 0.0, len(o)-1
	won = won[:len(t)]
	for i := len(t) - 1; i >= 0; i-- {
		e := t[i]
		for ; j >= 0 && o[j].rank > e.rank; j-- {
			f := o[j]
			v := f.v
			total += v
			if f.c0 != cur {
				cs[cur], cur, acc = acc, f.c0, cs[f.c0]
			}
			acc += v
			cs[f.c1] += v
		}
		cs[cur] = acc
		out[e.h] = won[i] - x*(total-cs[e.c0]-cs[e.c1])
	}
}

// chance sums the values of every card the node can deal, each with the hands holding
// that card removed from both ranges. For any two hands and the board, the same number
// of cards can come, so each outcome weighs 1/that number. Only representatives are
// traversed; each is added, then the cards isomorphic to it through the permutation,
// in the same order whatever the number of workers.
func (s *Solver) chance(w *worker, n *node, depth int, m mode, trav int, self, opp, out []float64, par bool) {
	if s.onChance != nil {
		s.onChance()
	}
	clear(out)
	kids, perm := s.children(n), s.kidPerm[n.kids:n.kids+int32(n.nkids)]
	if par && s.pool != nil {
		p := s.pool
		for i := range kids {
			if perm[i] == 0 {
				p.wg.Add(1)
				p.jobs <- job{n: n, i: i, depth: depth, trav: trav, mode: m, self: self, opp: opp}
			}
		}
		p.wg.Wait()
		for i := range kids {
			if perm[i] == 0 {
				s.addClass(n, i, trav, out, p.out[i*s.maxH:i*s.maxH+len(out)])
			}
		}
	} else {
		vals := w.vals[depth][:len(out)]
		for i := range kids {
			if perm[i] == 0 {
				s.outcome(w, job{n: n, i: i, depth: depth, trav: trav, mode: m, self: self, opp: opp}, vals)
				s.addClass(n, i, trav, out, vals)
			}
		}
	}
	scale := s.chanceScale(s.boards[n.board].set)
	for h := range out {
		out[h] *= scale
	}
}

// addClass adds to out the values of the representative child i of chance node n and
// those of the cards isomorphic to it: vals read through each one's permutation.
func (s *Solver) addClass(n *node, i, trav int, out, vals []float64) {
	addTo(out, vals)
	perm, from := s.kidPerm[n.kids:n.kids+int32(n.nkids)], s.kidFrom[n.kids:n.kids+int32(n.nkids)]
	for k := i + 1; k < len(perm); k++ {
		if perm[k] == 0 || int(from[k]) != i {
			continue
		}
		for h, o := range s.handMap[perm[k]][trav] {
			out[h] += vals[o]
		}
	}
}

// outcome computes one chance child's values into vals, zero for hands holding the card.
func (s *Solver) outcome(w *worker, j job, vals []float64) {
	c := s.kidCard[j.n.kids+int32(j.i)]
	nt, no := len(s.hands[j.trav]), len(s.hands[1-j.trav])
	buf := w.reach[j.depth]
	opp := buf[s.maxH : s.maxH+no]
	copy(opp, j.opp)
	for _, o := range s.withCard[1-j.trav][c] {
		opp[o] = 0
	}
	var self []float64
	if j.self != nil {
		self = buf[:nt]
		copy(self, j.self)
		for _, h := range s.withCard[j.trav][c] {
			self[h] = 0
		}
	}
	vals = vals[:nt]
	s.visit(w, s.children(j.n)[j.i], j.depth+1, j.mode, j.trav, self, opp, vals, false)
	for _, h := range s.withCard[j.trav][c] {
		vals[h] = 0
	}
}

func addTo(dst, src []float64) {
	for i, v := range src {
		dst[i] += v
	}
}

// cfrAction is a decision node in a CFR traversal.
func (s *Solver) cfrAction(w *worker, n *node, depth int, trav int, self, opp, out []float64, par bool) {
	p := int(n.player)
	na, nh, nt := int(n.nkids), len(s.hands[p]), len(out)
	sigma := w.sigma[depth][:na*nh]
	var buf []float32
	if s.compress {
		buf = w.r32[depth]
	}
	regret := s.regrets(n, buf) // decoded once, kept at this depth for the update
	vals, reach, H := w.vals[depth], w.reach[depth], s.maxH
	r := self // the reach of the player acting, which its strategy splits among the children
	if p != trav {
		r = opp
	}
	lock := s.lockOf(n)
	if lock != nil {
		copy(sigma, lock)
		for a := range na {
			weigh(reach[a*H:a*H+nh], r, sigma[a*nh:(a+1)*nh])
		}
	} else {
		regretMatch(regret, na, nh, sigma, r, reach, H)
	}
	kids := s.children(n)
	if p != trav {
		// No pruning where the opponent's reach is zero: the regrets there would not
		// move, but the traverser's strategy sums must still follow its reach.
		for a := range na {
			s.visit(w, kids[a], depth+1, modeCFR, trav, self, reach[a*H:a*H+nh], vals[a*H:a*H+nt], par)
		}
		sumRows(out, vals, na, H) // a cut short child's values too: the caller stops
		return
	}
	for a := range na {
		s.visit(w, kids[a], depth+1, modeCFR, trav, reach[a*H:a*H+nh], opp, vals[a*H:a*H+nh], par)
	}
	if s.polled(w) {
		return // a child was cut short: its values are not to be learnt from
	}
	if lock != nil {
		expect(out[:nh], sigma, vals, na, H)
		return
	}
	s.update(w, n, regret, vals, sigma, self, out[:nh])
}

// evalAction is a decision node in a best-response or average-strategy traversal.
func (s *Solver) evalAction(w *worker, n *node, depth int, m mode, trav int, opp, out []float64, par bool) {
	p := int(n.player)
	na, nh, nt := int(n.nkids), len(s.hands[p]), len(out)
	sigma := w.sigma[depth][:na*nh]
	s.average(n, sigma, w.sum, w.s32)
	locked := s.lockOf(n) != nil // the traverser cannot deviate from a locked strategy
	vals, reach, H := w.vals[depth], w.reach[depth], s.maxH
	kids := s.children(n)
	if p != trav {
		clear(out)
		for a := range na {
			child := reach[a*H : a*H+nh]
			live := false
			for h, r := range opp {
				child[h] = r * sigma[a*nh+h]
				live = live || child[h] != 0
			}
			if !live {
				continue
			}
			v := vals[a*H : a*H+nt]
			s.visit(w, kids[a], depth+1, m, trav, nil, child, v, par)
			addTo(out, v)
		}
		return
	}
	for a := range na {
		s.visit(w, kids[a], depth+1, m, trav, nil, opp, vals[a*H:a*H+nh], par)
	}
	for h := range nh {
		best := 0.0
		for a := range na {
			v := vals[a*H+h]
			if m == modeEV || locked {
				best += sigma[a*nh+h] * v
			} else if a == 0 || v > best {
				best = v
			}
		}
		out[h] = best
	}
}

// value returns player p's value of the game in chips per hand pair (best response or
// average strategy), weighted by the starting ranges.
func (s *Solver) value(m mode, p int) float64 {
	s.start()
	out := s.rootOut(p)
	s.visit(s.main, 0, 1, m, p, nil, s.weights[1-p], out, true)
	v := 0.0
	for h, x := range out {
		v += s.weights[p][h] * x
	}
	return v / s.norm
}

// Exploitability returns the mean of both players' best-response gains against the
// average strategy, in percent of the starting pot. With rake the game is not
// zero-sum, so each gain is measured from the player's value when both play the
// average strategy.
func (s *Solver) Exploitability() float64 {
	gain := s.value(modeBR, OOP) + s.value(modeBR, IP)
	if s.spot.Rake > 0 {
		gain -= s.value(modeEV, OOP) + s.value(modeEV, IP)
	}
	return gain / 2 / s.spot.Pot * 100
}

// EV returns each player's expected chips won when both play the average strategy
// (each counts half the starting pot as already theirs: add Pot/2 for the share of the
// pot a player ends with).
func (s *Solver) EV() [2]float64 {
	return [2]float64{s.value(modeEV, OOP), s.value(modeEV, IP)}
}
