package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/felt-poker/felt/internal/history"
)

// verifyCmd is "felt verify": checks that a hand from a felt house was dealt from
// the seed committed to before the deal.
type verifyCmd struct {
	File string `arg:"" name:"file" help:"A hand: a .phh file, or the JSON of GET /api/hands/{id}."`
	Hash string `help:"The seed_sha256 the house published before the hand (default: the file's _seed_sha256)."`
}

// Help is the long help of "felt verify".
func (c *verifyCmd) Help() string {
	return `Checks a provably fair deal. Before each hand a felt house publishes seed_sha256,
the SHA-256 of "HAND_KEY:SEED"; the seed is in the stored hand once the hand is
public (GET /api/hands/{id}, a day after the hand by default: before, the reply
hides the cards you did not see and the seed). felt verify recomputes that hash
from the file's _hand_key and _seed, compares it with --hash (what you saw at the table)
or else the file's _seed_sha256, and replays the hand from the seed through the engine:
every card the file names must be the card the seed deals. It prints the verdict and
exits 1 when a check fails (2 for a file it cannot read).`
}

// Run is called by kong.
func (c *verifyCmd) Run() error { return c.run(os.Stdout) }

func (c *verifyCmd) run(stdout io.Writer) error {
	data, err := os.ReadFile(c.File)
	if err != nil {
		return usageError("%v", err)
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' { // GET /api/hands/{id}
		var h struct {
			PHH string `json:"phh"`
		}
		if err := json.Unmarshal(t, &h); err != nil || h.PHH == "" {
			return usageError("%s: JSON without a phh field", c.File)
		}
		data = []byte(h.PHH)
	}
	p, err := history.Parse(data)
	if err != nil {
		return usageError("%s: %v", c.File, err)
	}
	hash := strings.ToLower(strings.TrimSpace(c.Hash))
	v, err := p.Verify(hash)
	fmt.Fprintf(stdout, "hand        %s\n", orNone(p.HandKey))
	fmt.Fprintf(stdout, "seed        %s\n", orNone(p.Seed))
	if v.Commitment != "" {
		fmt.Fprintf(stdout, "SHA-256     %s  (of \"hand_key:seed\")\n", v.Commitment)
		from := "the file's _seed_sha256"
		if hash != "" {
			from = "--hash"
		}
		fmt.Fprintf(stdout, "published   %s  (%s)\n", orNone(v.Published), from)
	}
	if err != nil {
		fmt.Fprintf(stdout, "verdict     NOT VERIFIED: %v\n", err)
		return &exitError{code: 1, err: errors.New("the hand does not verify")}
	}
	fmt.Fprintln(stdout, "deal        replays from the seed: every card named is the card dealt")
	fmt.Fprintln(stdout, "verdict     FAIR: the seed matches the commitment and deals this hand")
	return nil
}
