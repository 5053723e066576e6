package arena

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// A record appended to a new file (and to an empty one) reads back as it was
// written, to the file's rounding; a second append is a plain append.
func TestMatchRecordFile(t *testing.T) {
	dir := t.TempDir()
	recs := []MatchRecord{
		{MatchKey: MatchKey{"nl", "resolve", "hsppot:samples=50", 20000, 0, 300 * time.Millisecond}, Seed: 15, FirstDeal: 17,
			Hands: 46, MBBPerGame: -12.5, MBBCI95: 300.5, MBBSD: 777.125, CV: true, CVMBBPerGame: 3.5, CVMBBCI95: 100.5,
			CVMBBSD: 250.5, Build: "v1 abc linux/amd64"},
		{MatchKey: MatchKey{"limit", "call", "raise", 400, 10, 0}, Seed: 1, Hands: 4, MBBPerGame: 1, MBBSD: 2},
	}
	for _, path := range []string{filepath.Join(dir, "new.csv"), filepath.Join(dir, "empty.csv")} {
		if strings.HasSuffix(path, "empty.csv") {
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, r := range recs {
			if err := AppendMatchRecord(path, r); err != nil {
				t.Fatal(err)
			}
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReadMatchRecords(bytes.NewReader(data))
		if err != nil || !reflect.DeepEqual(got, recs) || strings.Count(string(data), "variant,") != 1 {
			t.Fatalf("%s:\n%s\nread %+v, %v", path, data, got, err)
		}
	}
}

// A file that is not a match record file (felt lbr's, a note), or has a bad
// line, is refused with the line; appending to another file's kind leaves it
// as it was.
func TestMatchRecordsRefuseBadFiles(t *testing.T) {
	header := strings.Join(matchHeader, ",") + "\n"
	good := "nl,a,b,20000,0,0s,15,0:2,4,1.0,2.0,3.000,,,,x\n"
	if _, err := ReadMatchRecords(strings.NewReader(header + good)); err != nil {
		t.Fatalf("a good line: %v", err)
	}
	for _, text := range []string{
		"",
		"variant,bot,preflop,hands,seed,sizes,mbb_per_game,mbb_ci95,cv_mbb_per_game,cv_mbb_ci95,misses\nnl,call,false,4,1,1 allin,1,1,1,1,0\n",
		header + "garbage\n",
		header + good + "nl,a,b,20000,0,0s,15,0:2,4,1.0,2.0\n",
		header + "nl,a,b,20000,0,0s,15,2:0,4,1.0,2.0,3.000,,,,x\n",
		header + "nl,a,b,20000,0,0s,15,0:3,4,1.0,2.0,3.000,,,,x\n",
		header + "nl,a,b,20000,0,0s,15,0:2,4,NaN,2.0,3.000,,,,x\n",
		header + "nl,a,b,20000,0,0s,15,0:2,4,1.0,-2.0,3.000,,,,x\n",
		header + "nl,a,b,20000,0,0s,15,0:2,4,1.0,2.0,3.000,1,,,x\n",
		header + "nl,a,b,20000,0,soon,15,0:2,4,1.0,2.0,3.000,,,,x\n",
		header + "nl,,b,20000,0,0s,15,0:2,4,1.0,2.0,3.000,,,,x\n",
		header + "nl,a,b,0,0,0s,15,0:2,4,1.0,2.0,3.000,,,,x\n",
		header + "nl,a,b,20000,0,0s,-15,0:2,4,1.0,2.0,3.000,,,,x\n",
	} {
		if recs, err := ReadMatchRecords(strings.NewReader(text)); err == nil {
			t.Errorf("%q: read %+v, no error", text, recs)
		}
	}
	path := filepath.Join(t.TempDir(), "lbr.csv")
	lbr := "variant,bot,preflop,hands,seed,sizes,mbb_per_game,mbb_ci95,cv_mbb_per_game,cv_mbb_ci95,misses\n"
	if err := os.WriteFile(path, []byte(lbr), 0o644); err != nil {
		t.Fatal(err)
	}
	err := AppendMatchRecord(path, MatchRecord{MatchKey: MatchKey{Variant: "nl", A: "a", B: "b", Stack: 1}, Hands: 4})
	if !errors.Is(err, ErrOtherRecordFile) {
		t.Errorf("appended to felt lbr's file: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != lbr {
		t.Errorf("felt lbr's file became %q", data)
	}
}

// Lines of one match pool whether or not they have the control variate's
// figure, which the pool then has only when every line has it; another budget
// or stack is another measurement.
func TestPoolMatchRecordsKeys(t *testing.T) {
	key := MatchKey{"nl", "resolve", "hsppot", 20000, 0, 0}
	other, deeper := key, key
	other.Budget, deeper.Stack = time.Second, 40000
	recs := []MatchRecord{
		{MatchKey: key, Seed: 1, FirstDeal: 0, Hands: 20, MBBPerGame: 10, MBBSD: 5, CV: true, CVMBBPerGame: 9, CVMBBSD: 3},
		{MatchKey: key, Seed: 2, FirstDeal: 0, Hands: 20, MBBPerGame: 30, MBBSD: 5},
		{MatchKey: other, Seed: 1, FirstDeal: 0, Hands: 20, MBBPerGame: 50, MBBSD: 5, CV: true, CVMBBSD: 1},
		{MatchKey: deeper, Seed: 1, FirstDeal: 0, Hands: 20, MBBPerGame: 70, MBBSD: 5, CV: true, CVMBBSD: 1},
	}
	pools, warnings := PoolMatchRecords(recs)
	if len(pools) != 3 || len(warnings) != 0 {
		t.Fatalf("pools %+v, warnings %q", pools, warnings)
	}
	p := pools[0]
	if p.Key != key || p.Hands != 40 || p.Runs != 2 || p.MBBPerGame != 20 || p.HasCV || p.CVMBBPerGame != 0 ||
		!reflect.DeepEqual(p.Seeds, []uint64{1, 2}) {
		t.Errorf("resolve vs hsppot, one line without the control variate: %+v", p)
	}
	if !pools[1].HasCV || pools[1].Key != other || pools[2].Key != deeper {
		t.Errorf("other measurements: %+v", pools[1:])
	}
}
