package eval

import (
	"math/bits"
	"slices"

	"github.com/felt-poker/felt/internal/cards"
)

// The perfect hash from a hand's index (its key's top 25 bits: the card count less 5
// above the 23-bit rank sum) to a rankTable slot: the index's row, its bits from
// rowShift up, picks an offset, and the index plus the offset, modulo tableSize, is the
// slot (row displacement: each row of sums is slid along the table to where its sums
// fall on free slots). The rows are narrow and placed in order, so that nearby sums
// keep nearby slots and the seven-card sums fill one stretch of the table. Built once
// at init.
const (
	rowShift  = 9
	tableSize = 1 << 17
)

var (
	rankTable [tableSize]Rank
	flushRank [1 << 13]Rank
)

// class is a hand's value before numbering: its category and up to five tie-break
// ranks, most significant first.
type class struct {
	cat Category
	tb  [5]cards.Rank
	n   int
}

func (c class) less(o class) bool {
	if c.cat != o.cat {
		return c.cat < o.cat
	}
	for i := 0; i < c.n && i < o.n; i++ {
		if c.tb[i] != o.tb[i] {
			return c.tb[i] < o.tb[i]
		}
	}
	return false
}

// straightTop returns the top rank of the best straight in a 13-bit rank mask, or -1.
func straightTop(m uint16) int {
	wheel := m<<1 | m>>12&1 // ace also plays low, below the two
	for top := 12; top >= 3; top-- {
		if w := uint16(0x1f) << (top - 3); wheel&w == w {
			return top
		}
	}
	return -1
}

// nonFlushClass returns the best hand class for a multiset of ranks (counts per rank)
// ignoring suits: a hand with no flush.
func nonFlushClass(counts *[cards.NumRanks]int) class {
	var present uint16
	byCount := [5][]cards.Rank{} // ranks with each count, highest first
	for r := cards.NumRanks - 1; r >= 0; r-- {
		if counts[r] > 0 {
			present |= 1 << r
			byCount[counts[r]] = append(byCount[counts[r]], cards.Rank(r))
		}
	}
	// kickers returns the n highest ranks present other than those excluded.
	kickers := func(n int, exclude ...cards.Rank) []cards.Rank {
		var out []cards.Rank
		for r := cards.NumRanks - 1; r >= 0 && len(out) < n; r-- {
			if counts[r] > 0 && !slices.Contains(exclude, cards.Rank(r)) {
				out = append(out, cards.Rank(r))
			}
		}
		return out
	}
	mk := func(cat Category, rs ...cards.Rank) class {
		c := class{cat: cat, n: len(rs)}
		copy(c.tb[:], rs)
		return c
	}
	if len(byCount[4]) > 0 {
		q := byCount[4][0]
		return mk(FourOfAKind, append([]cards.Rank{q}, kickers(1, q)...)...)
	}
	trips := byCount[3]
	pairs := append(slices.Clone(byCount[3]), byCount[2]...) // a second trips plays as a pair
	slices.SortFunc(pairs, func(a, b cards.Rank) int { return int(b) - int(a) })
	if len(trips) > 0 {
		for _, p := range pairs {
			if p != trips[0] {
				return mk(FullHouse, trips[0], p)
			}
		}
	}
	if top := straightTop(present); top >= 0 {
		return mk(Straight, cards.Rank(top))
	}
	if len(trips) > 0 {
		return mk(ThreeOfAKind, append([]cards.Rank{trips[0]}, kickers(2, trips[0])...)...)
	}
	if len(pairs) >= 2 {
		return mk(TwoPair, append([]cards.Rank{pairs[0], pairs[1]}, kickers(1, pairs[0], pairs[1])...)...)
	}
	if len(pairs) == 1 {
		return mk(OnePair, append([]cards.Rank{pairs[0]}, kickers(3, pairs[0])...)...)
	}
	return mk(HighCard, kickers(5)...)
}

// flushClass returns the best hand class of suited cards with the ranks in m (at
// least five).
func flushClass(m uint16) class {
	if top := straightTop(m); top >= 0 {
		return class{cat: StraightFlush, tb: [5]cards.Rank{cards.Rank(top)}, n: 1}
	}
	c := class{cat: Flush, n: 5}
	for r, i := cards.NumRanks-1, 0; i < 5; r-- {
		if m&(1<<r) != 0 {
			c.tb[i] = cards.Rank(r)
			i++
		}
	}
	return c
}

// numbering assigns each distinct 5-card class its Rank.
type numbering map[class]Rank

