package arena

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// TournamentConfig describes a table tournament: every bot at one table, dealt
// hands until one is left or the hand limit.
type TournamentConfig struct {
	// Bots are the players, seat 0 first (2 to engine.MaxSeats); a bot named twice
	// is told apart as "call", "call#2".
	Bots []string
	Game Game
	// Hands is the most hands to deal.
	Hands int
	// Stack is each player's starting stack in units (big blinds; stud: antes); 0
	// means 200.
	Stack int64
	// Level doubles the blinds, antes and bet sizes every Level hands; 0 never does.
	Level int
	// Ring resets every stack before each hand (a cash game measured in bb/100)
	// instead of playing a freezeout in which the broke are out.
	Ring bool
	// Seed fixes every card and decision: hand h is dealt from a seed derived from
	// (Seed, h) and the bots' streams are reseeded from it.
	Seed uint64
	// Progress, when not nil, is called after each hand; Hand, when not nil, is
	// given each finished hand with the configuration it was dealt from.
	Progress func(hands int)
	Hand     func(cfg engine.Config, h *engine.Hand, players []string) error
	NewBot   func(name string, o bot.Options) (bot.Bot, error)
}

// TournamentResult is the outcome of a tournament.
type TournamentResult struct {
	Players []string
	Game    string
	Seed    uint64
	Hands   int
	// Stacks[h][i] is player i's stack after hand h (row 0: the start).
	Stacks [][]int64
	// Finish lists the players by finishing place, the winner first: those left at
	// the end by their stacks, then the others by when they went broke (later is
	// better; busted in the same hand, the bigger stack before it is better).
	Finish []string
	// Rates gives each player's result per hand, in big blinds of the level played
	// (bb/100 with a 95% interval over the hands it was dealt in), in seat order.
	Rates []Standing
	// Dealt counts the hands each player was dealt in.
	Dealt []int
}

// PlayTournament plays a tournament on one goroutine (a table plays one hand at a time).
func PlayTournament(ctx context.Context, tc TournamentConfig) (TournamentResult, error) {
	n := len(tc.Bots)
	if n < 2 || n > engine.MaxSeats {
		return TournamentResult{}, fmt.Errorf("a tournament needs 2 to %d bots, not %d", engine.MaxSeats, n)
	}
	if tc.Hands < 1 {
		return TournamentResult{}, fmt.Errorf("a tournament needs at least one hand, not %d", tc.Hands)
	}
	if tc.NewBot == nil {
		tc.NewBot = bot.New
	}
	if tc.Stack <= 0 {
		tc.Stack = stack
	}
	res := TournamentResult{Players: playerNames(tc.Bots), Game: tc.Game.Name, Seed: tc.Seed, Dealt: make([]int, n)}
	seats, err := tc.seatBots()
	if err != nil {
		return res, err
	}
	start := make([]int64, n)
	for i := range start {
		start[i] = tc.Stack * tc.Game.Unit
	}
	stacks := slices.Clone(start)
	res.Stacks = append(res.Stacks, slices.Clone(stacks))
	rates := handRates{sums: make([]float64, n), sumSqs: make([]float64, n)}
	var out []int // busted players, first out first
	button := 0
	for hand := 0; hand < tc.Hands; hand++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if tc.Ring {
			copy(stacks, start)
		}
		if alive(stacks) < 2 {
			break
		}
		for stacks[button] == 0 {
			button = (button + 1) % n
		}
		cfg, err := tc.playHand(seats, hand, button, stacks, res.Players)
		if err != nil {
			return res, err
		}
		before := slices.Clone(stacks)
		if err := rates.settle(seats.hand, tc.Game.unitOf(cfg), before, stacks, res.Dealt); err != nil {
			return res, fmt.Errorf("hand %d: %w", hand, err)
		}
		res.Stacks = append(res.Stacks, slices.Clone(stacks))
		res.Hands++
		if !tc.Ring {
			out = append(out, busted(before, stacks)...)
		}
		button = (button + 1) % n
		if tc.Progress != nil {
			tc.Progress(1)
		}
	}
	res.Finish = finishOrder(res.Players, out, stacks)
	res.Rates = rates.standings(res.Players, res.Dealt)
	return res, nil
}

// tourneySeats is what a tournament's table keeps between hands: each seat's bot
// with the source of its dice, and the hand and view reused for every hand.
type tourneySeats struct {
	bots []bot.Bot
	srcs []*rand.PCG
	hand *engine.Hand
	view engine.View
}

// seatBots makes the tournament's bots, each with its own source of dice.
func (tc *TournamentConfig) seatBots() (*tourneySeats, error) {
	n := len(tc.Bots)
	s := &tourneySeats{bots: make([]bot.Bot, n), srcs: make([]*rand.PCG, n), hand: new(engine.Hand)}
	for i, name := range tc.Bots {
		s.srcs[i] = rand.NewPCG(0, 0)
		b, err := tc.NewBot(name, bot.Options{Rand: rand.New(s.srcs[i]), Game: tc.Game.Bot(n)})
		if err != nil {
			return nil, err
		}
		s.bots[i] = b
	}
	return s, nil
}

