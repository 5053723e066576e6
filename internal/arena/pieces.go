package arena

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
)

// A measurement that takes days (a slow bot over 20,000 hands) is made in
// pieces: runs of ranges of one seed's deals (felt match --deals and felt lbr
// --deals), in several processes or sessions, each stopped run counting the
// deals it completed from its first up to the first one it did not (Prefix),
// and each run recorded as a line of a record file whose lines pool into one
// figure (PoolPieces).

// MaxDeal bounds the deals a run may play (its first deal plus its deals): far
// beyond any run, and it keeps every deal's number and hands in range.
const MaxDeal = 1 << 40

// FormatDeals writes deals from to to−1 as ParseDeals reads them.
func FormatDeals(from, to int) string { return strconv.Itoa(from) + ":" + strconv.Itoa(to) }

// ParseDeals reads "FROM:TO", the deals FROM to TO−1 of a seed's sequence
// (--deals): 0 ≤ FROM < TO ≤ MaxDeal.
func ParseDeals(text string) (from, to int, err error) {
	a, b, ok := strings.Cut(text, ":")
	if !ok {
		return 0, 0, fmt.Errorf("deals %q: want FROM:TO, the deals FROM to TO−1 (0:100 are the first 100)", text)
	}
	from, err1 := strconv.Atoi(a)
	to, err2 := strconv.Atoi(b)
	switch {
	case err1 != nil || err2 != nil:
		return 0, 0, fmt.Errorf("deals %q: FROM and TO are whole numbers", text)
	case from < 0 || to > MaxDeal:
		return 0, 0, fmt.Errorf("deals %q: want deals from 0 to %d", text, MaxDeal)
	case to <= from:
		return 0, 0, fmt.Errorf("deals %q: TO must be above FROM", text)
	}
	return from, to, nil
}

// checkDeals reports a run of deals deals from first that leaves 0..MaxDeal.
func checkDeals(first, deals int) error {
	if first < 0 || first > MaxDeal-deals {
		return fmt.Errorf("deals %d to %d: want deals from 0 to %d", first, first+deals, MaxDeal)
	}
	return nil
}

// Prefix gathers the outcomes of a run's deals, completed in any order and
// handed in as stretches of consecutive deals, and counts the contiguous
// prefix of them: the deals from the run's first up to the first one not yet
// handed in. A stopped run counts that prefix (the next piece starts where it
// ends); the deals completed beyond it are Dropped. Its memory is the
// stretches handed in beyond the prefix, bounded by the deals in flight. It is
// safe for concurrent use.
type Prefix[O any] struct {
	mu      sync.Mutex
	next    int         // deals 0..next−1 of the run are counted
	pending map[int][]O // stretches beyond the prefix, by their first deal
	free    [][]O       // the pending stretches' buffers, counted: reused
	count   func(k int, o O)
}

// NewPrefix returns an empty Prefix that counts the run's k-th deal (from 0)
// with count, in the order of k, under its lock.
func NewPrefix[O any](count func(k int, o O)) *Prefix[O] {
	return &Prefix[O]{pending: map[int][]O{}, count: count}
}

// Add hands in the outcomes of the run's deals k, k+1, ..., k+len(outs)−1;
// stretches handed in must not overlap. Add keeps no reference to outs.
func (p *Prefix[O]) Add(k int, outs []O) {
	if len(outs) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if k != p.next {
		var buf []O
		if n := len(p.free); n > 0 {
			buf, p.free = p.free[n-1], p.free[:n-1]
		}
		p.pending[k] = append(buf, outs...)
		return
	}
	for {
		for _, o := range outs {
			p.count(p.next, o)
			p.next++
		}
		next, ok := p.pending[p.next]
		if !ok {
			return
		}
		delete(p.pending, p.next)
		p.free = append(p.free, next[:0]) // read below, before anything is added to it
		outs = next
	}
}

// Counted returns the deals counted (the prefix) and the deals handed in
// beyond it (dropped from a stopped run).
func (p *Prefix[O]) Counted() (deals, dropped int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, outs := range p.pending {
		dropped += len(outs)
	}
	return p.next, dropped
}

// Stopped ends a run of want deals from deal first whose deals were handed
// in to p: it returns the deals counted, those handed in beyond them
// (dropped), and, when fewer than want were counted, the error a partial
// result comes with: ctx's, or one naming the first deal not played.
func (p *Prefix[O]) Stopped(ctx context.Context, first, want int) (deals, dropped int, err error) {
	deals, dropped = p.Counted()
	if deals == want {
		return deals, dropped, nil
	}
	if err = ctx.Err(); err == nil {
		err = fmt.Errorf("deal %d was not played", first+deals)
	}
	return deals, dropped, err
}

// Failed returns the errors of errs, a run's workers', other than ctx's end,
// joined: what fails the run (nil when none failed, or ctx's end alone
// stopped them).
func Failed(ctx context.Context, errs ...error) error {
	var real []error
	for _, err := range errs {
		if err != nil && (ctx.Err() == nil || !errors.Is(err, ctx.Err())) {
			real = append(real, err)
		}
	}
	return errors.Join(real...)
}

// DealSD returns the standard deviation of one deal's result from the 95%
// half-width ci of the mean of deals deals (in the same unit): what a record
// line keeps so that pooling can weigh it.
func DealSD(ci float64, deals int) float64 { return ci * math.Sqrt(float64(deals)) / z95 }
