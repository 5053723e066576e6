package loadtest

import (
	"sync/atomic"
	"time"
)

// bucket is the histogram's resolution.
const bucket = 100 * time.Microsecond

// Histogram counts delays in 100-µs buckets up to 10 s; safe for concurrent use.
type Histogram struct {
	buckets [100_000]atomic.Int64
	n       atomic.Int64
	max     atomic.Int64
}

// Add counts one delay.
func (l *Histogram) Add(d time.Duration) {
	i := min(int(d/bucket), len(l.buckets)-1)
	l.buckets[i].Add(1)
	l.n.Add(1)
	for m := l.max.Load(); int64(d) > m && !l.max.CompareAndSwap(m, int64(d)); m = l.max.Load() {
	}
}

// Count is the number of delays counted.
func (l *Histogram) Count() int64 { return l.n.Load() }

// Max is the longest delay counted.
func (l *Histogram) Max() time.Duration { return time.Duration(l.max.Load()) }

// Quantile is the upper bound of the bucket holding the q-quantile (0 with no delay).
func (l *Histogram) Quantile(q float64) time.Duration {
	n := l.n.Load()
	if n == 0 {
		return 0
	}
	want, seen := int64(q*float64(n)), int64(0)
	for i := range l.buckets {
		if seen += l.buckets[i].Load(); seen > want {
			return time.Duration(i+1) * bucket
		}
	}
	return l.Max()
}

// Reset forgets every delay.
func (l *Histogram) Reset() {
	for i := range l.buckets {
		l.buckets[i].Store(0)
	}
	l.n.Store(0)
	l.max.Store(0)
}
