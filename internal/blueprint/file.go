package blueprint

import (
	"compress/gzip"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/felt-poker/felt/internal/cfr"
)

// ErrBadFile is wrapped by Read for anything that is not a blueprint it can use.
var ErrBadFile = errors.New("blueprint: bad file")

// fileVersion is the blueprint file format's version.
const fileVersion = 1

// maxDepths bounds the depths a file may hold (the shipped blueprint has 4):
// each builds its betting tree, so a file of many tiny depth records would
// otherwise cost unbounded time and memory.
const maxDepths = 64

// fileRecord is a blueprint file: gzip around gob.
type fileRecord struct {
	Version int
	Spec    cfr.AbstractionSpec
	Depths  []depthRecord
}

// depthRecord is one depth: its tree (rebuilt on reading) and the strategy of the
// kept rounds, each probability in 1/255ths, in the order of Depth.probs.
type depthRecord struct {
	BB, Iterations int
	Tree           cfr.NoLimitTree
	Probs          []uint8
}

// Write writes the blueprint, each probability rounded to a 255th.
func (bp *Blueprint) Write(w io.Writer) error {
	rec := fileRecord{Version: fileVersion, Spec: *bp.abs.Spec()}
	for _, d := range bp.depths {
		q := make([]uint8, len(d.probs))
		for i, p := range d.probs {
			q[i] = uint8(math.Round(float64(p) * 255))
		}
		rec.Depths = append(rec.Depths, depthRecord{BB: d.BB, Iterations: d.Iterations, Tree: d.tree, Probs: q})
	}
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if err := gob.NewEncoder(zw).Encode(&rec); err != nil {
		return err
	}
	return zw.Close()
}

// Read reads a blueprint written by Write: the probabilities of each information
// set are scaled to sum to 1 (uniform if all rounded to 0).
func Read(r io.Reader) (*Blueprint, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadFile, err)
	}
	var rec fileRecord
	if err := gob.NewDecoder(zr).Decode(&rec); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadFile, err)
	}
	if rec.Version != fileVersion {
		return nil, fmt.Errorf("%w: version %d, this felt reads %d", ErrBadFile, rec.Version, fileVersion)
	}
	a, err := rec.Spec.Abstraction()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadFile, err)
	}
	if len(rec.Depths) == 0 || len(rec.Depths) > maxDepths {
		return nil, fmt.Errorf("%w: %d depths (want 1 to %d)", ErrBadFile, len(rec.Depths), maxDepths)
	}
	bp := &Blueprint{abs: a}
	for _, dr := range rec.Depths {
		if dr.BB < 1 || dr.Tree.Stack != 2*dr.BB {
			return nil, fmt.Errorf("%w: depth %d does not fit its tree", ErrBadFile, dr.BB)
		}
		g, err := cfr.NewNoLimitGame(a.Sizes(), dr.Tree)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadFile, err)
		}
		d := &Depth{BB: dr.BB, Iterations: dr.Iterations, tree: dr.Tree, g: g}
		if len(dr.Probs) != d.layout() { // before probs is made: the file's own length bounds it
			return nil, fmt.Errorf("%w: depth %d does not fit its tree", ErrBadFile, dr.BB)
		}
		d.probs = make([]float32, len(dr.Probs))
		d.fill(dr.Probs)
		if n := len(bp.depths); n > 0 && bp.depths[n-1].BB >= d.BB {
			return nil, fmt.Errorf("%w: depths out of order", ErrBadFile)
		}
		bp.depths = append(bp.depths, d)
	}
	return bp, nil
}

// fill sets the probabilities from their 255ths, information set by information set.
func (d *Depth) fill(q []uint8) {
	for n := range int32(d.g.NumNodes()) {
		if d.off[n] < 0 {
			continue
		}
		nd := d.g.Node(n)
		na := len(nd.Actions)
		for b := range d.g.Buckets()[nd.Round] {
			i := int(d.off[n]) + b*na
			sum := 0
			for _, x := range q[i : i+na] {
				sum += int(x)
			}
			for a := range na {
				if sum == 0 {
					d.probs[i+a] = 1 / float32(na)
				} else {
					d.probs[i+a] = float32(q[i+a]) / float32(sum)
				}
			}
		}
	}
}
