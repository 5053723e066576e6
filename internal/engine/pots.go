package engine

import (
	"math/bits"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/eval"
)

// returnUncalled gives back the part of the largest contribution that nobody matched.
func (h *Hand) returnUncalled() {
	// The largest and second largest totals, the first seat with the largest; written
	// with min and max (conditional moves) since the branches would be unpredictable.
	top, first, second := NoSeat, int64(-1), int64(0)
	for i := 0; i < h.s.n; i++ {
		t := h.seats[i].total
		second = max(second, min(t, first))
		if t > first {
			top = i
		}
		first = max(first, t)
	}
	if top == NoSeat || first <= second {
		return
	}
	diff := first - second
	s := &h.seats[top]
	s.stack += diff
	s.total -= diff
	s.bet = max(s.bet-diff, 0) // the round or the hand ends now: h.owe needs no update
	h.pot -= diff
	if s.allIn {
		s.allIn = false
		h.nCanAct++
		h.active |= 1 << top
	}
	h.emitChips(EvUncalled, top, diff, 0, false)
}

// formPots splits everything put in into a main pot and side pots: one level for each
// distinct total of the seats still in the hand, contested by the seats that reached it.
func (h *Hand) formPots() {
	// Common case: nobody is all-in, so every live seat matched every bet and the
	// pot is one pot.
	if h.nCanAct == h.nLive {
		h.pots[0].amount = h.pot
		h.pots[0].eligible = h.live
		h.nPots = 1
		return
	}
	// Next: every live seat put in the same amount.
	all := h.live
	same, level := true, int64(-1)
	for m := uint32(all); m != 0; m &= m - 1 {
		t := h.seats[bits.TrailingZeros32(m)].total
		same = same && (level < 0 || t == level)
		level = t
	}
	if same {
		// Folded seats never put in more than the live ones after uncalled bets
		// are returned, so the whole pot is one level.
		h.pots[0].amount = h.pot
		h.pots[0].eligible = all
		h.nPots = 1
		return
	}
	var levels [MaxSeats]int64
	nl := 0
	for i := 0; i < h.s.n; i++ {
		s := &h.seats[i]
		if s.status != statusLive || s.total == 0 {
			continue
		}
		t := s.total
		j := nl
		for j > 0 && levels[j-1] > t {
			j--
		}
		if j > 0 && levels[j-1] == t {
			continue
		}
		copy(levels[j+1:nl+1], levels[j:nl])
		levels[j] = t
		nl++
	}
	h.nPots = 0
	var prev, sum int64
	for k := 0; k < nl; k++ {
		lv, last := levels[k], k == nl-1
		var p pot
		for i := 0; i < h.s.n; i++ {
			s := &h.seats[i]
			c := s.total
			if !last {
				c = min(c, lv)
			}
			if c > prev {
				p.amount += c - prev
			}
			if s.status == statusLive && s.total >= lv {
				p.eligible |= 1 << i
			}
		}
		if p.amount > 0 {
			h.pots[h.nPots] = p
			h.nPots++
			sum += p.amount
		}
		prev = lv
	}
	// Defensive: chips put in by folded seats when no live seat put any in.
	if rest := h.potTotal() - sum; rest > 0 {
		if h.nPots == 0 {
			var all SeatSet
			for i := 0; i < h.s.n; i++ {
				if h.seats[i].status == statusLive {
					all |= 1 << i
				}
			}
			h.pots[0] = pot{eligible: all}
			h.nPots = 1
		}
		h.pots[h.nPots-1].amount += rest
	}
}

func (h *Hand) emitPots() {
	for k := 0; k < h.nPots; k++ {
		p := &h.pots[k]
		e := h.emit(EvPot, NoSeat)
		e.Pot = int8(k)
		e.Amount = p.amount
		e.Seats = p.eligible
	}
}

// finishUncontested gives every pot to the one seat left in the hand.
func (h *Hand) finishUncontested() {
	h.toAct = NoSeat
	h.returnUncalled()
	h.formPots()
	h.emitPots()
	for k := h.nPots - 1; k >= 0; k-- {
		h.award(k, h.pots[k].amount, h.pots[k].eligible, WholePot)
	}
	h.street = Showdown
	h.finish()
}

// award splits amount among winners; odd chips go one at a time to the winners in
// seat order starting left of the button.
func (h *Hand) award(potIndex int, amount int64, winners SeatSet, share Share) {
	k := int64(winners.Len())
	if k == 0 || amount == 0 {
		return
	}
	each, odd := amount, int64(0)
	if k > 1 {
		each, odd = amount/k, amount%k
	}
	// The winners in seat order from the button's left: those after it, then the rest.
	w := uint32(winners)
	after := w >> uint(h.s.button+1) << uint(h.s.button+1)
	for _, m := range [2]uint32{after, w &^ after} {
		for ; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			amt := each
			if odd > 0 {
				amt++
				odd--
			}
			s := &h.seats[i]
			s.stack += amt
			s.won += amt
			e := h.emit(EvAward, i)
			e.Pot = int8(potIndex)
			e.Amount = amt
			e.Share = share
			e.Seats = winners
		}
	}
}

