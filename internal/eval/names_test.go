package eval

import (
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

func TestNamesAndBestFive(t *testing.T) {
	for _, tc := range []struct{ in, name, five string }{
		{"KhKdKs4c4d2h9s", "Full house, kings full of fours", "KsKhKd4d4c"},
		{"AhKhQhJhTh2c3d", "Royal flush", "AhKhQhJhTh"},
		{"5d4d3d2dAd", "Straight flush, five high", "5d4d3d2dAd"},
		{"9c9d9h9s2c", "Four of a kind, nines", "9s9h9d9c2c"},
		{"Ah9h5h3h2hKc", "Flush, ace high", "Ah9h5h3h2h"},
		{"Ts9c8d7h6s2c2d", "Straight, ten high", "Ts9c8d7h6s"},
		{"Ad2c3h4s5dKcKd", "Straight, five high", "5d4s3h2cAd"},
		{"7c7d7hAsKd", "Three of a kind, sevens", "7h7d7cAsKd"},
		{"AcAd8h8s3c3dKh", "Two pair, aces and eights", "AdAc8s8hKh"},
		{"QcQd9h5s2c", "One pair, queens", "QdQc9h5s2c"},
		{"6c6d9h5s2c", "One pair, sixes", "6d6c9h5s2c"},
		{"AcJd9h5s2c", "High card, ace", "AcJd9h5s2c"},
	} {
		r, five := Best(cards.MustParseList(tc.in))
		if r.String() != tc.name {
			t.Errorf("%s: name %q, want %q", tc.in, r, tc.name)
		}
		if got := cards.Format(five[:]); got != tc.five {
			t.Errorf("%s: best five %s, want %s", tc.in, got, tc.five)
		}
	}
}

func TestCategoryNames(t *testing.T) {
	if FullHouse.String() != "Full house" || Category(42).String() != "?" || Rank(0).String() != "no hand" {
		t.Fatal("category names wrong")
	}
}

func TestStud(t *testing.T) {
	order := []string{
		"2c3d5h", "2c4d5h", "Jc9d2h", "AcKdQh", // high cards, ascending
		"2c2d3h", "2h2s4c", "3c3d2h", "AcAd2h", "AhAsKc", // pairs: pair rank, then odd card
		"2c2d2h", "Ac Ad Ah", // trips
	}
	var prev StudRank
	for i, s := range order {
		cs := cards.MustParseList(s)
		r := Stud(cs[0], cs[1], cs[2])
		if i > 0 && r <= prev {
			t.Errorf("%s (%v) does not beat the hand before it (%v)", s, r, prev)
		}
		if q := Stud(cs[2], cs[0], cs[1]); q != r {
			t.Errorf("%s: order of cards changes the value", s)
		}
		prev = r
	}
	// Suits never matter, equal hands split.
	a, b := cards.MustParseList("KcQd2h"), cards.MustParseList("KsQh2c")
	if Stud(a[0], a[1], a[2]) != Stud(b[0], b[1], b[2]) {
		t.Error("equal stud hands differ")
	}
	for _, tc := range []struct{ in, name string }{
		{"7c7d7h", "Three of a kind, sevens"},
		{"KcKdAh", "One pair, kings, ace kicker"},
		{"Ac9d2h", "High card, ace, nine, two"},
		{"5s4s3s", "High card, five, four, three"}, // no straights or flushes
	} {
		cs := cards.MustParseList(tc.in)
		if got := Stud(cs[0], cs[1], cs[2]).String(); got != tc.name {
			t.Errorf("%s: %q, want %q", tc.in, got, tc.name)
		}
	}
}
