package equity

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/eval"
)

// Monte Carlo runs in rounds: in each round the workers take chunks of chunkSize
// showdowns in turn, as each finishes its last (a worker that the machine runs less
// does fewer, rather than holding up the round), then the coordinator adds up the counts
// and checks the stop conditions. Chunk g (counted from the start) is sampled from the
// ChaCha8 stream keyed by the seed and g, whichever worker takes it, and counts are
// whole numbers whose sum does not depend on the order: the seed and the sample limit
// fix the result, whatever the number of workers (a target standard error, a time limit
// or a cancelled context stop it at a round boundary, which depends on the number of
// workers or on the clock; the last two also stop the workers between chunks).
//
// A round ends when its last chunk does, so each round's end waits for the worker
// the machine runs least. Short rounds on a busy machine (two cores, load 8) left two
// workers slower than one; so the rounds double in size, from roundSize showdowns per
// worker up to roundSize<<maxDoublings, and a target standard error is met at most
// about twice the showdowns it needs.

// roundSize is how many showdowns per worker the first round has, a multiple of
// chunkSize.
const roundSize = 1 << 14

// maxDoublings bounds the growth of the rounds: at most roundSize<<maxDoublings
// showdowns per worker (about 0.1 s of CPU) between checks of the stop conditions.
const maxDoublings = 6

// chunkSize is how many showdowns a worker samples from one stream.
const chunkSize = 1 << 12

// maxRejects is how many deals in a row may fail (players' ranges colliding) before
// Monte Carlo gives up on the ranges.
const maxRejects = 1_000_000

// draws hands out small random numbers, several per 64-bit word of a random stream:
// Monte Carlo spends much of its time drawing cards. A number below n is the high word
// of the 128-bit product of the word and n, and the low word is kept for the next draw
// (it is as random as the bits not yet used); a word serves until the product of the n
// drawn from it would pass 2^32, so that every draw is biased by less than n/2^32
// (under 3.1e-7 for the 1,326 combos, 1.3e-8 for a card), far below any standard error
// a run reaches.
//
// Cards dealt from a deck that is the same every deal come from the same stream sixteen
// bits at a time (deal), other cards six bits at a time (cards). The words come from the
// chunk's xoroshiro128++ (uint64); the weighted ranges' floats from its ChaCha8.
type draws struct {
	src *rand.ChaCha8
	rng rand.Rand // for the rare float draw of a weighted range, from src
	// s0, s1: the state of the chunk's xoroshiro128++ generator, seeded from src
	s0, s1 uint64
	word   uint64
	span   uint64 // product of the n drawn from word so far; 0 when word is spent
	bits   uint64 // the unused six-bit groups of the word cards draws from
	left   int    // how many groups bits holds
	// the unused 16-bit groups of the word deal draws from, and how many
	bits16 uint64
	left16 int
}

func newDraws(seed [32]byte) *draws {
	d := &draws{}
	d.init(seed)
	return d
}

// init readies d for seed, on chunk 0. Its ChaCha8, rewritten at every chunk and float
// draw, gets cache lines of its own (apart).
func (d *draws) init(seed [32]byte) {
	d.src = &apart[rand.ChaCha8](1)[0]
	d.rng = *rand.New(d.src)
	d.reseed(seed, 0)
}

// reseed starts d on the stream of chunk g of seed: ChaCha8 keyed by the seed and g,
// which also seeds the chunk's xoroshiro128++.
func (d *draws) reseed(seed [32]byte, g int64) {
	for i := range 8 {
		seed[24+i] ^= byte(g >> (8 * i))
	}
	d.src.Seed(seed)
	d.s0, d.s1 = d.src.Uint64(), d.src.Uint64()|1 // never the all-zero state
	d.word, d.span, d.bits, d.left, d.bits16, d.left16 = 0, 0, 0, 0, 0, 0
}

