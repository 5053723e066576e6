package lbr

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/buildinfo"
)

// Records survive a round trip through the file, and a table leads with each
// bot's larger lower bound among its latest runs with and without Preflop, in
// the variant asked, largest first.
func TestRecordsAndLeading(t *testing.T) {
	recs := []Record{
		{Variant: "nl", Bot: "chart", Hands: 400, Seed: 15, Sizes: "1 allin", MBBPerGame: 9000, MBBCI95: 900},
		{Variant: "nl", Bot: "chart", Preflop: true, Hands: 400, Seed: 15, Sizes: "1 allin", MBBPerGame: 1500, MBBCI95: 600},
		{Variant: "nl", Bot: "bayes", Hands: 400, Seed: 15, Sizes: "1 allin", MBBPerGame: 3000, MBBCI95: 600, CVMBBPerGame: 3100, CVMBBCI95: 400, Misses: 2},
		{Variant: "limit", Bot: "chart", Hands: 400, Seed: 15, Sizes: "1 allin", MBBPerGame: 500, MBBCI95: 60},
		// A later run of chart replaces the first: the latest counts, not the largest.
		{Variant: "nl", Bot: "chart", Hands: 4000, Seed: 15, Sizes: "1 allin", MBBPerGame: 8000.5, MBBCI95: 300},
	}
	var buf bytes.Buffer
	if err := WriteRecords(&buf, recs[:2], true); err != nil {
		t.Fatal(err)
	}
	if err := WriteRecords(&buf, recs[2:], false); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRecords(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(recs) {
		t.Fatalf("read %d records, wrote %d", len(got), len(recs))
	}
	for i := range recs {
		if got[i] != recs[i] {
			t.Errorf("record %d: read %+v, wrote %+v", i, got[i], recs[i])
		}
	}
	pools, warnings := PoolRecords(got)
	if len(warnings) != 1 || !strings.Contains(warnings[0], "line 2 (nl chart, seed 15, deals 0:200) overlaps the later line 6 (deals 0:2000)") {
		t.Errorf("warnings %q", warnings)
	}
	lead := Leading(pools, "nl")
	if len(lead) != 2 || lead[0].Bot != "chart" || lead[0].MBBPerGame != 8000.5 || lead[0].Hands != 4000 || lead[1].Bot != "bayes" {
		t.Fatalf("leading nl: %+v", lead)
	}
	if lead := Leading(pools, "limit"); len(lead) != 1 || lead[0].MBBPerGame != 500 {
		t.Fatalf("leading limit: %+v", lead)
	}
}

// A file that is not a record file, or has a bad line, is refused with the line.
func TestReadRecordsRefusesBadFiles(t *testing.T) {
	header := strings.Join(legacyHeader, ",") + "\n"
	newHeader := strings.Join(dealsHeader, ",") + "\n"
	buildHeader := strings.Join(recordHeader, ",") + "\n"
	for _, text := range []string{
		"",
		"variant,bot\nnl,chart\n",
		header + "nl,chart,maybe,400,15,1 allin,1,1,1,1,0\n",
		header + "nl,chart,false,400,15,1 allin,1,-1,1,1,0\n",
		header + "nl,,false,400,15,1 allin,1,1,1,1,0\n",
		header + "nl,chart,false,400,15,1 allin,1,1,1\n",
		header + "nl,chart,false,400,15,1 allin,NaN,1,1,1,0\n",
		header + "nl,chart,false,401,15,1 allin,1,1,1,1,0\n",
		header + "nl,chart,false,400,15,1 allin,1,1,1,1,0,0:100\n",
		newHeader + "nl,chart,false,400,15,1 allin,1,1,1,1,0\n",
		newHeader + "nl,chart,false,400,15,1 allin,1,1,1,1,0,0:100,2,1000,5,5\n",
		newHeader + "nl,chart,false,400,15,1 allin,1,1,1,1,0,5:-1,2,1000,5,5\n",
		newHeader + "nl,chart,false,400,15,1 allin,1,1,1,1,0,0:200,0,1000,5,5\n",
		newHeader + "nl,chart,false,400,15,1 allin,1,1,1,1,0,0:200,2,1000,-5,5\n",
		newHeader + "nl,chart,false,400,15,1 allin,1,1,1,1,0,0:200,2,1000,5,NaN\n",
		newHeader + "nl,chart,false,400,15,1 allin,1,1,1,1,0,0:200,2,x,5,5\n",
		newHeader + "nl,chart,false,400,15,1 allin,1,1,1,1,0,0:200,2,1000,5,5,abc\n",
		buildHeader + "nl,chart,false,400,15,1 allin,1,1,1,1,0,0:200,2,1000,5,5\n",
		buildHeader + "nl,chart,false,400,15,1 allin,1,1,1,1,0,0:100,2,1000,5,5,abc\n",
	} {
		if recs, err := ReadRecords(strings.NewReader(text)); err == nil {
			t.Errorf("%q: read %+v, no error", text, recs)
		}
	}
}

// TestRecordBuild: a record names the build that made it (buildinfo.Revision),
// in a column appended after the others, read back; files written before the
// column, or before the deals column, still read, their lines naming no build.
func TestRecordBuild(t *testing.T) {
	if got := NewRecord(Result{Bot: "call", Hands: 4, Deals: 2}).Build; got != buildinfo.Revision() || got == "" {
		t.Errorf("NewRecord's build %q, want %q", got, buildinfo.Revision())
	}
	rec := Record{Variant: "nl", Bot: "chart", Hands: 400, Seed: 15, Sizes: "1 allin", MBBSD: 5, CVMBBSD: 5,
		Build: "e16fba9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a+dirty"}
	var buf bytes.Buffer
	if err := WriteRecords(&buf, []Record{rec}, true); err != nil {
		t.Fatal(err)
	}
	header, line, _ := strings.Cut(buf.String(), "\n")
	if header != strings.Join(dealsHeader, ",")+",build" || !strings.HasSuffix(line, ",5.000,5.000,"+rec.Build+"\n") {
		t.Errorf("written:\n%s", buf.String())
	}
	got, err := ReadRecords(&buf)
	if err != nil || len(got) != 1 || got[0] != rec {
		t.Fatalf("read %+v, %v; wrote %+v", got, err, rec)
	}
	for _, old := range []string{
		strings.Join(dealsHeader, ",") + "\nnl,chart,false,400,15,1 allin,1,1,1,1,0,0:200,2,1000,5,5\n",
		strings.Join(legacyHeader, ",") + "\nnl,chart,false,400,15,1 allin,1,1,1,1,0\n",
	} {
		got, err := ReadRecords(strings.NewReader(old))
		if err != nil || len(got) != 1 || got[0].Build != "" || got[0].Bot != "chart" {
			t.Errorf("%q: read %+v, %v", old, got, err)
		}
	}
	pools, _ := PoolRecords([]Record{rec, {Variant: "nl", Bot: "chart", Hands: 400, Seed: 16, Sizes: "1 allin", MBBSD: 5, CVMBBSD: 5},
		{Variant: "nl", Bot: "chart", Hands: 400, Seed: 17, Sizes: "1 allin", MBBSD: 5, CVMBBSD: 5, Build: "abc"}, rec})
	if len(pools) != 1 || !slices.Equal(pools[0].Builds, []string{"abc", rec.Build}) {
		t.Errorf("pools %+v: want the two builds named, once each", pools)
	}
}
