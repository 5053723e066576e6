package arena

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// MatchConfig describes a heads-up duplicate match.
type MatchConfig struct {
	// A and B are the bots, as bot.New names them ("montecarlo:samples=200").
	A, B string
	Game Game
	// Hands is the number of hands to play, rounded up to an even number: each
	// deal is played twice, the second time with the bots' seats swapped.
	Hands int
	// Seed fixes every card and every bot decision: deal i is dealt from a seed
	// derived from (Seed, i) and the bots' streams are reseeded from (Seed, i, hand,
	// seat) before each hand, so the result does not depend on Workers.
	Seed uint64
	// FirstDeal is the first deal of the seed's sequence the match plays: it
	// plays deals FirstDeal to FirstDeal+(Hands+1)/2−1. A deal's cards, button,
	// blind level and streams depend only on Seed and its number, so matches of
	// adjacent ranges give the same outcomes, deal by deal, as one match of
	// their union (unless a bot learns: bot.Learner): a long match is played in
	// pieces.
	FirstDeal int
	// Workers is the number of goroutines (0: GOMAXPROCS).
	Workers int
	// Progress, when not nil, is called with the number of hands just finished,
	// from several goroutines at once.
	Progress func(hands int)
	// NewBot makes the bots from A and B; nil means bot.New. Each worker makes its
	// own pair.
	NewBot func(name string, o bot.Options) (bot.Bot, error)
	// Format is how the hands are dealt (the zero Format: the arena's).
	Format Format
	// Hand, when not nil, is given every finished hand in order (deal 0 with A in
	// seat 0, then with A in seat 1, deal 1, ...) with the configuration it was
	// dealt from and the players' names by seat; h is reused afterwards. The match
	// is then played on one worker, so that the order is fixed. An error from Hand
	// stops the match.
	Hand func(cfg engine.Config, h *engine.Hand, players []string) error
	// ControlVariate also estimates A's win rate with the control variate
	// (ControlVariate, Hold'em only), reported beside the plain one.
	ControlVariate bool
	// Budget is the time each bot may take per decision (0: no deadline). It
	// reaches bots that are bot.ContextActors, which answer by then.
	Budget time.Duration
	// Timings, when not nil, hears how long each decision took, by the bot's
	// name as A or B gives it and the street (felt match --timing).
	Timings bot.DecisionObserver
}

// MinHands is the fewest hands a match may have: two duplicate deals, the least
// from which a variance can be estimated.
const MinHands = 4

// Result is the outcome of a match, from bot A's side.
type Result struct {
	A, B string
	Game string
	Seed uint64
	// The match counted deals FirstDeal to FirstDeal+Deals−1 of the seed's
	// sequence: Hands is 2×Deals.
	FirstDeal int
	Deals     int
	Hands     int
	// Partial is set when the match was stopped (its context ended) before it
	// completed its deals: it counts the deals completed from FirstDeal up to
	// the first one that was not, and Dropped is the number of deals completed
	// after that one, left out so that the match is a range of deals (the next
	// piece starts where it ends), not the deals that happened to be quick.
	Partial bool
	Dropped int
	// Chips is A's net win in chips over the whole match.
	Chips int64
	// BBPer100 is A's win rate in big blinds per 100 hands, CI95 the half-width of
	// its 95% confidence interval (normal approximation from the variance of the
	// deal pairs' results).
	BBPer100, CI95 float64
	// MBBPerGame is the same rate in thousandths of a big blind per hand.
	MBBPerGame, MBBCI95 float64
	// BBPerHand is the rate in big blinds per hand, BBSpread the standard
	// deviation of one hand's result (seed 001 reported its figures so). With
	// doubling blinds every result counts in big blinds of its own hand.
	BBPerHand, BBSpread float64
	// CV is the estimate with the control variate, when MatchConfig asked for it.
	CV *CVRate
	// Format is how the hands were dealt.
	Format  Format
	Workers int
	Elapsed time.Duration
}

// z95 is the normal quantile of a two-sided 95% interval.
const z95 = 1.959963984540054

// Z95 is the normal quantile of a two-sided 95% interval, with which every
// interval of the arena is made (tools that pool its results use it too).
const Z95 = z95

// ErrChipsNotConserved reports a hand whose results did not sum to zero: a bug in
// the engine or the arena.
var ErrChipsNotConserved = errors.New("chips not conserved")

