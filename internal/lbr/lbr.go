// Package lbr measures how much a Hold'em bot can be beaten by Local Best
// Response (Lisý and Bowling, "Equilibrium Approximation Quality of Current
// No-Limit Poker Bots", 2017), heads-up in the arena's no-limit game or, with
// Config.Game, its pot-limit or fixed-limit one (where every size LBR considers
// is the one raise the rules allow: fold, call or raise).
//
// LBR keeps the bot's range: a weight on each of the 1,326 two-card hands,
// starting at 1 for every hand without a card LBR sees and multiplied, after each
// action of the bot, by the probability the bot takes that action with that hand.
// It asks the bot: exactly when the bot is a bot.Strategist that can answer,
// otherwise by calling its Act Samples times on its own view with the candidate
// hand in place of its cards (each bot decision then costs up to 1,326 × Samples
// calls of Act, and each bet LBR considers as many again). At each of its
// decisions LBR takes, among fold, check or call and a bet or raise of each size,
// the action with the most value assuming that both players then only check and
// call to the end (value.go), its equity computed against the range: exactly on
// the turn and the river, from sampled runouts on the flop and before it. Before
// the flop LBR only checks or calls unless Config.Preflop is set (the paper's
// variant of LBR does the same).
package lbr

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// Size is a bet or raise size LBR considers: a fraction of the pot the raise
// adds after the call (1 is a pot-size bet or raise), or AllIn.
type Size float64

// AllIn is the size that puts every chip in.
const AllIn Size = -1

// to returns the amount to bet or raise to for s, within l's bounds.
func (s Size) to(pot int64, l engine.Legal) int64 {
	if s == AllIn {
		return l.MaxTo
	}
	toCall := l.CurrentBet - l.Committed
	to := l.CurrentBet + int64(float64(s)*float64(pot+toCall))
	return min(max(to, l.MinTo), l.MaxTo)
}

// String writes a size as felt lbr --sizes takes it: "allin" or the fraction.
func (s Size) String() string {
	if s == AllIn {
		return "allin"
	}
	return strconv.FormatFloat(float64(s), 'g', -1, 64)
}

// ParseSizes reads a comma-separated list of sizes: pot fractions (0.5, 1, 2)
// or allin.
func ParseSizes(text string) ([]Size, error) {
	var out []Size
	for _, f := range strings.Split(text, ",") {
		f = strings.TrimSpace(f)
		if f == "allin" {
			out = append(out, AllIn)
			continue
		}
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || !(x > 0 && x <= 100) {
			return nil, fmt.Errorf("bet size %q: want a fraction of the pot above 0 and at most 100, or allin", f)
		}
		out = append(out, Size(x))
	}
	return out, nil
}

// Config describes an LBR run against one bot.
type Config struct {
	// Bot is the bot measured, as bot.New names it.
	Bot string
	// Game is the arena's game played: a heads-up Hold'em game (nl, pl or
	// limit); the zero Game is nl.
	Game arena.Game
	// Hands to play, rounded up to an even number: each deal is played twice,
	// LBR in one seat and then in the other.
	Hands int
	// Seed fixes every card and decision; the result does not depend on Workers.
	Seed uint64
	// FirstDeal is the first deal of the seed's sequence the run plays: it plays
	// deals FirstDeal to FirstDeal+(Hands+1)/2−1. A deal's cards and streams
	// depend only on Seed and its number, so runs of adjacent ranges give the
	// same outcomes, deal by deal, as one run of their union (unless the bot
	// learns: bot.Learner).
	FirstDeal int
	// Workers is the number of goroutines (0: GOMAXPROCS).
	Workers int
	// Sizes are the bets LBR considers (nil: DefaultSizes).
	Sizes []Size
	// Samples is how many times LBR calls Act per hand of the range for a bot that
	// is not a Strategist (0: DefaultSamples).
	Samples int
	// Runouts is the number of runouts sampled for an equity on the flop or
	// before it (0: DefaultRunouts).
	Runouts int
	// Preflop makes LBR decide before the flop too, instead of checking or calling.
	Preflop bool
	// Progress, when not nil, is called with the hands just finished, from
	// several goroutines at once.
	Progress func(hands int)
	// Deal, when not nil, is called with the number and outcome of each deal
	// completed (not of one abandoned when the run is stopped), from several
	// goroutines at once.
	Deal func(d int, o Outcome)
	// Hand, when not nil, is called with how each hand of a deal ended once the
	// deal is completed (Breakdown.Add), from several goroutines at once.
	Hand func(HandEnd)
	// NewBot makes the bot (nil: bot.New).
	NewBot func(name string, o bot.Options) (bot.Bot, error)
}

