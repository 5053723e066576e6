package bot

import (
	"strconv"
	"strings"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// Roles in a heads-up hand: the button posts the small blind, acts first before the
// flop and last after it; the big blind is out of position after the flop.
const (
	roleSB = 0
	roleBB = 1
)

// pubAct is one voluntary action of a hand, as everyone saw it.
type pubAct struct {
	role int
	kind engine.EventKind // EvFold, EvCheck, EvCall, EvBet or EvRaise
	to   int64            // the player's bet in this round afterwards
}

// aggressive reports whether the action bets or raises.
func (a pubAct) aggressive() bool { return a.kind == engine.EvBet || a.kind == engine.EvRaise }

// pubStreet is one betting round: where it started and what was done in it.
type pubStreet struct {
	street engine.Street
	board  []cards.Card
	pot    int64    // chips in the pot when the round began (the blinds before the flop)
	behind [2]int64 // each role's chips not yet in the pot when the round began
	blinds [2]int64 // before the flop: each role's blind (its bet in the round)
	acts   []pubAct
	// keyAt is the length of the history's key when the round began, its board
	// dealt: the key's first keyAt bytes name the round's start (the stacks, the
	// pot, the viewer and the board), which the bot's beliefs, bounds and kept
	// re-solves there are keyed by. Without the round's new cards two turns (or
	// flops) after the same actions shared them: a re-solve or a bound of one turn
	// card was taken for another's.
	keyAt int
}

// pubHistory is the public part of a heads-up Hold'em hand: everything but the
// hole cards, so that it is the same for every hand a player may hold.
type pubHistory struct {
	seat    [2]int // the seat of each role
	me      int    // the viewer's role
	bb      int64
	stacks  [2]int64 // each role's chips when the hand began
	streets []pubStreet
	key     string
}

// readHistory reads the public history of a heads-up hand from v's events; ok is
// false when v is not a heads-up Hold'em hand with both players dealt in.
func readHistory(v *engine.View) (h pubHistory, ok bool) {
	if v.Variant != engine.Holdem || v.Structure != engine.NoLimit {
		return h, false
	}
	var in []int
	for i, s := range v.Seats {
		if s.InHand {
			in = append(in, i)
		}
	}
	if len(in) != 2 {
		return h, false
	}
	h.seat = [2]int{v.Button, in[0] + in[1] - v.Button}
	if h.seat[1] != in[0] && h.seat[1] != in[1] || h.seat[0] == h.seat[1] {
		return h, false
	}
	role := func(seat int8) int {
		if int(seat) == h.seat[0] {
			return roleSB
		}
		return roleBB
	}
	h.me = role(int8(v.Viewer))
	for r := range 2 {
		s := &v.Seats[h.seat[r]]
		h.stacks[r] = s.Stack + s.Total
	}
	var key strings.Builder
	key.WriteString(strconv.Itoa(h.me))
	for r := range 2 {
		key.WriteString("/" + strconv.FormatInt(h.stacks[r], 10))
	}
	var total [2]int64
	h.streets = []pubStreet{{street: engine.Preflop, behind: h.stacks}}
	for _, e := range v.Events {
		cur := &h.streets[len(h.streets)-1]
		switch e.Kind {
		case engine.EvSmallBlind, engine.EvBigBlind:
			r := role(e.Seat)
			total[r] += e.Amount
			cur.blinds[r] += e.Amount
			cur.pot += e.Amount
			if e.Kind == engine.EvBigBlind {
				h.bb = e.Amount
			}
			key.WriteString(" B" + strconv.FormatInt(e.Amount, 10))
		case engine.EvStreet:
			if e.Street == engine.Preflop {
				continue
			}
			st := pubStreet{street: e.Street, board: append([]cards.Card(nil), cur.board...), pot: total[0] + total[1], keyAt: key.Len()}
			for r := range 2 {
				st.behind[r] = h.stacks[r] - total[r]
			}
			h.streets = append(h.streets, st)
			key.WriteString(" |")
		case engine.EvBoard:
			for _, c := range e.Cards[:e.NCards] {
				cur.board = append(cur.board, c)
				key.WriteString(c.String())
			}
			cur.keyAt = key.Len()
		case engine.EvFold, engine.EvCheck, engine.EvCall, engine.EvBet, engine.EvRaise:
			r := role(e.Seat)
			total[r] += e.Amount
			cur.acts = append(cur.acts, pubAct{role: r, kind: e.Kind, to: e.To})
			key.WriteString(" " + strconv.Itoa(r) + e.Kind.String()[:2] + strconv.FormatInt(e.To, 10))
		}
	}
	h.key = key.String()
	return h, h.bb > 0
}

// cur returns the round being played.
func (h *pubHistory) cur() *pubStreet { return &h.streets[len(h.streets)-1] }

// effective returns the chips the smaller stack had behind when round st began.
func (st *pubStreet) effective() int64 { return min(st.behind[0], st.behind[1]) }

// potWith returns the chips in the pot with bet, each role's bet in round st
// (before the flop the blinds are in bet and in st.pot alike).
func (st *pubStreet) potWith(bet [2]int64) int64 {
	return st.pot - st.blinds[0] - st.blinds[1] + bet[0] + bet[1]
}

// foldBound returns the most of its range that role me may fold at the k-th
// action of round st facing the opponent's bet or raise, before a bluff of it
// profits: a bluff risks the chips it put in to win the pot before it, so the
// bound is those chips over the pot after it (the minimum defence's complement).
// It is 0 when me faces no bet.
func (st *pubStreet) foldBound(k, me int) float64 {
	bet, _ := st.betsBefore(k)
	if k == 0 || bet[1-me] <= bet[me] {
		return 0
	}
	prev, _ := st.betsBefore(k - 1)
	return float64(bet[1-me]-prev[1-me]) / float64(st.potWith(bet))
}

// betsBefore returns each role's bet in round st before its k-th action, and the
// number of bets and raises by then.
func (st *pubStreet) betsBefore(k int) (bet [2]int64, raises int) {
	bet = st.blinds
	for _, a := range st.acts[:k] {
		if a.kind != engine.EvFold && a.kind != engine.EvCheck {
			bet[a.role] = a.to
		}
		if a.aggressive() {
			raises++
		}
	}
	return bet, raises
}