// Prepare fills in mc's defaults (NewBot) and checks it, its bots made once,
// and returns the number of duplicate deals the match has. Match calls it; so
// do the tools that play a match's deals elsewhere (internal/arena/distrib).
func (mc *MatchConfig) Prepare() (deals int, err error) {
	if mc.Hands < MinHands {
		return 0, fmt.Errorf("a match needs at least %d hands, not %d", MinHands, mc.Hands)
	}
	if mc.NewBot == nil {
		mc.NewBot = bot.New
	}
	if err := checkDeals(mc.FirstDeal, (mc.Hands+1)/2); err != nil {
		return 0, err
	}
	if err := mc.Format.Check(mc.Game); err != nil {
		return 0, fmt.Errorf("match format: %w", err)
	}
	if mc.ControlVariate {
		if err := CheckControlVariate(mc.Game); err != nil {
			return 0, err
		}
	}
	for _, name := range []string{mc.A, mc.B} {
		if _, err := mc.NewBot(name, bot.Options{Game: mc.Game.Bot(2)}); err != nil {
			return 0, err
		}
	}
	return (mc.Hands + 1) / 2, nil
}

// Match plays a heads-up duplicate match on all cores.
//
// When ctx ends (felt match on SIGINT or SIGTERM), Match stops soon: no new
// deal starts and the deals in flight of bots that think for long are
// abandoned (Play). It then returns the partial
// result of the deals completed from the first up to the first one that was
// not (Result.Partial, Result.Dropped), together with ctx's error.
func Match(ctx context.Context, mc MatchConfig) (Result, error) {
	deals, err := mc.Prepare()
	if err != nil {
		return Result{}, err
	}
	workers := WorkerCount(mc.Workers, deals)
	if mc.Hand != nil {
		workers = 1
	}
	// Stretches short enough that every worker gets several: a slow bot's few
	// deals are shared out too.
	most := max(1, min(maxChunk, deals/(8*workers)))
	start := time.Now()
	var next atomic.Int64
	prefix := mc.NewPrefix()
	errs := Parallel(workers, func(int) error { return runWorker(ctx, &mc, deals, most, &next, prefix) })
	return mc.Gather(ctx, prefix, workers, time.Since(start), errs...)
}

// NewPrefix returns the gathering of the match's deals: each deal handed in
// (Prefix.Add, k counting from the match's first deal) is counted into the
// totals Gather reads once it joins the completed prefix.
func (mc *MatchConfig) NewPrefix() *MatchPrefix {
	p := &MatchPrefix{}
	p.p = NewPrefix(func(k int, o Outcome) { p.total.Add(mc, k, o) })
	return p
}

// MatchPrefix gathers a match's deals, completed in any order, into the
// totals of the deals from the first up to the first one not completed.
type MatchPrefix struct {
	p     *Prefix[Outcome]
	total Totals
}

// Add hands in the outcomes of the match's deals k, k+1, ... (from 0).
func (p *MatchPrefix) Add(k int, outs ...Outcome) { p.p.Add(k, outs) }

// Gather returns the result of a match whose deals were handed in to prefix,
// played on workers workers in elapsed, whose players stopped with errs. An
// error of errs other than ctx's end fails the match. Otherwise, when a deal
// was not handed in (ctx ended), the result is partial: it counts the deals
// before the first one not handed in, and it comes with ctx's error.
func (mc *MatchConfig) Gather(ctx context.Context, prefix *MatchPrefix, workers int, elapsed time.Duration, errs ...error) (Result, error) {
	if err := Failed(ctx, errs...); err != nil {
		return Result{}, err
	}
	_, dropped, err := prefix.p.Stopped(ctx, mc.FirstDeal, (mc.Hands+1)/2)
	r := mc.Result(&prefix.total, workers, elapsed)
	if err != nil {
		r.Partial, r.Dropped = true, dropped
	}
	return r, err
}

// WorkerCount returns the goroutines to share jobs between: asked, or
// runtime.GOMAXPROCS(0) when asked is 0 or less; never more than jobs, and at
// least 1.
func WorkerCount(asked, jobs int) int {
	if asked <= 0 {
		asked = runtime.GOMAXPROCS(0)
	}
	return max(1, min(asked, jobs))
}

// Parallel runs f(w) for each w from 0 to n−1, each on a goroutine of its
// own, and returns their errors (errs[w] is f(w)'s) once all have returned.
func Parallel(n int, f func(w int) error) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for w := range n {
		wg.Go(func() { errs[w] = f(w) })
	}
	wg.Wait()
	return errs
}

