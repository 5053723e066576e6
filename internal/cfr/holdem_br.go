package cfr

import (
	"math"
	"math/rand/v2"
	"sync"

	"github.com/felt-poker/felt/internal/cards"
)

// BREstimate is a sampled estimate of how much a Hold'em strategy loses to a best
// response inside its card abstraction, in milli big blinds per game (mbb/g; a
// big blind is 2 chips).
//
// It is a lower bound, not the exact in-abstraction exploitability: that needs
// every deal of cards (no tree of buckets exists with imperfect recall), far too
// many to walk. Instead, for each player, a responder who sees only what the
// strategy sees (the betting and his bucket in the current round) picks the action
// of each (node, bucket) that wins most against the strategy over Deals sampled
// deals (by one backward pass over the betting tree, with a vector of all deals at
// each node, ignoring his own earlier choices' effect on which deals reach a node),
// and that responder is then played against the strategy on Deals fresh deals.
// What he wins there is an unbiased estimate of what one particular responder
// wins, so at most the best responder's: a lower bound, up to sampling noise (CI95).
type BREstimate struct {
	MBB, CI95 float64    // the mean of the two players' responders' winnings, and its 95% half-width
	Player    [2]float64 // what the responder to each player's strategy wins, mbb/g
	Deals     int
}

// brDeal is one sampled deal: both players' buckets and the showdown result.
type brDeal struct {
	b   [2][4]uint8
	win int8
}

// sampleDeals draws n deals from a PCG stream seeded by seed, on workers goroutines.
func sampleDeals(bk Bucketer, n int, seed uint64, workers int) []brDeal {
	out := make([]brDeal, n)
	const chunk = 4096
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			var deck [cards.NumCards]cards.Card
			for start := range next {
				r := rand.New(rand.NewPCG(seed, uint64(start)))
				for c := range deck {
					deck[c] = cards.Card(c)
				}
				for i := start; i < min(start+chunk, n); i++ {
					for k := range 9 {
						j := k + r.IntN(cards.NumCards-k)
						deck[k], deck[j] = deck[j], deck[k]
					}
					holes := [2][2]cards.Card{{deck[0], deck[1]}, {deck[2], deck[3]}}
					board := [5]cards.Card(deck[4:9])
					out[i] = brDeal{b: bk.DealBuckets(&holes, &board), win: int8(showdown(&holes, &board))}
				}
			}
		})
	}
	for start := 0; start < n; start += chunk {
		next <- start
	}
	close(next)
	wg.Wait()
	return out
}

// EstimateBestResponse estimates p's exploitability inside the abstraction bk
// (whose bucket counts must be p's) from deals sampled deals for fitting and as
// many for measuring, per player; see BREstimate. It runs on workers goroutines
// (at least 1) and is deterministic for a seed.
func (p *HoldemProfile) EstimateBestResponse(bk Bucketer, deals int, seed uint64, workers int) BREstimate {
	workers = max(workers, 1)
	fit := sampleDeals(bk, deals, seed, workers)
	var est BREstimate
	est.Deals = deals
	var ci [2]float64
	var wg sync.WaitGroup
	var evals [2][]brDeal
	for q := range 2 {
		evals[q] = sampleDeals(bk, deals, seed+uint64(q)+1, workers)
	}
	for q := range 2 {
		wg.Go(func() {
			r := &brRun{p: p, q: q, choice: make([]int8, p.g.infosets), agg: make([]float64, 3*256), pa: make([]float32, 256)}
			r.setDeals(fit)
			ones := r.get()
			for i := range ones {
				ones[i] = 1
			}
			r.put(r.value(0, ones))
			r.fixed = true
			r.setDeals(evals[q])
			for i := range ones {
				ones[i] = 1
			}
			v := r.value(0, ones)
			mean, sq := 0.0, 0.0
			for _, x := range v {
				mean += float64(x)
			}
			mean /= float64(len(v))
			for _, x := range v {
				sq += (float64(x) - mean) * (float64(x) - mean)
			}
			sd := math.Sqrt(sq / float64(len(v)-1))
			est.Player[q] = mean * 500
			ci[q] = 1.96 * sd / math.Sqrt(float64(len(v))) * 500
		})
	}
	wg.Wait()
	est.MBB = (est.Player[0] + est.Player[1]) / 2
	est.CI95 = math.Sqrt(ci[0]*ci[0]+ci[1]*ci[1]) / 2
	return est
}

