package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/equity"
	"github.com/felt-poker/felt/internal/history"
)

// replayCmd is "felt replay": a hand history printed street by street.
type replayCmd struct {
	File   string `arg:"" name:"file" help:"A PHH hand (.phh) or hands (.phhs)."`
	Reveal bool   `help:"Show every player's cards, and in Hold'em each live hand's equity at every street."`
}

// Help is the long help of "felt replay".
func (c *replayCmd) Help() string {
	return `Replays every hand of a PHH file through felt's engine and prints it street by street:
seats and stacks, blinds and antes, each action, the board, the showdown and who won
what. A file that does not replay (an illegal action, a card other than the one dealt,
finishing stacks other than the engine's) is an error (exit code 2). --reveal adds
every player's cards and, in Hold'em, the exact equity of each hand still in at every
street (cards of folded hands count as dead).`
}

// Run is called by kong.
func (c *replayCmd) Run() error { return c.run(os.Stdout) }

// runReplay parses args as "felt replay" would and runs it: the entry point for
// tests. Bad arguments and bad files give an exitError with code 2.
func runReplay(args []string, stdout io.Writer) error {
	var c struct {
		Replay replayCmd `cmd:""`
	}
	parser, err := kong.New(&c, kong.Name("felt"), kong.Writers(stdout, io.Discard), kong.Exit(func(int) {}))
	if err != nil {
		return err
	}
	if _, err := parser.Parse(append([]string{"replay"}, args...)); err != nil {
		return usageError("%v", err)
	}
	return c.Replay.run(stdout)
}

