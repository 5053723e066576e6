// Package bot holds felt's bot interface and every bot. A bot sees one seat's view
// of a hand (which never holds a card that seat may not see) and returns a legal
// action; the same interface serves live tables, the arena, the dealers and training.
package bot

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/felt-poker/felt/internal/engine"
)

// Bot decides for the seat it is asked about.
//
// Act is called only when v.ToAct == v.Viewer, with v.Legal filled in; it must return
// an action allowed by v.Legal for seat v.Viewer. A bot may keep scratch memory
// between calls but must not keep v or anything it points to. One bot value may play
// any seat of any number of hands, one call at a time: it is not safe for concurrent
// use (give each goroutine its own, see New).
type Bot interface {
	Act(v *engine.View) engine.Action
}

// Learner is a Bot that wants to hear how each hand it played in ended, so that it
// can learn from it. Callers that run hands (tables, the arena) check for it with a
// type assertion and call HandEnd once per hand for each seat the bot played, with
// that seat's final view (hands shown at showdown included) and the hand's result.
type Learner interface {
	Bot
	HandEnd(v *engine.View, r *engine.Result)
}

// Seater is a Bot that wants to know whom it plays, to keep a model of each
// opponent. Callers that know the players (tables, the arena) check for it with a
// type assertion and call SeatNames before each hand with the name of the player in
// each seat, seat 0 first ("" for an empty seat or a player they cannot name). The
// bot must not keep the slice.
type Seater interface {
	Bot
	SeatNames(names []string)
}

// Options configure a bot made by New.
type Options struct {
	// Rand is the bot's own random stream; bots never touch the global source.
	// Nil gives a stream seeded with zeros (deterministic, the same every time).
	// The caller may reseed the stream's source between hands (the arena does,
	// so that a hand's result does not depend on which hands came before it).
	Rand *rand.Rand
	// Samples bounds the simulated deals per decision of the Monte Carlo bots
	// (0 means DefaultSamples).
	Samples int
	// NoBluff turns off the Monte Carlo bot's occasional bluffs.
	NoBluff bool
	// Models is where learning bots (adaptive, bayes) load what they learnt when
	// made and save it after each hand; nil keeps it in memory only. The option
	// state=FILE sets it to FileModels(FILE).
	Models ModelStore
	// Net is the neural bot's network; nil means the built-in one (DefaultNet).
	// The option weights=FILE loads it from a file written by Net.Save.
	Net *Net
	// Strategy is the cfr bot's strategy file (the option strategy=FILE).
	Strategy string
	// NoDraws, NoUpdate and Thresholds switch the Bayesian bot's parts for seed
	// 001's experiments (the options draws=false, update=false and
	// thresholds=tight|normal|loose; "" is normal).
	NoDraws, NoUpdate bool
	Thresholds        string
	// Budget is the resolve bot's time per decision (budget=500ms; 0 means
	// DefaultResolveBudget); its solver iterations shrink in proportion.
	Budget time.Duration
	// NoBlueprint makes the resolve bot play its chart and flop policy instead of
	// the blueprint (the option blueprint=false), to compare the two.
	NoBlueprint bool
	// NoSafe makes the resolve bot re-solve unsafely, from its beliefs alone,
	// without the opponent's earlier values as bounds (the option safe=false).
	NoSafe bool
	// Flop makes the resolve bot re-solve the flop (depth-limited) instead of
	// playing the blueprint there (the option flop=true; off by default: it did
	// not measure better, docs/bots.md).
	Flop bool
	// FlopLeaves is how the resolve bot's flop re-solve values the hand going on
	// to the turn (the option leaf=turn, the default, or leaf=equity).
	FlopLeaves FlopLeaves
	// Game is the game the bot is made to play; nil when the caller does not say.
	// A bot that plays one game only (cfr) refuses, with ErrWrongGame, to be made
	// for another game or for an unknown one, rather than play it as some other bot.
	Game *Game
}

// Game is the game a bot is made to play, as its caller knows it.
type Game struct {
	Variant   engine.Variant
	Structure engine.Structure // Hold'em only
	// Seats is the most players a hand may deal in (2: heads-up); 0 when the
	// caller cannot tell (a client of a remote dealer).
	Seats int
}

