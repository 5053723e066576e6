package history

import (
	"fmt"
	"strings"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// Info is what a history records beyond the engine's hand: all of it optional.
type Info struct {
	// Hand is the hand number (0: not written); Table the table's name.
	Hand  int64
	Table string
	// Players names the seats, seat 0 first; a missing or empty name is written as
	// "Seat N" in PokerStars text and "" in PHH.
	Players []string
	// Time is when the hand began (PokerStars text; the zero time is written as
	// the Unix epoch).
	Time time.Time
	// Hero is the seat, counted from 1, whose hole cards the PokerStars "Dealt to"
	// line shows, as a player's own history does; 0 shows every seat's cards.
	Hero int
}

// name returns the display name of seat i.
func (in *Info) name(i int) string {
	if i < len(in.Players) && in.Players[i] != "" {
		return in.Players[i]
	}
	return fmt.Sprintf("Seat %d", i+1)
}

// limits are a configuration's blinds and bets with the engine's defaults applied.
type limits struct {
	sb, bb, ante, smallBet, bigBet, studMax int64
	raiseCap                                int
}

// settle applies the defaults engine.Config documents to the fields a history
// writes. The engine keeps its settled values private; TestSettleMatchesEngine
// checks this against the blinds the engine posts.
func settle(c *engine.Config) limits {
	l := limits{sb: c.SmallBlind, bb: c.BigBlind, ante: c.Ante, smallBet: c.SmallBet, bigBet: c.BigBet, studMax: c.StudMaxRaise, raiseCap: c.RaiseCap}
	if c.Variant == engine.StudThree {
		if l.ante == 0 {
			l.ante = engine.DefaultStudAnte
		}
		if l.studMax == 0 {
			l.studMax = engine.DefaultStudMaxRaise
		}
		return l
	}
	if c.Structure == engine.FixedLimit {
		if l.smallBet == 0 {
			l.smallBet = l.bb
		}
		if l.bb == 0 {
			l.bb = l.smallBet
			if l.sb == 0 {
				l.sb = l.smallBet / 2
			}
		}
		if l.bigBet == 0 {
			l.bigBet = 2 * l.smallBet
		}
	}
	return l
}

// order returns the seats dealt into h in PHH player order: from the first seat left
// of the button round to the button.
func order(h *engine.Hand, button int) []int {
	v := h.SpectatorView()
	n := len(v.Seats)
	var seats []int
	for d := 1; d <= n; d++ {
		if i := (button + d) % n; v.Seats[i].InHand {
			seats = append(seats, i)
		}
	}
	return seats
}

// FromHand writes hand h, dealt from cfg, as PHH. The hand may be unfinished; its
// finishing stacks are then the stacks after the last action.
func FromHand(cfg engine.Config, h *engine.Hand, info Info) (*PHH, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	lim := settle(&cfg)
	seats := order(h, cfg.Button)
	n := len(seats)
	player := make([]int, len(cfg.Stacks)) // seat -> 0-based player, -1 if not dealt in
	for i := range player {
		player[i] = -1
	}
	for k, s := range seats {
		player[s] = k
	}
	p := &PHH{Antes: make([]int64, n), StartingStacks: make([]int64, n), SeatCount: len(cfg.Stacks),
		Seats: make([]int, n), FinishingStacks: make([]int64, n), Winnings: make([]int64, n)}
	for k, s := range seats {
		p.Antes[k] = lim.ante
		p.StartingStacks[k] = cfg.Stacks[s]
		p.Seats[k] = s + 1
		p.FinishingStacks[k] = h.Stack(s)
	}
	if cfg.Button != seats[n-1] {
		p.Button = cfg.Button + 1
	}
	switch {
	case cfg.Variant == engine.StudThree:
		p.Variant, p.MaxRaise = VariantStud3, lim.studMax
	case cfg.Structure == engine.FixedLimit:
		p.Variant, p.SmallBet, p.BigBet = VariantFT, lim.smallBet, lim.bigBet
		if lim.raiseCap != 0 {
			p.RaiseCap = lim.raiseCap
		}
	default:
		p.Variant, p.MinBet = VariantNT, lim.bb
		if cfg.Structure == engine.PotLimit {
			p.Betting = BettingPotLimit
		}
	}
	if cfg.Variant == engine.Holdem {
		p.BlindsOrStraddles = make([]int64, n)
		p.BlindsOrStraddles[0], p.BlindsOrStraddles[1] = lim.sb, lim.bb
		if h.Straddler() != engine.NoSeat {
			p.BlindsOrStraddles[2] = 2 * lim.bb // p3 is under the gun
		}
		if b := h.SecondBoard(); b != nil {
			p.SecondBoard = cardText(b)
		}
	}
	if cfg.Deck == nil {
		p.Seed = cfg.Seed.String()
	}
	if info.Hand != 0 {
		p.Hand = info.Hand
	}
	if info.Table != "" {
		p.Table = info.Table
	}
	if len(info.Players) > 0 {
		p.Players = make([]string, n)
		for k, s := range seats {
			if s < len(info.Players) {
				p.Players[k] = info.Players[s]
			}
		}
	}
	p.Actions = actionLines(h.Events(), player, &p.Winnings, &p.Burns)
	return p, nil
}

// actionLines writes the event log as PHH actions, adds awards to winnings and the
// burned cards to burns. Hole cards dealt together are written as one "d dh" per
// player, in player order. In an all-in run-out the hands are shown where the
// betting ended, before the rest of the board, as PokerKit orders them.
func actionLines(events []engine.Event, player []int, winnings *[]int64, burns *string) []string {
	var lines []string
	lastAct, showAt := -1, -1
	var shows []string
	for _, e := range events {
		switch e.Kind {
		case engine.EvFold, engine.EvCheck, engine.EvCall, engine.EvBet, engine.EvRaise, engine.EvLeave:
			lastAct = e.Index
		case engine.EvShow:
			shows = append(shows, fmt.Sprintf("p%d sm %s", player[e.Seat]+1, cardText(e.Cards[:e.NCards])))
		case engine.EvMuck:
			shows = append(shows, fmt.Sprintf("p%d sm", player[e.Seat]+1))
		}
	}
	if len(shows) > 0 {
		for _, e := range events {
			if e.Kind == engine.EvBoard && e.Index > lastAct {
				showAt = e.Index
				break
			}
		}
	}
	dealt := make([][]cards.Card, len(player))
	flush := func() {
		for k := 0; k < len(player); k++ {
			for s, pk := range player {
				if pk == k && len(dealt[s]) > 0 {
					lines = append(lines, fmt.Sprintf("d dh p%d %s", k+1, cardText(dealt[s])))
					dealt[s] = dealt[s][:0]
				}
			}
		}
	}
	var burned []cards.Card
	second := false // past EvSecondRun: the second run's board is _second_board
	for _, e := range events {
		if e.Kind != engine.EvHoleCards && e.Kind != engine.EvUpCard {
			flush()
		}
		if e.Index == showAt {
			lines = append(lines, shows...)
		}
		pk := -1
		if e.Seat >= 0 && int(e.Seat) < len(player) {
			pk = player[e.Seat]
		}
		switch e.Kind {
		case engine.EvHoleCards, engine.EvUpCard:
			dealt[e.Seat] = append(dealt[e.Seat], e.Cards[:e.NCards]...)
		case engine.EvBurn:
			burned = append(burned, e.Cards[0])
		case engine.EvSecondRun:
			second = true
		case engine.EvBoard:
			if !second {
				lines = append(lines, "d db "+cardText(e.Cards[:e.NCards]))
			}
		case engine.EvFold:
			if e.Forced {
				lines = append(lines, fmt.Sprintf("# p%d cannot call and folds", pk+1))
			} else {
				lines = append(lines, fmt.Sprintf("p%d f", pk+1))
			}
		case engine.EvLeave:
			lines = append(lines, fmt.Sprintf("p%d f # leave", pk+1))
		case engine.EvCheck, engine.EvCall:
			lines = append(lines, fmt.Sprintf("p%d cc", pk+1))
		case engine.EvBet, engine.EvRaise:
			lines = append(lines, fmt.Sprintf("p%d cbr %d", pk+1, e.To))
		case engine.EvShow, engine.EvMuck:
			if showAt < 0 {
				lines = append(lines, shows[0])
				shows = shows[1:]
			}
		case engine.EvAward:
			(*winnings)[pk] += e.Amount
		}
	}
	flush()
	if len(burned) > 0 {
		*burns = cardText(burned)
	}
	return lines
}

// cardText writes cards as PHH does: concatenated, "??" for an unknown card.
func cardText(cs []cards.Card) string {
	var b strings.Builder
	for _, c := range cs {
		if c.Valid() {
			b.WriteString(c.String())
		} else {
			b.WriteString("??")
		}
	}
	return b.String()
}

// parseCards reads PHH card text: two characters a card, "??" (or any "?") for an
// unknown card, which it returns as cards.NoCard.
func parseCards(s string) ([]cards.Card, error) {
	if len(s)%2 != 0 || len(s) == 0 {
		return nil, fmt.Errorf("%w: cards %q: want two characters a card", ErrFormat, s)
	}
	out := make([]cards.Card, 0, len(s)/2)
	for k := 0; k < len(s); k += 2 {
		t := s[k : k+2]
		if strings.ContainsRune(t, '?') {
			out = append(out, cards.NoCard)
			continue
		}
		c, err := cards.Parse(t)
		if err != nil {
			return nil, fmt.Errorf("%w: cards %q: %v", ErrFormat, s, err)
		}
		out = append(out, c)
	}
	return out, nil
}