func buildNumbering() numbering {
	var all []class
	seen := map[class]bool{}
	add := func(c class) {
		if !seen[c] {
			seen[c] = true
			all = append(all, c)
		}
	}
	forEachMultiset(5, func(counts *[cards.NumRanks]int) { add(nonFlushClass(counts)) })
	for m := uint16(0); m < 1<<13; m++ {
		if bits.OnesCount16(m) == 5 {
			add(flushClass(m))
		}
	}
	slices.SortFunc(all, func(a, b class) int {
		switch {
		case a.less(b):
			return -1
		case b.less(a):
			return 1
		}
		return 0
	})
	num := numbering{}
	ord := 0
	for i, c := range all {
		if i == 0 || all[i-1].cat != c.cat {
			ord = 0
		}
		ord++
		num[c] = Rank(c.cat)<<12 | Rank(ord)
	}
	return num
}

// forEachMultiset calls f with the rank counts of every multiset of n ranks in which
// no rank appears more than four times.
func forEachMultiset(n int, f func(*[cards.NumRanks]int)) {
	var counts [cards.NumRanks]int
	var rec func(r, left int)
	rec = func(r, left int) {
		if r == cards.NumRanks {
			if left == 0 {
				f(&counts)
			}
			return
		}
		for k := 0; k <= 4 && k <= left; k++ {
			counts[r] = k
			rec(r+1, left-k)
		}
		counts[r] = 0
	}
	rec(0, n)
}

// rankSumOf returns the rank sum (see rankMul) of a multiset of ranks.
func rankSumOf(counts *[cards.NumRanks]int) uint64 {
	var sum uint64
	for r, k := range counts {
		sum += uint64(k) * rankMul[r]
	}
	return sum
}

// indexOf returns the index (the key's top 25 bits) of a hand of 5 to 7 cards with
// the ranks counts.
func indexOf(counts *[cards.NumRanks]int) uint64 {
	n := 0
	for _, k := range counts {
		n += k
	}
	return uint64(n+3)&3<<sumBits | rankSumOf(counts)
}

// nonFlushKeys returns the indexes (see indexOf) of every multiset of 5, 6 and 7 ranks
// and, when num is not nil, their ranks.
func nonFlushKeys(num numbering) (sums []uint64, vals []Rank) {
	for n := 5; n <= 7; n++ {
		forEachMultiset(n, func(counts *[cards.NumRanks]int) {
			sums = append(sums, indexOf(counts))
			if num != nil {
				vals = append(vals, num[nonFlushClass(counts)])
			}
		})
	}
	return sums, vals
}

func init() {
	num := buildNumbering()
	for m := uint16(0); m < 1<<13; m++ {
		if bits.OnesCount16(m) >= 5 {
			flushRank[m] = num[flushClass(m)]
		}
	}
	// rowOffset (rowoffset.go) was made by placeRows; it puts every sum in a slot of its
	// own, checked here at every start.
	sums, vals := nonFlushKeys(num)
	var used [tableSize]bool
	for i, sum := range sums {
		slot := (uint32(sum) + rowOffset[sum>>rowShift]) & (tableSize - 1)
		if used[slot] {
			if rowOffset == ([len(rowOffset)]uint32{}) {
				break // no offsets yet: rowoffset.go is being regenerated (TestRowOffsets -update)
			}
			panic("eval: two rank sums share a slot; regenerate rowoffset.go")
		}
		used[slot] = true
		rankTable[slot] = vals[i]
		tableEnd = max(tableEnd, int(slot)+1)
	}
}

// tableEnd is one past the last rankTable slot in use.
var tableEnd int

// placeRows computes rowOffset by row displacement: first fit, row by row in order,
// each row of sums slid along the table to where all its sums fall on free slots. Its
// result is kept in rowoffset.go (TestRowOffsets regenerates it with -update).
func placeRows(sums []uint64) (offsets [len(rowOffset)]uint32) {
	const width = 1 << rowShift
	rows := make([][]int, len(rowOffset))
	for i, s := range sums {
		rows[s>>rowShift] = append(rows[s>>rowShift], i)
	}
	used := make([]bool, tableSize+width)
	free := 0 // every slot below free is used
	for row, members := range rows {
		if len(members) == 0 {
			continue
		}
		for used[free] {
			free++
		}
		lowest := width
		for _, i := range members {
			lowest = min(lowest, int(sums[i]&(width-1)))
		}
		o := max(0, free-lowest)
	try:
		for ; ; o++ {
			for _, i := range members {
				if used[o+int(sums[i]&(width-1))] {
					continue try
				}
			}
			break
		}
		for _, i := range members {
			slot := o + int(sums[i]&(width-1))
			if slot >= tableSize {
				panic("eval: the rank table is too small")
			}
			used[slot] = true
		}
		// sum + offset = o + sum mod width, modulo tableSize
		offsets[row] = uint32(o-row*width) & (tableSize - 1)
	}
	return offsets
}
