// Package bot holds felt's bot interface and every bot. A bot sees one seat's view
// of a hand (which never holds a card that seat may not see) and returns a legal
// action; the same interface serves live tables, the arena, the dealers and training.
package bot

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

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
	{Info{"cfr", "heads-up limit Hold'em from a CFR strategy, strategy=FILE (felt train hulhe --out FILE; without one it only checks and calls)"}, newCFR},
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
// "montecarlo:samples=200,bluff=false", which override those in opts.
func New(name string, opts Options) (Bot, error) {
	base, params, _ := strings.Cut(name, ":")
	if params != "" {
		if err := parseParams(params, &opts); err != nil {
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
	for i := range registry {
		if registry[i].Name == base {
			b, err := registry[i].make(opts)
			if err != nil {
				return nil, fmt.Errorf("bot %q: %w", name, err)
			}
			return b, nil
		}
	}
	return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownBot, base, strings.Join(Names(), ", "))
}

// Names returns the names of every bot, in registry order.
func Names() []string {
	out := make([]string, len(registry))
	for i := range registry {
		out[i] = registry[i].Name
	}
	return out
}

// parseParams reads "samples=200,bluff=false" into o.
func parseParams(params string, o *Options) error {
	for _, kv := range strings.Split(params, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("%q is not key=value: %w", kv, ErrBadOption)
		}
		switch k {
		case "samples":
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("samples=%q: %w", v, ErrBadOption)
			}
			o.Samples = n
		case "bluff":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("bluff=%q: %w", v, ErrBadOption)
			}
			o.NoBluff = !b
		case "state":
			if v == "" {
				return fmt.Errorf("state= needs a file name: %w", ErrBadOption)
			}
			o.Models = FileModels(v)
		case "weights":
			n, err := LoadNet(v)
			if err != nil {
				return fmt.Errorf("weights=%q: %w: %w", v, ErrBadOption, err)
			}
			o.Net = n
		case "strategy":
			o.Strategy = v
		default:
			return fmt.Errorf("unknown option %q (samples, bluff, state, weights, strategy): %w", k, ErrBadOption)
		}
	}
	return nil
}
