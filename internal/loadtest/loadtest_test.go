package loadtest

import (
	"strings"
	"testing"
	"time"
)

func TestParseSpec(t *testing.T) {
	s, err := ParseSpec("clients=600,tables=100,seated=4,think=2s,duration=20s,db=postgres")
	if err != nil {
		t.Fatal(err)
	}
	want := Spec{Clients: 600, Tables: 100, Seated: 4, Think: 2 * time.Second, Duration: 20 * time.Second, DB: "postgres"}
	if s != want {
		t.Fatalf("got %+v, want %+v", s, want)
	}
	if s, err := ParseSpec("1"); err != nil || s != DefaultSpec() {
		t.Fatalf("\"1\": %+v %v, want the defaults", s, err)
	}
	for _, bad := range []string{"clients=x", "colour=red", "clients=5,tables=2,seated=3", "seated=7", "db=mysql", "think=0s", "tables=0"} {
		if _, err := ParseSpec(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestHistogramQuantiles(t *testing.T) {
	var h Histogram
	if h.Quantile(0.99) != 0 {
		t.Fatal("an empty histogram has no quantile")
	}
	for i := range 1000 {
		h.Add(time.Duration(i+1) * time.Millisecond / 10) // 0.1 ms .. 100 ms
	}
	h.Add(20 * time.Second) // past the last bucket
	if q := h.Quantile(0.5); q < 49*time.Millisecond || q > 51*time.Millisecond {
		t.Errorf("p50 %s, want about 50 ms", q)
	}
	if q := h.Quantile(0.999); q < 99*time.Millisecond || q > 101*time.Millisecond {
		t.Errorf("p99.9 %s, want about 100 ms", q)
	}
	if h.Max() != 20*time.Second || h.Count() != 1001 {
		t.Errorf("max %s count %d", h.Max(), h.Count())
	}
	h.Reset()
	if h.Count() != 0 || h.Max() != 0 || h.Quantile(0.5) != 0 {
		t.Error("Reset left counts")
	}
}

func TestRuntimeDelta(t *testing.T) {
	before := readLocal()
	var keep [][]byte
	for range 200 { // some garbage and, with luck, a collection
		keep = append(keep, make([]byte, 1<<16))
		if len(keep) > 10 {
			keep = keep[1:]
		}
	}
	after := readLocal()
	d := after.since(&before)
	if d == nil || d.AllocBytes < 200<<16 || d.Goroutines < 1 {
		t.Fatalf("delta %+v", d)
	}
	// Bucket i holds [Buckets[i], Buckets[i+1]); a quantile is its upper bound.
	h := histogram{Counts: []uint64{0, 90, 9, 1}, Buckets: []float64{0, 0.001, 0.002, 0.004, 1e308}}
	if h.quantile(0.5) != 2*time.Millisecond || h.quantile(0.95) != 4*time.Millisecond || h.quantile(1) != 1e6*time.Second {
		t.Errorf("quantiles %s %s %s", h.quantile(0.5), h.quantile(0.95), h.quantile(1))
	}
	var b strings.Builder
	d.Report(&b, "house")
	if !strings.Contains(b.String(), "GC pauses") {
		t.Error(b.String())
	}
}

func TestWantedMessages(t *testing.T) {
	for msg, want := range map[string]bool{
		`{"type":"state","state":{}}`:           true,
		`{"type":"error","error":{"code":"x"}}`: true,
		`{"type":"notice","code":"busted"}`:     true,
		`{"type":"tables","tables":[]}`:         false,
		`{"type":"online","joined":["a"]}`:      false,
		`{"state":{},"type":"state"}`:           true, // another order: decoded
	} {
		if wanted([]byte(msg)) != want {
			t.Errorf("wanted(%s) = %v", msg, !want)
		}
	}
}

// TestTakeoverKeepsFirstProgress: a victim's table that went on and then
// played on counts with the delay of its first progress, not its last.
func TestTakeoverKeepsFirstProgress(t *testing.T) {
	killed := time.Unix(1000, 0)
	tables := []*tableTrack{{}, {}}
	mark := make([]struct {
		hand   int64
		events int
	}, len(tables))
	victim := map[int]bool{0: true}
	var tk Takeover
	tk.Tables = 1
	tables[0].progress(1, 3, killed.Add(2*time.Second))
	tables[1].progress(1, 1, killed.Add(time.Second))
	if !tk.collect(tables, mark, victim, killed) {
		t.Fatal("the victim's table has not gone on")
	}
	tables[0].progress(2, 1, killed.Add(9*time.Second)) // it plays on
	tables[1].progress(1, 5, killed.Add(8*time.Second))
	tk.collect(tables, mark, victim, killed)
	if tk.P50 != 2*time.Second || tk.Max != 2*time.Second || tk.SurvivorsMax != time.Second || tk.WentOn != 1 || tk.SurvivorsOn != 1 {
		t.Fatalf("takeover %+v, want 2 s for the victim, 1 s for the other table", tk)
	}
}