// Result returns the match's result from the totals of its deals, the first
// total.Deals() of the match, played on workers workers in elapsed. With
// fewer than two deals (a match stopped early) it has no rates: no interval
// can be made.
func (mc *MatchConfig) Result(total *Totals, workers int, elapsed time.Duration) Result {
	t := &total.t
	deals := total.Deals()
	r := Result{A: mc.A, B: mc.B, Game: mc.Game.Name, Seed: mc.Seed, FirstDeal: mc.FirstDeal, Deals: deals, Hands: 2 * deals,
		Chips: t.chips(), Format: mc.Format, Workers: workers, Elapsed: elapsed}
	if deals < 2 {
		return r
	}
	r.BBPer100, r.CI95 = t.rate(mc.Game.Unit, 100)
	r.MBBPerGame, r.MBBCI95 = t.rate(mc.Game.Unit, 1000)
	r.BBPerHand, r.BBSpread = t.spread(mc.Game.Unit)
	if mc.ControlVariate {
		r.CV = t.cvRate(mc.Game.Unit, r.CI95)
	}
	return r
}

// Outcome is what one deal of a match gave, from A's side: all a Result is
// made of (Totals), so that deals played apart add up to the same match.
type Outcome struct {
	// Net is A's net chips in the deal's two hands: A in seat 0, then in seat 1.
	Net [2]int64 `json:"net"`
	// CV is the deal pair's estimate with the control variate, in 1/16 chip
	// (0 when the match has none).
	CV int64 `json:"cv,omitempty"`
}

// Totals adds up the outcomes of a match's deals. Its sums are integers (chips,
// and 1/16 chips for the control variate), so the total does not depend on the
// order deals are added in; the zero Totals is empty.
type Totals struct{ t tally }

// Add counts outcome o of mc's k-th deal (deal mc.FirstDeal+k of the seed's
// sequence).
func (s *Totals) Add(mc *MatchConfig, k int, o Outcome) {
	l := mc.Format.level(mc.Game, mc.FirstDeal+k)
	x := o.Net[0] + o.Net[1]
	s.t.pairs[l].add(sums{1, x, x * x})
	if mc.ControlVariate {
		s.t.cv[l].add(sums{1, o.CV, o.CV * o.CV})
	}
	for _, y := range o.Net {
		s.t.hands[l].add(sums{1, y, y * y})
	}
}

// Deals is the number of deals counted.
func (s *Totals) Deals() int {
	n := 0
	for l := range s.t.pairs {
		n += int(s.t.pairs[l].n)
	}
	return n
}

// DealPlayer plays the deals of one match, one at a time: a worker's bots,
// hand and streams. It is not safe for concurrent use.
type DealPlayer struct{ w worker }

// NewDealPlayer makes the bots of mc, which Prepare has checked.
func NewDealPlayer(mc *MatchConfig) (*DealPlayer, error) {
	p := &DealPlayer{w: worker{mc: mc, h: new(engine.Hand)}}
	if mc.ControlVariate {
		p.w.cv = new(ControlVariate)
	}
	for k, name := range []string{mc.A, mc.B} {
		p.w.srcs[k] = rand.NewPCG(0, 0)
		b, err := mc.NewBot(name, bot.Options{Rand: rand.New(p.w.srcs[k]), Game: mc.Game.Bot(2)})
		if err != nil {
			return nil, err
		}
		p.w.bots[k] = b
		p.w.learners[k], _ = b.(bot.Learner)
		p.w.seaters[k], _ = b.(bot.Seater)
		_, p.w.stoppable[k] = b.(bot.ContextActor)
	}
	return p, nil
}

// Play plays the match's k-th deal (deal FirstDeal+k of the seed's sequence)
// twice, A in seat 0 and then in seat 1. The outcome depends only on the
// match's seed and the deal's number, not on the deals played before (unless a
// bot learns: bot.Learner). The bots' decisions get ctx: when it ends during
// the deal and a bot is a bot.ContextActor (told to hurry), Play abandons the
// deal and returns ctx's error, so that a deal played in part, or by a bot cut
// short, is never an outcome; the other bots' deals are quick and whole.
func (p *DealPlayer) Play(ctx context.Context, k int) (Outcome, error) {
	d := p.w.mc.FirstDeal + k
	// Only a bot.ContextActor is cut short when ctx ends: a deal of other
	// bots is whole, and its outcome counts however late it ends.
	var done <-chan struct{} // polled, not ctx.Err(), whose lock the workers would share
	if p.w.stoppable[0] || p.w.stoppable[1] {
		done = ctx.Done()
	}
	hands, corr, err := p.w.deal(ctx, done, d, p.w.mc.Format.level(p.w.mc.Game, d))
	if done != nil && stopped(done) {
		return Outcome{}, ctx.Err()
	}
	if err != nil {
		return Outcome{}, err
	}
	o := Outcome{Net: hands}
	if p.w.cv != nil {
		o.CV = cvFixed(hands[0]+hands[1], corr)
	}
	return o, nil
}