// String names the game: "heads-up fixed-limit holdem", "6-seat no-limit holdem",
// "stud3".
func (g *Game) String() string {
	if g == nil {
		return "an unknown game"
	}
	name := g.Variant.String()
	if g.Variant == engine.Holdem {
		name = g.Structure.String() + " " + name
	}
	switch {
	case g.Seats == 2:
		return "heads-up " + name
	case g.Seats > 2:
		return fmt.Sprintf("%d-seat %s", g.Seats, name)
	}
	return name
}

// DefaultSamples is the number of deals a Monte Carlo bot simulates per decision
// when Options.Samples is 0.
const DefaultSamples = 400

// MaxSamples bounds Options.Samples so that one decision stays cheap.
const MaxSamples = 100_000

// ErrUnknownBot is wrapped by New for a name that is not in the registry, and
// ErrBadOption for a bad option.
var (
	ErrUnknownBot = errors.New("unknown bot")
	ErrBadOption  = errors.New("bad bot option")
	// ErrWrongGame is wrapped by New and CheckGame for a bot asked to play a game
	// it has no strategy for.
	ErrWrongGame = errors.New("the bot has no strategy for this game")
)

// Info describes one bot of the registry.
type Info struct {
	Name        string
	Description string
}

// entry is one row of the registry.
type entry struct {
	Info
	make func(o Options) (Bot, error)
}

// plays holds, for the bots that play some games only, whether they play game g
// (nil: unknown), wrapping ErrWrongGame when not; a bot not in it plays every
// game.
var plays = map[string]func(g *Game) error{"cfr": cfrPlays}

// checkGame reports whether registry entry i plays g.
func checkGame(i int, g *Game) error {
	if f := plays[registry[i].Name]; f != nil {
		return f(g)
	}
	return nil
}

// plain adapts a constructor that cannot fail to entry.make.
func plain[B Bot](f func(o Options) B) func(o Options) (Bot, error) {
	return func(o Options) (Bot, error) { return f(o), nil }
}

// registry lists every bot, in the order List returns them. It is never changed.
var registry = [...]entry{
	{Info{"fold", "checks when it may, otherwise folds"}, plain(func(Options) foldBot { return foldBot{} })},
	{Info{"call", "checks or calls, never folds or raises"}, plain(func(Options) callBot { return callBot{} })},
	{Info{"raise", "raises as much as allowed (all-in in no-limit), calls when it cannot raise"}, plain(func(Options) raiseBot { return raiseBot{} })},
	{Info{"random", "a random legal action: checks often, folds, calls or raises to random sizes"}, plain(func(o Options) *randomBot { return &randomBot{r: o.Rand} })},
	{Info{"chart", "the standard robot: a starting-hand chart by position before the flop, pot odds after it"}, plain(newChart)},
	{Info{"montecarlo", "equity by simulation against the opponents still in; rate of return mapped to fold/call/raise with bluffs"}, plain(newMonteCarlo)},
	{Info{"hsppot", "hand strength and potential (Billings et al.): HS, PPot, NPot, effective hand strength after the flop"}, plain(newHSPPot)},
	{Info{"adaptive", "the Monte Carlo bot with a raise threshold learnt from the raised hands it wins and loses (state=FILE keeps it)"}, newAdaptive},
	{Info{"bayes", "chart rules with randomness pre-flop; after it a decision network over hand types, opponents' fold ratios and a utility table"}, newBayes},
	{Info{"neural", "a small feed-forward net over hand types reachable, pot odds, position and stack (weights=FILE; the default was evolved)"}, newNeural},
	{Info{"stud", "three card stud: exact odds against the up cards showing, the spade rule's half pot (Hold'em: plays as chart)"}, plain(newStud)},
	{Info{"potodds", "exploiter: never bets or raises; calls exactly when its equity against random hands beats the pot odds"}, plain(newPotOdds)},
	{Info{"minraise", "exploiter: min-raises whenever it may, all-in only with a good hand"}, plain(newMinRaise)},
	{Info{"maniac", "exploiter: bets or raises the size of the pot every time, whatever it holds"}, plain(func(Options) maniacBot { return maniacBot{} })},
	{Info{"tag", "exploiter: tight-aggressive; raises a few strong starting hands, bets 2/3 pot when ahead, calls with pot odds"}, plain(newTAG)},
	{Info{"resolve", "heads-up no-limit: an MCCFR blueprint before the flop, real-time re-solving of the turn and river (and with flop=true of the flop, depth-limited) on its beliefs about both ranges, the opponent's actual bet sizes in the tree, bounded by the opponent's earlier values (budget=2s per decision by default; safe=false re-solves unsafely)"}, plain(newResolve)},
	{Info{"cfr", "heads-up limit Hold'em from a CFR strategy: the built-in blueprint, or strategy=FILE (felt train hulhe --out FILE); refuses other games"}, newCFR},
}

