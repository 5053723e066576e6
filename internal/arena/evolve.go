package arena

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/felt-poker/felt/internal/bot"
)

// EvolveConfig describes an evolution of neural bots (bot.Net) by play.
type EvolveConfig struct {
	// Population is the number of networks in each generation (at least 4),
	// Generations the number of generations, Hidden the hidden units of each network.
	Population, Generations, Hidden int
	// Hands is the hands of each fitness match (duplicate, at least MinHands).
	Hands int
	Game  Game
	// Seed fixes everything: the first networks, the deals, selection and mutation.
	Seed uint64
	// Rivals is how many other members of its generation each network plays, and
	// Champions how many past champions from the hall of fame (drawn at random from
	// all of them, so that a network must keep beating old strategies and progress is
	// not the Red Queen's running on the spot). Against lists fixed bots every
	// network also plays. A network's fitness is its mean bb/100 over these matches.
	Rivals, Champions int
	Against           []string
	// Gauntlet makes every network also play every exploiter (Exploiters); its
	// fitness is then the mean of its mean bb/100 above and its worst result
	// against the exploiters, so that a network with a leak an exploiter finds
	// (all-in with any two cards) cannot win the evolution.
	Gauntlet bool
	// Judge, when not nil, scores each generation's best (felt evolve --lbr: minus
	// what Local Best Response wins from it, in bb/100); the champion is then the
	// generation best with the highest score plus its gauntlet worst case (with
	// Gauntlet), instead of the best against the benchmarks.
	Judge func(ctx context.Context, net *bot.Net) (float64, error)
	// Elite networks pass unchanged to the next generation; the rest are children of
	// two parents chosen by tournaments of three, mutated (each weight with
	// probability MutationRate, by normal noise of deviation Sigma).
	Elite               int
	MutationRate, Sigma float64
	// Benchmarks are bots each generation's best plays BenchHands hands against
	// (always with the same seed), for a measure of progress outside the population.
	Benchmarks []string
	BenchHands int
	// Workers is the number of goroutines (0: GOMAXPROCS); the result does not
	// depend on it. Progress, when not nil, hears every hand played.
	Workers  int
	Progress func(hands int)
}

// withDefaults fills the zero fields that have defaults and checks the rest.
func (ec EvolveConfig) withDefaults() (EvolveConfig, error) {
	if ec.Hidden == 0 {
		ec.Hidden = 8
	}
	if ec.Rivals == 0 {
		ec.Rivals = 2
	}
	if ec.Champions == 0 {
		ec.Champions = 3
	}
	if ec.Elite == 0 {
		ec.Elite = max(1, ec.Population/8)
	}
	if ec.MutationRate == 0 {
		ec.MutationRate = 0.1
	}
	if ec.Sigma == 0 {
		ec.Sigma = 0.3
	}
	if ec.BenchHands == 0 {
		ec.BenchHands = ec.Hands
	}
	if ec.Workers <= 0 {
		ec.Workers = runtime.GOMAXPROCS(0)
	}
	switch {
	case ec.Population < 4:
		return ec, fmt.Errorf("a population needs at least 4 networks, not %d", ec.Population)
	case ec.Generations < 1:
		return ec, fmt.Errorf("at least one generation, not %d", ec.Generations)
	case ec.Hands < MinHands || ec.BenchHands < MinHands:
		return ec, fmt.Errorf("matches need at least %d hands", MinHands)
	case ec.Elite >= ec.Population:
		return ec, fmt.Errorf("elite %d is not below the population %d", ec.Elite, ec.Population)
	case ec.Hidden > bot.MaxHidden:
		return ec, fmt.Errorf("%d hidden units, at most %d", ec.Hidden, bot.MaxHidden)
	case ec.Hidden < 1 || ec.Rivals < 0 || ec.Champions < 0 || ec.Rivals >= ec.Population:
		return ec, errors.New("hidden units, rivals and champions must be positive and rivals below the population")
	}
	for _, name := range append(slices.Clone(ec.Against), ec.Benchmarks...) {
		if _, err := bot.New(name, bot.Options{Game: ec.Game.Bot(2)}); err != nil {
			return ec, err
		}
	}
	return ec, nil
}

