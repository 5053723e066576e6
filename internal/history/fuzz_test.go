package history

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/felt-poker/felt/internal/engine"
)

// FuzzParse feeds the PHH reader any text: it must not panic, and a file it accepts
// must either replay or say why not with one of the package's errors.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.phh*")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, base := range configs {
		cfg, h := randomHand(f, base, 3, r)
		p, err := FromHand(cfg, h, Info{})
		if err != nil {
			f.Fatal(err)
		}
		text, _ := p.Marshal()
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		hands, err := ParseAll(data)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("ParseAll error %v wraps no ErrFormat", err)
			}
			return
		}
		for _, p := range hands {
			_, h, err := p.Replay()
			if err != nil {
				if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrMismatch) {
					t.Fatalf("Replay error %v wraps none of the package's errors", err)
				}
				continue
			}
			// A hand that replays writes back and replays again to the same finish.
			cfg, _, _ := p.Config()
			q, err := FromHand(cfg, h, Info{})
			if err != nil {
				t.Fatal(err)
			}
			if _, h2, err := q.Replay(); err != nil || !sameStacks(h, h2) {
				t.Fatalf("rewritten hand does not replay the same: %v", err)
			}
		}
	})
}

func sameStacks(a, b *engine.Hand) bool {
	for i := 0; i < a.Seats(); i++ {
		if a.Stack(i) != b.Stack(i) {
			return false
		}
	}
	return a.Seats() == b.Seats()
}

// FuzzVerify feeds the fairness check of felt verify (Parse, then Verify) any
// text: no panic; a refusal wraps one of the package's errors; a hand that
// verifies has the commitment of its own key and seed, and fails against any
// other commitment.
func FuzzVerify(f *testing.F) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, base := range configs {
		cfg, h := randomHand(f, base, 3, r)
		p, err := FromHand(cfg, h, Info{})
		if err != nil {
			f.Fatal(err)
		}
		p.HandKey = "t7:12"
		p.SeedSHA256 = SeedCommitment(p.HandKey, cfg.Seed)
		text, _ := p.Marshal()
		f.Add(text, "")
		f.Add(text, p.SeedSHA256)
		f.Add(text, SeedCommitment("t7:13", cfg.Seed))
	}
	f.Fuzz(func(t *testing.T, data []byte, published string) {
		p, err := Parse(data)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("Parse error %v wraps no ErrFormat", err)
			}
			return
		}
		v, err := p.Verify(published)
		if err != nil {
			if !errors.Is(err, ErrUnfair) && !errors.Is(err, ErrFormat) && !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrMismatch) {
				t.Fatalf("Verify error %v wraps none of the package's errors", err)
			}
			return
		}
		if v.Commitment != v.Published || (published != "" && published != v.Commitment) {
			t.Fatalf("verified against %q: %+v", published, v)
		}
		if _, err := p.Verify(v.Commitment + "0"); !errors.Is(err, ErrUnfair) {
			t.Fatalf("verified against another commitment: %v", err)
		}
	})
}
