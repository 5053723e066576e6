package history

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/felt-poker/felt/internal/cards"
)

// SeedCommitment is what a house publishes before dealing a hand: the SHA-256,
// in lower-case hex, of the text "KEY:SEED", the hand's key then a colon then
// the seed's 64 lower-case hex digits. Binding the key to the seed means that
// one seed cannot be published for one hand and used for another; anyone can
// check it with sha256sum once the seed is out.
func SeedCommitment(handKey string, seed cards.Seed) string {
	sum := sha256.Sum256([]byte(handKey + ":" + seed.String()))
	return hex.EncodeToString(sum[:])
}

// Verdict is what Verify found.
type Verdict struct {
	// Commitment is SeedCommitment of the file's _hand_key and _seed.
	Commitment string
	// Published is the commitment checked against: the one given, or the file's
	// _seed_sha256.
	Published string
}

// ErrUnfair reports a hand whose seed does not match the commitment published
// before it, or whose cards are not the seed's.
var ErrUnfair = errors.New("the deal does not match its commitment")

// Verify checks that a hand was dealt fairly: that SeedCommitment of its
// _hand_key and _seed is the commitment published before the deal (published,
// or the file's _seed_sha256 when published is empty), and that the hand replays
// from the seed with every card it names. A failed check wraps ErrUnfair (a
// commitment mismatch, no seed) or ErrMismatch (a card that is not the seed's).
func (p *PHH) Verify(published string) (Verdict, error) {
	if p.Seed == "" {
		return Verdict{}, fmt.Errorf("%w: the hand has no _seed", ErrUnfair)
	}
	seed, err := cards.ParseSeed(p.Seed)
	if err != nil {
		return Verdict{}, fmt.Errorf("%w: _seed: %v", ErrUnfair, err)
	}
	v := Verdict{Commitment: SeedCommitment(p.HandKey, seed), Published: published}
	if v.Published == "" {
		v.Published = p.SeedSHA256
	}
	if v.Published == "" {
		return v, fmt.Errorf("%w: no commitment to check (give one, or a file with _seed_sha256)", ErrUnfair)
	}
	if v.Published != v.Commitment {
		return v, fmt.Errorf("%w: SHA-256 of %q is %s, the published commitment is %s", ErrUnfair, p.HandKey+":"+seed.String(), v.Commitment, v.Published)
	}
	if _, _, err := p.Replay(); err != nil {
		return v, err
	}
	return v, nil
}
