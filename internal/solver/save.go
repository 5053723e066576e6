package solver

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/equity"
)

// ErrBadSave is wrapped by every error reading a saved solve.
var ErrBadSave = errors.New("bad saved solve")

// saveMagic starts every saved solve; the number is the format's version.
const saveMagic = "felt solve 1\n"

// savedHeader is the JSON line after the magic: the spot, how the solver stores its
// arrays, and their size, so that Load rebuilds the same tree and checks it.
type savedHeader struct {
	Pot, Stack    float64
	Board         string
	Weights       [2][]float64 // equity.NumCombos each, in equity.ComboIndex order
	Tree          Tree
	Rake, RakeCap float64
	Compress      bool
	NoIsomorphism bool
	Iterations    int // begun, as DCFR's discounts count them
	// Interrupted is how many of them IterateContext stopped inside (not
	// counted by Solver.Iterations); absent in files saved before it.
	Interrupted int `json:",omitempty"`
	Values      int // regrets (and strategy sums): strategySize
	Decisions   int
}

// Save writes the solve (the spot, the iterations begun and how many of them were
// interrupted, every regret and strategy sum) so that Load can go on from it. Call
// it between iterations (an interrupted one has ended). A safe re-solve (a spot
// with a Bound) is refused: its root gadget is not saved; so are a
// depth-limited or sampled spot (LeafRunouts, Sample) and a solve with locked
// decisions, which the saved header does not describe.
func (s *Solver) Save(w io.Writer) error {
	switch {
	case s.gadget != nil:
		return errors.New("a safe re-solve (a spot with a Bound) is not saved")
	case s.spot.LeafRunouts > 0 || s.spot.Sample != Sample{}:
		return errors.New("a depth-limited or sampled spot (LeafRunouts, Sample) is not saved")
	case s.Locked() > 0:
		return errors.New("a solve with locked decisions is not saved")
	}
	s.start()
	h := savedHeader{Pot: s.spot.Pot, Stack: s.spot.Stack, Board: cards.Format(s.spot.Board), Tree: s.spot.Tree,
		Rake: s.spot.Rake, RakeCap: s.spot.RakeCap, Compress: s.compress, NoIsomorphism: s.noIso,
		Iterations: s.iter, Interrupted: s.cut, Values: s.strategySize, Decisions: len(s.off)}
	for p := range 2 {
		h.Weights[p] = make([]float64, equity.NumCombos)
		for _, c := range s.spot.Range[p].Combos() {
			h.Weights[p][equity.ComboIndex(c.Cards[0], c.Cards[1])] = c.Weight
		}
	}
	head, err := json.Marshal(h)
	if err != nil {
		return err
	}
	crc := crc32.NewIEEE()
	bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 1<<16)
	bw.WriteString(saveMagic)
	bw.Write(append(head, '\n'))
	var errs []error
	if s.compress {
		errs = append(errs, chunks[uint16, io.Writer](bw, s.regret16, binary.Write), chunks[uint16, io.Writer](bw, s.strat16, binary.Write), chunks[float32, io.Writer](bw, s.scale, binary.Write))
	} else {
		errs = append(errs, chunks[float32, io.Writer](bw, s.regret, binary.Write), chunks[float32, io.Writer](bw, s.strat, binary.Write))
	}
	if err := errors.Join(append(errs, bw.Flush())...); err != nil {
		return err
	}
	return binary.Write(w, binary.LittleEndian, crc.Sum32())
}

