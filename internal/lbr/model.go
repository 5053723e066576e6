package lbr

import (
	"context"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// model asks the bot what it would do with each hand of its range: exactly when
// it is a bot.Strategist that can answer, otherwise by calling Act k times on
// the bot's view with the candidate hand in place of its own.
type model struct {
	b   bot.Bot
	st  bot.Strategist        // nil when b is not one
	cst bot.ContextStrategist // nil when b is not one
	k   int
	// view is a deep copy of the bot's view whose hole cards are overwritten for
	// each candidate; hole is the index of the bot's hole-card event in it.
	view engine.View
	hole int
	buf  []bot.ActionProb
}

func newModel(b bot.Bot, k int) *model {
	m := &model{b: b, k: k}
	m.st, _ = b.(bot.Strategist)
	m.cst, _ = b.(bot.ContextStrategist)
	return m
}

// strategies is what the bot does with every hand of a range at one decision:
// the actions of hand i, with their probabilities, are probs[off[i]:off[i+1]].
type strategies struct {
	off   [NumCombos + 1]int32
	probs []bot.ActionProb
}

// prob returns the probability that the bot takes a with hand i (bets and
// raises match by their amount, the other kinds by kind alone).
func (s *strategies) prob(i int, a engine.Action) float64 {
	p := 0.0
	for _, x := range s.probs[s.off[i]:s.off[i+1]] {
		if sameAction(x.Action, a) {
			p += x.Prob
		}
	}
	return p
}

// foldProb returns the probability that the bot folds with hand i.
func (s *strategies) foldProb(i int) float64 {
	return s.prob(i, engine.Action{Kind: engine.Fold})
}

func sameAction(x, y engine.Action) bool {
	if x.Kind != y.Kind {
		return false
	}
	return (x.Kind != engine.Bet && x.Kind != engine.Raise) || x.Amount == y.Amount
}

// ask fills s with the bot's strategy at v (the bot's own view, on its turn) for
// every hand r gives weight. It never reads the bot's own hole cards in v: each
// candidate overwrites them. When ctx ends it stops asking: the hands left get
// no action (the deal is then abandoned).
func (m *model) ask(ctx context.Context, v *engine.View, r *Range, s *strategies) {
	m.load(v)
	s.probs = s.probs[:0]
	done := ctx.Done()
	for i := range NumCombos {
		s.off[i] = int32(len(s.probs))
		if r[i] == 0 {
			continue
		}
		select {
		case <-done:
			continue
		default:
		}
		m.place(combos[i])
		s.probs = m.strategy(ctx, s.probs)
	}
	s.off[NumCombos] = int32(len(s.probs))
}

// load copies v into m.view (slices included) and finds the bot's hole cards.
func (m *model) load(v *engine.View) {
	board, seats, pots, events := m.view.Board, m.view.Seats, m.view.Pots, m.view.Events
	m.view = *v
	m.view.Board = append(board[:0], v.Board...)
	m.view.Seats = append(seats[:0], v.Seats...)
	m.view.Pots = append(pots[:0], v.Pots...)
	m.view.Events = append(events[:0], v.Events...)
	m.hole = -1
	for k := range m.view.Events {
		if e := &m.view.Events[k]; e.Kind == engine.EvHoleCards && int(e.Seat) == v.Viewer {
			m.hole = k
		}
	}
}

// place gives the bot hand c in m.view.
func (m *model) place(c [2]cards.Card) {
	sv := &m.view.Seats[m.view.Viewer]
	sv.Cards[0], sv.Cards[1] = c[0], c[1]
	if m.hole >= 0 {
		e := &m.view.Events[m.hole]
		e.Cards[0], e.Cards[1] = c[0], c[1]
	}
}

// strategy appends the bot's strategy at m.view to out.
func (m *model) strategy(ctx context.Context, out []bot.ActionProb) []bot.ActionProb {
	if m.st != nil {
		var ok bool
		if m.cst != nil {
			m.buf, ok = m.cst.StrategyContext(ctx, &m.view, m.buf)
		} else {
			m.buf, ok = m.st.Strategy(&m.view, m.buf)
		}
		if ok {
			return append(out, m.buf...)
		}
	}
	start := len(out)
	for range m.k {
		a := bot.Decide(ctx, m.b, &m.view)
		merged := false
		for j := start; j < len(out); j++ {
			if sameAction(out[j].Action, a) {
				out[j].Prob += 1 / float64(m.k)
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, bot.ActionProb{Action: a, Prob: 1 / float64(m.k)})
		}
	}
	return out
}
