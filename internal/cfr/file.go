package cfr

import (
	"bufio"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"time"
)

// Formats and versions of felt's CFR files.
const (
	StrategyFormat    = "felt-cfr-strategy"
	StrategyVersion   = 1
	checkpointMagic   = "felt-cfr-checkpoint"
	checkpointVersion = 1
)

// ErrBadFile is wrapped by the readers for a file that is not what they expect.
var ErrBadFile = errors.New("bad cfr file")

// StrategyFile is the JSON document of a strategy file: a header saying what
// produced it, then every information set with its action probabilities.
type StrategyFile struct {
	Format     string  `json:"format"`  // StrategyFormat
	Version    int     `json:"version"` // StrategyVersion
	Game       string  `json:"game"`
	Algo       string  `json:"algo"`
	Iterations int     `json:"iterations"`
	Seconds    float64 `json:"seconds"`
	// ExploitabilityMChips is the strategy's exploitability in milli-chips per game
	// (games solved exactly only; omitted otherwise).
	ExploitabilityMChips *float64 `json:"exploitability_mchips,omitempty"`
	// Abstraction is the card abstraction of a Hold'em strategy (omitted otherwise),
	// and Fingerprint its Abstraction.Fingerprint.
	Abstraction *AbstractionSpec `json:"abstraction,omitempty"`
	Fingerprint string           `json:"fingerprint,omitempty"`
	Infosets    []InfosetProbs   `json:"infosets"`
}

// InfosetProbs is one information set of a StrategyFile.
type InfosetProbs struct {
	Key     string    `json:"key"`     // Infoset.Key
	Player  int       `json:"player"`  // 0 or 1
	Actions string    `json:"actions"` // Infoset.Actions
	Probs   []float64 `json:"probs"`   // one per action, summing to 1
}

// StrategyFile returns p as a strategy file's document, with the header fields
// other than Format, Version, Game and Infosets left for the caller.
func (p *Profile) StrategyFile() *StrategyFile {
	f := &StrategyFile{Format: StrategyFormat, Version: StrategyVersion, Game: p.g.name}
	for i := range p.g.infosets {
		in := p.g.Infoset(i)
		f.Infosets = append(f.Infosets, InfosetProbs{Key: in.Key, Player: in.Player, Actions: in.Actions,
			Probs: append([]float64(nil), p.Probs(i)...)})
	}
	return f
}

// Write writes f as indented JSON.
func (f *StrategyFile) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(f)
}

// ReadStrategyFile reads a strategy file and checks its header.
func ReadStrategyFile(r io.Reader) (*StrategyFile, error) {
	var f StrategyFile
	if err := json.NewDecoder(r).Decode(&f); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadFile, err)
	}
	if f.Format != StrategyFormat {
		return nil, fmt.Errorf("%w: format %q, want %q", ErrBadFile, f.Format, StrategyFormat)
	}
	if f.Version != StrategyVersion {
		return nil, fmt.Errorf("%w: strategy version %d, this felt reads %d", ErrBadFile, f.Version, StrategyVersion)
	}
	return &f, nil
}

// Profile returns the strategy in f as a profile of g, checking that f holds every
// information set of g exactly once with the same actions.
func (f *StrategyFile) Profile(g *Game) (*Profile, error) {
	if f.Game != g.name {
		return nil, fmt.Errorf("%w: strategy for %q, not %q", ErrBadFile, f.Game, g.name)
	}
	if len(f.Infosets) != g.infosets {
		return nil, fmt.Errorf("%w: %d information sets, %s has %d", ErrBadFile, len(f.Infosets), g.name, g.infosets)
	}
	index := make(map[string]int, g.infosets)
	for i := range g.infosets {
		index[g.Infoset(i).Key] = i
	}
	p := &Profile{g: g, prob: make([]float64, g.slots)}
	seen := make([]bool, g.infosets)
	for _, in := range f.Infosets {
		i, ok := index[in.Key]
		if !ok || seen[i] {
			return nil, fmt.Errorf("%w: unknown or repeated information set %q", ErrBadFile, in.Key)
		}
		seen[i] = true
		if want := g.Infoset(i); in.Actions != want.Actions || in.Player != want.Player {
			return nil, fmt.Errorf("%w: information set %q: player %d actions %q, want %d %q",
				ErrBadFile, in.Key, in.Player, in.Actions, want.Player, want.Actions)
		}
		if err := p.SetProbs(i, in.Probs); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadFile, err)
		}
	}
	return p, nil
}