func (c *replayCmd) run(stdout io.Writer) error {
	data, err := os.ReadFile(c.File)
	if err != nil {
		return usageError("%v", err)
	}
	hands, err := history.ParseAll(data)
	if err != nil {
		return usageError("%s: %v", c.File, err)
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	for k, p := range hands {
		cfg, h, err := p.Replay()
		if err != nil {
			w.Flush()
			return usageError("%s: hand %d: %v", c.File, k+1, err)
		}
		if k > 0 {
			fmt.Fprintln(w)
		}
		if err := printHand(w, p, k+1, cfg, h, c.Reveal); err != nil {
			return err
		}
	}
	return w.Flush()
}

// printHand writes one replayed hand.
func printHand(w io.Writer, p *history.PHH, number int, cfg engine.Config, h *engine.Hand, reveal bool) error {
	_, seats, err := p.Config()
	if err != nil {
		return err
	}
	hp := &handPrinter{w: w, p: p, seats: seats, cfg: cfg, h: h, reveal: reveal, folded: make([]bool, h.Seats())}
	title := fmt.Sprintf("Hand %d", number)
	if p.Hand != nil {
		title = fmt.Sprintf("Hand %v", p.Hand)
	}
	fmt.Fprintf(w, "%s: %s\n", title, gameLine(cfg))
	if p.Table != nil {
		fmt.Fprintf(w, "Table %v, ", p.Table)
	}
	fmt.Fprintf(w, "%d seats, button seat %d\n", len(cfg.Stacks), cfg.Button+1)
	v := h.SpectatorView()
	for i, s := range v.Seats {
		if s.InHand {
			fmt.Fprintf(w, "  Seat %2d  %-14s %10d\n", i+1, hp.name(i), cfg.Stacks[i])
		}
	}
	for _, e := range h.Events() {
		if err := hp.event(e); err != nil {
			return err
		}
	}
	if !h.Over() {
		fmt.Fprintln(w, "(the history stops before the end of the hand)")
	}
	fmt.Fprintln(w, "Finishing stacks:")
	for i, s := range v.Seats {
		if s.InHand {
			fmt.Fprintf(w, "  Seat %2d  %-14s %10d  (%+d)\n", i+1, hp.name(i), h.Stack(i), h.Net(i))
		}
	}
	return nil
}

// handPrinter writes one replayed hand's events as text.
type handPrinter struct {
	w      io.Writer
	p      *history.PHH
	seats  []int // each player's seat
	cfg    engine.Config
	h      *engine.Hand
	reveal bool         // show every hole card and the equities
	folded []bool       // seats out of the hand so far
	board  []cards.Card // the board so far
}

// name is the player in seat, or "seat N".
func (hp *handPrinter) name(seat int) string {
	for k, s := range hp.seats {
		if s == seat && k < len(hp.p.Players) && hp.p.Players[k] != "" {
			return hp.p.Players[k]
		}
	}
	return fmt.Sprintf("seat %d", seat+1)
}

// street writes a street's title, the board, and with reveal the equities.
func (hp *handPrinter) street(title string) error {
	fmt.Fprintf(hp.w, "*** %s ***", title)
	if len(hp.board) > 0 {
		fmt.Fprintf(hp.w, " [%s]", cards.Format(hp.board))
	}
	fmt.Fprintln(hp.w)
	if hp.reveal && hp.cfg.Variant == engine.Holdem {
		return printEquity(hp.w, hp.h, hp.board, hp.folded, hp.name)
	}
	return nil
}

// event writes one event of the hand.
func (hp *handPrinter) event(e engine.Event) error {
	w := hp.w
	who := ""
	if e.Seat >= 0 {
		who = hp.name(int(e.Seat))
	}
	allIn := ""
	if e.AllIn {
		allIn = " (all-in)"
	}
	switch e.Kind {
	case engine.EvAnte:
		fmt.Fprintf(w, "%s posts an ante of %d%s\n", who, e.Amount, allIn)
	case engine.EvSmallBlind:
		fmt.Fprintf(w, "%s posts the small blind %d%s\n", who, e.Amount, allIn)
	case engine.EvBigBlind:
		fmt.Fprintf(w, "%s posts the big blind %d%s\n", who, e.Amount, allIn)
	case engine.EvHoleCards:
		if hp.reveal {
			fmt.Fprintf(w, "%s is dealt [%s]\n", who, cards.Format(e.Cards[:e.NCards]))
		}
	case engine.EvUpCard:
		fmt.Fprintf(w, "%s is dealt [%s] face up\n", who, e.Cards[0])
	case engine.EvStreet:
		switch e.Street {
		case engine.Preflop:
			return hp.street("PRE-FLOP")
		case engine.StudOne:
			return hp.street("ROUND ONE")
		case engine.StudTwo:
			return hp.street("ROUND TWO")
		case engine.Showdown:
			fmt.Fprintln(w, "*** SHOWDOWN ***")
		}
	case engine.EvBoard:
		hp.board = append(hp.board, e.Cards[:e.NCards]...)
		return hp.street(strings.ToUpper(e.Street.String()))
	case engine.EvFold:
		hp.folded[e.Seat] = true
		if e.Forced {
			fmt.Fprintf(w, "%s cannot call and folds\n", who)
		} else {
			fmt.Fprintf(w, "%s folds\n", who)
		}
	case engine.EvLeave:
		hp.folded[e.Seat] = hp.folded[e.Seat] || !e.AllIn
		fmt.Fprintf(w, "%s leaves the hand\n", who)
	case engine.EvCheck:
		fmt.Fprintf(w, "%s checks\n", who)
	case engine.EvCall:
		fmt.Fprintf(w, "%s calls %d%s\n", who, e.Amount, allIn)
	case engine.EvBet:
		fmt.Fprintf(w, "%s bets %d%s\n", who, e.To, allIn)
	case engine.EvRaise:
		fmt.Fprintf(w, "%s raises to %d%s\n", who, e.To, allIn)
	case engine.EvUncalled:
		fmt.Fprintf(w, "%d uncalled goes back to %s\n", e.Amount, who)
	case engine.EvShow:
		fmt.Fprintf(w, "%s shows [%s] (%s)\n", who, cards.Format(e.Cards[:e.NCards]), shownName(hp.h, int(e.Seat)))
	case engine.EvMuck:
		fmt.Fprintf(w, "%s mucks\n", who)
	case engine.EvAward:
		fmt.Fprintf(w, "%s wins %d from %s\n", who, e.Amount, awardText(e, hp.h))
	}
	return nil
}

// gameLine describes the game: "no-limit Hold'em, blinds 5/10, ante 1".
func gameLine(cfg engine.Config) string {
	if cfg.Variant == engine.StudThree {
		ante := cfg.Ante
		if ante == 0 {
			ante = engine.DefaultStudAnte
		}
		return fmt.Sprintf("three card stud, ante %d", ante)
	}
	s := fmt.Sprintf("%s Hold'em, blinds %d/%d", cfg.Structure, cfg.SmallBlind, cfg.BigBlind)
	if cfg.Structure == engine.FixedLimit && cfg.SmallBet > 0 {
		s += fmt.Sprintf(", bets %d/%d", cfg.SmallBet, cfg.BigBet)
	}
	if cfg.Ante > 0 {
		s += fmt.Sprintf(", ante %d", cfg.Ante)
	}
	return s
}

// shownName names the hand seat showed, from the engine's result.
func shownName(h *engine.Hand, seat int) string {
	for _, s := range h.Result().Shown {
		if s.Seat == seat {
			return s.Name
		}
	}
	return ""
}

// awardText says which pot (or half of the stud pot) an award came from.
func awardText(e engine.Event, h *engine.Hand) string {
	switch e.Share {
	case engine.PokerHalf:
		return "the pot (half for the best hand)"
	case engine.SpadeHalf:
		return "the pot (half for the highest spade in the hole)"
	}
	if e.Pot == 0 {
		if len(h.Result().Pots) > 1 {
			return "the main pot"
		}
		return "the pot"
	}
	return fmt.Sprintf("side pot %d", e.Pot)
}

// printEquity writes each live hand's exact equity against the others on board, the
// folded hands' cards being dead.
func printEquity(w io.Writer, h *engine.Hand, board []cards.Card, folded []bool, name func(int) string) error {
	var players []equity.Range
	var seats []int
	var dead []cards.Card
	v := h.SpectatorView()
	for i, s := range v.Seats {
		if !s.InHand {
			continue
		}
		if folded[i] {
			dead = append(dead, h.Cards(i)...)
			continue
		}
		r, err := equity.ParseRange(cards.Format(h.Cards(i)))
		if err != nil {
			return err
		}
		players = append(players, r)
		seats = append(seats, i)
	}
	if len(players) < 2 {
		return nil
	}
	res, err := equity.Calculate(players, board, dead, equity.Options{Method: equity.Exact})
	if err != nil {
		return err
	}
	for k, i := range seats {
		fmt.Fprintf(w, "    %-14s [%s] %6.2f%%\n", name(i), cards.Format(h.Cards(i)), 100*res.Players[k].Equity)
	}
	return nil
}
