package arena

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/engine"
)

// LeagueConfig describes a league: every bot plays a duplicate match against every
// other, all with the same seed (so every pairing sees the same deals).
type LeagueConfig struct {
	Bots []string
	Game Game
	// Hands per pairing, Seed, Workers, Progress and NewBot as in MatchConfig.
	Hands    int
	Seed     uint64
	Workers  int
	Progress func(hands int)
	NewBot   func(name string, o bot.Options) (bot.Bot, error)
	// Hand, when not nil, is MatchConfig.Hand for the match of Bots[i] (as A)
	// against Bots[j], i < j; the pairings are played in turn, i then j ascending.
	Hand func(i, j int, cfg engine.Config, h *engine.Hand, players []string) error
	// Match plays each pairing (nil: Match); internal/arena/distrib plays them
	// on other machines.
	Match MatchFunc
}

// MatchFunc plays a match as Match does: leagues and gauntlets take one, so
// that their matches may be played elsewhere with the same result.
type MatchFunc func(ctx context.Context, mc MatchConfig) (Result, error)

// orMatch returns f, or Match when f is nil.
func (f MatchFunc) orMatch() MatchFunc {
	if f == nil {
		return Match
	}
	return f
}

// League is the outcome of a league.
type League struct {
	Bots []string
	// Matches[i][j] is the match of bot i against bot j from i's side (Matches[i][i]
	// is the zero Result). Only the pairing i < j is played; its mirror is derived.
	Matches [][]Result
	// Ranking lists the bots by average bb/100 against all the others, best first.
	Ranking []Standing
}

// Standing is one bot's place in a league.
type Standing struct {
	Bot string
	// BBPer100 is the bot's mean win rate over its matches, CI95 the half-width of
	// that mean's 95% interval (the matches are independent).
	BBPer100, CI95 float64
}

// PlayLeague plays every pairing of the bots in turn, each on all cores.
func PlayLeague(ctx context.Context, lc LeagueConfig) (League, error) {
	n := len(lc.Bots)
	if n < 2 {
		return League{}, fmt.Errorf("a league needs at least two bots, not %d", n)
	}
	l := League{Bots: slices.Clone(lc.Bots), Matches: make([][]Result, n)}
	for i := range l.Matches {
		l.Matches[i] = make([]Result, n)
	}
	play := lc.Match.orMatch()
	for i := range n {
		for j := i + 1; j < n; j++ {
			mc := MatchConfig{A: lc.Bots[i], B: lc.Bots[j], Game: lc.Game, Hands: lc.Hands,
				Seed: lc.Seed, Workers: lc.Workers, Progress: lc.Progress, NewBot: lc.NewBot}
			if lc.Hand != nil {
				mc.Hand = func(cfg engine.Config, h *engine.Hand, players []string) error {
					return lc.Hand(i, j, cfg, h, players)
				}
			}
			r, err := play(ctx, mc)
			if err != nil {
				return League{}, fmt.Errorf("%s against %s: %w", lc.Bots[i], lc.Bots[j], err)
			}
			l.Matches[i][j], l.Matches[j][i] = r, r.Mirror()
		}
	}
	for i := range n {
		s := Standing{Bot: lc.Bots[i]}
		var v float64
		for j := range n {
			if j != i {
				s.BBPer100 += l.Matches[i][j].BBPer100
				v += l.Matches[i][j].CI95 * l.Matches[i][j].CI95
			}
		}
		s.BBPer100 /= float64(n - 1)
		s.CI95 = math.Sqrt(v) / float64(n-1)
		l.Ranking = append(l.Ranking, s)
	}
	slices.SortStableFunc(l.Ranking, func(a, b Standing) int { return -cmp.Compare(a.BBPer100, b.BBPer100) })
	return l, nil
}

// Mirror returns the result from bot B's side.
func (r Result) Mirror() Result {
	m := r
	m.A, m.B = r.B, r.A
	m.Chips, m.BBPer100, m.MBBPerGame = -r.Chips, -r.BBPer100, -r.MBBPerGame
	return m
}
