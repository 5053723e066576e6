package cfr

import (
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/eval"
)

// River hand strength, the unit of felt's Hold'em card abstraction: on a complete
// board, 2 × wins + ties of a hand against every hand the 45 unseen cards can make
// (990 of them), so 0 ≤ strength ≤ StrengthScale and strength/StrengthScale is the
// hand strength HS, the share of the pot won against one uniformly random hand.
const (
	opponentHands = 990 // C(45, 2)
	// StrengthScale is the strength of a hand that beats every other.
	StrengthScale = 2 * opponentHands
)

// numPairs is the number of two-card hands, C(52, 2).
const numPairs = cards.NumCards * (cards.NumCards - 1) / 2

// pairIndex numbers the two-card hand {a, b}, a ≠ b, from 0 to numPairs−1.
func pairIndex(a, b cards.Card) int {
	if a > b {
		a, b = b, a
	}
	return int(b)*(int(b)-1)/2 + int(a)
}

// cardMask returns the set of cs as a 52-bit mask.
func cardMask(cs ...cards.Card) uint64 {
	var m uint64
	for _, c := range cs {
		m |= 1 << c
	}
	return m
}

// strengthsOn writes the river strength of each hole on board into out, evaluating
// each opponent hand once for all of them.
func strengthsOn(board *[5]cards.Card, holes [][2]cards.Card, out []int) {
	b := eval.Empty
	for _, c := range board {
		b = b.Add(c)
	}
	dead := cardMask(board[:]...)
	var mine [2]eval.Rank
	var masks [2]uint64
	for i, h := range holes {
		mine[i] = b.Add(h[0]).Add(h[1]).Rank()
		masks[i] = cardMask(h[0], h[1])
		out[i] = 0
	}
	for c1 := cards.Card(0); c1 < cards.NumCards; c1++ {
		if dead&(1<<c1) != 0 {
			continue
		}
		b1 := b.Add(c1)
		for c2 := c1 + 1; c2 < cards.NumCards; c2++ {
			if dead&(1<<c2) != 0 {
				continue
			}
			r := b1.Add(c2).Rank()
			both := uint64(1)<<c1 | uint64(1)<<c2
			for i := range holes {
				if masks[i]&both != 0 {
					continue
				}
				switch {
				case mine[i] > r:
					out[i] += 2
				case mine[i] == r:
					out[i]++
				}
			}
		}
	}
}

// strengthOf returns the river strength of one hole on board.
func strengthOf(hole [2]cards.Card, board *[5]cards.Card) int {
	var out [1]int
	strengthsOn(board, [][2]cards.Card{hole}, out[:])
	return out[0]
}

// boardScratch holds the work space of boardStrengths.
type boardScratch struct {
	keys, tmp []uint32 // rank<<12 | low card<<6 | high card, sorted by rank
	less, grp [cards.NumCards]int
	// hs[pairIndex] is the river strength of that hand on the last board
	// (meaningless for hands that share a card with the board).
	hs [numPairs]uint16
}

func newBoardScratch() *boardScratch {
	return &boardScratch{keys: make([]uint32, 0, 1081), tmp: make([]uint32, 1081)}
}

// boardStrengths fills s.hs with the river strength of every hand on board at once:
// it evaluates the 1,081 hands of the 47 unseen cards, sorts them by rank, and
// counts the weaker and equal hands of each with the ones sharing a card with it
// removed (one sweep with per-card counters).
func (s *boardScratch) boardStrengths(board *[5]cards.Card) {
	b := eval.Empty
	for _, c := range board {
		b = b.Add(c)
	}
	dead := cardMask(board[:]...)
	keys := s.keys[:0]
	for c2 := cards.Card(0); c2 < cards.NumCards; c2++ {
		if dead&(1<<c2) != 0 {
			continue
		}
		b2 := b.Add(c2)
		for c1 := cards.Card(0); c1 < c2; c1++ {
			if dead&(1<<c1) != 0 {
				continue
			}
			keys = append(keys, uint32(b2.Add(c1).Rank())<<12|uint32(c1)<<6|uint32(c2))
		}
	}
	// Radix sort by the 16-bit rank, two passes of eight bits.
	tmp := s.tmp[:len(keys)]
	for shift := 12; shift < 28; shift += 8 {
		var count [257]int
		for _, k := range keys {
			count[(k>>shift)&255+1]++
		}
		for i := 1; i < 257; i++ {
			count[i] += count[i-1]
		}
		for _, k := range keys {
			d := (k >> shift) & 255
			tmp[count[d]] = k
			count[d]++
		}
		keys, tmp = tmp, keys
	}
	s.keys, s.tmp = keys, tmp[:cap(tmp)]
	clear(s.less[:])
	below := 0
	for i := 0; i < len(keys); {
		j := i
		for j < len(keys) && keys[j]>>12 == keys[i]>>12 {
			a, c := keyCards(keys[j])
			s.grp[a]++
			s.grp[c]++
			j++
		}
		size := j - i
		for _, k := range keys[i:j] {
			a, c := keyCards(k)
			wins := below - s.less[a] - s.less[c]
			ties := size - s.grp[a] - s.grp[c] + 1
			s.hs[pairIndex(a, c)] = uint16(2*wins + ties)
		}
		for _, k := range keys[i:j] {
			a, c := keyCards(k)
			s.grp[a], s.grp[c] = 0, 0
			s.less[a]++
			s.less[c]++
		}
		below += size
		i = j
	}
}

// keyCards returns the two cards of a boardScratch key.
func keyCards(k uint32) (cards.Card, cards.Card) {
	return cards.Card(k >> 6 & 63), cards.Card(k & 63)
}

// histBin returns the histogram bin, 0..bins−1, of a river strength.
func histBin(strength, bins int) int { return strength * bins / (StrengthScale + 1) }
