package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// benchEngineCmd measures the rules engine as BenchmarkRandomHands6MaxNL in
// internal/engine does: complete 6-max no-limit hands with random legal actions.
type benchEngineCmd struct {
	Hands int  `default:"1000000" help:"Complete hands to play."`
	JSON  bool `help:"Print one JSON object: hands_per_second, allocs_per_hand, hands."`
}

// engineFigures are the results of "felt bench engine".
type engineFigures struct {
	HandsPerSecond float64 `json:"hands_per_second"`
	AllocsPerHand  float64 `json:"allocs_per_hand"`
	Hands          int     `json:"hands"`
}

func (c *benchEngineCmd) Run() error {
	return c.run(os.Stdout)
}

func (c *benchEngineCmd) run(w io.Writer) error {
	if c.Hands < 1 {
		return usageError("--hands must be at least 1")
	}
	f, err := benchEngine(c.Hands)
	if err != nil {
		return err
	}
	if c.JSON {
		return json.NewEncoder(w).Encode(f)
	}
	fmt.Fprintf(w, "engine  %10.0f hands/s  %.2f allocs/hand  (%d complete 6-max no-limit hands, random legal actions, one core)\n",
		f.HandsPerSecond, f.AllocsPerHand, f.Hands)
	return nil
}

// benchWarmup hands are played before measuring, so that the hand's event and action
// logs have grown to the size a hand needs.
const benchWarmup = 1000

// benchEngine plays hands complete 6-max no-limit hands (stacks of 100 big blinds,
// blinds 1/2) in one goroutine, each shuffled by its own seed with the button moving
// one seat a hand, and returns hands per second and heap allocations per hand
// (runtime.MemStats.Mallocs before and after).
func benchEngine(hands int) (engineFigures, error) {
	cfg := engine.Config{Variant: engine.Holdem, Structure: engine.NoLimit,
		Stacks: []int64{200, 200, 200, 200, 200, 200}, SmallBlind: 1, BigBlind: 2}
	h, err := engine.New(cfg)
	if err != nil {
		return engineFigures{}, err
	}
	r := rand.New(rand.NewPCG(1, 2))
	if err := playHands(h, cfg, r, 1<<63, benchWarmup); err != nil {
		return engineFigures{}, err
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	err = playHands(h, cfg, r, 0, hands)
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	if err != nil {
		return engineFigures{}, err
	}
	return engineFigures{
		HandsPerSecond: float64(hands) / elapsed.Seconds(),
		AllocsPerHand:  float64(after.Mallocs-before.Mallocs) / float64(hands),
		Hands:          hands,
	}, nil
}

// playHands plays n hands in h, shuffled by seeds from, from+1, ..., the button on
// seat seed%6.
func playHands(h *engine.Hand, cfg engine.Config, r *rand.Rand, from uint64, n int) error {
	for i := from; i < from+uint64(n); i++ {
		cfg.Seed = cards.SeedFromUint64(i)
		cfg.Button = int(i % 6)
		if err := h.Reset(cfg); err != nil {
			return err
		}
		if err := engine.PlayOut(h, r); err != nil {
			return fmt.Errorf("hand with seed %d: %w", i, err)
		}
	}
	return nil
}