// The defaults of Config.
const (
	DefaultSamples = 2
	DefaultRunouts = 1000
	MaxSamples     = 100
	MaxRunouts     = 100_000
	// MaxDeal bounds the deals a run may play (FirstDeal plus the deals):
	// far beyond any run, and it keeps every deal's number and hands in range.
	MaxDeal = arena.MaxDeal
)

// DefaultSizes are a pot-size bet and all-in.
var DefaultSizes = []Size{1, AllIn}

// Result is what LBR won from the bot.
type Result struct {
	Bot string
	// Variant is the game's name (nl, pl or limit).
	Variant string
	Seed    uint64
	// The run counted deals FirstDeal to FirstDeal+Deals−1 of the seed's
	// sequence: Hands is 2×Deals.
	FirstDeal int
	Deals     int
	Hands     int
	// Partial and Dropped are as in arena.Result: a run stopped before its
	// last deal counts the deals from FirstDeal up to the first one not
	// completed, Dropped those completed after it.
	Partial bool
	Dropped int
	// Sizes, Samples, Runouts and Preflop are the run's Config's.
	Sizes            []Size
	Samples, Runouts int
	Preflop          bool
	// Chips is LBR's net win over the run.
	Chips int64
	// MBBPerGame is LBR's win rate in thousandths of a big blind per hand, MBBCI95
	// the half-width of its 95% interval; BBPer100 and CI95 the same in bb/100.
	MBBPerGame, MBBCI95, BBPer100, CI95 float64
	// CV is LBR's win estimated with the control variate (arena.ControlVariate):
	// the same mean, a narrower interval.
	CV *arena.CVRate
	// Misses counts the bot's actions the range could not explain (a sampled
	// model that never saw the action): the range was then left unchanged.
	Misses  int64
	Workers int
	Elapsed time.Duration
}

// ErrNotHoldem is returned by Run for a game other than heads-up Hold'em: LBR's
// range is over two-card hands.
var ErrNotHoldem = errors.New("LBR plays Hold'em only")

// MinHands is the fewest hands a run may have.
const MinHands = arena.MinHands

// Prepare fills in c's zero fields and checks it, its bot made once, and
// returns the number of duplicate deals the run has. Run calls it; so do the
// tools that play a run's deals elsewhere (internal/arena/distrib).
func (c *Config) Prepare() (deals int, err error) {
	if err := c.defaults(); err != nil {
		return 0, err
	}
	return (c.Hands + 1) / 2, nil
}

// defaults fills in c's zero fields and checks it.
func (c *Config) defaults() error {
	if c.Sizes == nil {
		c.Sizes = DefaultSizes
	}
	if c.Samples == 0 {
		c.Samples = DefaultSamples
	}
	if c.Runouts == 0 {
		c.Runouts = DefaultRunouts
	}
	if c.NewBot == nil {
		c.NewBot = bot.New
	}
	if c.Game.Name == "" {
		c.Game = nlGame()
	}
	switch {
	case c.Game.Config.Variant != engine.Holdem:
		return fmt.Errorf("%w: %s", ErrNotHoldem, c.Game.Name)
	case c.Hands < MinHands:
		return fmt.Errorf("lbr needs at least %d hands, not %d", MinHands, c.Hands)
	case c.Samples < 1 || c.Samples > MaxSamples:
		return fmt.Errorf("samples %d not in 1..%d", c.Samples, MaxSamples)
	case c.Runouts < 1 || c.Runouts > MaxRunouts:
		return fmt.Errorf("runouts %d not in 1..%d", c.Runouts, MaxRunouts)
	case len(c.Sizes) == 0:
		return errors.New("no bet size")
	case c.FirstDeal < 0 || c.FirstDeal > MaxDeal-(c.Hands+1)/2:
		return fmt.Errorf("deals %d to %d: want deals from 0 to %d", c.FirstDeal, c.FirstDeal+(c.Hands+1)/2, MaxDeal)
	}
	_, err := c.NewBot(c.Bot, bot.Options{Game: c.BotGame()})
	return err
}

// BotGame is the game LBR plays, as its bot is told (heads-up c.Game, nl when
// c.Game is not set): a bot that does not play it (cfr in no-limit) refuses.
func (c *Config) BotGame() *bot.Game {
	if c.Game.Name == "" {
		return nlGame().Bot(2)
	}
	return c.Game.Bot(2)
}

func nlGame() arena.Game {
	g, err := arena.ParseGame("nl")
	if err != nil {
		panic(err) // the arena always has nl
	}
	return g
}

// worker plays deals with its own hand, bot and streams.
type worker struct {
	c       *Config
	h       *engine.Hand
	cfg     engine.Config
	b       bot.Bot
	learner bot.Learner
	seater  bot.Seater
	botSrc  *rand.PCG
	lbrSrc  *rand.PCG
	p       player
	view    engine.View
	names   [2]string
	cv      arena.ControlVariate
}

// DealPlayer plays the deals of one run, one at a time: a worker's bot, LBR
// player, hand and streams. It is not safe for concurrent use.
type DealPlayer struct{ w *worker }

