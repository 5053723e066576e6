package cfr

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The packed strategy format: a Hold'em strategy small enough to build into
// felt. A gzip stream holding a 4-byte little-endian length, that many bytes of
// JSON header (PackHeader), then one byte per action of every information set in
// the order of HoldemGame.Infoset: the probability in 255ths, each information
// set's bytes summing to 255. The 50-bucket blueprint is 770,000 bytes before
// compression, against 49 MB for the JSON strategy file.
const (
	PackFormat  = "felt-cfr-pack"
	PackVersion = 1
	// PackQuantum is what an information set's bytes sum to.
	PackQuantum = 255
	// maxPackHeader bounds the header a reader accepts (the 50-bucket
	// abstraction's spec is about 40 kB).
	maxPackHeader = 4 << 20
)

// PackHeader is the header of a packed strategy: what produced it and the
// abstraction it plays in, as in a StrategyFile.
type PackHeader struct {
	Format      string           `json:"format"`  // PackFormat
	Version     int              `json:"version"` // PackVersion
	Game        string           `json:"game"`    // "hulhe"
	Algo        string           `json:"algo"`
	Iterations  int              `json:"iterations"`
	Seconds     float64          `json:"seconds"`
	Abstraction *AbstractionSpec `json:"abstraction"`
	Fingerprint string           `json:"fingerprint"`
	// Infosets and Slots are the betting tree's information sets and per-action
	// entries, checked against the tree the reader builds.
	Infosets int `json:"infosets"`
	Slots    int `json:"slots"`
}

// WritePacked writes p in the packed format with a's spec; the caller fills in
// h's Algo, Iterations and Seconds, and WritePacked the rest.
func (p *HoldemProfile) WritePacked(w io.Writer, a *Abstraction, h PackHeader) error {
	if a.Sizes() != p.g.buckets {
		return fmt.Errorf("hulhe: the abstraction's buckets %v are not the strategy's %v", a.Sizes(), p.g.buckets)
	}
	h.Format, h.Version, h.Game = PackFormat, PackVersion, holdemCheckpointGame
	h.Abstraction, h.Fingerprint = a.Spec(), a.Fingerprint()
	h.Infosets, h.Slots = p.g.infosets, p.g.slots
	head, err := json.Marshal(h)
	if err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	_ = binary.Write(bw, binary.LittleEndian, uint32(len(head)))
	_, _ = bw.Write(head)
	var q [3]byte
	for i := range p.g.infosets {
		n := quantize(p.Probs(i), q[:])
		_, _ = bw.Write(q[:n])
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// quantize writes probs (summing to 1) as bytes summing to PackQuantum into q,
// by largest remainders (ties to the first action), and returns how many.
func quantize(probs []float64, q []byte) int {
	var rest [3]float64
	sum := 0
	for a, x := range probs {
		v := max(x, 0) * PackQuantum
		q[a] = byte(min(v, PackQuantum))
		rest[a] = v - float64(q[a])
		sum += int(q[a])
	}
	for sum < PackQuantum {
		best := 0
		for a := range probs {
			if rest[a] > rest[best] {
				best = a
			}
		}
		q[best]++
		rest[best] = -1
		sum++
	}
	return len(probs)
}

// ReadPacked reads a strategy written by WritePacked and returns it with its
// header and its abstraction (computing buckets on the fly). It checks the
// header, the tree's size, every information set's sum and that nothing follows.
func ReadPacked(r io.Reader) (*HoldemProfile, *Abstraction, *PackHeader, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: packed strategy: %s", ErrBadFile, fmt.Sprintf(format, args...))
	}
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, nil, nil, bad("%v", err)
	}
	br := bufio.NewReader(zr)
	var n uint32
	if err := binary.Read(br, binary.LittleEndian, &n); err != nil {
		return nil, nil, nil, bad("%v", err)
	}
	if n > maxPackHeader {
		return nil, nil, nil, bad("a header of %d bytes", n)
	}
	head := make([]byte, n)
	if _, err := io.ReadFull(br, head); err != nil {
		return nil, nil, nil, bad("header: %v", err)
	}
	var h PackHeader
	if err := json.Unmarshal(head, &h); err != nil {
		return nil, nil, nil, bad("header: %v", err)
	}
	switch {
	case h.Format != PackFormat:
		return nil, nil, nil, bad("format %q, want %q", h.Format, PackFormat)
	case h.Version != PackVersion:
		return nil, nil, nil, bad("version %d, this felt reads %d", h.Version, PackVersion)
	case h.Game != holdemCheckpointGame || h.Abstraction == nil:
		return nil, nil, nil, bad("not a Hold'em strategy (game %q)", h.Game)
	}
	a, err := h.Abstraction.Abstraction()
	if err != nil {
		return nil, nil, nil, err
	}
	if h.Fingerprint != a.Fingerprint() {
		return nil, nil, nil, bad("the abstraction does not match its fingerprint")
	}
	g, err := NewHoldemGame(a.Sizes())
	if err != nil {
		return nil, nil, nil, err
	}
	if h.Infosets != g.infosets || h.Slots != g.slots {
		return nil, nil, nil, bad("%d information sets and %d actions, the tree has %d and %d", h.Infosets, h.Slots, g.infosets, g.slots)
	}
	q := make([]byte, g.slots)
	if _, err := io.ReadFull(br, q); err != nil {
		return nil, nil, nil, bad("probabilities: %v", err)
	}
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		return nil, nil, nil, bad("data after the probabilities")
	}
	p := &HoldemProfile{g: g, prob: make([]float64, g.slots)}
	for i := range g.infosets {
		sl, na := g.infosetSlot(i)
		sum := 0
		for k := sl; k < sl+na; k++ {
			sum += int(q[k])
			p.prob[k] = float64(q[k]) / PackQuantum
		}
		if sum != PackQuantum {
			return nil, nil, nil, bad("information set %d sums to %d/%d", i, sum, PackQuantum)
		}
	}
	return p, a, &h, nil
}