// playHand deals hand number hand at its level with the button at button and the
// stacks given, reseeds every bot's dice from the hand's seed, plays it to the end
// and hands it to tc.Hand. It returns the hand's configuration.
func (tc *TournamentConfig) playHand(s *tourneySeats, hand, button int, stacks []int64, players []string) (engine.Config, error) {
	cfg := tc.levelConfig(hand)
	cfg.Stacks = slices.Clone(stacks)
	cfg.Button = button
	seed := mix(tc.Seed, uint64(hand))
	cfg.Seed = cards.SeedFromUint64(seed)
	for i := range s.srcs {
		s.srcs[i].Seed(mix(seed, uint64(i)), uint64(hand))
	}
	if err := playTableHand(s.hand, &s.view, cfg, s.bots, players); err != nil {
		return cfg, fmt.Errorf("hand %d (seed %d): %w", hand, tc.Seed, err)
	}
	if tc.Hand != nil {
		if err := tc.Hand(cfg, s.hand, players); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// unitOf is the chips a player's result per hand is counted in: the big blind,
// the ante in three card stud.
func (g Game) unitOf(cfg engine.Config) float64 {
	if g.Config.Variant == engine.StudThree {
		return float64(cfg.Ante)
	}
	return float64(cfg.BigBlind)
}

// handRates sums each player's result per hand dealt in, in units.
type handRates struct{ sums, sumSqs []float64 }

// settle writes the stacks after hand h into stacks (before holds them before it),
// counts each player dealt in and adds its result, and checks that no chip was
// made or lost.
func (r *handRates) settle(h *engine.Hand, unit float64, before, stacks []int64, dealt []int) error {
	var total, want int64
	for i := range stacks {
		stacks[i] = h.Stack(i)
		total += stacks[i]
		want += before[i]
		if before[i] > 0 {
			x := float64(h.Net(i)) / unit
			r.sums[i] += x
			r.sumSqs[i] += x * x
			dealt[i]++
		}
	}
	if total != want {
		return fmt.Errorf("%w: %d chips before, %d after", ErrChipsNotConserved, want, total)
	}
	return nil
}

// standings gives each player's bb/100 with its 95% interval over the hands it
// was dealt in.
func (r *handRates) standings(players []string, dealt []int) []Standing {
	var out []Standing
	for i, p := range players {
		s := Standing{Bot: p}
		if k := float64(dealt[i]); k > 0 {
			mean := r.sums[i] / k
			s.BBPer100 = 100 * mean
			if k > 1 {
				v := (r.sumSqs[i] - r.sums[i]*mean) / (k - 1)
				s.CI95 = 100 * z95 * math.Sqrt(max(v, 0)/k)
			}
		}
		out = append(out, s)
	}
	return out
}

// busted gives the players a hand busted, the smaller stack before it first.
func busted(before, after []int64) []int {
	var out []int
	for i := range after {
		if before[i] > 0 && after[i] == 0 {
			out = append(out, i)
		}
	}
	slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(before[a], before[b]) })
	return out
}

// finishOrder ranks the players: those left by their stacks, biggest first, then
// the busted, last out first.
func finishOrder(players []string, out []int, stacks []int64) []string {
	var left []int
	for i := range players {
		if !slices.Contains(out, i) {
			left = append(left, i)
		}
	}
	slices.SortStableFunc(left, func(a, b int) int { return -cmp.Compare(stacks[a], stacks[b]) })
	var finish []string
	for _, i := range left {
		finish = append(finish, players[i])
	}
	for k := len(out) - 1; k >= 0; k-- {
		finish = append(finish, players[out[k]])
	}
	return finish
}

// levelConfig returns the game's configuration at the level of hand number hand:
// blinds, ante, bet sizes and the stud raise doubled once per Level hands.
func (tc *TournamentConfig) levelConfig(hand int) engine.Config {
	c := tc.Game.Config
	if tc.Level <= 0 {
		return c
	}
	m := int64(1) << min(hand/tc.Level, 40)
	c.SmallBlind *= m
	c.BigBlind *= m
	c.Ante *= m
	c.SmallBet *= m
	c.BigBet *= m
	if c.Variant == engine.StudThree {
		c.Ante = max(c.Ante, m) // the stud ante defaults to 1
		c.StudMaxRaise = max(c.StudMaxRaise, 10) * m
	}
	return c
}

// playTableHand deals cfg and plays it to the end with bots[i] in seat i, telling
// Seaters who plays and Learners how it ended; v is filled anew for every decision.
func playTableHand(h *engine.Hand, v *engine.View, cfg engine.Config, bots []bot.Bot, names []string) error {
	if err := h.Reset(cfg); err != nil {
		return err
	}
	for i, b := range bots {
		if s, ok := b.(bot.Seater); ok && cfg.Stacks[i] > 0 {
			s.SeatNames(names)
		}
	}
	for h.ToAct() != engine.NoSeat {
		seat := h.ToAct()
		h.ViewInto(seat, v)
		a := bot.Decide(context.Background(), bots[seat], v)
		if err := h.Apply(a); err != nil {
			return fmt.Errorf("%s in seat %d played %v: %w", names[seat], seat, a, err)
		}
	}
	res := h.Result()
	for i, b := range bots {
		if l, ok := b.(bot.Learner); ok && cfg.Stacks[i] > 0 {
			h.ViewInto(i, v)
			l.HandEnd(v, &res)
		}
	}
	return nil
}

// alive counts the stacks above zero.
func alive(stacks []int64) int {
	n := 0
	for _, s := range stacks {
		if s > 0 {
			n++
		}
	}
	return n
}

// playerNames tells apart bots named more than once: "call", "call#2", ...
func playerNames(bots []string) []string {
	seen := map[string]int{}
	out := make([]string, len(bots))
	for i, b := range bots {
		seen[b]++
		out[i] = b
		if seen[b] > 1 {
			out[i] = b + "#" + strconv.Itoa(seen[b])
		}
	}
	return out
}
