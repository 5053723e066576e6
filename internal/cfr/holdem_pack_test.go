package cfr

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"testing"
)

// quantize keeps each information set's bytes summing to PackQuantum, each
// within one quantum of the probability.
func TestQuantize(t *testing.T) {
	for _, probs := range [][]float64{{1, 0, 0}, {1. / 3, 1. / 3, 1. / 3}, {0.5, 0.5}, {0.999, 0.001}, {0.2, 0.3, 0.5}, {0, 0, 1}, {1e-9, 1 - 2e-9, 1e-9}} {
		var q [3]byte
		n := quantize(probs, q[:])
		sum := 0
		for a, x := range probs {
			sum += int(q[a])
			if d := math.Abs(float64(q[a])/PackQuantum - x); d > 1./PackQuantum {
				t.Errorf("%v: %d/255 for %v", probs, q[a], x)
			}
		}
		if n != len(probs) || sum != PackQuantum {
			t.Errorf("%v: %v sums to %d", probs, q[:n], sum)
		}
	}
}

// smallPack trains a little in a small game (bucketed cheaply) and packs the
// average with an abstraction of the same sizes.
func smallPack(t *testing.T) (*HoldemProfile, *Abstraction, []byte) {
	t.Helper()
	a, err := BuildAbstraction(AbstractionConfig{Flop: 3, Turn: 3, River: 3, Bins: 4, Samples: 100, Seed: 1}, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewHoldemSolver(newCategoryBucketer(a.Sizes()), HoldemOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	s.Iterate(300)
	var buf bytes.Buffer
	p := s.Average()
	if err := p.WritePacked(&buf, a, PackHeader{Algo: "mccfr", Iterations: 300}); err != nil {
		t.Fatal(err)
	}
	return p, a, buf.Bytes()
}

// A packed strategy reads back as the same strategy to within a quantum, with
// its abstraction and header.
func TestPackRoundTrip(t *testing.T) {
	p, a, b := smallPack(t)
	q, qa, h, err := ReadPacked(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if qa.Fingerprint() != a.Fingerprint() || h.Iterations != 300 || h.Algo != "mccfr" || h.Infosets != p.g.infosets {
		t.Errorf("header %+v", h)
	}
	for i := range p.g.infosets {
		sum := 0.0
		for k, x := range q.Probs(i) {
			sum += x
			if d := math.Abs(x - p.Probs(i)[k]); d > 1./PackQuantum {
				t.Fatalf("information set %d: %v read back as %v", i, p.Probs(i), q.Probs(i))
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("information set %d sums to %v", i, sum)
		}
	}
}

// repack rewrites a pack's decompressed content through edit.
func repack(t *testing.T, b []byte, edit func(head *PackHeader, body []byte) []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	if _, err := raw.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	n := binary.LittleEndian.Uint32(raw.Bytes())
	var h PackHeader
	if err := json.Unmarshal(raw.Bytes()[4:4+n], &h); err != nil {
		t.Fatal(err)
	}
	body := edit(&h, bytes.Clone(raw.Bytes()[4+n:]))
	head, _ := json.Marshal(h)
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	_ = binary.Write(zw, binary.LittleEndian, uint32(len(head)))
	zw.Write(head)
	zw.Write(body)
	zw.Close()
	return out.Bytes()
}

// Every damaged or foreign pack is refused with ErrBadFile, never a panic.
func TestPackRefusesBadFiles(t *testing.T) {
	_, _, b := smallPack(t)
	bad := map[string][]byte{
		"empty":     nil,
		"not gzip":  []byte("{\"format\":\"felt-cfr-strategy\"}"),
		"truncated": b[:len(b)/2],
		"format": repack(t, b, func(h *PackHeader, body []byte) []byte {
			h.Format = StrategyFormat
			return body
		}),
		"version": repack(t, b, func(h *PackHeader, body []byte) []byte { h.Version = 2; return body }),
		"game":    repack(t, b, func(h *PackHeader, body []byte) []byte { h.Game = "leduc"; return body }),
		"fingerprint": repack(t, b, func(h *PackHeader, body []byte) []byte {
			h.Fingerprint = "0000000000000000"
			return body
		}),
		"tree size":   repack(t, b, func(h *PackHeader, body []byte) []byte { h.Slots++; return body }),
		"short body":  repack(t, b, func(_ *PackHeader, body []byte) []byte { return body[:len(body)-1] }),
		"long body":   repack(t, b, func(_ *PackHeader, body []byte) []byte { return append(body, 0) }),
		"bad sum":     repack(t, b, func(_ *PackHeader, body []byte) []byte { body[0]++; return body }),
		"huge header": append([]byte(nil), gzipOf([]byte{0xff, 0xff, 0xff, 0x7f})...),
	}
	for name, data := range bad {
		if _, _, _, err := ReadPacked(bytes.NewReader(data)); !errors.Is(err, ErrBadFile) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func gzipOf(b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(b)
	zw.Close()
	return out.Bytes()
}
