package casino

import (
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/eval"
)

// StudBotName names the reference strategy among the bots (NewBot, --bot).
const StudBotName = "stud"

// Reference is the reference client's strategy for three card stud, a felt bot
// (bot.Bot) that is deterministic so that the grader's rubric can be checked
// against it. It sorts its hand into strong, fair and weak using its own cards and
// the up cards of the players still in:
//   - strong: three of a kind; a pair that no player still in shows a pair to beat;
//     a spade in the hole that can only lose the spade half to at most one unseen
//     higher spade (an ace, or a king when the ace is seen or few play).
//   - fair: a pair before the last card, a queen or better of spades in the hole, or
//     a high card above every up card of the others when nobody shows a pair.
//   - weak: anything else.
//
// Strong bets the most allowed (the call plus 10); fair calls, or bets 2 when free;
// weak checks, calls at most 1 chip, and otherwise folds.
type Reference struct{}

// Strength classes of Reference.
const (
	weak = iota
	fair
	strong
)

// Act decides for the seat to act in v.
func (Reference) Act(v *engine.View) engine.Action {
	l := v.Legal
	toCall := l.CurrentBet - l.Committed
	var n int64 = -1 // chips to put in; -1 folds
	switch Classify(v) {
	case strong:
		n = toCall + MaxRaise
	case fair:
		n = toCall
		if toCall == 0 {
			n = 2
		}
	default:
		if toCall <= 1 {
			n = toCall
		}
	}
	return put(l, n)
}

// put returns the action that puts n chips in (less when n is above the limits,
// the call when no bet is allowed), or a fold for n < 0 or when even the call is
// not possible.
func put(l engine.Legal, n int64) engine.Action {
	toCall := l.CurrentBet - l.Committed
	if n >= 0 {
		n = min(n, l.Stack, l.MaxTo-l.Committed)
		n = max(n, toCall)
		if a, ok := l.Put(n); ok {
			return a
		}
		if a, ok := l.Put(toCall); ok {
			return a
		}
	}
	return engine.Action{Seat: l.Seat, Kind: engine.Fold}
}

// Classify sorts the viewer's hand into weak (0), fair (1) or strong (2) as
// Reference describes.
func Classify(v *engine.View) int {
	me := v.Seats[v.Viewer]
	mine := me.Cards[:me.NCards]
	var seen cards.Set
	opps := 0
	var oppUps [][]cards.Card
	for i, s := range v.Seats {
		for _, c := range s.Cards[:s.NCards] {
			if c.Valid() {
				seen = seen.Add(c)
			}
		}
		if i == v.Viewer || !s.InHand || s.Folded || s.Left {
			continue
		}
		opps++
		oppUps = append(oppUps, s.Cards[1:s.NCards])
	}
	class := pokerClass(mine, oppUps)
	if c := spadeClass(mine[0], seen, opps); c > class {
		class = c
	}
	return class
}

// pokerClass rates the viewer's cards (hole first) against the others' up cards.
func pokerClass(mine []cards.Card, oppUps [][]cards.Card) int {
	myPair := -1
	top := cards.Rank(0)
	for i, c := range mine {
		top = max(top, c.Rank())
		for _, d := range mine[i+1:] {
			if c.Rank() == d.Rank() {
				myPair = int(c.Rank())
			}
		}
	}
	if len(mine) == 3 && eval.Stud(mine[0], mine[1], mine[2]).Category() == eval.ThreeOfAKind {
		return strong
	}
	shownPair, oppTop := -1, cards.Rank(0)
	for _, ups := range oppUps {
		for i, c := range ups {
			oppTop = max(oppTop, c.Rank())
			for _, d := range ups[i+1:] {
				if c.Rank() == d.Rank() {
					shownPair = max(shownPair, int(c.Rank()))
				}
			}
		}
	}
	switch {
	case myPair >= 0 && shownPair >= myPair:
		return weak
	case myPair >= 0 && len(mine) == 3:
		return strong
	case myPair >= 0:
		return fair
	case shownPair < 0 && top > oppTop && top >= cards.Queen:
		return fair
	}
	return weak
}

// spadeClass rates a hole card for the spade half: the fewer higher spades unseen,
// the likelier the half.
func spadeClass(hole cards.Card, seen cards.Set, opps int) int {
	if hole.Suit() != cards.Spades {
		return weak
	}
	unseen := 0
	for r := hole.Rank() + 1; r <= cards.Ace; r++ {
		if !seen.Has(cards.New(r, cards.Spades)) {
			unseen++
		}
	}
	switch {
	case unseen == 0, unseen == 1 && opps <= 3:
		return strong
	case hole.Rank() >= cards.Queen:
		return fair
	}
	return weak
}
