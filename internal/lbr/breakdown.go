package lbr

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/felt-poker/felt/internal/engine"
)

// HandEnd is how one hand of a run ended, for a breakdown of where LBR wins
// (Config.Hand, Breakdown).
type HandEnd struct {
	// Deal is the deal's number, Seat LBR's seat.
	Deal, Seat int
	// Net is LBR's net chips; CV the same less the control variate's correction
	// (the hand's share of Outcome.CV, in chips).
	Net int64
	CV  float64
	// Street is the round of the hand's last action (a hand checked down ends
	// on the river; one whose all-in was called before the flop, before it).
	Street engine.Street
	// End is "bot folds", "LBR folds" or "showdown".
	End string
	// Line is LBR's most aggressive action in the hand: "checks, calls", "bets"
	// (a bet or raise short of all-in) or "all-in".
	Line string
}

// handEnd describes hand h, played to its end with LBR in seat.
func handEnd(h *engine.Hand, d, seat int, net int64, corr float64) HandEnd {
	e := HandEnd{Deal: d, Seat: seat, Net: net, CV: float64(net) - corr, End: "showdown", Line: "checks, calls"}
	var v engine.View
	h.ViewInto(seat, &v)
	round := engine.Preflop
	for _, ev := range v.Events {
		switch ev.Kind {
		case engine.EvStreet:
			round = ev.Street
		case engine.EvCheck, engine.EvCall:
			e.Street = round
		case engine.EvFold:
			e.Street = round
			e.End = "bot folds"
			if int(ev.Seat) == seat {
				e.End = "LBR folds"
			}
		case engine.EvBet, engine.EvRaise:
			e.Street = round
			switch {
			case int(ev.Seat) != seat:
			case ev.AllIn:
				e.Line = "all-in"
			case e.Line != "all-in":
				e.Line = "bets"
			}
		}
	}
	return e
}

// Breakdown adds up LBR's win by the round a hand ended on, how it ended and
// LBR's line (felt lbr --breakdown). It is safe for concurrent use.
type Breakdown struct {
	mu    sync.Mutex
	rows  map[breakdownKey]*BreakdownRow
	hands int
}

type breakdownKey struct {
	street    engine.Street
	end, line string
}

// BreakdownRow is one kind of hand: how many there were and LBR's net over them.
type BreakdownRow struct {
	Street    engine.Street
	End, Line string
	Hands     int
	Net       int64
	CV        float64
}

// Add counts hand e (Config.Hand).
func (b *Breakdown) Add(e HandEnd) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.rows == nil {
		b.rows = map[breakdownKey]*BreakdownRow{}
	}
	k := breakdownKey{e.Street, e.End, e.Line}
	r := b.rows[k]
	if r == nil {
		r = &BreakdownRow{Street: e.Street, End: e.End, Line: e.Line}
		b.rows[k] = r
	}
	r.Hands++
	r.Net += e.Net
	r.CV += e.CV
	b.hands++
}

// Rows returns the kinds of hand counted, the largest win (by the control
// variate's estimate) first, and the number of hands.
func (b *Breakdown) Rows() ([]BreakdownRow, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []BreakdownRow
	for _, r := range b.rows {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(x, y BreakdownRow) int {
		return cmp.Or(-cmp.Compare(x.CV, y.CV), cmp.Compare(x.Street, y.Street), cmp.Compare(x.End, y.End), cmp.Compare(x.Line, y.Line))
	})
	return out, b.hands
}

// Write prints the breakdown: each kind's hands and its share of LBR's win in
// mbb/g of all the hands counted (the rows add up to the run's mean), plain
// and with the control variate; unit is the big blind.
func (b *Breakdown) Write(w io.Writer, unit int64) {
	rows, n := b.Rows()
	if n == 0 {
		return
	}
	per := func(x float64) float64 { return x / float64(n) / float64(unit) * 1000 }
	fmt.Fprintf(w, "Where LBR won (mbb/g of all %d hands; the rows add up to the run's mean):\n", n)
	fmt.Fprintf(w, "  %-8s %-10s %-14s %6s %10s %10s\n", "round", "end", "LBR's line", "hands", "mbb/g", "cv mbb/g")
	for _, r := range rows {
		fmt.Fprintf(w, "  %-8s %-10s %-14s %6d %+10.0f %+10.0f\n", r.Street, r.End, r.Line, r.Hands, per(float64(r.Net)), per(r.CV))
	}
}
