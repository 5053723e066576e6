package distrib

import (
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/lbr"
)

// item is one message of the work queue: deals Lo to Hi−1 of a run, with the
// run's whole specification (exactly one of Match and LBR).
type item struct {
	Protocol int        `json:"protocol"`
	Build    string     `json:"build"`
	Run      string     `json:"run"`
	Lo       int        `json:"lo"`
	Hi       int        `json:"hi"`
	Match    *matchSpec `json:"match,omitempty"`
	LBR      *lbrSpec   `json:"lbr,omitempty"`
}

// result is one message of the results stream: a worker's answer to an item,
// the outcomes of its deals in deal order, or why it failed or was refused.
type result struct {
	Protocol int             `json:"protocol"`
	Run      string          `json:"run"`
	Lo       int             `json:"lo"`
	Hi       int             `json:"hi"`
	Worker   string          `json:"worker"`
	Build    string          `json:"build"`
	Match    []arena.Outcome `json:"match,omitempty"`
	LBR      []lbr.Outcome   `json:"lbr,omitempty"`
	// Error is why the deals failed: the run fails, as it would on one machine.
	Error string `json:"error,omitempty"`
	// Refused is why the worker would not play the item (another build, a bot
	// it cannot make): the item goes to another worker.
	Refused string `json:"refused,omitempty"`
}

// matchSpec is an arena.MatchConfig on the wire.
type matchSpec struct {
	A     string `json:"a"`
	B     string `json:"b"`
	Game  string `json:"game"`
	Hands int    `json:"hands"`
	Seed  uint64 `json:"seed"`
	// First is the match's first deal (arena.MatchConfig.FirstDeal); items
	// number the match's deals from 0.
	First       int   `json:"first,omitempty"`
	Stack       int64 `json:"stack,omitempty"`
	DoubleEvery int   `json:"double_every,omitempty"`
	CV          bool  `json:"cv,omitempty"`
	BudgetNS    int64 `json:"budget_ns,omitempty"`
}

// lbrSpec is an lbr.Config on the wire.
type lbrSpec struct {
	Bot string `json:"bot"`
	// Game is the arena game's name ("" is nl, as from a build before limit LBR).
	Game  string `json:"game,omitempty"`
	Hands int    `json:"hands"`
	Seed  uint64 `json:"seed"`
	// First is the run's first deal (lbr.Config.FirstDeal); items number the
	// run's deals from 0.
	First   int       `json:"first,omitempty"`
	Sizes   []float64 `json:"sizes"`
	Samples int       `json:"samples"`
	Runouts int       `json:"runouts"`
	Preflop bool      `json:"preflop,omitempty"`
}

// newMatchSpec returns mc on the wire, or why it cannot be played elsewhere.
func newMatchSpec(mc *arena.MatchConfig) (*matchSpec, error) {
	if mc.Hand != nil {
		return nil, errors.New("distrib: a match whose hands are traced or written is played on one machine")
	}
	if g, err := arena.ParseGame(mc.Game.Name); err != nil || !reflect.DeepEqual(g, mc.Game) {
		return nil, fmt.Errorf("distrib: game %q is not one of the arena's", mc.Game.Name)
	}
	return &matchSpec{A: mc.A, B: mc.B, Game: mc.Game.Name, Hands: mc.Hands, Seed: mc.Seed, First: mc.FirstDeal, Stack: mc.Format.Stack,
		DoubleEvery: mc.Format.DoubleEvery, CV: mc.ControlVariate, BudgetNS: mc.Budget.Nanoseconds()}, nil
}

// config returns the match s describes, its bots made by newBot.
func (s *matchSpec) config(newBot func(string, bot.Options) (bot.Bot, error)) (arena.MatchConfig, error) {
	g, err := arena.ParseGame(s.Game)
	if err != nil {
		return arena.MatchConfig{}, err
	}
	return arena.MatchConfig{A: s.A, B: s.B, Game: g, Hands: s.Hands, Seed: s.Seed, FirstDeal: s.First, NewBot: newBot,
		Format: arena.Format{Stack: s.Stack, DoubleEvery: s.DoubleEvery}, ControlVariate: s.CV,
		Budget: time.Duration(s.BudgetNS)}, nil
}

// newLBRSpec returns c, which Prepare has filled in, on the wire, or why it
// cannot be played elsewhere.
func newLBRSpec(c *lbr.Config) (*lbrSpec, error) {
	if g, err := arena.ParseGame(c.Game.Name); err != nil || !reflect.DeepEqual(g, c.Game) {
		return nil, fmt.Errorf("distrib: game %q is not one of the arena's", c.Game.Name)
	}
	s := &lbrSpec{Bot: c.Bot, Game: c.Game.Name, Hands: c.Hands, Seed: c.Seed, First: c.FirstDeal, Samples: c.Samples, Runouts: c.Runouts, Preflop: c.Preflop}
	for _, z := range c.Sizes {
		s.Sizes = append(s.Sizes, float64(z))
	}
	return s, nil
}

// config returns the run s describes, its bot made by newBot.
func (s *lbrSpec) config(newBot func(string, bot.Options) (bot.Bot, error)) (lbr.Config, error) {
	c := lbr.Config{Bot: s.Bot, Hands: s.Hands, Seed: s.Seed, FirstDeal: s.First, Samples: s.Samples, Runouts: s.Runouts,
		Preflop: s.Preflop, NewBot: newBot, Sizes: []lbr.Size{}}
	if s.Game != "" {
		g, err := arena.ParseGame(s.Game)
		if err != nil {
			return lbr.Config{}, err
		}
		c.Game = g
	}
	for _, z := range s.Sizes {
		c.Sizes = append(c.Sizes, lbr.Size(z))
	}
	return c, nil
}

// checkNoLearner refuses a bot that learns from the hands it plays: its
// results depend on the deals each process played before. g is the game the
// bots play.
func checkNoLearner(newBot func(string, bot.Options) (bot.Bot, error), g *bot.Game, names ...string) error {
	for _, name := range names {
		b, err := newBot(name, bot.Options{Game: g})
		if err != nil {
			return err
		}
		if _, ok := b.(bot.Learner); ok {
			return fmt.Errorf("distrib: %s learns from the hands it plays, so its results depend on which deals each process played before; play it on one machine with --workers 1", name)
		}
	}
	return nil
}