// TotalHands returns the hands an evolution with ec will play (after defaults), for
// a progress bar.
func (ec EvolveConfig) TotalHands() int64 {
	ec, err := ec.withDefaults()
	if err != nil {
		return 0
	}
	hands := int64(2 * ((ec.Hands + 1) / 2))
	bench := int64(2 * ((ec.BenchHands + 1) / 2))
	var total int64
	for g := range ec.Generations {
		matches := ec.Rivals + min(ec.Champions, g) + len(ec.Against)
		if ec.Gauntlet {
			matches += len(ExploitersFor(ec.Game))
		}
		total += int64(ec.Population*matches)*hands + int64(len(ec.Benchmarks))*bench
	}
	return total
}

// Generation is what one generation of an evolution gave.
type Generation struct {
	Index int
	// Fitness of the generation's best network and the mean over the generation.
	BestFitness, MeanFitness float64
	Best                     *bot.Net
	// Bench holds the best network's results against each benchmark bot.
	Bench []Result
	// Worst is the best network's worst result against the exploiters, in
	// bb/100 (with EvolveConfig.Gauntlet), Score what EvolveConfig.Judge gave it.
	Worst, Score float64
}

// Evolution is the outcome of Evolve.
type Evolution struct {
	Generations []Generation
	// HallOfFame holds each generation's best, oldest first; Champion is the one of
	// them with the highest mean bb/100 against the benchmarks (the last one when
	// there are no benchmarks).
	HallOfFame []*bot.Net
	Champion   *bot.Net
	// First is the first generation's networks (random).
	First []*bot.Net
}

// Evolve runs an evolution, calling onGeneration (when not nil) after each generation.
func Evolve(ctx context.Context, ec EvolveConfig, onGeneration func(Generation)) (Evolution, error) {
	ec, err := ec.withDefaults()
	if err != nil {
		return Evolution{}, err
	}
	r := rand.New(rand.NewPCG(ec.Seed, 0x65766f6c7665))
	pop := make([]*bot.Net, ec.Population)
	for i := range pop {
		pop[i] = bot.RandomNet(r, ec.Hidden)
	}
	var ev Evolution
	ev.First = slices.Clone(pop)
	bestScore := 0.0
	for g := range ec.Generations {
		gr := rand.New(rand.NewPCG(ec.Seed, uint64(g)+1))
		fit, worst, err := ec.fitness(ctx, gr, g, pop, ev.HallOfFame)
		if err != nil {
			return ev, fmt.Errorf("generation %d: %w", g, err)
		}
		order := make([]int, len(pop))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return -cmp.Compare(fit[a], fit[b]) })
		gen := Generation{Index: g, BestFitness: fit[order[0]], Best: pop[order[0]].Clone(), Worst: worst[order[0]]}
		for _, f := range fit {
			gen.MeanFitness += f / float64(len(fit))
		}
		ev.HallOfFame = append(ev.HallOfFame, gen.Best)
		score, err := ec.score(ctx, &gen)
		if err != nil {
			return ev, fmt.Errorf("generation %d: %w", g, err)
		}
		if ev.Champion == nil || score > bestScore {
			ev.Champion, bestScore = gen.Best, score
		}
		ev.Generations = append(ev.Generations, gen)
		if onGeneration != nil {
			onGeneration(gen)
		}
		pop = ec.breed(gr, pop, fit, order)
	}
	return ev, nil
}

// score measures a generation's best against the benchmarks and by the judge, and
// returns what the champion is chosen by: the judge's score plus the gauntlet's
// worst case, else the mean against the benchmarks, else the generation's index
// (the last best is the champion).
func (ec *EvolveConfig) score(ctx context.Context, gen *Generation) (float64, error) {
	var err error
	var mean float64
	if len(ec.Benchmarks) > 0 {
		if gen.Bench, err = ec.bench(ctx, gen.Best); err != nil {
			return 0, err
		}
		for _, b := range gen.Bench {
			mean += b.BBPer100 / float64(len(gen.Bench))
		}
	}
	switch {
	case ec.Judge != nil:
		if gen.Score, err = ec.Judge(ctx, gen.Best); err != nil {
			return 0, err
		}
		return gen.Score + gen.Worst, nil
	case len(ec.Benchmarks) > 0:
		return mean, nil
	}
	return float64(gen.Index), nil
}

// breed returns the next generation: the elite, then mutated children of parents
// chosen by tournaments of three.
func (ec *EvolveConfig) breed(r *rand.Rand, pop []*bot.Net, fit []float64, order []int) []*bot.Net {
	next := make([]*bot.Net, 0, len(pop))
	for _, i := range order[:ec.Elite] {
		next = append(next, pop[i])
	}
	pick := func() *bot.Net {
		best := r.IntN(len(pop))
		for range 2 {
			if j := r.IntN(len(pop)); fit[j] > fit[best] {
				best = j
			}
		}
		return pop[best]
	}
	for len(next) < len(pop) {
		child := pick().Crossover(r, pick())
		child.Mutate(r, ec.MutationRate, ec.Sigma)
		next = append(next, child)
	}
	return next
}

