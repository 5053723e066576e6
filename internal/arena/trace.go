package arena

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/equity"
)

// StudTraceSamples is the number of deals the trace simulates for a three card
// stud equity when more than two cards are still to come (bot.StudEquity).
const StudTraceSamples = 20000

// Tracer writes finished hands as a trace, for reading what bots do: a header per
// hand, the board as it is dealt, one line per action and the players' net results.
// An action line gives the street, the player to act and its decision, then every
// player dealt in with all its cards (private ones included), its stack before the
// action and its chance of winning at that moment: the share of the pot it would
// take on average, everyone's cards known and the cards still to come dealt in every
// way. Hold'em equity is exact (equity.Calculate with equity.Exact; folded hands are
// dead cards); three card stud equity is bot.StudEquity on a view showing every
// seat's cards (exact when at most two cards are to come, otherwise simulated with
// StudTraceSamples deals from a fixed seed). The output depends only on the hands.
type Tracer struct {
	w       *bufio.Writer
	n       int64
	replay  engine.Hand
	variant engine.Variant
	spec    engine.View // the spectator's view at the action being written
	view    engine.View // a seat's view, opened for stud equity
	src     *rand.PCG
	// The last equities computed and what they depend on.
	eq     [engine.MaxSeats]float64
	eqKey  [3]int
	haveEq bool
}

// NewTracer returns a Tracer writing to w.
func NewTracer(w io.Writer) *Tracer {
	return &Tracer{w: bufio.NewWriter(w), src: rand.NewPCG(0, 0)}
}

// Hand writes hand h, dealt from cfg, with players[i] in seat i; it fits
// MatchConfig.Hand and TournamentConfig.Hand. It replays h's actions on a fresh
// hand to see every decision's moment, and fails if the replay ends differently.
func (t *Tracer) Hand(cfg engine.Config, h *engine.Hand, players []string) error {
	t.n++
	t.haveEq = false
	t.variant = cfg.Variant
	r := &t.replay
	if err := r.Reset(cfg); err != nil {
		return err
	}
	name := func(i int) string {
		if i < len(players) && players[i] != "" {
			return players[i]
		}
		return "seat " + strconv.Itoa(i)
	}
	game := cfg.Variant.String()
	if cfg.Variant == engine.Holdem {
		game = cfg.Structure.String() + " " + game
	}
	fmt.Fprintf(t.w, "hand %d  %s  seed %s  button %s\n", t.n, game, cfg.Seed, name(cfg.Button))
	board := 0
	for _, a := range h.Actions() {
		board = t.board(board)
		fmt.Fprintf(t.w, "  %-9s %-12s %-16s", r.Street(), name(a.Seat), decision(a, r.Legal()))
		if err := t.seats(name); err != nil {
			return err
		}
		if err := r.Apply(a); err != nil {
			return fmt.Errorf("trace of hand %d: %v: %w", t.n, a, err)
		}
	}
	t.board(board)
	fmt.Fprint(t.w, "  result  ")
	for i := range r.Seats() {
		if r.Net(i) != h.Net(i) {
			return fmt.Errorf("trace of hand %d: seat %d nets %d on replay, %d in play", t.n, i, r.Net(i), h.Net(i))
		}
		if len(r.Cards(i)) > 0 {
			fmt.Fprintf(t.w, "  %s %+d", name(i), r.Net(i))
		}
	}
	fmt.Fprintln(t.w)
	return t.w.Flush()
}

// board writes the Hold'em board when it has grown past shown cards and returns
// its size.
func (t *Tracer) board(shown int) int {
	b := t.replay.Board()
	if len(b) > shown {
		fmt.Fprintf(t.w, "  board     %s\n", cards.Format(b))
	}
	return len(b)
}

// seats writes every dealt-in seat's cards, stack and equity and ends the line.
func (t *Tracer) seats(name func(int) string) error {
	r := &t.replay
	r.ViewInto(engine.Spectator, &t.spec)
	if err := t.equities(); err != nil {
		return err
	}
	for i := range r.Seats() {
		cs := r.Cards(i)
		if len(cs) == 0 {
			continue
		}
		fmt.Fprintf(t.w, "  %s %s %d ", name(i), cards.Format(cs), r.Stack(i))
		if t.folded(i) {
			fmt.Fprint(t.w, "folded")
		} else {
			fmt.Fprintf(t.w, "%.2f%%", 100*t.eq[i])
		}
	}
	_, err := fmt.Fprintln(t.w)
	return err
}

// folded reports whether seat i folded (or left) or was not dealt in, as of t.spec.
func (t *Tracer) folded(i int) bool {
	s := &t.spec.Seats[i]
	return !s.InHand || s.Folded
}

// equities sets t.eq for every seat still in, unless nothing it depends on (the
// street, the board and who is still in) changed since the last time.
func (t *Tracer) equities() error {
	r := &t.replay
	live, n := 0, 0
	for i := range r.Seats() {
		if !t.folded(i) {
			live |= 1 << i
			n++
		}
	}
	key := [3]int{int(r.Street()), len(r.Board()), live}
	if t.haveEq && key == t.eqKey {
		return nil
	}
	t.eqKey, t.haveEq = key, true
	t.eq = [engine.MaxSeats]float64{}
	if n == 1 {
		for i := range r.Seats() {
			if live&(1<<i) != 0 {
				t.eq[i] = 1
			}
		}
		return nil
	}
	if t.variant == engine.StudThree {
		return t.studEquities(live)
	}
	var ranges []equity.Range
	var seats []int
	var dead []cards.Card
	for i := range r.Seats() {
		cs := r.Cards(i)
		if live&(1<<i) == 0 {
			dead = append(dead, cs...)
			continue
		}
		rg, err := equity.ParseRange(cards.Format(cs))
		if err != nil {
			return err
		}
		ranges = append(ranges, rg)
		seats = append(seats, i)
	}
	res, err := equity.Calculate(ranges, r.Board(), dead, equity.Options{Method: equity.Exact, Workers: 1})
	if err != nil {
		return fmt.Errorf("trace of hand %d: equity: %w", t.n, err)
	}
	for k, i := range seats {
		t.eq[i] = res.Players[k].Equity
	}
	return nil
}

// studEquities sets t.eq for the live seats of a three card stud hand.
func (t *Tracer) studEquities(live int) error {
	r := &t.replay
	for i := range r.Seats() {
		if live&(1<<i) == 0 {
			continue
		}
		r.ViewInto(i, &t.view)
		for j := range t.view.Seats {
			copy(t.view.Seats[j].Cards[:], r.Cards(j))
		}
		t.src.Seed(uint64(t.n), uint64(i))
		t.eq[i] = bot.StudEquity(&t.view, rand.New(t.src), StudTraceSamples)
	}
	return nil
}

// decision writes action a, taken when l was legal, as a trace shows it: "fold",
// "check", "call 100", "bet 200", "raise to 600", "leave".
func decision(a engine.Action, l engine.Legal) string {
	switch a.Kind {
	case engine.Call:
		return "call " + strconv.FormatInt(l.CallAmount, 10)
	case engine.Bet:
		return "bet " + strconv.FormatInt(a.Amount, 10)
	case engine.Raise:
		return "raise to " + strconv.FormatInt(a.Amount, 10)
	}
	return a.Kind.String()
}
