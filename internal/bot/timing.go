package bot

import (
	"cmp"
	"slices"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/engine"
)

// DecisionObserver hears how long each bot decision took: the wall time from the
// question to the answer, by the bot's name (without options) and the street the
// decision was on. Whoever asks bots to act (a table, the arena) calls it from the
// goroutine the bot thought on, so it must be safe for concurrent use and quick.
type DecisionObserver interface {
	ObserveDecision(bot string, street engine.Street, d time.Duration)
}

// Timings is a DecisionObserver that keeps every decision time, to report their
// percentiles by bot and street (felt match --timing). It is safe for concurrent use;
// the zero Timings is empty and ready.
type Timings struct {
	mu sync.Mutex
	d  map[timingKey][]time.Duration
}

var _ DecisionObserver = (*Timings)(nil)

type timingKey struct {
	bot    string
	street engine.Street
}

// ObserveDecision records one decision's time.
func (t *Timings) ObserveDecision(bot string, street engine.Street, d time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.d == nil {
		t.d = map[timingKey][]time.Duration{}
	}
	k := timingKey{bot, street}
	t.d[k] = append(t.d[k], d)
}

// TimingRow is the decision times of one bot on one street.
type TimingRow struct {
	Bot    string
	Street engine.Street
	// N is the number of decisions; P50, P90 and P99 the percentiles of their
	// times (the nearest-rank method: the smallest time at least that share of
	// the decisions took no longer than), Max the longest.
	N                  int
	P50, P90, P99, Max time.Duration
}

// Rows returns the percentiles of every bot and street seen, by bot name and
// then street (preflop first).
func (t *Timings) Rows() []TimingRow {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]TimingRow, 0, len(t.d))
	for k, ds := range t.d {
		s := slices.Clone(ds)
		slices.Sort(s)
		out = append(out, TimingRow{Bot: k.bot, Street: k.street, N: len(s),
			P50: percentile(s, 50), P90: percentile(s, 90), P99: percentile(s, 99), Max: s[len(s)-1]})
	}
	slices.SortFunc(out, func(a, b TimingRow) int {
		return cmp.Or(cmp.Compare(a.Bot, b.Bot), cmp.Compare(a.Street, b.Street))
	})
	return out
}

// percentile returns the p-th percentile of the sorted, non-empty s by the
// nearest-rank method.
func percentile(s []time.Duration, p int) time.Duration {
	rank := (p*len(s) + 99) / 100 // ceil(p/100 × n), at least 1 for p > 0
	return s[max(rank, 1)-1]
}
