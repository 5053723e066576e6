package blueprint

import (
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/cfr"
)

// The boards whose buckets a Blueprint keeps: by board as asked (the slice
// Buckets returns), and by board up to a renaming of the suits (what
// cfr.Abstraction.BoardBuckets computed, about 30 ms of CPU a flop). A flop is one
// of 1,755 up to the suits (22,100 as dealt), so the second holds them all (2.3 MB);
// past either bound, all of that cache are dropped.
const (
	maxBoardCache = 256
	maxSuitCache  = 2048
)

// suitPerms are the 24 renamings of the four suits: suitPerms[i][s] is suit s's new
// name.
var suitPerms = func() (out [24][cards.NumSuits]cards.Suit) {
	i := 0
	var gen func(k int, used uint8, p [cards.NumSuits]cards.Suit)
	gen = func(k int, used uint8, p [cards.NumSuits]cards.Suit) {
		if k == cards.NumSuits {
			out[i] = p
			i++
			return
		}
		for s := range cards.Suit(cards.NumSuits) {
			if used&(1<<s) == 0 {
				p[k] = s
				gen(k+1, used|1<<s, p)
			}
		}
	}
	gen(0, 0, [cards.NumSuits]cards.Suit{})
	return out
}()

// rename returns c with its suit renamed by p.
func rename(c cards.Card, p *[cards.NumSuits]cards.Suit) cards.Card {
	return cards.New(c.Rank(), p[c.Suit()])
}

// canonical returns the board's representative up to a renaming of the suits (of
// every renaming's set of cards, the smallest as a mask: a board's buckets do not
// depend on the order of its cards) and the renaming that gives it.
func canonical(board []cards.Card) (cards.Set, *[cards.NumSuits]cards.Suit) {
	best, bestP := cards.Set(0), &suitPerms[0]
	for i := range suitPerms {
		p := &suitPerms[i]
		var set cards.Set
		for _, c := range board {
			set = set.Add(rename(c, p))
		}
		if i == 0 || set < best {
			best, bestP = set, p
		}
	}
	return best, bestP
}

// Buckets returns the bucket of every two-card hand (by cfr.HandIndex) with the
// board dealt so far. The buckets are computed once per board up to a renaming of
// the suits (cfr.Abstraction.BoardBuckets, tens of milliseconds on the flop; the
// abstraction rates hands by suit-blind equities, so a renamed board gives each
// renamed hand the same bucket) and kept, the board as asked kept too. The slice
// is shared: do not change it.
func (bp *Blueprint) Buckets(board []cards.Card) ([]uint8, error) {
	key := cards.Format(board)
	bp.mu.Lock()
	b, ok := bp.buckets[key]
	bp.mu.Unlock()
	if ok {
		return b, nil
	}
	canon, p := canonical(board)
	bp.mu.Lock()
	of, ok := bp.bySuits[canon]
	bp.mu.Unlock()
	if !ok {
		var err error
		if of, err = bp.abs.BoardBuckets(canon.Cards()); err != nil {
			return nil, err
		}
		bp.mu.Lock()
		bp.computed++
		if bp.bySuits == nil || len(bp.bySuits) >= maxSuitCache {
			bp.bySuits = map[cards.Set][]uint8{}
		}
		bp.bySuits[canon] = of
		bp.mu.Unlock()
	}
	b = make([]uint8, cfr.NumHands)
	for c2 := cards.Card(1); c2 < cards.NumCards; c2++ {
		for c1 := range c2 {
			b[cfr.HandIndex(c1, c2)] = of[cfr.HandIndex(rename(c1, p), rename(c2, p))]
		}
	}
	bp.mu.Lock()
	if bp.buckets == nil || len(bp.buckets) >= maxBoardCache {
		bp.buckets = map[string][]uint8{}
	}
	bp.buckets[key] = b
	bp.mu.Unlock()
	return b, nil
}