// maxChunk is the most deals a worker takes at a time (runWorker).
const maxChunk = 16

// sums accumulates the deal pairs' results (A's net chips over both hands of a
// deal). Integer sums make the total independent of the order deals finish in.
type sums struct {
	n, sum, sumSq int64
}

func (s *sums) add(o sums) { s.n += o.n; s.sum += o.sum; s.sumSq += o.sumSq }

// rate returns A's mean result per hand, in units/scale (bb/100: scale 100), and
// the half-width of its 95% confidence interval.
func (s sums) rate(unit int64, scale float64) (mean, ci float64) {
	u := float64(unit)
	return pairRate(float64(s.n), float64(s.sum)/u, float64(s.sumSq)/(u*u))(scale)
}

// pairRate returns, from the count, sum and sum of squares of deal pairs'
// results in units, the function giving the mean per hand times scale and the
// half-width of its 95% interval.
func pairRate(n, sum, sumSq float64) func(scale float64) (mean, ci float64) {
	return func(scale float64) (float64, float64) {
		perDeal := sum / n
		variance := (sumSq - sum*perDeal) / (n - 1)
		f := scale / 2 // a deal is two hands
		return perDeal * f, z95 * math.Sqrt(max(variance, 0)/n) * f
	}
}

// worker plays deals with its own hand, bots and streams.
type worker struct {
	mc       *MatchConfig
	h        *engine.Hand
	cfg      engine.Config
	bots     [2]bot.Bot // A, B
	srcs     [2]*rand.PCG
	learners [2]bot.Learner
	seaters  [2]bot.Seater
	// stoppable: the bot is a bot.ContextActor, which a match's end cuts short.
	stoppable [2]bool
	names     [2]string   // the players' names by seat, for the Seaters
	view      engine.View // reused for every decision (engine.Hand.ViewInto)
	level     int         // the blind level cfg is for
	cv        *ControlVariate
}

// runWorker plays the match's deals a stretch at a time, taken from next,
// until none is left or ctx ends, handing each stretch's outcomes to prefix (a
// stretch stopped part-way, those of its deals completed) and its hands to
// mc.Progress. A stretch is one deal at first, twice as many after one that
// took less than quickStretch, up to most: a fast match does not contend on
// next, prefix or the progress bar, and a slow one (resolve: seconds a deal)
// is shared out, and its progress shown, deal by deal.
func runWorker(ctx context.Context, mc *MatchConfig, deals, most int, next *atomic.Int64, prefix *MatchPrefix) error {
	p, err := NewDealPlayer(mc)
	if err != nil {
		return err
	}
	outs := make([]Outcome, 0, most)
	done := ctx.Done() // polled, not ctx.Err(), whose lock the workers would share
	for size := 1; ; {
		lo := int(next.Add(int64(size))) - size
		if lo >= deals {
			return nil
		}
		start := time.Now()
		outs = outs[:0]
		var err error
		for k := lo; k < min(lo+size, deals) && err == nil; k++ {
			if done != nil && stopped(done) {
				err = ctx.Err() // no deal starts once ctx has ended
				break
			}
			var o Outcome
			if o, err = p.Play(ctx, k); err == nil {
				outs = append(outs, o)
			}
		}
		prefix.Add(lo, outs...)
		if mc.Progress != nil && len(outs) > 0 {
			mc.Progress(2 * len(outs))
		}
		if err != nil {
			return err
		}
		if time.Since(start) < quickStretch {
			size = min(2*size, most)
		}
	}
}

// quickStretch is how quick a worker's stretch of deals must be for it to take
// twice as many next time.
const quickStretch = 10 * time.Millisecond