// NewDealPlayer makes the bot of c, which Prepare has checked.
func NewDealPlayer(c *Config) (*DealPlayer, error) {
	w := &worker{c: c, h: new(engine.Hand), cfg: c.Game.HandConfig(), botSrc: rand.NewPCG(0, 0), lbrSrc: rand.NewPCG(0, 0)}
	b, err := c.NewBot(c.Bot, bot.Options{Rand: rand.New(w.botSrc), Game: c.BotGame()})
	if err != nil {
		return nil, err
	}
	w.b = b
	w.learner, _ = b.(bot.Learner)
	w.seater, _ = b.(bot.Seater)
	w.p = player{c: c, rng: rand.New(w.lbrSrc), m: newModel(b, c.Samples), bet: make([]strategies, len(c.Sizes))}
	return &DealPlayer{w}, nil
}

// Play plays the run's k-th deal (deal FirstDeal+k of the seed's sequence)
// twice, LBR in seat 0 and then in seat 1. The outcome depends only on the
// run's seed and the deal's number (unless the bot learns: bot.Learner). When
// ctx ends during the deal, Play abandons it soon (it passes ctx to the bot's
// ActContext and StrategyContext) and returns ctx's error: a deal played in
// part, or by a bot told to hurry, is never an outcome.
func (p *DealPlayer) Play(ctx context.Context, k int) (Outcome, error) {
	before := p.w.p.misses
	x, corr, err := p.w.deal(ctx, p.w.c.FirstDeal+k)
	if ctx.Err() != nil {
		return Outcome{}, ctx.Err()
	}
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Net: x, CV: arena.CVPair(x, corr).Sum, Misses: p.w.p.misses - before}, nil
}

// deal plays deal d twice, LBR in seat 0 and then in seat 1, and returns LBR's
// net chips over both hands and the control variate's corrections.
func (w *worker) deal(ctx context.Context, d int) (int64, float64, error) {
	seed := arena.Mix(w.c.Seed, uint64(d))
	w.cfg.Seed = cards.SeedFromUint64(seed)
	w.cfg.Button = d % 2
	var net int64
	var corr float64
	var ends [2]HandEnd
	for seat := range 2 {
		w.lbrSrc.Seed(arena.Mix(seed, uint64(2*seat)), uint64(d))
		w.botSrc.Seed(arena.Mix(seed, uint64(2*seat+1)), uint64(d))
		x, err := w.hand(ctx, seat)
		if err != nil {
			return 0, 0, fmt.Errorf("deal %d (seed %d), LBR in seat %d: %w", d, w.c.Seed, seat, err)
		}
		c := w.cv.Correction()
		net += x
		corr += c
		if w.c.Hand != nil {
			ends[seat] = handEnd(w.h, d, seat, x, c)
		}
	}
	if w.c.Hand != nil && ctx.Err() == nil {
		w.c.Hand(ends[0])
		w.c.Hand(ends[1])
	}
	return net, corr, nil
}

// hand plays one hand with LBR in seat lbr and returns LBR's net chips.
func (w *worker) hand(ctx context.Context, lbr int) (int64, error) {
	h := w.h
	if err := h.Reset(w.cfg); err != nil {
		return 0, err
	}
	bs := 1 - lbr
	if w.seater != nil {
		w.names[lbr], w.names[bs] = "lbr", w.c.Bot
		w.seater.SeatNames(w.names[:])
	}
	w.p.reset(lbr, h)
	if err := w.cv.Begin(h, lbr); err != nil {
		return 0, err
	}
	for h.ToAct() != engine.NoSeat {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		var a engine.Action
		if h.ToAct() == lbr {
			a = w.p.decide(ctx, h)
			w.cv.Decision(h.Legal(), a, nil, nil) // LBR's choice is pure: no correction
		} else {
			h.ViewInto(bs, &w.view)
			a = bot.Decide(ctx, w.b, &w.view)
			if err := ctx.Err(); err != nil {
				return 0, err // before the control variate asks the bot's Strategy, which would not stop
			}
			w.cv.Decision(w.view.Legal, a, w.b, &w.view)
			w.p.observe(ctx, &w.view, a)
		}
		if err := h.Apply(a); err != nil {
			return 0, fmt.Errorf("seat %d played %v: %w", h.ToAct(), a, err)
		}
		if err := w.cv.Dealt(h); err != nil {
			return 0, err
		}
	}
	x, y := h.Net(lbr), h.Net(bs)
	if x+y != 0 {
		return 0, fmt.Errorf("%w: LBR %+d, bot %+d", arena.ErrChipsNotConserved, x, y)
	}
	if w.learner != nil {
		res := h.Result()
		h.ViewInto(bs, &w.view)
		w.learner.HandEnd(&w.view, &res)
	}
	return x, nil
}