// showdown shows or mucks the hands still in, in order, and awards the pots, the
// last-created first.
func (h *Hand) showdown() {
	h.street = Showdown
	h.toAct = NoSeat
	h.emit(EvStreet, NoSeat)
	n := h.s.n
	stud := h.s.variant == StudThree
	showAll := stud || h.runOut
	var board eval.Hand
	if !stud {
		board = eval.Empty
		for k := 0; k < h.nBoard; k++ {
			board = board.Add(h.board[k])
		}
	}
	for m := uint32(h.live); m != 0; m &= m - 1 {
		s := &h.seats[bits.TrailingZeros32(m)]
		if stud {
			s.rank = uint16(eval.Stud(s.cards[0], s.cards[1], s.cards[2]))
		} else {
			s.rank = uint16(board.Add(s.cards[0]).Add(s.cards[1]).Rank())
			if s.allIn {
				showAll = true // TDA: hands are tabled when a player is all-in
			}
		}
	}
	// The last aggressor of the final round shows first; otherwise the first seat
	// left of the button.
	start := h.aggressor
	if start == NoSeat || h.seats[start].status != statusLive {
		start = h.nextLive(h.s.button)
	}
	var best [MaxSeats]uint16 // best rank shown so far, per pot
	for d, i := 0, start-1; d < n; d++ {
		if i++; i == n {
			i = 0
		}
		s := &h.seats[i]
		if s.status != statusLive {
			continue
		}
		show := showAll
		for k := 0; k < h.nPots && !show; k++ {
			if h.pots[k].eligible.Has(i) && s.rank >= best[k] {
				show = true
			}
		}
		if show {
			s.shown = true
			for k := 0; k < h.nPots; k++ {
				if h.pots[k].eligible.Has(i) && s.rank > best[k] {
					best[k] = s.rank
				}
			}
			// Cards past ncards are cards.NoCard.
			h.emitCards(EvShow, i, int(s.ncards), s.cards[0], s.cards[1], s.cards[2]).Rank = s.rank
		} else {
			s.mucked = true
			h.emit(EvMuck, i)
		}
	}
	switch {
	case stud:
		h.awardStud()
	case h.twice:
		h.awardTwice(board)
	default:
		for k := h.nPots - 1; k >= 0; k-- {
			p := &h.pots[k]
			h.award(k, p.amount, h.bestOf(p.eligible), WholePot)
		}
	}
	h.finish()
}

// awardTwice awards each pot in two halves: the first run's board (dealt
// already, and the hands shown on it) wins the larger half, the odd chip, then
// the rest of the board is dealt again from the cards the betting closed on, and
// its board wins the other half.
func (h *Hand) awardTwice(board eval.Hand) {
	for k := h.nPots - 1; k >= 0; k-- {
		p := &h.pots[k]
		h.award(k, p.amount-p.amount/2, h.bestOf(p.eligible), FirstRun)
	}
	h.emit(EvSecondRun, NoSeat)
	copy(h.board2[:], h.board[:h.runFrom])
	h.nBoard2 = h.runFrom
	board = eval.Empty
	for k := 0; k < h.runFrom; k++ {
		board = board.Add(h.board[k])
	}
	for h.nBoard2 < 5 {
		h.emitCard(EvBurn, NoSeat, h.draw())
		n := 1
		if h.nBoard2 == 0 {
			n = 3
		}
		dealt := noCards
		for j := 0; j < n; j++ {
			dealt[j] = h.draw()
			h.board2[h.nBoard2] = dealt[j]
			h.nBoard2++
			board = board.Add(dealt[j])
		}
		h.emitCards(EvBoard, NoSeat, n, dealt[0], dealt[1], dealt[2])
	}
	for m := uint32(h.live); m != 0; m &= m - 1 {
		s := &h.seats[bits.TrailingZeros32(m)]
		s.rank = uint16(board.Add(s.cards[0]).Add(s.cards[1]).Rank())
	}
	for k := h.nPots - 1; k >= 0; k-- {
		p := &h.pots[k]
		h.award(k, p.amount/2, h.bestOf(p.eligible), SecondRun)
	}
}

// bestOf returns the shown seats of among with the highest rank.
func (h *Hand) bestOf(among SeatSet) SeatSet {
	var w SeatSet
	var top uint16
	for m := uint32(among & h.live); m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		s := &h.seats[i]
		if !s.shown {
			continue
		}
		switch {
		case s.rank > top:
			top, w = s.rank, 1<<i
		case s.rank == top:
			w |= 1 << i
		}
	}
	return w
}

// awardStud splits the stud pot: half to the best poker hand, half to the highest
// spade in the hole, the odd chip to the poker half; the whole pot to one player when
// nobody has a spade in the hole or one player wins both halves.
func (h *Hand) awardStud() {
	all := h.live
	var amount int64
	for k := 0; k < h.nPots; k++ {
		amount += h.pots[k].amount
	}
	poker := h.bestOf(all)
	spade, top := NoSeat, -1
	for i := 0; i < h.s.n; i++ {
		if c := h.seats[i].cards[0]; all.Has(i) && c.Suit() == cards.Spades && int(c) > top {
			spade, top = i, int(c)
		}
	}
	if spade == NoSeat || poker == 1<<spade {
		h.award(0, amount, poker, WholePot)
		return
	}
	half := amount / 2
	h.award(0, amount-half, poker, PokerHalf)
	h.award(0, half, 1<<spade, SpadeHalf)
}
