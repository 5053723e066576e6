package cards

import (
	crand "crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// Seed is the 32-byte key of a ChaCha8 stream; a deck shuffled from the same seed
// always deals the same cards in the same order.
type Seed [32]byte

// RandomSeed draws a seed from crypto/rand, as live tables do.
func RandomSeed() Seed {
	var s Seed
	_, _ = crand.Read(s[:]) // crypto/rand.Read never returns an error (Go 1.24+)
	return s
}

// SeedFromUint64 expands a small number (a --seed flag) into a seed.
func SeedFromUint64(n uint64) Seed {
	var s Seed
	binary.LittleEndian.PutUint64(s[:], n)
	return s
}

// String writes the seed as 64 hexadecimal digits.
func (s Seed) String() string { return hex.EncodeToString(s[:]) }

// ParseSeed reads a seed written by String, or a decimal number as SeedFromUint64 takes.
func ParseSeed(text string) (Seed, error) {
	var s Seed
	if len(text) == 64 {
		if _, err := hex.Decode(s[:], []byte(text)); err == nil {
			return s, nil
		}
	}
	var n uint64
	if _, err := fmt.Sscan(text, &n); err == nil && fmt.Sprint(n) == text {
		return SeedFromUint64(n), nil
	}
	return s, fmt.Errorf("bad seed %q: want a decimal number or 64 hexadecimal digits", text)
}

// Deck deals cards in an order fixed by its seed. It draws lazily: each Deal picks
// uniformly among the cards not yet dealt (a Fisher-Yates shuffle done one step per
// card), so dealing a hand of Hold'em costs only the cards it uses.
// The zero Deck is not usable; call NewDeck.
type Deck struct {
	src   rand.ChaCha8
	rng   *rand.Rand
	cards [NumCards]Card
	next  int // cards[:next] have been dealt
	size  int // cards[next:size] may still be dealt
}

// NewDeck returns a full deck shuffled by seed.
func NewDeck(seed Seed) *Deck {
	d := &Deck{}
	d.rng = rand.New(&d.src)
	d.Reset(seed)
	return d
}

// Reset gathers all 52 cards and starts a new shuffle from seed. It does not allocate.
func (d *Deck) Reset(seed Seed) {
	d.src.Seed(seed)
	d.ResetKeep(0)
}

// ResetKeep gathers all cards except those in dead, to be dealt in the order of the
// current stream (it does not reseed).
func (d *Deck) ResetKeep(dead Set) {
	if dead == 0 {
		d.cards = fullDeck
		d.next, d.size = 0, NumCards
		return
	}
	n := 0
	for c := Card(0); c < NumCards; c++ {
		if !dead.Has(c) {
			d.cards[n] = c
			n++
		}
	}
	d.next, d.size = 0, n
}

// Left returns how many cards may still be dealt.
func (d *Deck) Left() int { return d.size - d.next }

// Deal returns the next card. It panics if the deck is empty: callers deal at most
// 52 cards per hand, and running out is a bug.
func (d *Deck) Deal() Card {
	if d.next >= d.size {
		panic("cards: deal from an empty deck")
	}
	j := d.next + d.intN(d.size-d.next)
	d.cards[d.next], d.cards[j] = d.cards[j], d.cards[d.next]
	c := d.cards[d.next]
	d.next++
	return c
}

// fullDeck is every card in index order, as ResetKeep(0) gathers them.
var fullDeck = func() (d [NumCards]Card) {
	for c := range d {
		d[c] = Card(c)
	}
	return d
}()

const is32bit = ^uint(0)>>32 == 0

// intN returns d.rng.IntN(n) for 0 < n: the same number from the same stream, since
// the deck order for a seed is fixed (TestDeckGolden). On 64-bit platforms it reads the
// ChaCha8 source directly, with math/rand/v2's Lemire reduction, so that nothing goes
// through the rand.Source interface; elsewhere it asks d.rng.
func (d *Deck) intN(n int) int {
	if is32bit {
		return d.rng.IntN(n)
	}
	u := uint64(n)
	if u&(u-1) == 0 {
		return int(d.src.Uint64() & (u - 1))
	}
	hi, lo := bits.Mul64(d.src.Uint64(), u)
	if lo < u {
		thresh := -u % u
		for lo < thresh {
			hi, lo = bits.Mul64(d.src.Uint64(), u)
		}
	}
	return int(hi)
}

// DealTo deals len(dst) cards into dst, in the order that as many calls of Deal
// would return them, and reports false (dealing nothing) if fewer are left.
func (d *Deck) DealTo(dst []Card) bool {
	if len(dst) > d.size-d.next {
		return false
	}
	next := d.next
	for k := range dst {
		j := next + d.intN(d.size-next)
		c := d.cards[j]
		d.cards[j] = d.cards[next]
		d.cards[next] = c
		dst[k] = c
		next++
	}
	d.next = next
	return true
}

// Dealt returns the cards dealt since the last reset, in order.
func (d *Deck) Dealt() []Card { return d.cards[:d.next:d.next] }

// Shuffled returns the whole deck order for a seed: the cards a fresh deck would deal.
func Shuffled(seed Seed) []Card {
	d := NewDeck(seed)
	out := make([]Card, NumCards)
	for i := range out {
		out[i] = d.Deal()
	}
	return out
}
