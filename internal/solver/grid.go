package solver

import (
	"fmt"
	"strings"

	"github.com/felt-poker/felt/internal/cards"
)

// classOf returns the 13x13 grid cell of a hand written as "AhKd": row and column
// from the ace down, suited hands above the diagonal, offsuit below.
func classOf(hand string) (row, col int, name string) {
	cs := cards.MustParseList(hand)
	hi, lo := cs[0].Rank(), cs[1].Rank()
	if hi < lo {
		hi, lo = lo, hi
	}
	r, c := int(cards.Ace-hi), int(cards.Ace-lo)
	switch {
	case hi == lo:
		return r, c, hi.String() + lo.String()
	case cs[0].Suit() == cs[1].Suit():
		return r, c, hi.String() + lo.String() + "s"
	}
	return c, r, hi.String() + lo.String() + "o"
}

// palette colours actions in a terminal: fold blue, check and call green, bets and
// raises red to magenta as they grow.
var palette = []string{"\x1b[44m", "\x1b[42m", "\x1b[41m", "\x1b[45m", "\x1b[43;30m", "\x1b[46;30m", "\x1b[47;30m"}

func actionColour(info NodeInfo, a int) string {
	switch info.Actions[a] {
	case "f":
		return palette[0]
	case "x", "c":
		return palette[1]
	}
	bets := 0
	for i := range a {
		if l := info.Actions[i]; l != "f" && l != "x" && l != "c" {
			bets++
		}
	}
	return palette[2+min(bets, len(palette)-3)]
}

// Grid draws a decision node's range as a 13x13 grid: each cell is a hand class with
// the frequency of its most played action (reach-weighted over its combos), coloured
// by that action when colour is set, "." for classes not in the range. A legend gives
// each action's colour and its share of the whole range.
func Grid(info NodeInfo, colour bool) string {
	if info.Kind != "decision" {
		return ""
	}
	na := len(info.Actions)
	var freq [13][13][]float64
	var reach [13][13]float64
	var names [13][13]string
	for _, h := range info.Hands {
		r, c, name := classOf(h.Hand)
		if freq[r][c] == nil {
			freq[r][c] = make([]float64, na)
		}
		names[r][c] = name
		reach[r][c] += h.Reach
		for a, f := range h.Strategy {
			freq[r][c][a] += h.Reach * f
		}
	}
	var b strings.Builder
	for r := range 13 {
		for c := range 13 {
			if reach[r][c] == 0 {
				fmt.Fprintf(&b, " %-8s", ".")
				continue
			}
			best := 0
			for a := range na {
				if freq[r][c][a] > freq[r][c][best] {
					best = a
				}
			}
			cell := fmt.Sprintf("%-3s %3.0f%s", names[r][c], 100*freq[r][c][best]/reach[r][c], info.Actions[best][:1])
			if colour {
				cell = actionColour(info, best) + cell + "\x1b[0m"
			}
			b.WriteString(" " + cell)
		}
		b.WriteByte('\n')
	}
	for a, l := range info.Actions {
		key := l
		if colour {
			key = actionColour(info, a) + " " + l + " \x1b[0m"
		}
		if info.AllIn[a] {
			key += " (all-in)"
		}
		fmt.Fprintf(&b, "%s %.1f%%   ", key, 100*info.Totals[a])
	}
	b.WriteByte('\n')
	return b.String()
}