// uint64 returns the next word of the chunk's stream, from xoroshiro128++ (Blackman and
// Vigna): ChaCha8 cost about 3 ns a word here, a third of the time of a 6-player
// showdown, where this takes a few additions and rotations. Its 2^128-1 period and
// statistical quality are far beyond what a Monte Carlo run of this size can tell, and
// each chunk has its own seed from ChaCha8.
func (d *draws) uint64() uint64 {
	s0, s1 := d.s0, d.s1
	r := bits.RotateLeft64(s0+s1, 17) + s0
	s1 ^= s0
	d.s0 = bits.RotateLeft64(s0, 49) ^ s1 ^ s1<<21
	d.s1 = bits.RotateLeft64(s1, 28)
	return r
}

// intN returns a number in [0, n) for 0 < n < 2^31.
func (d *draws) intN(n int) int {
	if d.span == 0 || d.span*uint64(n) > 1<<32 {
		d.word, d.span = d.uint64(), 1
	}
	hi, lo := bits.Mul64(d.word, uint64(n))
	d.word, d.span = lo, d.span*uint64(n)
	return int(hi)
}

// picker draws a combo from one player's range in proportion to the weights.
type picker struct {
	hands []eval.Hand
	sets  []cards.Set
	cum   []float64 // cumulative weights, nil when all weights are equal
	// deal is set when the range is every two cards of the deck but the other players'
	// fixed hands, equally weighted ("random" after card removal). Such a player's cards
	// are dealt from the deck after the other players' combos are picked, which gives
	// the same distribution as picking a combo and rejecting collisions, without the
	// rejections.
	deal bool
}

func newPicker(combos []Combo) picker {
	pk := picker{hands: make([]eval.Hand, len(combos)), sets: make([]cards.Set, len(combos))}
	uniform := true
	for i, c := range combos {
		pk.hands[i], pk.sets[i] = handOf(c), c.Set()
		uniform = uniform && c.Weight == combos[0].Weight
	}
	if !uniform {
		pk.cum = make([]float64, len(combos))
		sum := 0.0
		for i, c := range combos {
			sum += c.Weight
			pk.cum[i] = sum
		}
	}
	return pk
}

// dealsFromDeck reports whether player i's range is every pair of cards of the deck
// (all cards not on the board or dead) except cards of other players' fixed hands,
// equally weighted.
func (p *problem) dealsFromDeck(i int) bool {
	r := p.ranges[i]
	var in cards.Set
	for _, c := range r {
		if c.Weight != r[0].Weight {
			return false
		}
		in |= c.Set()
	}
	n := in.Len()
	if len(r) != n*(n-1)/2 { // the combos are distinct, so they are all pairs of in
		return false
	}
	fixed := p.known
	for j, o := range p.ranges {
		if j != i && len(o) == 1 {
			fixed |= o[0].Set()
		}
	}
	return in|fixed == cards.FullSet
}

// cards fills out with distinct cards not in used, each uniformly from the cards left:
// a draw is the next six bits of a ChaCha8 word (ten to a word), kept when it names a
// card not yet taken, so no draw is biased. It has no branch on the draw (a kept card
// advances the count by one, another by zero), which the processor could not predict.
// used must leave at least len(out) cards.
func (d *draws) cards(out []cards.Card, used cards.Set) {
	free := uint64(cards.FullSet &^ used)
	w, left := d.bits, d.left
	for k := 0; k < len(out); {
		if left == 0 {
			w, left = d.uint64(), 10
		}
		c := w & 63
		w >>= 6
		left--
		got := free & (1 << c)
		free &^= got
		out[k] = cards.Card(c)
		k += int((got | -got) >> 63)
	}
	d.bits, d.left = w, left
}