// brRun is one responder's backward pass over the betting tree, a vector of the
// deals at each node.
type brRun struct {
	p      *HoldemProfile
	q      int // the responder
	deals  []brDeal
	fixed  bool      // play choice instead of choosing
	choice []int8    // by information set: the responder's action
	agg    []float64 // scratch: bucket × action sums
	pa     []float32 // scratch: an action's probability by bucket
	pool   [][]float32
	// bk[p][r][d] is player p's bucket in round r of deal d; win[d] its showdown
	// result for player 0 plus 1.
	bk  [2][4][]uint8
	win []uint8
}

// setDeals makes deals the run's sample.
func (r *brRun) setDeals(deals []brDeal) {
	r.deals = deals
	r.win = make([]uint8, len(deals))
	for d := range deals {
		r.win[d] = uint8(deals[d].win + 1)
	}
	for p := range 2 {
		for rd := range 4 {
			b := make([]uint8, len(deals))
			for d := range deals {
				b[d] = deals[d].b[p][rd]
			}
			r.bk[p][rd] = b
		}
	}
}

func (r *brRun) get() []float32 {
	if n := len(r.pool); n > 0 {
		v := r.pool[n-1]
		r.pool = r.pool[:n-1]
		return v[:len(r.deals)]
	}
	return make([]float32, len(r.deals))
}

func (r *brRun) put(v []float32) { r.pool = append(r.pool, v) }

// value returns, for each deal, the responder's winnings from node n weighted by
// the strategy's probability reach[d] of playing to n.
func (r *brRun) value(n int32, reach []float32) []float32 {
	g := r.p.g
	nd := &g.nodes[n]
	out := r.get()
	if nd.player < 0 {
		u := [3]float32{float32(nd.utility(r.q, -1)), float32(nd.utility(r.q, 0)), float32(nd.utility(r.q, 1))}
		for d, w := range r.win {
			out[d] = reach[d] * u[w]
		}
		return out
	}
	na := len(nd.acts)
	if int(nd.player) != r.q {
		clear(out)
		cr := r.get()
		bk := r.bk[nd.player][nd.round]
		nb := g.buckets[nd.round]
		for a, k := range nd.kids {
			live := false
			for b := range nb {
				x := float32(r.p.prob[int(nd.slot)+b*na+a])
				r.pa[b] = x
				live = live || x > 0
			}
			if !live {
				continue
			}
			pa := r.pa[:nb]
			for d, b := range bk {
				cr[d] = reach[d] * pa[b]
			}
			v := r.value(k, cr)
			for d, x := range v {
				out[d] += x
			}
			r.put(v)
		}
		r.put(cr)
		return out
	}
	var vs [maxHoldemActions][]float32
	for a, k := range nd.kids {
		vs[a] = r.value(k, reach)
	}
	nb := g.buckets[nd.round]
	if !r.fixed {
		agg := r.agg[:nb*na]
		clear(agg)
		for d, b := range r.bk[r.q][nd.round] {
			for a := range na {
				agg[int(b)*na+a] += float64(vs[a][d])
			}
		}
		for b := range nb {
			best := 0
			for a := 1; a < na; a++ {
				if agg[b*na+a] > agg[b*na+best] {
					best = a
				}
			}
			r.choice[int(nd.info)+b] = int8(best)
		}
	}
	choice := r.choice[int(nd.info):]
	for d, b := range r.bk[r.q][nd.round] {
		out[d] = vs[choice[b]][d]
	}
	for a := range na {
		r.put(vs[a])
	}
	return out
}
