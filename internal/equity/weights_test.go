package equity

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

// TestWeightsMatchRange: a weight list written from a parsed range reads back as the
// same combos and weights, and the order is the documented one.
func TestWeightsMatchRange(t *testing.T) {
	if i := ComboIndex(cards.MustParse("2d"), cards.MustParse("2c")); i != 0 {
		t.Errorf("2d2c at %d, want 0", i)
	}
	if i := ComboIndex(cards.MustParse("3c"), cards.MustParse("2c")); i != 6 {
		t.Errorf("3c2c at %d, want 6", i)
	}
	if i := ComboIndex(cards.MustParse("Ah"), cards.MustParse("As")); i != NumCombos-1 {
		t.Errorf("AsAh at %d, want %d", i, NumCombos-1)
	}
	want := MustParseRange("QQ+,AKs:0.5,T9s:0.25,AhKd")
	w := make([]string, NumCombos)
	for i := range w {
		w[i] = "0"
	}
	for _, c := range want.Combos() {
		w[ComboIndex(c.Cards[0], c.Cards[1])] = strconv.FormatFloat(c.Weight, 'g', -1, 64)
	}
	got, err := ParseWeights("# a range\n" + strings.Join(w[:600], " ") + "\n" + strings.Join(w[600:], ",") + "\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Combos()) != len(want.Combos()) {
		t.Fatalf("%d combos, want %d", len(got.Combos()), len(want.Combos()))
	}
	for i, c := range got.Combos() {
		if c != want.Combos()[i] {
			t.Errorf("combo %d: %v, want %v", i, c, want.Combos()[i])
		}
	}
}

func TestWeightsErrors(t *testing.T) {
	zeros := strings.Repeat("0 ", NumCombos)
	for name, text := range map[string]string{
		"short":    "1 0.5 0",
		"long":     zeros + "1",
		"all zero": zeros,
		"word":     "x" + zeros[1:],
		"above 1":  "1.5" + zeros[1:],
		"negative": "-1" + zeros[1:],
		"NaN":      "NaN" + zeros[1:],
	} {
		if _, err := ParseWeights(text); !errors.Is(err, ErrBadRange) {
			t.Errorf("%s: err = %v, want ErrBadRange", name, err)
		}
	}
}

// FuzzParseWeights: no text makes the weight reader panic; what it accepts has
// weights from 0 to 1.
func FuzzParseWeights(f *testing.F) {
	f.Add("1 0 0.5\n# comment\n0,1")
	f.Add(strings.Repeat("0.25 ", NumCombos))
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseWeights(s)
		if err != nil {
			return
		}
		for _, c := range r.Combos() {
			if !(c.Weight > 0 && c.Weight <= 1) {
				t.Fatalf("combo %v has weight %v", c, c.Weight)
			}
		}
	})
}