// deal plays deal d at blind level l twice, bot A in seat 0 and then in seat 1,
// and returns A's net chips in each hand and the sum of the control variate's
// corrections (0 without it); ctx and done as for hand.
func (w *worker) deal(ctx context.Context, done <-chan struct{}, d, l int) ([2]int64, float64, error) {
	var net [2]int64
	var corr float64
	seed := mix(w.mc.Seed, uint64(d))
	if w.cfg.Stacks == nil || l != w.level {
		w.cfg, w.level = w.mc.Format.config(w.mc.Game, l), l
	}
	w.cfg.Seed = cards.SeedFromUint64(seed)
	w.cfg.Button = d % 2
	for swap := range 2 {
		seats := [2]int{0, 1} // seats[k]: bot k's seat
		if swap == 1 {
			seats = [2]int{1, 0}
		}
		for k := range 2 {
			w.srcs[k].Seed(mix(seed, uint64(2*swap+k)), uint64(d))
		}
		x, err := w.hand(ctx, done, seats)
		if err != nil {
			return net, 0, fmt.Errorf("deal %d (seed %d), %s in seat %d: %w", d, w.mc.Seed, w.mc.A, seats[0], err)
		}
		net[swap] = x
		if w.cv != nil {
			corr += w.cv.Correction()
		}
	}
	return net, corr, nil
}

// hand plays one hand with bot k in seat seats[k] and returns A's net chips.
// Its bots decide within ctx; when done (ctx's, or nil: never) is closed
// after the decision of a bot that ctx cut short, the hand stops with ctx's
// error.
func (w *worker) hand(ctx context.Context, done <-chan struct{}, seats [2]int) (int64, error) {
	h := w.h
	if err := h.Reset(w.cfg); err != nil {
		return 0, err
	}
	var bySeat [2]bot.Bot
	var stoppable [2]bool
	bySeat[seats[0]], bySeat[seats[1]] = w.bots[0], w.bots[1]
	stoppable[seats[0]], stoppable[seats[1]] = w.stoppable[0], w.stoppable[1]
	w.names[seats[0]], w.names[seats[1]] = w.mc.A, w.mc.B
	for _, s := range w.seaters {
		if s != nil {
			s.SeatNames(w.names[:])
		}
	}
	if w.cv != nil {
		if err := w.cv.Begin(h, seats[0]); err != nil {
			return 0, err
		}
	}
	for h.ToAct() != engine.NoSeat {
		seat := h.ToAct()
		h.ViewInto(seat, &w.view)
		a := w.decide(ctx, bySeat[seat], seat)
		if done != nil && stoppable[seat] && stopped(done) {
			return 0, ctx.Err() // before the control variate asks the bot's Strategy, which would not stop
		}
		if w.cv != nil {
			w.cv.Decision(w.view.Legal, a, bySeat[seat], &w.view)
		}
		if err := h.Apply(a); err != nil {
			return 0, fmt.Errorf("bot in seat %d played %v: %w", seat, a, err)
		}
		if w.cv != nil {
			if err := w.cv.Dealt(h); err != nil {
				return 0, err
			}
		}
	}
	a, b := h.Net(seats[0]), h.Net(seats[1])
	if a+b != 0 {
		return 0, fmt.Errorf("%w: A %+d, B %+d", ErrChipsNotConserved, a, b)
	}
	if w.mc.Hand != nil {
		if err := w.mc.Hand(w.cfg, h, w.names[:]); err != nil {
			return 0, err
		}
	}
	if w.learners[0] != nil || w.learners[1] != nil {
		res := h.Result()
		for k, l := range w.learners {
			if l != nil {
				h.ViewInto(seats[k], &w.view)
				l.HandEnd(&w.view, &res)
			}
		}
	}
	return a, nil
}

// decide asks b, in seat, for its action at w.view within the match's budget
// (and before ctx ends), timing it when the match asks for timings.
func (w *worker) decide(ctx context.Context, b bot.Bot, seat int) engine.Action {
	ctx, cancel := bot.WithBudget(ctx, w.mc.Budget)
	defer cancel()
	if w.mc.Timings == nil {
		return bot.Decide(ctx, b, &w.view)
	}
	start := time.Now()
	a := bot.Decide(ctx, b, &w.view)
	w.mc.Timings.ObserveDecision(w.names[seat], w.view.Street, time.Since(start))
	return a
}

// stopped reports whether done is closed.
func stopped(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// mix derives a well-spread 64-bit seed from two numbers: SplitMix64's finaliser
// applied to the first, the second added, and the finaliser again.
func mix(a, b uint64) uint64 { return splitmix(splitmix(a) + b) }

func splitmix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