// List returns every bot's name and one-line description.
func List() []Info {
	out := make([]Info, len(registry))
	for i := range registry {
		out[i] = registry[i].Info
	}
	return out
}

// New makes the bot called name. The name may carry options after a colon,
// "montecarlo:samples=200,bluff=false", which override those in opts. Options that
// name files (state, weights, strategy) read or write them: New is for the
// operator's own settings (flags, the house's config); a name from someone the
// house does not trust goes through CheckUntrusted first.
func New(name string, opts Options) (Bot, error) {
	base, params, err := parseName(name)
	if err != nil {
		return nil, err
	}
	for _, p := range params {
		if err := p.apply(&opts); err != nil {
			return nil, fmt.Errorf("bot %q: %w", name, err)
		}
	}
	if opts.Samples < 0 || opts.Samples > MaxSamples {
		return nil, fmt.Errorf("bot %q: samples %d not in 0..%d: %w", name, opts.Samples, MaxSamples, ErrBadOption)
	}
	if opts.Samples == 0 {
		opts.Samples = DefaultSamples
	}
	if opts.Rand == nil {
		opts.Rand = rand.New(rand.NewPCG(0, 0))
	}
	if err := checkGame(base, opts.Game); err != nil {
		return nil, fmt.Errorf("bot %q: %w", name, err)
	}
	b, err := registry[base].make(opts)
	if err != nil {
		return nil, fmt.Errorf("bot %q: %w", name, err)
	}
	return b, nil
}

// Check reports whether New would accept name's bot and the syntax of its
// options, without making the bot: it reads no file and is cheap.
func Check(name string) error {
	_, _, err := parseName(name)
	return err
}

// CheckGame is Check, and also reports whether the bot plays game g (nil: the
// game is not known), wrapping ErrWrongGame when it does not. Like Check it reads
// no file: a strategy file for another game is found by New only.
func CheckGame(name string, g *Game) error {
	base, _, err := parseName(name)
	if err != nil {
		return err
	}
	if err := checkGame(base, g); err != nil {
		return fmt.Errorf("bot %q: %w", name, err)
	}
	return nil
}

// MaxUntrustedSamples bounds the samples option a player may ask for, so that
// a table a player opens cannot make the house simulate without end.
const MaxUntrustedSamples = 5 * DefaultSamples

// ErrOperatorOnly is wrapped by CheckUntrusted for an option only the house's
// operator may set.
var ErrOperatorOnly = errors.New("only the house's operator may set it")

// CheckUntrusted reports whether someone the house does not trust (a player,
// a guest, anyone on the network) may ask for the bot called name: a bot of the
// registry, with only the options that touch nothing outside the bot (samples up
// to MaxUntrustedSamples, bluff, budget up to MaxUntrustedBudget). It reads no
// file, and its errors never repeat an option's value.
func CheckUntrusted(name string) error {
	_, params, err := parseName(name)
	if err != nil {
		return err
	}
	for _, p := range params {
		switch {
		case p.file():
			return fmt.Errorf("bot option %s: %w: %w", p.key, ErrOperatorOnly, ErrBadOption)
		case p.key == "samples":
			var o Options
			if p.apply(&o) != nil || o.Samples < 0 || o.Samples > MaxUntrustedSamples {
				return fmt.Errorf("bot option samples: must be 0 to %d: %w", MaxUntrustedSamples, ErrBadOption)
			}
		case p.key == "budget":
			var o Options
			if p.apply(&o) != nil || o.Budget > MaxUntrustedBudget {
				return fmt.Errorf("bot option budget: must be %v to %v: %w", MinResolveBudget, MaxUntrustedBudget, ErrBadOption)
			}
		}
	}
	return nil
}