// Load reads a solve written by Save: it rebuilds the spot's tree, checks that it is
// the one saved, and restores the iterations, regrets and strategy sums. Of opts only
// Workers is used; the store and the isomorphism are the saved solve's.
func Load(r io.Reader, opts Options) (*Solver, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrBadSave}, args...)...)
	}
	crc := crc32.NewIEEE()
	br := bufio.NewReaderSize(r, 1<<16)
	in := io.TeeReader(br, crc)
	magic := make([]byte, len(saveMagic))
	if _, err := io.ReadFull(in, magic); err != nil || string(magic) != saveMagic {
		return nil, bad("not a saved solve of this felt (want a file written by felt solve --save)")
	}
	line, err := readLine(in, 1<<20)
	if err != nil {
		return nil, bad("header: %v", err)
	}
	var h savedHeader
	if err := json.Unmarshal(line, &h); err != nil {
		return nil, bad("header: %v", err)
	}
	sp, err := h.spot()
	if err != nil {
		return nil, bad("%v", err)
	}
	// A file of known size bounds the tree its header may describe: the values
	// it holds take 8 bytes a value (4 compressed), the nodes are a few times that.
	var budget int64
	if size, ok := sizeOf(r); ok {
		budget = 8*size + 64<<20
	}
	s, err := New(sp, Options{Workers: opts.Workers, Compress: h.Compress, NoIsomorphism: h.NoIsomorphism, MaxMemory: budget})
	if err != nil {
		return nil, bad("%v", err)
	}
	if s.strategySize != h.Values || len(s.off) != h.Decisions {
		return nil, bad("the tree has %d values in %d decisions, the file %d in %d: saved by another version?", s.strategySize, len(s.off), h.Values, h.Decisions)
	}
	if h.Iterations < 0 || h.Interrupted < 0 || h.Interrupted > h.Iterations {
		return nil, bad("header: %d iterations, %d of them interrupted", h.Iterations, h.Interrupted)
	}
	if size, ok := sizeOf(r); ok && s.valueBytes() > size {
		return nil, bad("values: the file is cut short (%d bytes, its tree's values alone take %d)", size, s.valueBytes())
	}
	s.start()
	if s.compress {
		err = errors.Join(chunks(in, s.regret16, binary.Read), chunks(in, s.strat16, binary.Read), chunks(in, s.scale, binary.Read))
	} else {
		err = errors.Join(chunks(in, s.regret, binary.Read), chunks(in, s.strat, binary.Read))
	}
	var sum uint32
	if err == nil {
		want := crc.Sum32()
		if err = binary.Read(br, binary.LittleEndian, &sum); err == nil && sum != want {
			err = errors.New("checksum mismatch: the file is damaged")
		}
	}
	if err != nil {
		s.Close()
		return nil, bad("values: %v", err)
	}
	s.iter, s.cut = h.Iterations, h.Interrupted
	return s, nil
}

// valueBytes is what the solve's values take in a saved file.
func (s *Solver) valueBytes() int64 {
	if s.compress {
		return 4*int64(s.strategySize) + 8*int64(len(s.off))
	}
	return 8 * int64(s.strategySize)
}

// sizeOf returns the size of what r reads when r knows it (a file, a
// bytes.Reader), so that Load refuses a file cut short before it makes arrays
// of the size its header claims.
func sizeOf(r io.Reader) (int64, bool) {
	switch r := r.(type) {
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			return fi.Size(), true
		}
	case interface{ Size() int64 }:
		return r.Size(), true
	}
	return 0, false
}

// chunks reads or writes xs (little-endian) 64K values at a time, so that the
// encoding's buffer stays small whatever the solve's size. It stops at the first error.
func chunks[T float32 | uint16, RW any](rw RW, xs []T, f func(RW, binary.ByteOrder, any) error) error {
	for i := 0; i < len(xs); i += 1 << 16 {
		if err := f(rw, binary.LittleEndian, xs[i:min(i+1<<16, len(xs))]); err != nil {
			return err
		}
	}
	return nil
}

// spot rebuilds the saved spot.
func (h *savedHeader) spot() (Spot, error) {
	sp := Spot{Pot: h.Pot, Stack: h.Stack, Tree: h.Tree, Rake: h.Rake, RakeCap: h.RakeCap}
	var err error
	if sp.Board, err = cards.ParseList(h.Board); err != nil {
		return sp, err
	}
	for p := range 2 {
		if sp.Range[p], err = equity.RangeFromWeights(h.Weights[p]); err != nil {
			return sp, err
		}
	}
	return sp, nil
}

// readLine reads up to a newline, at most limit bytes.
func readLine(r io.Reader, limit int) ([]byte, error) {
	var out []byte
	b := make([]byte, 1)
	for len(out) < limit {
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, err
		}
		if b[0] == '\n' {
			return out, nil
		}
		out = append(out, b[0])
	}
	return nil, errors.New("line too long")
}
