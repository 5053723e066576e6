package lbr

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/filelock"
)

// piece runs c on deals from to to−1 of seed and returns its record read back
// from a record file (so rounded as the file rounds), adding its deals'
// outcomes to all.
func piece(t *testing.T, c Config, seed uint64, from, to int, all *Totals) Record {
	t.Helper()
	c.Seed, c.FirstDeal, c.Hands = seed, from, 2*(to-from)
	c.Deal = func(_ int, o Outcome) { all.Add(o) } // one worker: no lock needed
	r := run(t, c)
	var buf bytes.Buffer
	if err := WriteRecords(&buf, []Record{NewRecord(r)}, true); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadRecords(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return recs[0]
}

// near fails the test unless got is want to the file's rounding (0.1 mbb/g).
func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 0.1 {
		t.Errorf("%s: pooled %.3f, one run %.3f", what, got, want)
	}
}

// Pooling is one run: the lines of deals 0:17 and 17:40 of seed 15 pool to the
// mean and intervals (plain and with the control variate) of one run of deals
// 0:40, and with deals 0:25 of seed 16 added, to those of all 65 deals
// counted together.
func TestPoolingEqualsOneRun(t *testing.T) {
	c := Config{Bot: "random", Preflop: true, Runouts: 5, Workers: 1}
	var whole, split Totals
	one := piece(t, c, 15, 0, 40, &whole)
	recs := []Record{piece(t, c, 15, 0, 17, &split), piece(t, c, 15, 17, 40, &split)}
	pools, warnings := PoolRecords(recs)
	if len(pools) != 1 || len(warnings) != 0 {
		t.Fatalf("pools %+v, warnings %q", pools, warnings)
	}
	p := pools[0]
	if p.Hands != 80 || p.Runs != 2 || !slices.Equal(p.Seeds, []uint64{15}) || p.Misses != one.Misses || p.Samples != DefaultSamples || p.Runouts != 5 {
		t.Fatalf("pool %+v, one run %+v", p, one)
	}
	near(t, "mbb/g", p.MBBPerGame, one.MBBPerGame)
	near(t, "95% interval", p.MBBCI95, one.MBBCI95)
	near(t, "mbb/g with the control variate", p.CVMBBPerGame, one.CVMBBPerGame)
	near(t, "95% interval with the control variate", p.CVMBBCI95, one.CVMBBCI95)

	recs = append(recs, piece(t, c, 16, 0, 25, &whole))
	pools, _ = PoolRecords(recs)
	c.Hands = 2 * 65
	if _, err := c.Prepare(); err != nil {
		t.Fatal(err)
	}
	want := c.Result(&whole, 1, 0)
	if p := pools[0]; len(pools) != 1 || p.Hands != 130 || !slices.Equal(p.Seeds, []uint64{15, 16}) {
		t.Fatalf("pools %+v", pools)
	}
	p = pools[0]
	near(t, "two seeds, mbb/g", p.MBBPerGame, want.MBBPerGame)
	near(t, "two seeds, 95% interval", p.MBBCI95, want.MBBCI95)
	near(t, "two seeds, mbb/g with the control variate", p.CVMBBPerGame, want.CV.MBBPerGame)
	near(t, "two seeds, 95% interval with the control variate", p.CVMBBCI95, want.CV.MBBCI95)
}

