package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/felt-poker/felt/internal/blueprint"
)

// blueprintCmd is "felt blueprint": trains the heads-up no-limit blueprint.
type blueprintCmd struct {
	Out         string `help:"Where to write the blueprint." default:"internal/blueprint/blueprint.bin" type:"path"`
	Abstraction string `help:"The card abstraction file (cfr's default, with tables), built and written if missing." default:"hulhe-50-50-50.abs" type:"path"`
	Depths      string `help:"Stack depths in big blinds, comma-separated." default:"20,50,100,200"`
	Iterations  string `help:"MCCFR iterations per depth: one number for all, or one per depth." default:"2000000"`
	Seed        uint64 `help:"Seed of the traversals." default:"1"`
	Threads     int    `help:"Traversal streams; the result depends on it and the seed only." default:"2"`
	NoPrune     bool   `help:"Train without regret-based pruning (an experiment: slower)."`
}

// Help is the long help of "felt blueprint".
func (c *blueprintCmd) Help() string {
	return `Trains felt's heads-up no-limit Hold'em blueprint (internal/blueprint; docs/bots.md,
resolve): external-sampling MCCFR at each stack depth on a small betting tree, in the card
abstraction of felt train hulhe, and writes the preflop and flop strategies, compressed, to
--out (built into felt). Progress (rate, time left) goes to stderr. The exact command that
built the shipped file is in internal/blueprint/README.md.`
}

// Run is called by kong.
func (c *blueprintCmd) Run(ctx context.Context) error {
	var o blueprint.TrainOptions
	for _, list := range []struct {
		s   string
		out *[]int
	}{{c.Depths, &o.Depths}, {c.Iterations, &o.Iterations}} {
		for _, f := range strings.Split(list.s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				return usageError("%q: want positive whole numbers, comma-separated", list.s)
			}
			*list.out = append(*list.out, n)
		}
	}
	o.Seed, o.Threads, o.Progress, o.NoPrune = c.Seed, c.Threads, os.Stderr, c.NoPrune
	a, err := blueprint.Abstraction(c.Abstraction, os.Stderr)
	if err != nil {
		return err
	}
	bp, err := blueprint.Train(ctx, a, o)
	if err != nil {
		return err
	}
	f, err := os.Create(c.Out + ".tmp")
	if err != nil {
		return err
	}
	if err := bp.Write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(c.Out+".tmp", c.Out); err != nil {
		return err
	}
	fmt.Printf("blueprint: depths %v, %v iterations, written to %s\n", o.Depths, o.Iterations, c.Out)
	return nil
}
