package bot

import (
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/cfr"
)

// cfrBoards is how many boards a cfr bot keeps buckets for: a hand's flop, turn
// and river, and the board before them.
const cfrBoards = 4

// cfrBuckets computes a cfr bot's buckets in its abstraction, keeping the last
// few boards' (a fixed ring of cfrBoards, so memory stays bounded however many
// hands are played). On a board it first rates the one hand it is asked about
// (Abstraction.Bucket: a few milliseconds on the flop); asked about a second
// hand on the same board — felt lbr asks about all 1,326 at each decision — it
// rates every hand at once (Abstraction.BoardBuckets: tens of milliseconds on the
// flop) and then answers each by an index. Before the flop it asks the
// abstraction directly (an index). Like its bot, it is not safe for concurrent
// use.
type cfrBuckets struct {
	a     *cfr.Abstraction
	rings [cfrBoards]cfrBoard
	next  int // the entry of rings replaced next
}

// cfrBoard is the buckets known on one board.
type cfrBoard struct {
	board [5]cards.Card
	n     int // cards of board dealt: 3, 4 or 5; 0 when the entry is empty
	// hole, when all is nil, is the one hand rated, in bucket one.
	hole [2]cards.Card
	one  int
	all  []uint8 // every hand's bucket, by cfr.HandIndex, or nil
}

// bucket returns the bucket of hole with board (0, 3, 4 or 5 cards), or false
// when the cards are no deal's: a card that is not one of the 52, or one seen
// twice.
func (c *cfrBuckets) bucket(hole [2]cards.Card, board []cards.Card) (int, bool) {
	switch {
	case len(board) != 0 && (len(board) < 3 || len(board) > 5) || !distinctCards(hole, board):
		return 0, false
	case len(board) == 0:
		return c.a.Bucket(hole, nil), true
	}
	e := c.find(board)
	switch {
	case e == nil:
		e = &c.rings[c.next]
		c.next = (c.next + 1) % cfrBoards
		*e = cfrBoard{board: boardKey(board), n: len(board), hole: hole, one: c.a.Bucket(hole, board)}
		return e.one, true
	case e.all == nil && e.hole == hole:
		return e.one, true
	case e.all == nil:
		all, err := c.a.BoardBuckets(board)
		if err != nil {
			return 0, false
		}
		e.all = all
	}
	return int(e.all[cfr.HandIndex(hole[0], hole[1])]), true
}

// find returns the entry of board, or nil.
func (c *cfrBuckets) find(board []cards.Card) *cfrBoard {
	for i := range c.rings {
		e := &c.rings[i]
		if e.n == len(board) && e.board == boardKey(board) {
			return e
		}
	}
	return nil
}

// boardKey is board in a fixed-size array, zero past its cards.
func boardKey(board []cards.Card) (k [5]cards.Card) {
	copy(k[:], board)
	return k
}

// distinctCards reports whether hole and board are valid cards, none twice.
func distinctCards(hole [2]cards.Card, board []cards.Card) bool {
	var seen uint64
	for _, cs := range [2][]cards.Card{hole[:], board} {
		for _, x := range cs {
			if !x.Valid() || seen&(1<<x) != 0 {
				return false
			}
			seen |= 1 << x
		}
	}
	return true
}
