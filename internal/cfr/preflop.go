package cfr

import (
	"math/rand/v2"
	"slices"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/eval"
)

// preflopEquityBoards is the number of random boards on which preflopGroups rates
// each starting hand.
const preflopEquityBoards = 256

// preflopGroups groups the 169 starting hands (numbered by pre, a HandIndexer(2))
// into k buckets: each hand's equity against a random hand is estimated as its
// mean river strength over preflopEquityBoards random boards (a PCG stream seeded
// by seed), and the hands, weakest first, are cut into k runs of about 1326/k
// two-card combinations each. It returns each starting hand's bucket.
func preflopGroups(pre *HandIndexer, k int, seed uint64) []uint8 {
	type class struct {
		rep    [2]cards.Card
		combos int
		equity float64
	}
	classes := make([]class, PreflopBuckets)
	for c2 := cards.Card(1); c2 < cards.NumCards; c2++ {
		for c1 := cards.Card(0); c1 < c2; c1++ {
			cl := &classes[pre.Index([]cards.Card{c1, c2})]
			if cl.combos == 0 {
				cl.rep = [2]cards.Card{c1, c2}
			}
			cl.combos++
		}
	}
	r := rand.New(rand.NewPCG(seed, 0x9f1f))
	var deck [cards.NumCards]cards.Card
	for i := range classes {
		cl := &classes[i]
		n := 0
		for c := range cards.Card(cards.NumCards) {
			if c != cl.rep[0] && c != cl.rep[1] {
				deck[n] = c
				n++
			}
		}
		sum := 0
		for range preflopEquityBoards {
			for j := range 5 {
				x := j + r.IntN(n-j)
				deck[j], deck[x] = deck[x], deck[j]
			}
			sum += strengthOf(cl.rep, (*[5]cards.Card)(deck[:5]))
		}
		cl.equity = float64(sum) / preflopEquityBoards / StrengthScale
	}
	order := make([]int, PreflopBuckets)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case classes[a].equity < classes[b].equity:
			return -1
		case classes[a].equity > classes[b].equity:
			return 1
		}
		return 0
	})
	out := make([]uint8, PreflopBuckets)
	done := 0
	for _, i := range order {
		c := classes[i].combos
		out[i] = uint8(min((2*done+c)*k/(2*numPairs), k-1))
		done += c
	}
	return out
}

// A boardBucketer buckets every hole of a board at once, faster than DealBuckets
// two holes at a time.
type boardBucketer interface {
	boardBuckets(board *[5]cards.Card, holes [][2]cards.Card, out [][4]uint8)
}

// boardBuckets writes each hole's bucket in every round on board into out; the
// river strengths of all hands on the board are computed at once.
func (a *Abstraction) boardBuckets(board *[5]cards.Card, holes [][2]cards.Card, out [][4]uint8) {
	s := newBoardScratch()
	s.boardStrengths(board)
	for i, h := range holes {
		out[i][0] = uint8(a.preflopBucket(h[:]))
		out[i][1] = uint8(a.Bucket(h, board[:3]))
		out[i][2] = uint8(a.Bucket(h, board[:4]))
		out[i][3] = uint8(a.riverBucket(int(s.hs[pairIndex(h[0], h[1])])))
	}
}

// bucketBoard writes each hole's buckets on board into out, all at once when bk
// can, else two holes at a time.
func bucketBoard(bk Bucketer, board *[5]cards.Card, holes [][2]cards.Card, out [][4]uint8) {
	if bb, ok := bk.(boardBucketer); ok {
		bb.boardBuckets(board, holes, out)
		return
	}
	for i := 0; i < len(holes); i += 2 {
		j := min(i+1, len(holes)-1)
		b := bk.DealBuckets(&[2][2]cards.Card{holes[i], holes[j]}, board)
		out[i], out[j] = b[0], b[1]
	}
}

// handRank returns the rank of hole with board.
func handRank(hole [2]cards.Card, board *[5]cards.Card) eval.Rank {
	b := eval.Empty.Add(hole[0]).Add(hole[1])
	for _, c := range board {
		b = b.Add(c)
	}
	return b.Rank()
}