// Lines of one seed whose deals overlap count once: the later one, the earlier
// left out with a warning. Lines that differ in what makes a measurement
// (preflop, sizes, samples, runouts, variant, bot options) pool apart.
func TestPoolingLeavesOutOverlaps(t *testing.T) {
	base := Record{Variant: "nl", Bot: "resolve:budget=1m", Hands: 40, Seed: 15, Sizes: "1 allin", Samples: 2, Runouts: 1000,
		MBBPerGame: 100, MBBCI95: 50, MBBSD: 300, CVMBBSD: 200}
	at := func(seed uint64, from, to int, mean float64) Record {
		r := base
		r.Seed, r.FirstDeal, r.Hands, r.MBBPerGame = seed, from, 2*(to-from), mean
		return r
	}
	other := func(f func(*Record)) Record { r := base; f(&r); return r }
	recs := []Record{
		at(15, 0, 20, 1000),  // line 2: overlapped by line 4
		at(15, 20, 30, 200),  // line 3
		at(15, 10, 20, 300),  // line 4
		at(16, 0, 20, 400),   // line 5: another seed
		at(15, 30, 31, 500),  // line 6: one deal
		at(15, 25, 35, 9999), // line 7: overlaps lines 3 and 6, later: they are left out
		other(func(r *Record) { r.Preflop = true }),
		other(func(r *Record) { r.Sizes = "0.5 1 allin" }),
		other(func(r *Record) { r.Samples = 4 }),
		other(func(r *Record) { r.Runouts = 100 }),
		other(func(r *Record) { r.Variant = "limit" }),
		other(func(r *Record) { r.Bot = "resolve" }),
	}
	pools, warnings := PoolRecords(recs)
	if len(pools) != 7 {
		t.Fatalf("%d pools, want 7: %+v", len(pools), pools)
	}
	p := pools[0]
	if p.Hands != 2*(10+20+10) || p.Runs != 3 || !slices.Equal(p.Seeds, []uint64{15, 16}) || p.Latest != 5 {
		t.Errorf("pool %+v: want lines 4, 5 and 7 (40 deals)", p)
	}
	if want := (10*300 + 20*400 + 10*9999) / 40.0; math.Abs(p.MBBPerGame-want) > 1e-9 {
		t.Errorf("pooled %v mbb/g, want %v", p.MBBPerGame, want)
	}
	wantWarn := []string{
		"line 2 (nl resolve:budget=1m, seed 15, deals 0:20) overlaps the later line 4 (deals 10:20)",
		"line 3 (nl resolve:budget=1m, seed 15, deals 20:30) overlaps the later line 7 (deals 25:35)",
		"line 6 (nl resolve:budget=1m, seed 15, deals 30:31) overlaps the later line 7 (deals 25:35)",
	}
	if len(warnings) != len(wantWarn) {
		t.Fatalf("warnings %q", warnings)
	}
	for i, w := range wantWarn {
		if !strings.HasPrefix(warnings[i], w) {
			t.Errorf("warning %q, want %q", warnings[i], w)
		}
	}
	for _, p := range pools[1:] {
		if p.Hands != 40 || p.Runs != 1 {
			t.Errorf("pool %+v: want its one line", p)
		}
	}
}