// netPrefix marks the bot names that Evolve's matches resolve to networks: "@3" is
// networks[3].
const netPrefix = "@"

// job is one match of an evolution.
type job struct {
	a, b string
	who  int // the network whose fitness it counts for (-1: none)
	// exploiter marks a gauntlet match, which counts for the worst case.
	exploiter bool
}

// fitness plays every network's matches for generation g and returns their
// fitness (mean bb/100, with the gauntlet's worst case mixed in) and each one's
// worst result against the exploiters (0 without Gauntlet).
func (ec *EvolveConfig) fitness(ctx context.Context, r *rand.Rand, g int, pop, hof []*bot.Net) (fit, worst []float64, err error) {
	nets := slices.Concat(pop, hof)
	var jobs []job
	for i := range pop {
		me := netPrefix + strconv.Itoa(i)
		for _, j := range r.Perm(len(pop) - 1)[:ec.Rivals] {
			if j >= i {
				j++
			}
			jobs = append(jobs, job{me, netPrefix + strconv.Itoa(j), i, false})
		}
		if len(hof) > 0 {
			for _, k := range r.Perm(len(hof))[:min(ec.Champions, len(hof))] {
				jobs = append(jobs, job{me, netPrefix + strconv.Itoa(len(pop)+k), i, false})
			}
		}
		for _, name := range ec.Against {
			jobs = append(jobs, job{me, name, i, false})
		}
		if ec.Gauntlet {
			for _, e := range ExploitersFor(ec.Game) {
				jobs = append(jobs, job{me, e.Bot, i, true})
			}
		}
	}
	results, err := ec.play(ctx, nets, jobs, ec.Hands, mix(ec.Seed, uint64(g)), 1)
	if err != nil {
		return nil, nil, err
	}
	fit, worst = make([]float64, len(pop)), make([]float64, len(pop))
	count := make([]int, len(pop))
	played := make([]bool, len(pop))
	for k, j := range jobs {
		x := results[k].BBPer100
		if !j.exploiter {
			fit[j.who] += x
			count[j.who]++
		} else if !played[j.who] || x < worst[j.who] {
			worst[j.who], played[j.who] = x, true
		}
	}
	for i := range fit {
		fit[i] /= float64(max(count[i], 1))
		if ec.Gauntlet {
			fit[i] = (fit[i] + worst[i]) / 2
		}
	}
	return fit, worst, nil
}

// bench plays net against every benchmark bot with a seed that never changes.
func (ec *EvolveConfig) bench(ctx context.Context, net *bot.Net) ([]Result, error) {
	var jobs []job
	for _, name := range ec.Benchmarks {
		jobs = append(jobs, job{netPrefix + "0", name, -1, false})
	}
	return ec.play(ctx, []*bot.Net{net}, jobs, ec.BenchHands, mix(ec.Seed, 1<<40), ec.Workers)
}

// play runs the jobs, each a duplicate match on matchWorkers goroutines, on
// ec.Workers goroutines in all.
func (ec *EvolveConfig) play(ctx context.Context, nets []*bot.Net, jobs []job, hands int, seed uint64, matchWorkers int) ([]Result, error) {
	newBot := func(name string, o bot.Options) (bot.Bot, error) {
		if rest, ok := strings.CutPrefix(name, netPrefix); ok {
			i, err := strconv.Atoi(rest)
			if err != nil || i < 0 || i >= len(nets) {
				return nil, fmt.Errorf("no network %q", name)
			}
			o.Net = nets[i]
			return bot.New("neural", o)
		}
		return bot.New(name, o)
	}
	results := make([]Result, len(jobs))
	errs := make([]error, len(jobs))
	var next sync.Mutex
	k := 0
	var wg sync.WaitGroup
	for range max(1, ec.Workers/matchWorkers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				next.Lock()
				i := k
				k++
				next.Unlock()
				if i >= len(jobs) || ctx.Err() != nil {
					return
				}
				results[i], errs[i] = Match(ctx, MatchConfig{A: jobs[i].a, B: jobs[i].b, Game: ec.Game, Hands: hands,
					Seed: seed, Workers: matchWorkers, Progress: ec.Progress, NewBot: newBot})
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return results, ctx.Err()
}