// checkpoint is what a checkpoint file holds after its header line. The fields
// after RNG are Hold'em's (HoldemSolver); gob leaves them zero in the others.
type checkpoint struct {
	Game        string
	Algo        string
	Alternating bool
	Iterations  int
	Elapsed     time.Duration
	Slots       int
	Regret, Sum []float64
	RNG         []byte

	Threads        int
	RNGs           [][]byte // one stream per thread
	Abstraction    string   // the abstraction's fingerprint
	Buckets        [4]int
	PruneAfter     int
	PruneThreshold float64
	Seed           uint64
	Averaging      string // HoldemOptions.Averaging; "" in older checkpoints: uniform
}

// writeCheckpointRecord writes the header line and c.
func writeCheckpointRecord(w io.Writer, c *checkpoint) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s %d\n", checkpointMagic, checkpointVersion)
	if err := gob.NewEncoder(bw).Encode(c); err != nil {
		return err
	}
	return bw.Flush()
}

// readCheckpointRecord checks the header line and reads the record.
func readCheckpointRecord(r io.Reader) (*checkpoint, error) {
	br := bufio.NewReader(r)
	var magic string
	var version int
	if _, err := fmt.Fscanf(br, "%s %d\n", &magic, &version); err != nil || magic != checkpointMagic {
		return nil, fmt.Errorf("%w: not a felt CFR checkpoint", ErrBadFile)
	}
	if version != checkpointVersion {
		return nil, fmt.Errorf("%w: checkpoint version %d, this felt reads %d", ErrBadFile, version, checkpointVersion)
	}
	var c checkpoint
	if err := gob.NewDecoder(br).Decode(&c); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadFile, err)
	}
	return &c, nil
}

// WriteCheckpoint writes the solver's whole state, and the training time so far,
// so that ReadCheckpoint can resume it: a header line "felt-cfr-checkpoint 1"
// followed by a gob-encoded record.
func (s *Solver) WriteCheckpoint(w io.Writer, elapsed time.Duration) error {
	rng, err := s.src.MarshalBinary()
	if err != nil {
		return err
	}
	c := checkpoint{Game: s.g.name, Algo: s.algo.String(), Alternating: s.alt, Iterations: s.iter,
		Elapsed: elapsed, Slots: s.g.slots, Regret: s.regret, Sum: s.sum, RNG: rng}
	return writeCheckpointRecord(w, &c)
}

// ReadCheckpoint reads a checkpoint written by WriteCheckpoint and returns the
// solver, ready to continue, with the training time recorded in it.
func ReadCheckpoint(r io.Reader) (*Solver, time.Duration, error) {
	c, err := readCheckpointRecord(r)
	if err != nil {
		return nil, 0, err
	}
	g, err := NewGame(c.Game)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %v", ErrBadFile, err)
	}
	algo, err := ParseAlgorithm(c.Algo)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %v", ErrBadFile, err)
	}
	if c.Slots != g.slots || len(c.Regret) != g.slots || len(c.Sum) != g.slots || c.Iterations < 0 {
		return nil, 0, fmt.Errorf("%w: checkpoint does not fit %s", ErrBadFile, g.name)
	}
	upd := Simultaneous
	if c.Alternating {
		upd = Alternating
	}
	if algo == MCCFR {
		upd = DefaultUpdates
	}
	s, err := NewSolver(g, Options{Algorithm: algo, Updates: upd})
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %v", ErrBadFile, err)
	}
	if err := s.src.UnmarshalBinary(c.RNG); err != nil {
		return nil, 0, fmt.Errorf("%w: random stream: %v", ErrBadFile, err)
	}
	s.rng = rand.New(s.src)
	s.iter = c.Iterations
	copy(s.regret, c.Regret)
	copy(s.sum, c.Sum)
	s.resetCurrent()
	return s, c.Elapsed, nil
}