// deal makes deck[:k] a uniformly random ordered choice of k of the n cards in
// deck[:n] (n <= 52), by a partial Fisher-Yates shuffle. Each swap's index is drawn from
// 16 random bits, four to a word, by Lemire's multiply-and-reject: the high half of the
// product with m, rejected when the low half is under 2^16 mod m (at most 52 in 65,536),
// so no index is biased. Cheaper than cards when the cards to leave out are the same
// every deal: fewer draws, and no chain from one draw to the next through the cards
// taken.
func (d *draws) deal(deck *[64]cards.Card, n, k int) {
	w, left := d.bits16, d.left16
	for i := 0; i < k; {
		if left == 0 {
			w, left = d.uint64(), 4
		}
		m := uint64(n - i)
		prod := (w & 0xffff) * m
		w >>= 16
		left--
		if prod&0xffff < uint64(lemireReject[m&63]) {
			continue
		}
		j := (i + int(prod>>16)) & 63
		deck[i&63], deck[j] = deck[j], deck[i&63]
		i++
	}
	d.bits16, d.left16 = w, left
}

// lemireReject[m] is 2^16 mod m: deal rejects a 16-bit draw for an index below m when
// the low half of its product with m is under it.
var lemireReject = func() (t [64]uint16) {
	for m := 1; m < len(t); m++ {
		t[m] = uint16((1 << 16) % m)
	}
	return t
}()

