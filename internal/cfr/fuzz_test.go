package cfr

import (
	"bytes"
	"compress/gzip"
	"errors"
	"runtime"
	"testing"
	"time"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A Hold'em checkpoint of a few hundred bytes naming 64 threads and holding no
// regrets is refused before the solver's 130 arrays of the tree's size are made.
func TestHoldemCheckpointSizesCheckedFirst(t *testing.T) {
	bk := newCategoryBucketer([4]int{169, 9, 9, 9})
	var buf bytes.Buffer
	if err := writeCheckpointRecord(&buf, &checkpoint{Game: holdemCheckpointGame, Algo: "mccfr", Threads: 64,
		Abstraction: "fp", Buckets: bk.Sizes()}); err != nil {
		t.Fatal(err)
	}
	g, _ := NewHoldemGame(bk.Sizes())
	var err error
	n := allocated(func() { _, _, err = ReadHoldemCheckpoint(bytes.NewReader(buf.Bytes()), bk, "fp") })
	if !errors.Is(err, ErrBadFile) {
		t.Errorf("%v, want ErrBadFile", err)
	}
	if limit := uint64(g.slots) * 8 * 16; n > limit { // the tree itself, built to check the sizes, takes about 6 times its regrets
		t.Errorf("a checkpoint of %d bytes allocated %d MB before it was refused (a tree's regrets are %d MB)", buf.Len(), n>>20, g.slots*8>>20)
	}
}

// cfrSeeds returns valid files of each kind: a Kuhn strategy file and
// checkpoint, and a tiny Hold'em abstraction.
func cfrSeeds(tb testing.TB) [][]byte {
	g, err := NewGame("kuhn")
	if err != nil {
		tb.Fatal(err)
	}
	s, err := NewSolver(g, Options{})
	if err != nil {
		tb.Fatal(err)
	}
	var strat, check, abs bytes.Buffer
	if err := s.Average().StrategyFile().Write(&strat); err != nil {
		tb.Fatal(err)
	}
	if err := s.WriteCheckpoint(&check, time.Second); err != nil {
		tb.Fatal(err)
	}
	a, err := BuildAbstraction(AbstractionConfig{Preflop: 3, Flop: 2, Turn: 2, River: 3, Samples: 300, Seed: 1}, BuildOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	if err := a.Write(&abs); err != nil {
		tb.Fatal(err)
	}
	return [][]byte{strat.Bytes(), check.Bytes(), abs.Bytes()}
}

// FuzzReadFiles reads anything as each of felt train's files: a strategy file,
// a checkpoint (of a small game and of Hold'em), an abstraction file and a
// packed strategy (compressed by the test, so that the fuzzer explores what
// is inside). Each header line is given, so that the fuzzer explores what
// follows it. No reader panics, and each error wraps ErrBadFile.
func FuzzReadFiles(f *testing.F) {
	for _, s := range cfrSeeds(f) {
		f.Add(s)
	}
	bk := newCategoryBucketer([4]int{3, 2, 2, 3})
	kuhn, _ := NewGame("kuhn")
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(what string, err error) {
			if err != nil && !errors.Is(err, ErrBadFile) {
				t.Fatalf("%s: %v, not ErrBadFile", what, err)
			}
		}
		sf, err := ReadStrategyFile(bytes.NewReader(data))
		check("strategy file", err)
		if err == nil {
			_, err = sf.Profile(kuhn)
			check("strategy file's profile", err)
		}
		_, _, err = ReadCheckpoint(bytes.NewReader(data))
		check("checkpoint", err)
		_, _, err = ReadHoldemCheckpoint(bytes.NewReader(data), bk, "fp")
		check("Hold'em checkpoint", err)
		_, err = ReadAbstraction(bytes.NewReader(data))
		check("abstraction", err)
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		_, _ = zw.Write(data)
		_ = zw.Close()
		_, _, _, err = ReadPacked(&z)
		check("packed strategy", err)
	})
}
