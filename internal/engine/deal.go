package engine

import "github.com/felt-poker/felt/internal/cards"

// startHoldem posts antes and blinds, deals the hole cards and opens pre-flop betting.
func (h *Hand) startHoldem() {
	btn := h.s.button
	if h.s.ante > 0 {
		for i := h.nextLive(btn); ; i = h.nextLive(i) {
			amt := h.post(i, h.s.ante, false)
			h.emitChips(EvAnte, i, amt, 0, h.seats[i].allIn)
			if i == btn {
				break
			}
		}
	}
	// Heads-up the button posts the small blind; otherwise the seats after it do.
	// Every seat dealt in is live here: antes never fold anyone.
	if h.liveCount() == 2 {
		h.sbSeat = btn
	} else {
		h.sbSeat = h.nextLive(btn)
	}
	h.bbSeat = h.nextLive(h.sbSeat)
	amt := h.post(h.sbSeat, h.s.sb, true)
	h.emitChips(EvSmallBlind, h.sbSeat, amt, amt, h.seats[h.sbSeat].allIn)
	amt = h.post(h.bbSeat, h.s.bb, true)
	h.emitChips(EvBigBlind, h.bbSeat, amt, amt, h.seats[h.bbSeat].allIn)
	// The big blind is the bet to match even when it was posted short.
	h.currentBet = h.s.bb
	h.lastRaise = h.s.bb
	h.fullLevel = h.s.bb
	h.count = 1
	first := h.bbSeat + 1 // where the action starts
	if h.s.straddlers != 0 {
		first = h.postStraddle(first)
	}
	h.setOwe()

	// Deal one card at a time, starting left of the button: with n seats dealt in, the
	// seat p places round from the first gets the stub's next cards p and n+p.
	n := h.nLive
	for p, i := 0, h.nextLive(btn); p < n; p, i = p+1, h.nextLive(i) {
		s := &h.seats[i]
		c0, c1 := h.stub[h.next+p], h.stub[h.next+n+p]
		s.cards[0] = c0
		s.cards[1] = c1
		s.ncards = 2
		h.emitCards(EvHoleCards, i, 2, c0, c1, cards.NoCard)
	}
	h.next += 2 * n
	h.street = Preflop
	h.emit(EvStreet, NoSeat)
	h.advance(first)
}

// postStraddle has the seat under the gun straddle, if it is one of
// Config.Straddlers and may,
// and returns the seat from which the action starts: after the straddler, who
// then acts last. A straddle is a raise of one big blind, so the least raise
// over it is to four big blinds.
func (h *Hand) postStraddle(first int) int {
	u := h.nextLive(h.bbSeat)
	if h.liveCount() < 3 || !h.s.straddlers.Has(u) || h.seats[u].stack <= 2*h.s.bb {
		return first
	}
	amt := h.post(u, 2*h.s.bb, true)
	h.emitChips(EvStraddle, u, amt, amt, false)
	h.strSeat = u
	h.currentBet = amt
	h.lastRaise = amt
	return u + 1
}

// nextStreet burns and deals the next Hold'em street and returns the seat from which
// to look for the first to act.
func (h *Hand) nextStreet() int {
	if !h.runOut && !h.bettingOpen() {
		h.runOut = true
		// Run it twice when every seat still in agreed.
		h.twice = h.s.runTwice != 0 && h.live&^h.s.runTwice == 0
		h.runFrom = h.nBoard
	}
	h.street++
	h.aggressor = NoSeat
	h.emit(EvStreet, NoSeat)
	h.emitCard(EvBurn, NoSeat, h.draw())
	n := 1
	if h.street == Flop {
		n = 3
	}
	dealt := noCards
	for k := 0; k < n; k++ {
		dealt[k] = h.draw()
		h.board[h.nBoard] = dealt[k]
		h.nBoard++
	}
	h.emitCards(EvBoard, NoSeat, n, dealt[0], dealt[1], dealt[2]) // NoCard past n
	return h.s.button + 1
}

// bettingOpen reports whether at least two live seats may still bet.
func (h *Hand) bettingOpen() bool { return h.nCanAct >= 2 }

// startStud takes the antes, deals each player a hole card and an up card, and opens
// round one with the highest up card.
func (h *Hand) startStud() {
	btn := h.s.button
	first := h.nextLive(btn)
	for i := first; ; {
		h.emitChips(EvAnte, i, h.post(i, h.s.ante, false), 0, false)
		if i = h.nextLive(i); i == first {
			break
		}
	}
	for r := 0; r < 2; r++ {
		for i := first; ; {
			h.seats[i].cards[r] = h.draw()
			h.seats[i].ncards++
			if i = h.nextLive(i); i == first {
				break
			}
		}
	}
	for i := first; ; {
		h.emitCard(EvHoleCards, i, h.seats[i].cards[0])
		if i = h.nextLive(i); i == first {
			break
		}
	}
	opener, best := NoSeat, -1
	for i := first; ; {
		c := h.seats[i].cards[1]
		h.emitCard(EvUpCard, i, c)
		if int(c) > best {
			opener, best = i, int(c)
		}
		if i = h.nextLive(i); i == first {
			break
		}
	}
	h.street = StudOne
	h.emit(EvStreet, NoSeat)
	h.advance(opener)
}

// startStudTwo deals the second up card to every remaining player and returns the
// opener of round two: the best showing two cards.
func (h *Hand) startStudTwo() int {
	h.street = StudTwo
	h.aggressor = NoSeat
	first := h.nextLive(h.s.button)
	opener, best := NoSeat, -1
	for i := first; ; {
		s := &h.seats[i]
		s.cards[2] = h.draw()
		s.ncards++
		h.emitCard(EvUpCard, i, s.cards[2])
		if k := showingKey(s.cards[1], s.cards[2]); k > best {
			opener, best = i, k
		}
		if i = h.nextLive(i); i == first {
			break
		}
	}
	h.emit(EvStreet, NoSeat)
	return opener
}

// showingKey orders two up cards as RULES.md says round two is opened: a pair beats
// high card, then the ranks high to low, then the suit of the highest card. No two
// different holdings tie, since the highest cards differ.
func showingKey(a, b cards.Card) int {
	if a < b {
		a, b = b, a // a is now the higher card: higher rank, or same rank and higher suit
	}
	k := int(a.Rank())<<8 | int(b.Rank())<<4 | int(a.Suit())
	if a.Rank() == b.Rank() {
		k |= 1 << 12
	}
	return k
}