func (pk *picker) pick(d *draws) int {
	if pk.cum == nil {
		return d.intN(len(pk.hands))
	}
	u := d.rng.Float64() * pk.cum[len(pk.cum)-1]
	lo, hi := 0, len(pk.cum)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if pk.cum[mid] > u {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// sampler is one Monte Carlo worker. Everything it writes per showdown is in the
// struct itself (its random stream, the holes, the deck) or in its tally, and
// newSamplers puts each sampler and tally on cache lines of their own (apart).
type sampler struct {
	p       *problem
	pickers []picker
	rng     draws
	dealt   [2*MaxPlayers + 5]cards.Card // the cards of one deal from the deck
	// deck[:ndeck] are the cards a deal may take when they are the same every deal (every
	// player holds one hand or is dealt from the deck): then deal shuffles them.
	deck  [64]cards.Card
	ndeck int
	order [64]cards.Card // the deck in card order: each chunk starts from it
	holes []eval.Hand    // holeBuf[:p.n]
	t     tally
	// holeBuf holds the holes inside the sampler, which newSamplers keeps off other
	// workers' cache lines.
	holeBuf [MaxPlayers]eval.Hand
}

// run samples q showdowns into s.t.
func (s *sampler) run(q int64) error {
	need := s.p.toDeal()
	for _, pk := range s.pickers {
		if pk.deal {
			need += 2
		}
	}
	rejects := 0
	for done := int64(0); done < q; {
		var used cards.Set
		ok := true
		for i := range s.pickers {
			pk := &s.pickers[i]
			if pk.deal {
				continue
			}
			j := pk.pick(&s.rng)
			if pk.sets[j]&used != 0 {
				ok = false
				break
			}
			used |= pk.sets[j]
			s.holes[i] = pk.hands[j]
		}
		if !ok {
			if rejects++; rejects > maxRejects {
				return fmt.Errorf("%w: the players' ranges almost never fit together (%d deals in a row shared a card)", ErrBadInput, maxRejects)
			}
			continue
		}
		rejects = 0
		// The players dealt from the deck get two cards each, then the board its k.
		dealt := s.dealt[:need]
		if s.ndeck > 0 {
			s.rng.deal(&s.deck, s.ndeck, need)
			dealt = s.deck[:need]
		} else {
			s.rng.cards(dealt, used|s.p.known)
		}
		j := 0
		for i := range s.pickers {
			if s.pickers[i].deal {
				s.holes[i] = eval.Empty.Add(dealt[j]).Add(dealt[j+1])
				j += 2
			}
		}
		b := s.p.boardHand
		for _, c := range dealt[j:] {
			b = b.Add(c)
		}
		s.t.w[winners(b, s.holes)]++
		s.t.showdowns++
		done++
	}
	return nil
}

// reseed starts s on chunk g of seed: its stream, and the deck in card order, so that
// the chunk's showdowns do not depend on the chunks the worker took before.
func (s *sampler) reseed(seed [32]byte, g int64) {
	s.rng.reseed(seed, g)
	s.deck = s.order
}

// runChunks has the samplers take, in turn, the chunks of the planned showdowns that
// follow the done ones (done is a multiple of chunkSize); each takes no more once ctx is
// done or the deadline (if not zero) has passed, after its first. It returns how many showdowns they
// sampled and the first error.
func runChunks(ctx context.Context, samplers []*sampler, errs []error, seed [32]byte, done, planned int64, deadline time.Time) (int64, error) {
	chunks := (planned + chunkSize - 1) / chunkSize
	var next, sampled atomic.Int64
	var wg sync.WaitGroup
	for i, s := range samplers[:min(int64(len(samplers)), chunks)] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := next.Add(1) - 1; c < chunks; c = next.Add(1) - 1 {
				s.reseed(seed, done/chunkSize+c)
				q := min(chunkSize, planned-c*chunkSize)
				if errs[i] = s.run(q); errs[i] != nil {
					return
				}
				sampled.Add(q)
				if ctx.Err() != nil || !deadline.IsZero() && time.Now().After(deadline) {
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return sampled.Load(), err
		}
	}
	return sampled.Load(), nil
}

// newSamplers returns workers samplers (runChunks gives each chunk its own stream).
// Each sampler, its ChaCha8 and its tally are allocated apart: allocated one after the
// other, two workers' small objects (the 80-byte draws, the 96-byte holes of six
// players) shared cache lines, and every showdown's writes bounced those lines between
// the cores: two workers took 2.3 to 4.6 times the CPU of one for the same showdowns
// and ran slower than one on an idle machine (docs/performance.md).
func (p *problem) newSamplers(seed [32]byte, workers int) []*sampler {
	pickers := make([]picker, p.n)
	for i, r := range p.ranges {
		pickers[i] = newPicker(r)
		pickers[i].deal = p.dealsFromDeck(i)
	}
	// The deck is the same every deal when no player's hand is drawn from a range of
	// more than one combo.
	fixed := p.known
	for _, pk := range pickers {
		if !pk.deal && len(pk.sets) > 1 {
			fixed = cards.FullSet
			break
		}
		if !pk.deal {
			fixed |= pk.sets[0]
		}
	}
	samplers := make([]*sampler, workers)
	for i := range samplers {
		s := &apart[sampler](1)[0]
		s.p, s.pickers, s.t = p, pickers, newWorkerTally(p.n)
		s.holes = s.holeBuf[:p.n]
		s.rng.init(seed)
		for _, c := range (cards.FullSet &^ fixed).Cards() {
			s.order[s.ndeck] = c
			s.ndeck++
		}
		samplers[i] = s
	}
	return samplers
}

func (p *problem) monteCarlo(ctx context.Context, opts Options) (tally, error) {
	start := time.Now()
	limit := opts.Samples
	if limit <= 0 && opts.TargetStdErr <= 0 && opts.TimeLimit <= 0 {
		limit = DefaultSamples
	}
	samplers := p.newSamplers(opts.Seed, opts.Workers)
	sum := func() tally {
		t := newTally(p.n)
		for _, s := range samplers {
			t.add(s.t)
		}
		return t
	}
	errs := make([]error, len(samplers))
	var deadline time.Time
	if opts.TimeLimit > 0 {
		deadline = start.Add(opts.TimeLimit)
	}
	var done int64
	for round := 0; ; round++ {
		if err := ctx.Err(); err != nil {
			return sum(), err
		}
		planned := int64(len(samplers)) * roundSize << min(round, maxDoublings)
		if limit > 0 {
			planned = min(planned, limit-done)
		}
		n, err := runChunks(ctx, samplers, errs, opts.Seed, done, planned, deadline)
		if err != nil {
			return sum(), err
		}
		done += n
		if opts.Progress != nil {
			opts.Progress(done, max(limit, 0))
		}
		switch {
		case planned == 0, limit > 0 && done >= limit:
			return sum(), nil
		case opts.TimeLimit > 0 && time.Since(start) >= opts.TimeLimit:
			return sum(), nil
		case opts.TargetStdErr > 0 && done >= 1000 && sum().maxStdErr() <= opts.TargetStdErr:
			return sum(), nil
		}
	}
}
