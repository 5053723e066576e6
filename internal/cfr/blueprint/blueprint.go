package blueprint

import (
	"bytes"
	_ "embed"
	"sync"

	"github.com/felt-poker/felt/internal/cfr"
)

// hulhePack is the heads-up limit Hold'em strategy, in cfr's packed format (the
// command that rebuilds it is in doc.go).
//
//go:embed hulhe.pack
var hulhePack []byte

// MaxPackBytes bounds the committed strategy: a test fails past it.
const MaxPackBytes = 16 << 20

// Strategy is a built-in strategy: the profile, the abstraction it plays in and
// the header saying how it was trained. It is shared and must not be changed;
// both profile and abstraction are safe for concurrent reads.
type Strategy struct {
	Profile     *cfr.HoldemProfile
	Abstraction *cfr.Abstraction
	Header      *cfr.PackHeader
}

// Hulhe returns the heads-up limit Hold'em strategy, read from the binary the
// first time (about 0.1 s) and shared afterwards.
var Hulhe = sync.OnceValues(func() (*Strategy, error) {
	p, a, h, err := cfr.ReadPacked(bytes.NewReader(hulhePack))
	if err != nil {
		return nil, err
	}
	return &Strategy{Profile: p, Abstraction: a, Header: h}, nil
})
