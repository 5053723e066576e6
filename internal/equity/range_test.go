package equity

import (
	"errors"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

func TestParseRangeCounts(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"QQ+", 18}, {"AKs", 4}, {"AKo", 12}, {"AK", 16}, {"22-55", 24}, {"55-22", 24},
		{"random", 1326}, {"any", 1326}, {"ATo+", 48}, {"A2s+", 48}, {"KTs-K7s", 16},
		{"K7s-KTs", 16}, {"KQ", 16}, {"KA", 16}, {"aks", 4}, {"AKS", 4}, {"T9s+", 4},
		{"1010", 6}, {"AhKh", 1}, {"10h10s", 1}, {"QQ+,AKs", 22}, {"QQ+, AK", 34},
		{"QQ+ AKs AKo", 34}, {"22+", 78}, {"AA,AA", 6}, {"QQ+,AA:0", 12}, {"AKs:0.5", 4},
		{"random,AhKh:0.5", 1326}, {"AhKh,AKs", 4},
	} {
		r, err := ParseRange(tc.in)
		if err != nil {
			t.Errorf("ParseRange(%q): %v", tc.in, err)
			continue
		}
		if r.Len() != tc.want {
			t.Errorf("ParseRange(%q) has %d combos, want %d", tc.in, r.Len(), tc.want)
		}
		seen := map[[2]cards.Card]bool{}
		for _, c := range r.Combos() {
			if c.Cards[0] <= c.Cards[1] || !c.Cards[0].Valid() || seen[c.Cards] {
				t.Errorf("ParseRange(%q): bad or repeated combo %v", tc.in, c)
			}
			seen[c.Cards] = true
		}
	}
}

func TestParseRangeClasses(t *testing.T) {
	r := MustParseRange("ATo+")
	for _, c := range r.Combos() {
		if c.Cards[0].Rank() != cards.Ace || c.Cards[1].Rank() < cards.Ten || c.Cards[1].Rank() == cards.Ace || c.Cards[0].Suit() == c.Cards[1].Suit() {
			t.Errorf("ATo+ holds %v", c)
		}
	}
	r = MustParseRange("KTs-K7s")
	for _, c := range r.Combos() {
		if c.Cards[0].Rank() != cards.King || c.Cards[1].Rank() < cards.Seven || c.Cards[1].Rank() > cards.Ten || c.Cards[0].Suit() != c.Cards[1].Suit() {
			t.Errorf("KTs-K7s holds %v", c)
		}
	}
	if got := MustParseRange("AhKh").Combos()[0].String(); got != "AhKh" {
		t.Errorf("AhKh parsed as %s", got)
	}
	if got := MustParseRange(" QQ+ ").String(); got != "QQ+" {
		t.Errorf("String() = %q", got)
	}
}

func TestParseRangeWeights(t *testing.T) {
	r := MustParseRange("QQ+,AA:0.5")
	for _, c := range r.Combos() {
		want := 1.0
		if c.Cards[0].Rank() == cards.Ace {
			want = 0.5
		}
		if c.Weight != want {
			t.Errorf("%v has weight %v, want %v", c, c.Weight, want)
		}
	}
	if w := MustParseRange("AhKh:0.25").Combos()[0].Weight; w != 0.25 {
		t.Errorf("AhKh:0.25 weight %v", w)
	}
}

func TestParseRangeErrors(t *testing.T) {
	for _, in := range []string{
		"", " , ", "QQs", "AKx", "Kx", "AAA", "22-AKs", "KTs-Q7s", "KTs-K7o", "AKs:2", "AKs:-1",
		"AKs:x", "AKs:NaN", "AhAh", "Zz", "AK:0", "AhKhQh", "QQ-", "A", "AKs+s",
	} {
		_, err := ParseRange(in)
		if err == nil {
			t.Errorf("ParseRange(%q) accepted", in)
			continue
		}
		if !errors.Is(err, ErrBadRange) {
			t.Errorf("ParseRange(%q) error %v does not wrap ErrBadRange", in, err)
		}
		bad := strings.TrimSpace(strings.Split(in, ",")[0])
		if !strings.Contains(err.Error(), bad) {
			t.Errorf("ParseRange(%q) error %q does not name the token", in, err)
		}
	}
}