// A measurement begun before the deals column and continued after it pools:
// the old line's deals start at 0 and it counts as run with the default samples
// and runouts; a new line with other runouts is another measurement.
func TestPoolingContinuesALegacyLine(t *testing.T) {
	text := strings.Join(legacyHeader, ",") + "\n" + "nl,resolve:budget=1m,false,34,15,1 allin,-620.9,3503.7,-2650.4,4748.0,0\n"
	recs, err := ReadRecords(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	next := Record{Variant: "nl", Bot: "resolve:budget=1m", Hands: 2 * 83, Seed: 15, FirstDeal: 17, Sizes: "1 allin",
		Samples: DefaultSamples, Runouts: DefaultRunouts, MBBPerGame: 500, MBBCI95: 900, MBBSD: 3000, CVMBBSD: 2000}
	other := next
	other.Runouts = 500
	pools, warnings := PoolRecords(append(recs, next, other))
	if len(pools) != 2 || len(warnings) != 0 || pools[0].Runs != 2 || pools[0].Hands != 200 || pools[1].Runs != 1 {
		t.Fatalf("pools %+v, warnings %q", pools, warnings)
	}
	if want := (17*-620.9 + 83*500) / 100; math.Abs(pools[0].MBBPerGame-want) > 1e-9 {
		t.Errorf("pooled %v mbb/g, want %v", pools[0].MBBPerGame, want)
	}
}

// A record file written by an earlier felt (docs/bots-lbr.csv, before the
// build column or the deals column) is read (lines without deals start at deal
// 0, their deviations taken from their intervals), pooled and drawn as
// before, and the first run appended to it rewrites it with the new header,
// every old line kept as it was.
func TestLegacyRecordFile(t *testing.T) {
	old, err := os.ReadFile("../../docs/bots-lbr.csv")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.HasPrefix(old, []byte(strings.Join(recordHeader, ",")+"\n")) {
		t.Skip("docs/bots-lbr.csv has the current header: nothing old to read")
	}
	recs, err := ReadRecords(bytes.NewReader(old))
	if err != nil {
		t.Fatal(err)
	}
	pools, warnings := PoolRecords(recs)
	t.Logf("%d lines, %d pools, warnings %q", len(recs), len(pools), warnings)
	// In a file before the deals column every run started at deal 0 of seed
	// 15: a bot measured again counts its latest line alone, as the chart did.
	for _, p := range Leading(pools, "nl") {
		last := recs[p.Latest]
		legacy := bytes.HasPrefix(old, []byte(strings.Join(legacyHeader, ",")+"\n")) // else it pools pieces
		if legacy && (p.Runs != 1 || p.MBBPerGame != last.MBBPerGame || math.Abs(p.MBBCI95-last.MBBCI95) > 1e-9 || p.Hands != last.Hands) {
			t.Errorf("%s: pool %+v, its latest line %+v", p.Bot, p, last)
		}
	}
	path := filepath.Join(t.TempDir(), "lbr.csv")
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	add := Record{Variant: "nl", Bot: "call", Hands: 20, Seed: 3, FirstDeal: 7, Sizes: "1 allin", Samples: 2, Runouts: 1000, MBBSD: 1.5, CVMBBSD: 2.5}
	for range 2 { // the second append is a plain append
		if err := AppendRecord(path, add); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the rewritten file: %v, %v; want mode 0600 kept", st.Mode(), err)
	}
	got, err := ReadRecords(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte(strings.Join(recordHeader, ",")+"\n")) || !slices.Equal(got, append(recs, add, add)) {
		t.Fatalf("after two appends:\n%s", data)
	}
	// Not a record file: left alone.
	bad := filepath.Join(t.TempDir(), "notes.csv")
	if err := os.WriteFile(bad, []byte("a,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := AppendRecord(bad, add); err == nil {
		t.Error("appended to a file that is not a record file")
	}
	if data, _ := os.ReadFile(bad); string(data) != "a,b\n" {
		t.Errorf("the other file became %q", data)
	}
}

// writeOldRecordFile writes a record file of felt before the build column
// (dealsHeader) with n lines, and returns its path and records.
func writeOldRecordFile(t *testing.T, n int) (string, []Record) {
	t.Helper()
	var b strings.Builder
	b.WriteString(strings.Join(dealsHeader, ",") + "\n")
	var recs []Record
	for i := range n {
		b.WriteString("nl,chart,false,400," + strconv.Itoa(i) + ",1 allin,1.0,1.0,1.0,1.0,0,0:200,2,1000,5.000,5.000\n")
		recs = append(recs, Record{Variant: "nl", Bot: "chart", Hands: 400, Seed: uint64(i), Sizes: "1 allin", MBBPerGame: 1,
			MBBCI95: 1, CVMBBPerGame: 1, CVMBBCI95: 1, Samples: 2, Runouts: 1000, MBBSD: 5, CVMBBSD: 5})
	}
	path := filepath.Join(t.TempDir(), "lbr.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, recs
}

// TestAppendRecordHoldsTheLock: AppendRecord holds the record file's lock
// file while it reads, rewrites (an old file) or appends to it: another open of
// the lock file cannot take it then, and can after. The old AppendRecord took
// no lock, so a run appending while another rewrote the file lost its line.
func TestAppendRecordHoldsTheLock(t *testing.T) {
	path, _ := writeOldRecordFile(t, 2)
	held := 0
	underLock = func(p string) {
		f, err := os.Open(arena.RecordLockPath(p))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if ok, err := filelock.TryLock(f); ok || err != nil {
			t.Errorf("%s: another open took the lock during AppendRecord: %v, %v", p, ok, err)
		} else {
			held++
		}
	}
	defer func() { underLock = nil }()
	rec := Record{Variant: "nl", Bot: "call", Hands: 20, Seed: 3, Sizes: "1 allin", MBBSD: 1, CVMBBSD: 1, Build: "abc"}
	for range 2 { // a rewrite, then an append
		if err := AppendRecord(path, rec); err != nil {
			t.Fatal(err)
		}
	}
	if held != 2 {
		t.Fatalf("the lock was held in %d of 2 appends", held)
	}
	f, err := os.Open(arena.RecordLockPath(path))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if ok, err := filelock.TryLock(f); !ok || err != nil {
		t.Errorf("the lock is still held after AppendRecord: %v, %v", ok, err)
	}
}

// TestConcurrentAppendsToAnOldFile: runs appending at once to a file of the
// old format (one of them rewrites it, the others wait and then append) lose
// no line: every old line and every new one is in the file once.
func TestConcurrentAppendsToAnOldFile(t *testing.T) {
	path, recs := writeOldRecordFile(t, 3)
	const runs = 8
	start := make(chan struct{})
	errs := make(chan error, runs)
	for i := range runs {
		go func() {
			<-start
			errs <- AppendRecord(path, Record{Variant: "nl", Bot: "call", Hands: 20, Seed: uint64(100 + i), Sizes: "1 allin",
				MBBSD: 1, CVMBBSD: 1, Build: "abc"})
		}()
	}
	close(start)
	for range runs {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := ReadRecords(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(recs)+runs || !slices.Equal(got[:len(recs)], recs) {
		t.Fatalf("%d lines after %d appends to %d, the old ones %+v", len(got), runs, len(recs), got)
	}
	seeds := map[uint64]bool{}
	for _, r := range got[len(recs):] {
		seeds[r.Seed] = true
	}
	if len(seeds) != runs {
		t.Errorf("the appended lines' seeds %v: want each of the %d runs once", seeds, runs)
	}
}
