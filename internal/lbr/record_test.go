package lbr

import (
	"bytes"
	"strings"
	"testing"
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
	newHeader := strings.Join(recordHeader, ",") + "\n"
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
	} {
		if recs, err := ReadRecords(strings.NewReader(text)); err == nil {
			t.Errorf("%q: read %+v, no error", text, recs)
		}
	}
}
