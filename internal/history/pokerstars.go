package history

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// WritePokerStars writes a finished Hold'em hand, dealt from cfg, as PokerStars-style
// text, the form hand trackers (PokerTracker, Hold'em Manager) import: header, seats,
// blinds, "*** HOLE CARDS ***", the actions street by street, the showdown and the
// summary. Stakes are play money, written without a currency sign; the time is UTC.
// Three card stud has no PokerStars form: it returns an error wrapping ErrUnsupported.
func WritePokerStars(w io.Writer, cfg engine.Config, h *engine.Hand, info Info) error {
	if cfg.Variant != engine.Holdem {
		return fmt.Errorf("%w: PokerStars text is for Hold'em only", ErrUnsupported)
	}
	if !h.Over() {
		return fmt.Errorf("%w: the hand is not over", ErrUnsupported)
	}
	lim := settle(&cfg)
	b := bufio.NewWriter(w)
	game, stakes := "No Limit", fmt.Sprintf("%d/%d", lim.sb, lim.bb)
	switch cfg.Structure {
	case engine.PotLimit:
		game = "Pot Limit"
	case engine.FixedLimit:
		game, stakes = "Limit", fmt.Sprintf("%d/%d", lim.smallBet, lim.bigBet)
	}
	table := info.Table
	if table == "" {
		table = "felt"
	}
	fmt.Fprintf(b, "PokerStars Hand #%d: Hold'em %s (%s) - %s UTC\n", info.Hand, game, stakes, info.Time.UTC().Format("2006/01/02 15:04:05"))
	fmt.Fprintf(b, "Table '%s' %d-max Seat #%d is the button\n", table, h.Seats(), cfg.Button+1)
	v := h.SpectatorView()
	for i, s := range v.Seats {
		if s.InHand {
			fmt.Fprintf(b, "Seat %d: %s (%d in chips)\n", i+1, info.name(i), cfg.Stacks[i])
		}
	}
	sw := &starsWriter{b: b, lim: lim, info: &info, res: h.Result(), sb: engine.NoSeat, bb: engine.NoSeat, foldedOn: make(map[int]engine.Street)}
	for _, e := range h.Events() {
		sw.event(e)
	}
	res := sw.res
	if !sw.showdown && len(res.Pots) > 0 && len(res.Pots[0].Awards) > 0 {
		fmt.Fprintf(b, "%s: doesn't show hand\n", info.name(res.Pots[0].Awards[0].Seat))
	}
	writeSummary(b, cfg, h, &info, res, sw.sb, sw.bb, sw.foldedOn, sw.showdown)
	return b.Flush()
}

// starsWriter writes a hand's events as PokerStars text, with what the text
// needs of the hand so far.
type starsWriter struct {
	b          *bufio.Writer
	lim        limits
	info       *Info
	res        engine.Result
	sb, bb     int   // the blinds' seats
	currentBet int64 // the street's bet, for "raises X to Y"
	board      []cards.Card
	foldedOn   map[int]engine.Street
	showdown   bool // the show down's title written
	holeDone   bool // the hole cards' title written
	second     bool // a second run's board comes next
}

// allIn is the text an all-in action ends with.
func allIn(e engine.Event) string {
	if e.AllIn {
		return " and is all-in"
	}
	return ""
}

// event writes one event.
func (sw *starsWriter) event(e engine.Event) {
	b := sw.b
	who := ""
	if e.Seat >= 0 {
		who = sw.info.name(int(e.Seat))
	}
	switch e.Kind {
	case engine.EvAnte:
		fmt.Fprintf(b, "%s: posts the ante %d%s\n", who, e.Amount, allIn(e))
	case engine.EvSmallBlind:
		sw.sb = int(e.Seat)
		fmt.Fprintf(b, "%s: posts small blind %d%s\n", who, e.Amount, allIn(e))
	case engine.EvBigBlind:
		sw.bb = int(e.Seat)
		sw.currentBet = max(sw.lim.bb, e.To)
		fmt.Fprintf(b, "%s: posts big blind %d%s\n", who, e.Amount, allIn(e))
	case engine.EvStraddle:
		sw.currentBet = e.To
		fmt.Fprintf(b, "%s: posts straddle %d%s\n", who, e.Amount, allIn(e))
	case engine.EvSecondRun:
		sw.second = true
	case engine.EvHoleCards:
		if !sw.holeDone {
			fmt.Fprintln(b, "*** HOLE CARDS ***")
			sw.holeDone = true
		}
		if sw.info.Hero == 0 || sw.info.Hero == int(e.Seat)+1 {
			fmt.Fprintf(b, "Dealt to %s [%s]\n", who, spaced(e.Cards[:e.NCards]))
		}
	case engine.EvBoard:
		sw.boardCards(e)
	case engine.EvFold:
		sw.foldedOn[int(e.Seat)] = e.Street
		fmt.Fprintf(b, "%s: folds\n", who)
	case engine.EvLeave:
		if !e.AllIn {
			sw.foldedOn[int(e.Seat)] = e.Street
			fmt.Fprintf(b, "%s: folds\n", who)
		}
		fmt.Fprintf(b, "%s leaves the table\n", who)
	case engine.EvCheck:
		fmt.Fprintf(b, "%s: checks\n", who)
	case engine.EvCall:
		fmt.Fprintf(b, "%s: calls %d%s\n", who, e.Amount, allIn(e))
	case engine.EvBet:
		sw.currentBet = e.To
		fmt.Fprintf(b, "%s: bets %d%s\n", who, e.Amount, allIn(e))
	case engine.EvRaise:
		fmt.Fprintf(b, "%s: raises %d to %d%s\n", who, e.To-sw.currentBet, e.To, allIn(e))
		sw.currentBet = e.To
	case engine.EvUncalled:
		fmt.Fprintf(b, "Uncalled bet (%d) returned to %s\n", e.Amount, who)
	case engine.EvShow, engine.EvMuck:
		if !sw.showdown {
			fmt.Fprintln(b, "*** SHOW DOWN ***")
			sw.showdown = true
		}
		if e.Kind == engine.EvMuck {
			fmt.Fprintf(b, "%s: mucks hand\n", who)
		} else {
			fmt.Fprintf(b, "%s: shows [%s] (%s)\n", who, spaced(e.Cards[:e.NCards]), handName(sw.res, int(e.Seat)))
		}
	case engine.EvAward:
		fmt.Fprintf(b, "%s collected %d from %s\n", who, e.Amount, potName(int(e.Pot), len(sw.res.Pots)))
	}
}

