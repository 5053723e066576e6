package loadtest

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"time"
)

// Result is what a run measured. The house's figures (hands, CPU, memory,
// connections) are summed over its nodes.
type Result struct {
	Spec                  Spec
	Nodes                 int
	LoadBefore, LoadAfter float64 // the machine's load average

	Connected, Failures  int64
	ConnectTime          time.Duration
	Reconnected, Redials int64

	Elapsed                  time.Duration
	Actions, Deliveries      int64
	P50, P90, P99, P999, Max time.Duration
	Hands, CPUSeconds        float64
	RSSIdle, RSS             float64 // resident bytes, before the clients and at the end
	HeapIdle, Heap           float64 // the Go heap in use, the same
	WSConns, TablesLive      float64
	ErrorReplies             map[string]int
	Runtime                  *RuntimeDelta // single-node runs with Config.Runtime
	// Generator is the load generator's own runtime over the measurement
	// and GeneratorCPU its CPU seconds: the delays include its waits.
	Generator    *RuntimeDelta
	GeneratorCPU float64
	Takeover     *Takeover
	// Probed are the increases of Config.Probe's counters over the measurement.
	Probed map[string]float64
}

// Takeover is how long the tables of a killed node took to go on elsewhere,
// from the kill to the first state showing play beyond where it stood.
type Takeover struct {
	Tables, WentOn int
	P50, P99, Max  time.Duration
	// SurvivorsMax is the same delay's maximum for the other tables, whose
	// node lived (their players on the dead node reconnect meanwhile).
	SurvivorsMax time.Duration
	SurvivorsOn  int
	Err          string

	// wentOn is, by table, the delay of the first progress seen after the
	// kill: the tables' progress moves on, this stays.
	wentOn map[int]time.Duration
}

// collect fills tk from the tables' progress and reports whether every
// victim's table has gone on. A table's delay is that of the first collect
// that saw it gone on: the progress a client saw last before that collect.
func (tk *Takeover) collect(tables []*tableTrack, mark []struct {
	hand   int64
	events int
}, victim map[int]bool, killedAt time.Time) bool {
	if tk.wentOn == nil {
		tk.wentOn = map[int]time.Duration{}
	}
	var went []time.Duration
	tk.SurvivorsMax, tk.SurvivorsOn = 0, 0
	for i, lt := range tables {
		lt.mu.Lock()
		on := lt.seenHand > mark[i].hand || lt.seenHand == mark[i].hand && lt.seenEvents > mark[i].events
		d := lt.progressAt.Sub(killedAt)
		lt.mu.Unlock()
		if on {
			if first, ok := tk.wentOn[i]; ok {
				d = first
			} else {
				tk.wentOn[i] = d
			}
		}
		switch {
		case on && victim[i]:
			went = append(went, d)
		case on:
			tk.SurvivorsMax = max(tk.SurvivorsMax, d)
			tk.SurvivorsOn++
		}
	}
	slices.Sort(went)
	tk.WentOn = len(went)
	if len(went) > 0 {
		tk.P50, tk.P99, tk.Max = went[len(went)/2], went[len(went)*99/100], went[len(went)-1]
	}
	return tk.WentOn == tk.Tables
}

// Report writes the result as the lines docs/performance.md quotes.
func (r *Result) Report(w io.Writer) {
	el := r.Elapsed.Seconds()
	fmt.Fprintf(w, "RESULT %d node(s), load average %.1f -> %.1f\n", r.Nodes, r.LoadBefore, r.LoadAfter)
	fmt.Fprintf(w, "RESULT clients=%d (%d failed, in %s; houses see %.0f connections) tables=%.0f seated/table=%d think=%s over %s\n",
		r.Connected, r.Failures, r.ConnectTime.Round(time.Second), r.WSConns, r.TablesLive, r.Spec.Seated, r.Spec.Think, r.Elapsed.Round(time.Second))
	fmt.Fprintf(w, "RESULT hands=%.0f (%.1f/s) actions=%d (%.0f/s) deliveries=%d (%.0f/s)\n",
		r.Hands, r.Hands/el, r.Actions, float64(r.Actions)/el, r.Deliveries, float64(r.Deliveries)/el)
	fmt.Fprintf(w, "RESULT action -> broadcast delay p50=%s p90=%s p99=%s p99.9=%s max=%s\n",
		r.P50, r.P90, r.P99, r.P999, r.Max.Round(time.Millisecond))
	fmt.Fprintf(w, "RESULT house CPU %.2f cores: %.3f CPU-s per 1,000 actions, %.3f per 1,000 deliveries, %.1f µs per client-second\n",
		r.CPUSeconds/el, 1000*r.CPUSeconds/max(1, float64(r.Actions)), 1000*r.CPUSeconds/max(1, float64(r.Deliveries)),
		1e6*r.CPUSeconds/el/max(1, float64(r.Connected)))
	fmt.Fprintf(w, "RESULT house memory: Go heap in use %.0f MB (%.0f MB before the clients), %.1f KB per client; resident %.0f MB (%.0f MB before)\n",
		r.Heap/1e6, r.HeapIdle/1e6, (r.Heap-r.HeapIdle)/1e3/max(1, float64(r.Connected)), r.RSS/1e6, r.RSSIdle/1e6)
	fmt.Fprintf(w, "RESULT error replies (whole run) %v; reconnections %d, failed redials %d\n", r.ErrorReplies, r.Reconnected, r.Redials)
	if r.Runtime != nil {
		r.Runtime.Report(w, "house")
	}
	if r.Generator != nil {
		fmt.Fprintf(w, "RESULT generator CPU %.2f cores\n", r.GeneratorCPU/el)
		r.Generator.Report(w, "generator")
	}
	for _, k := range slices.Sorted(maps.Keys(r.Probed)) {
		v := r.Probed[k]
		fmt.Fprintf(w, "RESULT %s +%.0f (%.1f/s, %.2f per hand, %.2f per action)\n", k, v, v/el, v/max(1, r.Hands), v/max(1, float64(r.Actions)))
	}
	if tk := r.Takeover; tk != nil {
		fmt.Fprintf(w, "RESULT takeover after kill -9: %d of %d tables went on, p50 %s, p99 %s, max %s (other tables: max %s) %s\n",
			tk.WentOn, tk.Tables, tk.P50.Round(time.Millisecond), tk.P99.Round(time.Millisecond), tk.Max.Round(time.Millisecond),
			tk.SurvivorsMax.Round(time.Millisecond), tk.Err)
	}
}

// nodeMetrics is what a run reads of the nodes' /metrics, summed.
type nodeMetrics struct{ hands, cpu, rss, heap, conns, tables float64 }

// scrapeAll sums the figures of every node that answers.
func scrapeAll(nodes []string) nodeMetrics {
	var m nodeMetrics
	for _, n := range nodes {
		b, err := get(n + "/metrics")
		if err != nil {
			continue // a node killed
		}
		m.hands += metric(b, "felt_hands_total")
		m.cpu += metric(b, "process_cpu_seconds_total")
		m.rss += metric(b, "process_resident_memory_bytes")
		m.heap += metric(b, "go_memstats_heap_inuse_bytes")
		m.conns += metric(b, "felt_ws_connections")
		m.tables += metric(b, "felt_tables")
	}
	return m
}

func get(url string) ([]byte, error) {
	c := http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

// metric is the value of an unlabelled metric in a Prometheus text page (0 if absent).
func metric(page []byte, name string) float64 {
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` (\S+)$`).FindSubmatch(page)
	if m == nil {
		return 0
	}
	v, _ := strconv.ParseFloat(string(m[1]), 64)
	return v
}
