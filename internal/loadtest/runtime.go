package loadtest

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"runtime/metrics"
	"time"
)

// The Go runtime's figures a run records of the house (runtime/metrics).
const (
	mGCPauses   = "/sched/pauses/total/gc:seconds"
	mSchedLat   = "/sched/latencies:seconds"
	mGCCycles   = "/gc/cycles/total:gc-cycles"
	mGCCPU      = "/cpu/classes/gc/total:cpu-seconds"
	mTotalCPU   = "/cpu/classes/total:cpu-seconds"
	mMutexWait  = "/sync/mutex/wait/total:seconds"
	mAllocBytes = "/gc/heap/allocs:bytes"
	mGoroutines = "/sched/goroutines:goroutines"
)

var runtimeNames = []string{mGCPauses, mSchedLat, mGCCycles, mGCCPU, mTotalCPU, mMutexWait, mAllocBytes, mGoroutines}

// runtimeSnap is one reading of those figures: a number or a histogram each.
type runtimeSnap struct {
	Values map[string]float64   `json:"values"`
	Hists  map[string]histogram `json:"hists"`
}

// histogram is a runtime/metrics histogram with its infinite bounds made
// finite (±MaxFloat64), so that it goes in JSON.
type histogram struct {
	Counts  []uint64  `json:"counts"`
	Buckets []float64 `json:"buckets"`
}

// RuntimeHandler serves this process's runtime figures, for a load run's
// Config.Runtime (the house of internal/web's TestLoad).
func RuntimeHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(readLocal())
	})
}

func readLocal() runtimeSnap {
	samples := make([]metrics.Sample, len(runtimeNames))
	for i, n := range runtimeNames {
		samples[i].Name = n
	}
	metrics.Read(samples)
	s := runtimeSnap{Values: map[string]float64{}, Hists: map[string]histogram{}}
	for _, m := range samples {
		switch m.Value.Kind() {
		case metrics.KindUint64:
			s.Values[m.Name] = float64(m.Value.Uint64())
		case metrics.KindFloat64:
			s.Values[m.Name] = m.Value.Float64()
		case metrics.KindFloat64Histogram:
			h := m.Value.Float64Histogram()
			b := make([]float64, len(h.Buckets))
			for i, v := range h.Buckets {
				b[i] = max(-math.MaxFloat64, min(math.MaxFloat64, v))
			}
			s.Hists[m.Name] = histogram{Counts: append([]uint64(nil), h.Counts...), Buckets: b}
		}
	}
	return s
}

// readRuntime reads the figures at url; nil without a url.
func readRuntime(url string) (*runtimeSnap, error) {
	if url == "" {
		return nil, nil
	}
	b, err := get(url)
	if err != nil {
		return nil, err
	}
	var s runtimeSnap
	return &s, json.Unmarshal(b, &s)
}

// RuntimeDelta is what the house's runtime did over a measurement.
type RuntimeDelta struct {
	GCCycles, GCCPUShare, MutexWait, AllocBytes, Goroutines float64
	// GC pauses (stop-the-world) and scheduling latencies (runnable to
	// running), as quantiles (upper bounds of the runtime's buckets).
	PauseP50, PauseP99, PauseMax, SchedP50, SchedP99, SchedP999, SchedMax time.Duration
	Pauses, Schedules                                                     uint64
}

// since is r minus an earlier reading; nil if either is.
func (r *runtimeSnap) since(old *runtimeSnap) *RuntimeDelta {
	if r == nil || old == nil {
		return nil
	}
	dv := func(n string) float64 { return r.Values[n] - old.Values[n] }
	d := &RuntimeDelta{GCCycles: dv(mGCCycles), MutexWait: dv(mMutexWait), AllocBytes: dv(mAllocBytes), Goroutines: r.Values[mGoroutines]}
	if cpu := dv(mTotalCPU); cpu > 0 {
		d.GCCPUShare = dv(mGCCPU) / cpu
	}
	p := diff(r.Hists[mGCPauses], old.Hists[mGCPauses])
	s := diff(r.Hists[mSchedLat], old.Hists[mSchedLat])
	d.Pauses, d.PauseP50, d.PauseP99, d.PauseMax = p.total(), p.quantile(0.5), p.quantile(0.99), p.quantile(1)
	d.Schedules, d.SchedP50, d.SchedP99, d.SchedP999, d.SchedMax = s.total(), s.quantile(0.5), s.quantile(0.99), s.quantile(0.999), s.quantile(1)
	return d
}

func diff(a, b histogram) histogram {
	out := histogram{Buckets: a.Buckets, Counts: make([]uint64, len(a.Counts))}
	for i := range a.Counts {
		out.Counts[i] = a.Counts[i]
		if i < len(b.Counts) {
			out.Counts[i] -= b.Counts[i]
		}
	}
	return out
}

func (h histogram) total() (n uint64) {
	for _, c := range h.Counts {
		n += c
	}
	return n
}

// quantile is the upper bound of the bucket holding the q-quantile; q = 1
// gives the highest bucket with a count.
func (h histogram) quantile(q float64) time.Duration {
	n := h.total()
	if n == 0 {
		return 0
	}
	want, seen := uint64(q*float64(n)), uint64(0)
	for i, c := range h.Counts {
		seen += c
		if seen > want || seen == n && c > 0 {
			return time.Duration(min(h.Buckets[i+1], 1e6) * 1e9)
		}
	}
	return 0
}

// Report writes the delta as RESULT lines about who.
func (d *RuntimeDelta) Report(w io.Writer, who string) {
	fmt.Fprintf(w, "RESULT %s runtime: %.0f GC cycles, GC %.1f%% of its CPU, %.0f MB allocated, %.0f goroutines, mutex wait %.2f s\n",
		who, d.GCCycles, 100*d.GCCPUShare, d.AllocBytes/1e6, d.Goroutines, d.MutexWait)
	fmt.Fprintf(w, "RESULT %s GC pauses (%d): p50 %s p99 %s max %s; scheduling latency (%d): p50 %s p99 %s p99.9 %s max %s\n",
		who, d.Pauses, d.PauseP50, d.PauseP99, d.PauseMax, d.Schedules, d.SchedP50, d.SchedP99, d.SchedP999, d.SchedMax)
}