// boardCards writes a street's title with the board, or a second run's board.
func (sw *starsWriter) boardCards(e engine.Event) {
	if sw.second { // the run-twice board's second run, after the first's showdown
		fmt.Fprintf(sw.b, "*** SECOND RUN *** [%s]\n", spaced(e.Cards[:e.NCards]))
		return
	}
	prev := spaced(sw.board)
	sw.board = append(sw.board, e.Cards[:e.NCards]...)
	sw.currentBet = 0
	switch len(sw.board) {
	case 3:
		fmt.Fprintf(sw.b, "*** FLOP *** [%s]\n", spaced(sw.board))
	case 4:
		fmt.Fprintf(sw.b, "*** TURN *** [%s] [%s]\n", prev, spaced(e.Cards[:e.NCards]))
	default:
		fmt.Fprintf(sw.b, "*** RIVER *** [%s] [%s]\n", prev, spaced(e.Cards[:e.NCards]))
	}
}

// writeSummary writes the "*** SUMMARY ***" section.
func writeSummary(b *bufio.Writer, cfg engine.Config, h *engine.Hand, info *Info, res engine.Result, sb, bb int, foldedOn map[int]engine.Street, showdown bool) {
	fmt.Fprintln(b, "*** SUMMARY ***")
	var total int64
	for _, p := range res.Pots {
		total += p.Amount
	}
	fmt.Fprintf(b, "Total pot %d", total)
	if len(res.Pots) > 1 {
		for k, p := range res.Pots {
			fmt.Fprintf(b, " %s %d.", upperFirst(potName(k, len(res.Pots))), p.Amount)
		}
	}
	fmt.Fprintln(b, " | Rake 0")
	if len(res.Board) > 0 {
		fmt.Fprintf(b, "Board [%s]\n", spaced(res.Board))
	}
	won := make([]int64, h.Seats())
	for _, p := range res.Pots {
		for _, a := range p.Awards {
			won[a.Seat] += a.Amount
		}
	}
	shown := make(map[int]engine.ShownHand)
	for _, s := range res.Shown {
		shown[s.Seat] = s
	}
	v := h.SpectatorView()
	for i, s := range v.Seats {
		if !s.InHand {
			continue
		}
		fmt.Fprintf(b, "Seat %d: %s", i+1, info.name(i))
		switch i {
		case cfg.Button:
			fmt.Fprint(b, " (button)")
		}
		switch i {
		case sb:
			fmt.Fprint(b, " (small blind)")
		case bb:
			fmt.Fprint(b, " (big blind)")
		}
		street, folded := foldedOn[i]
		sh, didShow := shown[i]
		switch {
		case folded && street == engine.Preflop:
			fmt.Fprint(b, " folded before Flop")
		case folded:
			fmt.Fprintf(b, " folded on the %s", upperFirst(street.String()))
		case didShow && won[i] > 0:
			fmt.Fprintf(b, " showed [%s] and won (%d) with %s", spaced(sh.Cards), won[i], lowerFirst(sh.Name))
		case didShow:
			fmt.Fprintf(b, " showed [%s] and lost with %s", spaced(sh.Cards), lowerFirst(sh.Name))
		case showdown:
			fmt.Fprint(b, " mucked")
		case won[i] > 0:
			fmt.Fprintf(b, " collected (%d)", won[i])
		}
		fmt.Fprintln(b)
	}
	fmt.Fprintln(b)
}

// handName is the name of the hand seat showed, as PokerStars writes it after "shows".
func handName(res engine.Result, seat int) string {
	for _, s := range res.Shown {
		if s.Seat == seat {
			return lowerFirst(s.Name)
		}
	}
	return ""
}

// potName names pot k of n as PokerStars does: "pot", or "main pot", "side pot",
// "side pot-2", ...
func potName(k, n int) string {
	switch {
	case n == 1:
		return "pot"
	case k == 0:
		return "main pot"
	case n == 2:
		return "side pot"
	}
	return fmt.Sprintf("side pot-%d", k)
}

// spaced writes cards separated by spaces ("Ah Kd").
func spaced(cs []cards.Card) string {
	parts := make([]string, len(cs))
	for k, c := range cs {
		parts[k] = c.String()
	}
	return strings.Join(parts, " ")
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
