package solver

import (
	"bytes"
	"errors"
	"testing"
)

// TestSaveLoad: a saved solve reloads with the same strategies and goes on exactly
// as the solve that was not interrupted, plain and compressed, with isomorphic cards.
func TestSaveLoad(t *testing.T) {
	for _, opts := range []Options{{Workers: 1}, {Workers: 2, Compress: true}} {
		sp := benchSpot("QsJh2h8h")
		sp.Rake, sp.RakeCap = 5, 2
		a, err := New(sp, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(a.Close)
		for range 15 {
			a.Iterate()
		}
		var buf bytes.Buffer
		if err := a.Save(&buf); err != nil {
			t.Fatal(err)
		}
		b, err := Load(bytes.NewReader(buf.Bytes()), Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(b.Close)
		if b.Iterations() != 15 || b.compress != opts.Compress || b.spot.Rake != 5 {
			t.Fatalf("loaded %d iterations, compress %v, rake %v", b.Iterations(), b.compress, b.spot.Rake)
		}
		for range 5 {
			a.Iterate()
			b.Iterate()
		}
		sameStrategies(t, a, b, [][]string{nil, {"x"}, {"x", "b10", "c", "3d"}}, 0)
		if x, y := a.Exploitability(), b.Exploitability(); x != y {
			t.Errorf("compress %v: exploitability %v, reloaded %v", opts.Compress, x, y)
		}
	}
}

// TestLoadBadFiles: a file that is not a save, is cut short, damaged, or describes
// another tree is refused with ErrBadSave.
func TestLoadBadFiles(t *testing.T) {
	s := mustSolver(t, benchSpot("QsJh2h8d3c"), 1)
	for range 5 {
		s.Iterate()
	}
	var buf bytes.Buffer
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	head := bytes.IndexByte(good[len(saveMagic):], '\n') + len(saveMagic)
	damaged := bytes.Clone(good)
	damaged[head+100] ^= 1
	otherTree := bytes.Replace(good, []byte(`"Values":`), []byte(`"Values":1`), 1)
	cases := map[string][]byte{
		"empty":         nil,
		"not a save":    []byte("set_pot 10\n"),
		"cut in header": good[:head-10],
		"cut in values": good[:head+50],
		"no checksum":   good[:len(good)-4],
		"damaged":       damaged,
		"other tree":    otherTree,
		"bad header":    append([]byte(saveMagic), []byte("{\"Pot\": -1}\n")...),
	}
	for name, data := range cases {
		if _, err := Load(bytes.NewReader(data), Options{}); !errors.Is(err, ErrBadSave) {
			t.Errorf("%s: %v, want ErrBadSave", name, err)
		}
	}
}

// TestSaveRefusesWhatItCannotDescribe: a depth-limited spot, a sampled spot and a
// solve with locked decisions are refused (the saved header would reload another
// game), and nothing is written.
func TestSaveRefusesWhatItCannotDescribe(t *testing.T) {
	limited, sampled := smallFlop(), smallFlop()
	limited.LeafRunouts = 6
	sampled.Sample = Sample{Turns: 3, Rivers: 2}
	dl := mustSolver(t, limited, 1)
	locked := mustSolver(t, smallFlop(), 1)
	if err := locked.LockFirstStreet(dl, OOP); err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*Solver{"depth-limited": dl, "sampled": mustSolver(t, sampled, 1), "locked": locked} {
		var buf bytes.Buffer
		if err := s.Save(&buf); err == nil || buf.Len() > 0 {
			t.Errorf("%s: Save gave %v and wrote %d bytes; want an error and nothing", name, err, buf.Len())
		}
	}
}