// Names returns the names of every bot, in registry order.
func Names() []string {
	out := make([]string, len(registry))
	for i := range registry {
		out[i] = registry[i].Name
	}
	return out
}

// param is one key=value option of a bot's name.
type param struct{ key, value string }

// paramKeys are the options a bot's name may carry, each with whether its value
// names a file.
var paramKeys = map[string]bool{"samples": false, "bluff": false, "budget": false, "state": true, "weights": true, "strategy": true,
	"draws": false, "update": false, "thresholds": false, "safe": false, "blueprint": false, "flop": false, "leaf": false}

// file reports whether p's value names a file.
func (p param) file() bool { return paramKeys[p.key] }

// parseName splits "montecarlo:samples=200,bluff=false" into the bot's index in
// the registry and its options, checking the name and each option's syntax
// (numbers and booleans parse, file names are not empty). It touches no file.
func parseName(name string) (int, []param, error) {
	base, params, _ := strings.Cut(name, ":")
	i := slices.IndexFunc(registry[:], func(e entry) bool { return e.Name == base })
	if i < 0 {
		return 0, nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownBot, base, strings.Join(Names(), ", "))
	}
	if params == "" {
		return i, nil, nil
	}
	var out []param
	for _, kv := range strings.Split(params, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return 0, nil, fmt.Errorf("bot %s: option %q is not key=value: %w", base, kv, ErrBadOption)
		}
		p := param{k, v}
		isFile, known := paramKeys[k]
		switch {
		case !known:
			return 0, nil, fmt.Errorf("bot %s: unknown option %q (samples, bluff, budget, safe, blueprint, flop, state, weights, strategy, draws, update, thresholds): %w", base, k, ErrBadOption)
		case isFile && v == "":
			return 0, nil, fmt.Errorf("bot %s: %s= needs a file name: %w", base, k, ErrBadOption)
		case !isFile:
			if err := p.apply(&Options{}); err != nil {
				return 0, nil, fmt.Errorf("bot %s: %w", base, err)
			}
		}
		out = append(out, p)
	}
	return i, out, nil
}

// apply sets p in o, reading the file it names if it is weights.
func (p param) apply(o *Options) error {
	switch p.key {
	case "samples":
		n, err := strconv.Atoi(p.value)
		if err != nil {
			return fmt.Errorf("samples=%q: %w", p.value, ErrBadOption)
		}
		o.Samples = n
	case "bluff":
		b, err := strconv.ParseBool(p.value)
		if err != nil {
			return fmt.Errorf("bluff=%q: %w", p.value, ErrBadOption)
		}
		o.NoBluff = !b
	case "draws", "update", "blueprint", "flop":
		b, err := strconv.ParseBool(p.value)
		if err != nil {
			return fmt.Errorf("%s=%q: %w", p.key, p.value, ErrBadOption)
		}
		switch p.key {
		case "draws":
			o.NoDraws = !b
		case "update":
			o.NoUpdate = !b
		case "flop":
			o.Flop = b
		default:
			o.NoBlueprint = !b
		}
	case "thresholds":
		if _, ok := bayesThresholdSets[p.value]; !ok {
			return fmt.Errorf("thresholds=%q: tight, normal or loose: %w", p.value, ErrBadOption)
		}
		o.Thresholds = p.value
	case "leaf":
		l, ok := ParseFlopLeaves(p.value)
		if !ok {
			return fmt.Errorf("leaf=%q: turn or equity: %w", p.value, ErrBadOption)
		}
		o.FlopLeaves = l
	case "safe":
		b, err := strconv.ParseBool(p.value)
		if err != nil {
			return fmt.Errorf("safe=%q: true or false: %w", p.value, ErrBadOption)
		}
		o.NoSafe = !b
	case "budget":
		d, err := time.ParseDuration(p.value)
		if err != nil || d < MinResolveBudget || d > time.Minute {
			return fmt.Errorf("budget=%q: want a duration from %v to 1m: %w", p.value, MinResolveBudget, ErrBadOption)
		}
		o.Budget = d
	case "state":
		o.Models = FileModels(p.value)
	case "weights":
		n, err := LoadNet(p.value)
		if err != nil {
			return fmt.Errorf("weights=%q: %w: %w", p.value, ErrBadOption, err)
		}
		o.Net = n
	case "strategy":
		o.Strategy = p.value
	}
	return nil
}
