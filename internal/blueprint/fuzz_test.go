package blueprint

import (
	"bytes"
	"compress/gzip"
	"encoding/gob"
	"errors"
	"os"
	"runtime"
	"testing"

	"github.com/felt-poker/felt/internal/cfr"
)

// tinyFile returns the record of a small valid blueprint file (a 3/1/1/3
// bucket abstraction, one depth of 20 big blinds, 100 iterations) and its gob
// encoding, testdata/tiny.gob: the record inside the gzip stream.
func tinyFile(t testing.TB) (*fileRecord, []byte) {
	raw, err := os.ReadFile("testdata/tiny.gob")
	if err != nil {
		t.Fatal(err)
	}
	var rec fileRecord
	if err := gob.NewDecoder(bytes.NewReader(raw)).Decode(&rec); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(bytes.NewReader(compressed(raw))); err != nil {
		t.Fatalf("testdata/tiny.gob: %v", err)
	}
	return &rec, raw
}

// compressed returns data in a gzip stream, as a blueprint file holds it.
func compressed(data []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write(data)
	_ = zw.Close()
	return buf.Bytes()
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// maxAlloc bounds what reading a crafted small file may allocate before it is
// refused: about what building a tree of cfr's maximum size (four times the
// shipped blueprint's deepest) takes.
const maxAlloc = 192 << 20

// A file of a few hundred bytes whose betting tree has a high cap and five tiny
// sizes on every round (a tree that grows exponentially: 2.3 million nodes at
// a cap of 6, and no end in sight at 10) is refused after
// building a bounded part of it.
func TestReadRefusesHugeTrees(t *testing.T) {
	rec, _ := tinyFile(t)
	bomb := *rec
	tr := cfr.NoLimitTree{Stack: 16000}
	for r := range tr.Rounds {
		tr.Rounds[r] = cfr.NoLimitRound{Open: []float64{0.01, 0.02, 0.03, 0.04, 0.05}, Raise: []float64{0.01, 0.02, 0.03, 0.04, 0.05}, Cap: 6}
	}
	bomb.Depths = []depthRecord{{BB: 8000, Tree: tr}}
	for name, r := range map[string]*fileRecord{"a huge tree": &bomb} {
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(r); err != nil {
			t.Fatal(err)
		}
		file := compressed(buf.Bytes())
		var err error
		n := allocated(func() { _, err = Read(bytes.NewReader(file)) })
		if !errors.Is(err, ErrBadFile) {
			t.Errorf("%s: %v, want ErrBadFile", name, err)
		}
		if n > maxAlloc {
			t.Errorf("%s: a file of %d bytes allocated %d MB before it was refused", name, len(file), n>>20)
		}
	}
}

// bigTrees reports whether rec has a deep or raise-capped tree, slow to build.
func bigTrees(rec *fileRecord) bool {
	for _, d := range rec.Depths {
		for _, r := range d.Tree.Rounds {
			if r.Cap > 4 || d.Tree.Stack > 400 {
				return true
			}
		}
	}
	return len(rec.Depths) > 4
}

// FuzzRead reads anything as the gob record of a blueprint file (compressed
// by the test, so that the fuzzer explores the record and not gzip's checksum):
// no panic, and an error wraps ErrBadFile.
func FuzzRead(f *testing.F) {
	_, raw := tinyFile(f)
	f.Add(raw)
	f.Add(raw[:len(raw)/2])
	f.Fuzz(func(t *testing.T, data []byte) {
		var rec fileRecord
		if gob.NewDecoder(bytes.NewReader(data)).Decode(&rec) == nil && bigTrees(&rec) {
			t.Skip("trees near cfr's bound take a second each: TestReadRefusesHugeTrees tries them")
		}
		bp, err := Read(bytes.NewReader(compressed(data)))
		if err != nil {
			if !errors.Is(err, ErrBadFile) {
				t.Fatalf("Read: %v, not ErrBadFile", err)
			}
			return
		}
		if len(bp.Depths()) == 0 {
			t.Fatal("a blueprint of no depth")
		}
	})
}
